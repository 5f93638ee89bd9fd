/*
 * cp_req.c - requests between post and completion.
 *
 * A nonblocking call's row is completed when its request completes, which
 * may happen on another thread.  Pending requests are keys of one
 * src/lib/cp_htab.h table, claimed with compare-and-swap, so the hot path
 * takes no lock; slot i's event is pend[i].  A probe sequence is bounded
 * (PROBE slots): tombstones are reused by inserts, so chains stay short
 * as long as fewer requests are pending than the table has slots; when no
 * slot is free the event is recorded at once, flagged notdone, and the
 * row still counts.
 *
 * Completion calls overwrite the caller's request handles (MPI sets them
 * to MPI_REQUEST_NULL), so cp_wait_pre snapshots them first.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/cp_row.h"
#include "src/lib/cp_compiler.h"
#include "src/lib/cp_event.h"
#include "src/lib/cp_flush.h"
#include "src/lib/cp_fortran.h"
#include "src/lib/cp_htab.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_pred_rt.h"
#include "src/lib/cp_req.h"
#include "src/lib/cp_tau.h"

#define NSLOT 65536		/* power of two */
#define PROBE 128
#define SCRATCH 256		/* requests snapshotted without malloc */

/* 128 bytes: pend[i] is a shift away from i, and no two share a line */
struct pend {
	int persist;
	int active;		/* persistent: started, not yet completed */
	const struct cp_comm_info *ci;
	struct cp_event ev;
} __attribute__((aligned(128)));

/* src/lib/cp_tau.h: here, where messages complete (the builders of
 * cp_fill.c already call in) */
__thread uint32_t cp_xfer_started __attribute__((tls_model("initial-exec")));
__thread uint32_t cp_xfer_pending __attribute__((tls_model("initial-exec")));

static struct cp_htab *tab;	/* request handles; values unused */
static struct pend pend[NSLOT];	/* pend[i]: the request in slot i */

/* Per-thread snapshot space, grown out of line for large arrays. */
static __thread MPI_Request scratch_req[SCRATCH];
static __thread MPI_Status scratch_st[SCRATCH];
static __thread MPI_Request *big_req;
static __thread MPI_Status *big_st;
static __thread int big_n;

int cp_req_init(void)
{
	if (!tab)
		tab = cp_htab_new(NSLOT, PROBE, 0);
	return tab ? 0 : -ENOMEM;
}

/* Slot holding request handle value k, or CP_HTAB_NONE.  The wrappers
 * call in only while recording, which cp_rt_init() starts after
 * cp_req_init() succeeded: tab is set. */
static uint32_t find(uintptr_t k)
{
	return cp_htab_find(tab, k);
}

/* No slot for a posted request: its row now, flagged notdone. */
static CP_COLD void track_full(const struct cp_event *ev)
{
	struct cp_event late = *ev;

	late.flags |= CP_F_NOTDONE;
	cp_record(&late);
}

void cp_req_track(MPI_Request req, const struct cp_event *ev, int persist,
		  const struct cp_comm_info *ci)
{
	uintptr_t k = (uintptr_t)req;
	uint32_t i;

	if (req == MPI_REQUEST_NULL || !cp_htab_key_ok(k))
		return;
	i = cp_htab_claim(tab, k);
	if (cp_unlikely(i == CP_HTAB_NONE)) {
		track_full(ev);
		return;
	}
	pend[i].ev = *ev;
	pend[i].ci = ci;
	pend[i].persist = persist;
	pend[i].active = !persist;
	cp_htab_put_key(tab, i, k);
}

void cp_req_start(MPI_Request req, uint64_t now)
{
	uint32_t i = find((uintptr_t)req);
	struct pend *p;

	if (i == CP_HTAB_NONE)
		return;
	p = &pend[i];
	if (!p->persist)
		return;
	p->ev.t0 = now;
	p->active = 1;
	cp_tau_post(&p->ev);	/* persistent requests are messages */
}

/* Give slot i, taken for key k, back (keep) or leave a tombstone. */
static void release(uint32_t i, uintptr_t k, bool keep)
{
	if (keep)
		cp_htab_put_key(tab, i, k);
	else
		cp_htab_remove(tab, i);
}

/* The completion call's own row: its time is MPI time; count is how
 * many tracked requests it completed. */
static void wait_row(const struct cp_wait *w, int done, uint64_t t0,
		     uint64_t t1, uintptr_t site)
{
	struct cp_event ev = {
		.t0 = t0, .dur = t1 - t0, .count = (uint64_t)done,
		.site = site, .peer = CP_PEER_NONE, .root = CP_PEER_NONE,
		.tag = CP_TAG_NONE, .comm_size = -1, .comm = UINT32_MAX,
		.layout = CP_LAYOUT_NONE, .call = (uint16_t)w->call,
		.flags = (uint16_t)w->flags,
	};

	cp_record(&ev);
}

/* Request completed in a call [t_call, now]; st may be NULL.  Returns 1
 * when it was one of ours. */
static int req_done(MPI_Request req, const MPI_Status *st, uint64_t t_call,
		     uint64_t now)
{
	uintptr_t k = (uintptr_t)req;
	uint32_t i = find(k);
	const struct cp_comm_info *ci;
	struct cp_event ev;
	struct pend *p;

	if (i == CP_HTAB_NONE || !cp_htab_take(tab, i, k))
		return 0;
	p = &pend[i];
	if (!p->active) {	/* inactive persistent request: no transfer */
		release(i, k, true);
		return 0;
	}
	ev = p->ev;
	ci = p->ci;
	p->active = 0;
	release(i, k, p->persist);
	ev.dur = now - ev.t0;
	ev.incall = now - t_call;
	if (st && !(ev.flags & CP_F_CANCELLED)) {
		int cancelled = 0;

		if (PMPI_Test_cancelled(st, &cancelled) == MPI_SUCCESS &&
		    cancelled)
			ev.flags |= CP_F_CANCELLED;
	}
	if ((ev.flags & CP_F_RECV) && st)
		cp_event_status(&ev, ci, st,
				ev.count ? ev.bytes / ev.count : 0);
	cp_tau_done(&ev);
	cp_pred_maybe(&ev, ci);		/* priced as a blocking call is */
	cp_record(&ev);
	return 1;
}

void cp_req_free(MPI_Request req, uint64_t now)
{
	uintptr_t k = (uintptr_t)req;
	uint32_t i = find(k);
	struct cp_event ev;
	struct pend *p;

	if (i == CP_HTAB_NONE || !cp_htab_take(tab, i, k))
		return;
	p = &pend[i];
	ev = p->ev;
	if (p->active) {	/* freed while active: completion unseen */
		cp_tau_done(&ev);
		ev.dur = now - ev.t0;
		ev.flags |= CP_F_NOTDONE;
		cp_record(&ev);
	}
	release(i, k, false);
}

void cp_req_cancel(MPI_Request req)
{
	uint32_t i = find((uintptr_t)req);

	if (i != CP_HTAB_NONE)
		pend[i].ev.flags |= CP_F_CANCELLED;
}

void cp_req_flush_pending(uint64_t now)
{
	for (uint32_t i = 0; tab && i <= tab->mask; i++) {
		uintptr_t k = atomic_load(&tab->s[i].key);

		if (cp_htab_key_ok(k))
			cp_req_free((MPI_Request)k, now);
	}
}

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

void cp_wait_post(struct cp_wait *w, enum cp_done kind, const int *index,
		  const int *flag, const int *outcount, const int *indices,
		  const MPI_Status *st, uint64_t t0, uint64_t t1,
		  uintptr_t site)
{
	int i, done = 0;

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
		done += req_done(w->reqs[0], st, t0, t1);
		break;
	case CP_DONE_TESTALL:
		if (!*flag)
			break;
		/* fall through */
	case CP_DONE_ALL:
		for (i = 0; i < w->n; i++)
			done += req_done(w->reqs[i], &st[i], t0, t1);
		break;
	case CP_DONE_TESTANY:
		if (!*flag)
			break;
		/* fall through */
	case CP_DONE_ANY:
		if (*index != MPI_UNDEFINED && *index >= 0 && *index < w->n)
			done += req_done(w->reqs[*index], st, t0, t1);
		break;
	case CP_DONE_SOME:
	case CP_DONE_TESTSOME:
		if (*outcount == MPI_UNDEFINED)
			break;
		for (i = 0; i < *outcount; i++)
			if (indices[i] >= 0 && indices[i] < w->n)
				done += req_done(w->reqs[indices[i]], &st[i],
						 t0, t1);
		break;
	}
	wait_row(w, done, t0, t1, site);
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

void cp_wait_post_f(struct cp_wait *w, enum cp_done kind,
		    const MPI_Fint *index, const MPI_Fint *flag,
		    const MPI_Fint *outcount, const MPI_Fint *indices,
		    const MPI_Fint *st, uint64_t t0, uint64_t t1,
		    uintptr_t site)
{
	int cidx = 0, cflag = 0, cout = 0, nst = 0;
	int *cind = NULL;

	if (w->n == 0) {
		cp_wait_post(w, kind, NULL, NULL, NULL, NULL, NULL, t0, t1,
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
	MPI_Status cst[nst > 0 && nst <= SCRATCH ? nst : 1];
	for (int i = 0; i < nst && i < SCRATCH; i++)
		PMPI_Status_f2c(st + i * CP_F_STATUS_SIZE, &cst[i]);
	cp_wait_post(w, kind, &cidx, &cflag, &cout, cind, cst, t0, t1, site);
}
