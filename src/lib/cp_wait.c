/*
 * cp_wait.c - records of completion calls, starts, frees, cancels and
 * retires (contract in src/lib/cp_wait.h).
 *
 * Completion calls overwrite the caller's request handles (MPI sets them
 * to MPI_REQUEST_NULL), so cp_wait_pre snapshots them first.  Each
 * completed request is one CP_RK_ITEM record with its status words; the
 * call's own row follows as a CP_RK_DONE record that counts them.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/cp_compiler.h"
#include "src/lib/cp_fortran.h"
#include "src/lib/cp_ring.h"
#include "src/lib/cp_time.h"
#include "src/lib/cp_wait.h"

#define SCRATCH 256		/* requests snapshotted without malloc */

/* Per-thread snapshot space, grown out of line for large arrays. */
static __thread MPI_Request scratch_req[SCRATCH];
static __thread MPI_Status scratch_st[SCRATCH];
static __thread MPI_Request *big_req;
static __thread MPI_Status *big_st;
static __thread int big_n;

static CP_COLD bool grow(int n)
{
	MPI_Request *r = realloc(big_req, sizeof(*r) * (size_t)n);
	MPI_Status *s;

	if (!r)
		return false;
	big_req = r;
	s = realloc(big_st, sizeof(*s) * (size_t)n);
	if (!s)
		return false;
	big_st = s;
	big_n = n;
	return true;
}

void cp_wait_pre(struct cp_wait *w, const MPI_Request *reqs, int n,
		 MPI_Status **st, int many)
{
	MPI_Status *sts = scratch_st;

	w->n = 0;
	if (n <= 0)
		return;
	if (n == 1) {
		w->one = reqs[0];
		w->reqs = &w->one;
	} else if (n <= SCRATCH) {
		w->reqs = scratch_req;
	} else if (n <= big_n || grow(n)) {
		w->reqs = big_req;
		sts = big_st;
	} else {
		return;		/* no room: these completions go unseen */
	}
	if (n > 1)
		memcpy(w->reqs, reqs, sizeof(*reqs) * (size_t)n);
	w->n = n;
	if (!many && *st == MPI_STATUS_IGNORE)
		*st = &w->st;
	else if (many && *st == MPI_STATUSES_IGNORE)
		*st = sts;
}

/* One record of kind k in r, [t0, t1] at site. */
static struct cp_raw *rec(struct cp_ring *r, const struct cp_wait *w,
			  unsigned k, unsigned fl, uint64_t t0, uint64_t t1,
			  uintptr_t site)
{
	struct cp_raw *s = cp_claim(r, 1);

	s->w0 = CP_W0(site, w->call, k, fl | (unsigned)w->flags);
	s->t0 = t0;
	s->t1 = t1;
	return s;
}

/* Request i of the snapshot completed with status st: one record. */
static int item(struct cp_ring *r, const struct cp_wait *w, int i,
		const MPI_Status *st, uint64_t t0, uint64_t t1,
		uintptr_t site)
{
	struct cp_raw *s;

	if (i < 0 || i >= w->n || w->reqs[i] == MPI_REQUEST_NULL)
		return 0;
	s = rec(r, w, CP_RK_ITEM, 0, t0, t1, site);
	s->u.d.req = w->reqs[i];
	s->u.d.st = *st;
	s->u.d.n = 0;
	cp_commit(r, s, 1, true, true, 0);
	return 1;
}

void cp_wait_post(struct cp_ring *r, struct cp_wait *w, enum cp_done kind,
		  const int *index, const int *flag, const int *outcount,
		  const int *indices, const MPI_Status *st, uint64_t t0,
		  uint64_t t1, uintptr_t site)
{
	struct cp_raw *s;
	int i, n = 0;

	if (!w->n)
		kind = CP_DONE_NONE;
	switch (kind) {
	case CP_DONE_NONE:
		break;
	case CP_DONE_TEST:
		if (!*flag)
			break;
		/* fall through */
	case CP_DONE_ONE:
		n += item(r, w, 0, st, t0, t1, site);
		break;
	case CP_DONE_TESTALL:
		if (!*flag)
			break;
		/* fall through */
	case CP_DONE_ALL:
		for (i = 0; i < w->n; i++)
			n += item(r, w, i, &st[i], t0, t1, site);
		break;
	case CP_DONE_TESTANY:
		if (!*flag)
			break;
		/* fall through */
	case CP_DONE_ANY:
		if (*index != MPI_UNDEFINED)
			n += item(r, w, *index, st, t0, t1, site);
		break;
	case CP_DONE_SOME:
	case CP_DONE_TESTSOME:
		if (*outcount == MPI_UNDEFINED)
			break;
		for (i = 0; i < *outcount; i++)
			n += item(r, w, indices[i], &st[i], t0, t1, site);
		break;
	}
	s = rec(r, w, CP_RK_DONE, 0, t0, t1, site);
	s->u.d.req = MPI_REQUEST_NULL;
	s->u.d.n = n;
	cp_commit(r, s, 1, true, true, 0);
}

/* Fortran: handles are INTEGERs, indices count from 1, statuses are
 * CP_F_STATUS_SIZE INTEGERs each. */
void cp_wait_pre_f(struct cp_wait *w, const MPI_Fint *reqs, int n,
		   MPI_Fint **st, int many)
{
	static __thread MPI_Fint fst[SCRATCH * CP_F_STATUS_SIZE];

	w->n = 0;
	if (n <= 0)
		return;
	if (n == 1) {
		w->reqs = &w->one;
	} else if (n <= SCRATCH) {
		w->reqs = scratch_req;
	} else {
		return;		/* large Fortran arrays: not snapshotted */
	}
	for (int i = 0; i < n; i++)
		w->reqs[i] = PMPI_Request_f2c(reqs[i]);
	w->n = n;
	if ((!many && cp_f_status_ignored(*st)) ||
	    (many && cp_f_statuses_ignored(*st)))
		*st = fst;
}

void cp_wait_post_f(struct cp_ring *r, struct cp_wait *w,
		    enum cp_done kind, const MPI_Fint *index,
		    const MPI_Fint *flag, const MPI_Fint *outcount,
		    const MPI_Fint *indices, const MPI_Fint *st, uint64_t t0,
		    uint64_t t1, uintptr_t site)
{
	int cidx = 0, cflag = 0, cout = 0, nst = 0;
	int *cind = NULL;

	if (w->n == 0) {
		cp_wait_post(r, w, kind, NULL, NULL, NULL, NULL, NULL, t0, t1,
			     site);
		return;
	}
	if (flag)
		cflag = (int)*flag;
	if (index)
		cidx = *index > 0 ? (int)*index - 1 : MPI_UNDEFINED;
	if (outcount) {
		cout = (int)*outcount;
		cind = (int *)scratch_st;	/* reuse: C statuses unused */
		for (int i = 0; i < cout && i < SCRATCH; i++)
			cind[i] = (int)indices[i] - 1;
	}
	switch (kind) {
	case CP_DONE_ALL: case CP_DONE_TESTALL: nst = w->n; break;
	case CP_DONE_SOME: case CP_DONE_TESTSOME: nst = cout; break;
	default: nst = 1;
	}
	MPI_Status cst[SCRATCH];
	for (int i = 0; i < nst && i < SCRATCH; i++)
		PMPI_Status_f2c(st + i * CP_F_STATUS_SIZE, &cst[i]);
	cp_wait_post(r, w, kind, &cidx, &cflag, &cout, cind, cst, t0, t1,
		     site);
}

void cp_start_post(struct cp_ring *r, const MPI_Request *reqs, int n,
		   uint64_t t0, uint64_t t1, uintptr_t site, int call, int fl)
{
	for (int i = 0; i < n; i++) {
		struct cp_raw *s = cp_claim(r, 1);

		s->w0 = CP_W0(site, call, CP_RK_START, fl);
		s->t0 = t0;
		s->t1 = t1;
		s->u.q.req = reqs[i];
		cp_commit(r, s, 1, false, true, 0);
	}
}

void cp_start_post_f(struct cp_ring *r, const MPI_Fint *reqs, int n,
		     uint64_t t0, uint64_t t1, uintptr_t site, int call,
		     int fl)
{
	for (int i = 0; i < n; i++) {
		MPI_Request q = PMPI_Request_f2c(reqs[i]);

		cp_start_post(r, &q, 1, t0, t1, site, call, fl);
	}
}

/* These may take the slots kept back for completions: a lost free or
 * cancel leaves a wrong row, a lost retire a generation never cut. */
void cp_note(struct cp_ring *r, unsigned kind, uintptr_t handle,
	     uintptr_t site, int call, int fl)
{
	struct cp_raw *s = cp_claim(r, 1);

	s->w0 = CP_W0(site, call, kind, fl);
	s->t0 = s->t1 = cp_ticks();
	if (kind == CP_RK_FREE)
		s->u.q.req = (MPI_Request)handle;
	else
		s->u.x.handle = handle;
	cp_commit(r, s, 1, true, true, 0);
}
