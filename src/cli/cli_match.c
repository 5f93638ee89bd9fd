/*
 * cli_match.c - the matching after the run: once a merge of the rank
 * files is built, pair every send with its receive and group collective
 * calls into instances (analysis/cp_match.h), and store per row the time
 * the models are compared with (t_transfer), the wait, the late side and
 * mu per model; the merged meta table says how many rows were matched
 * and why the others were not (db/schema.sql).
 *
 * Rows that are not transfers (MPI_PROC_NULL, never completed,
 * cancelled, no resolved peer) take no part.  A run whose ranks lost
 * rows in the middle (COMMPROF_SAMPLE, COMMPROF_MAX_ROWS, a full ring)
 * is not matched at all: every pair after a hole would be wrong.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_match.h"
#include "analysis/cp_stats.h"
#include "db/cp_db_read.h"
#include "src/cli/cli.h"
#include "src/common/cp_row.h"

/* Where an input row of the matching came from, and its predictions. */
struct cp_cli_mref {
	int32_t rank;
	int64_t seq;
	double pred_ns[CP_NMODELS];
};

/* Rows of one class read for the matching. */
struct cp_cli_mset {
	void *in;		/* struct cp_match_msg or cp_match_coll */
	struct cp_cli_mref *ref;
	size_t n, cap;
	size_t size;		/* bytes of one element of in */
};

/* Out of memory, as returned by this file's functions; a database
 * failure is a negative CP_DB_E* code with its text in cp_db_errmsg. */
#define CP_CLI_MATCH_NOMEM	1

struct cp_cli_match {
	struct cp_cli_mset p2p, coll;
	size_t p2p_skipped;	/* message rows that are not transfers */
	int32_t max_rank;	/* highest rank seen, -1 none */
};

/* Room for one more row in s.  Returns 0 or CP_CLI_MATCH_NOMEM. */
static int cp_cli_mset_grow(struct cp_cli_mset *s)
{
	size_t cap = s->cap ? 2 * s->cap : 1024;
	void *in;
	struct cp_cli_mref *ref;

	if (s->n < s->cap)
		return 0;
	in = realloc(s->in, cap * s->size);
	if (!in)
		return CP_CLI_MATCH_NOMEM;
	s->in = in;
	ref = realloc(s->ref, cap * sizeof(*ref));
	if (!ref)
		return CP_CLI_MATCH_NOMEM;
	s->ref = ref;
	s->cap = cap;
	return 0;
}

static void cp_cli_mset_ref(struct cp_cli_mset *s, const struct cp_db_mrow *r)
{
	struct cp_cli_mref *f = &s->ref[s->n++];

	f->rank = r->rank;
	f->seq = r->seq;
	memcpy(f->pred_ns, r->pred_ns, sizeof(f->pred_ns));
}

/* A message half that is a real transfer: a peer on the other end, and
 * a completion to measure.  Receive halves of Sendrecv (CP_F_HALF) are
 * receives like any other. */
static bool cp_cli_is_transfer(const struct cp_db_mrow *r)
{
	return !(r->flags & (CP_F_PROCNULL | CP_F_NOTDONE | CP_F_CANCELLED)) &&
	       r->peer >= 0 && r->tag != INT32_MIN;
}

static int cp_cli_match_row(void *arg, const struct cp_db_mrow *r)
{
	struct cp_cli_match *m = arg;
	struct cp_match_coll *c;
	struct cp_match_msg *h;

	if (r->rank > m->max_rank)
		m->max_rank = r->rank;
	if (r->coll) {
		if (cp_cli_mset_grow(&m->coll))
			return CP_CLI_MATCH_NOMEM;
		c = (struct cp_match_coll *)m->coll.in + m->coll.n;
		c->rank = r->rank;
		c->comm = r->comm_id;
		c->comm_size = r->comm_size;
		c->op = r->op;
		/* an intercommunicator's comm_size is the remote group: its
		 * instances cannot be counted against it */
		c->broken = r->flags & (CP_F_NOTDONE | CP_F_CANCELLED |
					CP_F_INTER);
		c->hole = false;
		c->post_ns = r->t_start_ns;
		c->end_ns = r->t_start_ns + r->t_measured_ns;
		c->order = r->seq;
		cp_cli_mset_ref(&m->coll, r);
		return 0;
	}
	if (!cp_cli_is_transfer(r)) {
		m->p2p_skipped++;
		return 0;
	}
	if (cp_cli_mset_grow(&m->p2p))
		return CP_CLI_MATCH_NOMEM;
	h = (struct cp_match_msg *)m->p2p.in + m->p2p.n;
	h->rank = r->rank;
	h->peer = r->peer;
	h->tag = r->tag;
	h->comm = r->comm_id;
	h->recv = r->flags & CP_F_RECV;
	h->post_ns = r->t_start_ns;
	h->end_ns = r->t_start_ns + r->t_measured_ns;
	h->order = r->seq;
	h->cut = 0;
	cp_cli_mset_ref(&m->p2p, r);
	return 0;
}

/* Rows the ranks recorded no row for, summed over ranks (meta
 * rows_not_kept and rows_dropped of db/schema.sql). */
static void cp_cli_match_lost(struct cp_db *db, int32_t max_rank,
			      long long *not_kept, long long *dropped)
{
	char v[32];
	int32_t r, n = max_rank + 1;

	*not_kept = *dropped = 0;
	if (!cp_db_get_rank_meta(db, max_rank < 0 ? 0 : max_rank, "size", v,
				 sizeof(v)) && atoi(v) > n)
		n = atoi(v);
	for (r = 0; r < n; r++) {
		if (!cp_db_get_rank_meta(db, r, "rows_not_kept", v, sizeof(v)))
			*not_kept += atoll(v) > 0 ? atoll(v) : 0;
		if (!cp_db_get_rank_meta(db, r, "rows_dropped", v, sizeof(v)))
			*dropped += atoll(v) > 0 ? atoll(v) : 0;
	}
}

/* mu of every model whose prediction is a number > 0, against t_ns. */
static void cp_cli_match_mu(const struct cp_cli_mref *f, int64_t t_ns,
			    double *mu)
{
	int i;

	for (i = 0; i < CP_NMODELS; i++) {
		mu[i] = NAN;
		if (t_ns > 0 && isfinite(f->pred_ns[i]) && f->pred_ns[i] > 0 &&
		    cp_stats_mu((double)t_ns, f->pred_ns[i], &mu[i]))
			mu[i] = NAN;
	}
}

/* The stored form of the matched rows of s; *n of them into x. */
static void cp_cli_match_xfers(const struct cp_cli_mset *s,
			       const struct cp_match_out *o,
			       struct cp_db_xfer *x, size_t *n)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct cp_db_xfer *d = &x[*n];

		if (o[i].why != CP_MATCH_OK)
			continue;
		d->rank = s->ref[i].rank;
		d->seq = s->ref[i].seq;
		d->t_transfer_ns = o[i].t_transfer_ns;
		d->t_wait_ns = o[i].t_wait_ns;
		d->late = o[i].late;
		d->mate_rank = o[i].mate >= 0 ? s->ref[o[i].mate].rank : -1;
		d->mate_seq = o[i].mate >= 0 ? s->ref[o[i].mate].seq : -1;
		d->coll_inst = o[i].inst;
		cp_cli_match_mu(&s->ref[i], o[i].t_transfer_ns, d->mu);
		(*n)++;
	}
}

/* Append ", <text>" (or "<text>" first) to note when count > 0. */
static void cp_cli_note_add(char *note, size_t len, size_t count,
			    const char *fmt)
{
	size_t at = strlen(note);
	char part[160];

	if (!count)
		return;
	snprintf(part, sizeof(part), fmt, count);
	snprintf(note + at, len - at, "%s%s", at ? "; " : "", part);
}

static void cp_cli_match_note(const struct cp_cli_match *m,
			      const struct cp_match_stats *st, char *note,
			      size_t len)
{
	note[0] = '\0';
	cp_cli_note_add(note, len, st->p2p_counts,
			"%zu message rows in groups whose send and receive "
			"counts differ");
	cp_cli_note_add(note, len, st->p2p_negative,
			"%zu message rows whose receive ended before the "
			"send began (clocks)");
	cp_cli_note_add(note, len, m->p2p_skipped,
			"%zu message rows not transfers (MPI_PROC_NULL, not "
			"completed, cancelled)");
	cp_cli_note_add(note, len, st->coll_incomplete,
			"%zu collective rows of instances missing ranks");
	cp_cli_note_add(note, len, st->coll_mixed,
			"%zu collective rows of instances whose ops or sizes "
			"differ, not completed or intercommunicator");
}

static int cp_cli_meta_num(struct cp_db *db, const char *key, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	return cp_db_put_meta(db, key, buf);
}

/* The merged meta keys of db/schema.sql.  matched 0: not run. */
static int cp_cli_match_meta(struct cp_db *db, int matched, size_t p2p_rows,
			     size_t coll_rows, size_t p2p_left,
			     size_t coll_left, const char *note)
{
	int ret;

	ret = cp_cli_meta_num(db, "matched", matched);
	if (!ret)
		ret = cp_cli_meta_num(db, "match_p2p_rows", (long long)p2p_rows);
	if (!ret)
		ret = cp_cli_meta_num(db, "match_coll_rows",
				     (long long)coll_rows);
	if (!ret)
		ret = cp_cli_meta_num(db, "match_p2p_left", (long long)p2p_left);
	if (!ret)
		ret = cp_cli_meta_num(db, "match_coll_left",
				     (long long)coll_left);
	if (!ret && note[0])
		ret = cp_db_put_meta(db, "match_note", note);
	return ret;
}

/* Match the rows read into m and store the results.  Returns 0,
 * CP_CLI_MATCH_NOMEM, or a negative CP_DB_E* code. */
static int cp_cli_match_store(struct cp_db *db, const struct cp_cli_match *m)
{
	struct cp_match_out *o = NULL;
	struct cp_match_stats st;
	struct cp_db_xfer *x = NULL;
	size_t n = 0, most = m->p2p.n > m->coll.n ? m->p2p.n : m->coll.n;
	char note[1024];
	int ret = CP_CLI_MATCH_NOMEM;

	memset(&st, 0, sizeof(st));
	o = malloc((most ? most : 1) * sizeof(*o));
	x = malloc((m->p2p.n + m->coll.n + 1) * sizeof(*x));
	/* the inputs are well formed: cp_match_* fail only on memory */
	if (!o || !x || cp_match_p2p(m->p2p.in, m->p2p.n, o, &st))
		goto out_free;
	cp_cli_match_xfers(&m->p2p, o, x, &n);
	if (cp_match_colls(m->coll.in, m->coll.n, o, &st))
		goto out_free;
	cp_cli_match_xfers(&m->coll, o, x, &n);
	ret = cp_db_put_xfers(db, x, n);
	if (ret)
		goto out_free;
	cp_cli_match_note(m, &st, note, sizeof(note));
	ret = cp_cli_match_meta(db, 1, st.p2p_matched, st.coll_matched,
				m->p2p.n + m->p2p_skipped - st.p2p_matched,
				m->coll.n - st.coll_matched, note);
out_free:
	free(o);
	free(x);
	return ret;
}

/* No matching: rows are missing from the middle of some rank's record. */
static int cp_cli_match_skip(struct cp_db *db, const struct cp_cli_match *m,
			     long long not_kept, long long dropped)
{
	char note[256];

	snprintf(note, sizeof(note), "not matched: %lld call rows not kept "
		 "(COMMPROF_SAMPLE, COMMPROF_MAX_ROWS) and %lld dropped "
		 "(buffer full); pairs would be wrong", not_kept, dropped);
	return cp_cli_match_meta(db, 0, 0, 0, m->p2p.n + m->p2p_skipped,
				 m->coll.n, note);
}

void cp_cli_match(void *arg, struct cp_db *db)
{
	struct cp_cli_match m;
	long long not_kept, dropped;
	int ret;

	(void)arg;
	memset(&m, 0, sizeof(m));
	m.p2p.size = sizeof(struct cp_match_msg);
	m.coll.size = sizeof(struct cp_match_coll);
	m.max_rank = -1;
	ret = cp_db_each_match_row(db, cp_cli_match_row, &m);
	if (!ret) {
		cp_cli_match_lost(db, m.max_rank, &not_kept, &dropped);
		if (not_kept > 0 || dropped > 0)
			ret = cp_cli_match_skip(db, &m, not_kept, dropped);
		else
			ret = cp_cli_match_store(db, &m);
	}
	if (ret == CP_CLI_MATCH_NOMEM)
		cp_cli_err("cannot match sends and receives: out of memory");
	else if (ret)
		cp_cli_err("cannot match sends and receives: %s",
			   cp_db_errmsg(db));
	free(m.p2p.in);
	free(m.p2p.ref);
	free(m.coll.in);
	free(m.coll.ref);
}
