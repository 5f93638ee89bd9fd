/*
 * cp_red.c - steps 1 and 2 of a reduction (src/reduce/cp_red.h): the scan
 * of each rank's rows into records for their homes, and the matching of
 * a home's records with the rules of analysis/cp_match.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "src/common/cp_sample.h"
#include "src/reduce/cp_red.h"

uint8_t cp_red_rank_state(int64_t dropped, int64_t not_kept, int64_t capped,
			  int64_t sample, bool by_identity)
{
	uint8_t s = 0;

	if (capped < 0)		/* an older library: one reason or the other */
		capped = sample <= 1 ? not_kept : 0;
	if (dropped > 0 || (not_kept > capped && !by_identity))
		s |= CP_RED_S_HOLE;
	if (capped > 0)
		s |= CP_RED_S_CUT;
	return s;
}

void cp_red_init(struct cp_red *x, struct cp_red_sum *sum, uint32_t nhome,
		 int (*emit)(void *arg, uint32_t h,
			     const struct cp_red_rec *r),
		 void *arg)
{
	memset(x, 0, sizeof(*x));
	x->sum = sum;
	x->nhome = nhome ? nhome : 1;
	x->emit = emit;
	x->arg = arg;
	x->rank = -1;
	x->inst = -1;
}

uint32_t cp_red_home(const struct cp_red_rec *r, uint32_t nhome,
		     bool by_link)
{
	struct cp_seqkey k = { .comm = r->comm, .sender = CP_SAMPLE_COLL,
			       .receiver = CP_SAMPLE_COLL };
	int32_t rcv;

	if (nhome <= 1)
		return 0;
	if (r->coll)
		return (uint32_t)(cp_sample_hash(&k, (uint64_t)r->inst) %
				  nhome);
	if (by_link)
		return (uint32_t)(r->rank < r->peer ? r->rank : r->peer) %
		       nhome;
	/* the receiver holds the receive halves: they need not travel */
	rcv = r->flags & CP_F_RECV ? r->rank : r->peer;
	return (uint32_t)rcv % nhome;
}

/* A message half with a sender and a receiver and a completion: what the
 * matching pairs (MPI_PROC_NULL, never completed or cancelled requests
 * and unresolved sources take no part). */
static bool cp_red_is_transfer(const struct cp_sum_row *r)
{
	return !(r->flags & (CP_F_PROCNULL | CP_F_NOTDONE | CP_F_CANCELLED)) &&
	       r->peer >= 0 && r->tag != INT32_MIN;
}

static void cp_red_rec_of(struct cp_red_rec *d, const struct cp_sum_row *r)
{
	int k;

	memset(d, 0, sizeof(*d));	/* packed as it is: no stray bytes */
	d->seq = r->seq;
	d->post_ns = r->t_start_ns;
	d->end_ns = r->t_start_ns + r->t_measured_ns;
	d->inst = -1;
	d->bytes = r->bytes;
	d->site = r->site;
	d->rank = r->rank;
	d->op = r->op;
	d->peer = r->peer;
	d->root = r->root;
	d->tag = r->tag;
	d->comm_size = r->comm_size;
	d->comm = r->comm;
	d->flags = r->flags;
	d->pred_flags = r->pred_flags;
	d->coll = r->coll;
	d->alg = r->coll ? r->alg : CP_RED_ALG_NONE;
	for (k = 0; k < CP_NMODELS; k++)
		d->pred_ns[k] = (float)r->pred_ns[k];
}

/* Number collective row r of the rank being scanned: rows come in (comm,
 * post, seq) order, the k-th of a comm is instance k. */
static int cp_red_number(struct cp_red *x, const struct cp_sum_row *r,
			 struct cp_red_rec *d)
{
	if (x->inst >= 0 && r->comm == x->comm) {
		if (r->t_start_ns < x->post_ns ||
		    (r->t_start_ns == x->post_ns && r->seq < x->seq))
			return -CP_EINVAL;
		x->inst++;
	} else {
		if (x->inst >= 0 && r->comm < x->comm)
			return -CP_EINVAL;
		x->inst = 0;
	}
	x->comm = r->comm;
	x->post_ns = r->t_start_ns;
	x->seq = r->seq;
	d->inst = x->inst;
	return 0;
}

int cp_red_scan_row(struct cp_red *x, const struct cp_sum_row *r)
{
	static const double none[CP_NMODELS] = {
#define CP_RED_NAN(id, name) NAN,
		CP_MODEL_MAP(CP_RED_NAN)
#undef CP_RED_NAN
	};
	struct cp_red_rec d;
	int ret;

	if (r->rank != x->rank) {
		x->rank = r->rank;
		x->inst = -1;
	}
	ret = cp_red_add_strided(x->sum, r);
	if (ret)
		return ret;
	cp_red_rec_of(&d, r);
	if (r->coll) {
		ret = cp_red_number(x, r, &d);
		if (ret)
			return ret;
	} else if (!cp_red_is_transfer(r)) {
		x->sum->p2p_skipped++;
		return cp_red_add_result(x->sum, &d, -1, -1, none);
	}
	return x->emit(x->arg, cp_red_home(&d, x->nhome, x->by_link), &d);
}

/* ---- step 2 ---- */

static uint8_t cp_red_state(const uint8_t *state, int32_t nstate,
			    int32_t rank)
{
	return rank >= 0 && rank < nstate ? state[rank] : 0;
}

/* What analysis/cp_match.h is told of the two ranks of message half r. */
static uint8_t cp_red_cut(const struct cp_red_rec *r, const uint8_t *state,
			  int32_t nstate)
{
	bool recv = r->flags & CP_F_RECV;
	uint8_t s = cp_red_state(state, nstate, recv ? r->peer : r->rank);
	uint8_t d = cp_red_state(state, nstate, recv ? r->rank : r->peer);
	uint8_t c = 0;

	if (s & CP_RED_S_CUT)
		c |= CP_MATCH_CUT_SEND;
	if (d & CP_RED_S_CUT)
		c |= CP_MATCH_CUT_RECV;
	if ((s | d) & CP_RED_S_HOLE)
		c |= CP_MATCH_CUT_HOLE;
	return c;
}

/* mu of every model whose prediction is a number > 0, against t_ns. */
static void cp_red_mu(const struct cp_red_rec *r, int64_t t_ns, double *mu)
{
	double t = (double)t_ns, p;
	int k;

	for (k = 0; k < CP_NMODELS; k++) {
		p = r->pred_ns[k];
		mu[k] = NAN;
		if (t_ns > 0 && isfinite(p) && p > 0)
			mu[k] = t > p ? t / p : p / t;
	}
}

/* Where the records of one home go for analysis/cp_match.h. */
struct cp_red_work {
	struct cp_match_msg *m;
	struct cp_match_coll *c;
	int64_t *inst;
	size_t *mi, *ci;	/* record index of each m[], c[] */
	struct cp_match_out *om, *oc;
	size_t nm, nc;
};

static void cp_red_work_free(struct cp_red_work *w)
{
	free(w->m);
	free(w->c);
	free(w->inst);
	free(w->mi);
	free(w->ci);
	free(w->om);
	free(w->oc);
}

static void cp_red_msg_of(struct cp_match_msg *m, const struct cp_red_rec *r,
			  const uint8_t *state, int32_t nstate)
{
	m->rank = r->rank;
	m->peer = r->peer;
	m->tag = r->tag;
	m->comm = r->comm;
	m->recv = r->flags & CP_F_RECV;
	m->post_ns = r->post_ns;
	m->end_ns = r->end_ns;
	m->order = r->seq;
	m->cut = cp_red_cut(r, state, nstate);
}

static void cp_red_coll_of(struct cp_match_coll *c, const struct cp_red_rec *r,
			   const uint8_t *state, int32_t nstate)
{
	c->rank = r->rank;
	c->comm = r->comm;
	c->comm_size = r->comm_size;
	c->op = r->op;
	/* an intercommunicator's comm_size is the remote group: its
	 * instances cannot be counted against it */
	c->broken = r->flags & (CP_F_NOTDONE | CP_F_CANCELLED | CP_F_INTER);
	c->hole = cp_red_state(state, nstate, r->rank) & CP_RED_S_HOLE;
	c->post_ns = r->post_ns;
	c->end_ns = r->end_ns;
	c->order = r->seq;
}

/* Split r[0..n) into w and match both kinds.  Returns 0 or -CP_ENOMEM. */
static int cp_red_work_run(struct cp_red_work *w, struct cp_red_sum *s,
			   const struct cp_red_rec *r, size_t n,
			   const uint8_t *state, int32_t nstate)
{
	size_t i, k = n ? n : 1;

	w->m = malloc(k * sizeof(*w->m));
	w->c = malloc(k * sizeof(*w->c));
	w->inst = malloc(k * sizeof(*w->inst));
	w->mi = malloc(k * sizeof(*w->mi));
	w->ci = malloc(k * sizeof(*w->ci));
	w->om = malloc(k * sizeof(*w->om));
	w->oc = malloc(k * sizeof(*w->oc));
	if (!w->m || !w->c || !w->inst || !w->mi || !w->ci || !w->om ||
	    !w->oc)
		return -CP_ENOMEM;
	for (i = 0; i < n; i++) {
		if (r[i].coll) {
			cp_red_coll_of(&w->c[w->nc], &r[i], state, nstate);
			w->inst[w->nc] = r[i].inst;
			w->ci[w->nc++] = i;
		} else {
			cp_red_msg_of(&w->m[w->nm], &r[i], state, nstate);
			w->mi[w->nm++] = i;
		}
	}
	/* well formed input: analysis/cp_match.h fails only on memory */
	if (cp_match_p2p(w->m, w->nm, w->om, &s->st) ||
	    cp_match_coll_insts(w->c, w->inst, w->nc, w->oc, &s->st))
		return -CP_ENOMEM;
	return 0;
}

int cp_red_match(struct cp_red_sum *s, const struct cp_red_rec *r, size_t n,
		 const uint8_t *state, int32_t nstate,
		 int (*each)(void *arg, const struct cp_red_rec *r,
			     const struct cp_red_rec *mate,
			     const struct cp_match_out *o, const double *mu),
		 void *arg)
{
	struct cp_red_work w = { 0 };
	const struct cp_red_rec *x, *mate;
	const struct cp_match_out *o;
	double mu[CP_NMODELS];
	size_t i;
	int ret;

	ret = cp_red_work_run(&w, s, r, n, state, nstate);
	for (i = 0; !ret && i < w.nm + w.nc; i++) {
		bool msg = i < w.nm;

		x = &r[msg ? w.mi[i] : w.ci[i - w.nm]];
		o = msg ? &w.om[i] : &w.oc[i - w.nm];
		mate = msg && o->mate >= 0 ? &r[w.mi[o->mate]] : NULL;
		cp_red_mu(x, o->why == CP_MATCH_OK ? o->t_transfer_ns : -1,
			  mu);
		ret = cp_red_add_result(s, x, o->t_transfer_ns, o->t_wait_ns,
					mu);
		if (!ret && each)
			ret = each(arg, x, mate, o, mu);
	}
	cp_red_work_free(&w);
	return ret;
}
