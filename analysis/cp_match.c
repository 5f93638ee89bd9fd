/*
 * cp_match.c - pairing of message halves and grouping of collective
 * instances (cp_match.h).  Both sort a compact key array once or twice
 * (qsort: O(n log n)) and then walk runs of equal keys; the keys carry
 * what the comparison needs, so no comparison reads shared state.
 */
#include <stdlib.h>

#include "analysis/cp_err.h"
#include "analysis/cp_match.h"

/* Sort key of a message half: its group, its side, its place. */
struct cp_match_mkey {
	uint32_t comm;
	int32_t snd, rcv, tag;
	int32_t recv;		/* sends (0) before receives (1) */
	int64_t post_ns, order;
	size_t idx;		/* input index: the last tie break */
};

#define CP_MATCH_CMP(a, b) do {			\
	if ((a) != (b))				\
		return (a) < (b) ? -1 : 1;	\
} while (0)

static int cp_match_mkey_cmp(const void *pa, const void *pb)
{
	const struct cp_match_mkey *a = pa, *b = pb;

	CP_MATCH_CMP(a->comm, b->comm);
	CP_MATCH_CMP(a->snd, b->snd);
	CP_MATCH_CMP(a->rcv, b->rcv);
	CP_MATCH_CMP(a->tag, b->tag);
	CP_MATCH_CMP(a->recv, b->recv);
	CP_MATCH_CMP(a->post_ns, b->post_ns);
	CP_MATCH_CMP(a->order, b->order);
	CP_MATCH_CMP(a->idx, b->idx);
	return 0;
}

static bool cp_match_same_group(const struct cp_match_mkey *a,
				const struct cp_match_mkey *b)
{
	return a->comm == b->comm && a->snd == b->snd && a->rcv == b->rcv &&
	       a->tag == b->tag;
}

static void cp_match_unmatched(struct cp_match_out *o, int why)
{
	o->t_transfer_ns = -1;
	o->t_wait_ns = -1;
	o->late = CP_MATCH_LATE_NONE;
	o->why = why;
	o->mate = -1;
	o->inst = -1;
}

/* Pair send s with receive r (input indices). */
static void cp_match_pair(const struct cp_match_msg *m, size_t s, size_t r,
			  struct cp_match_out *out, struct cp_match_stats *st)
{
	int64_t sp = m[s].post_ns, rp = m[r].post_ns;
	int64_t xfer = m[r].end_ns - (sp > rp ? sp : rp);
	struct cp_match_out o;

	if (xfer < 0) {
		/* the receive ended before the send began: the clocks of
		 * the two ranks disagree; no number beats a wrong one */
		cp_match_unmatched(&out[s], CP_MATCH_NEGATIVE);
		cp_match_unmatched(&out[r], CP_MATCH_NEGATIVE);
		st->p2p_negative += 2;
		return;
	}
	cp_match_unmatched(&o, CP_MATCH_OK);
	o.t_transfer_ns = xfer;
	o.t_wait_ns = sp > rp ? sp - rp : rp - sp;
	o.late = sp > rp ? CP_MATCH_LATE_SENDER :
		 rp > sp ? CP_MATCH_LATE_RECEIVER : CP_MATCH_LATE_NONE;
	out[s] = o;
	out[r] = o;
	out[s].mate = (int64_t)r;
	out[r].mate = (int64_t)s;
	st->p2p_matched += 2;
}

/* Leave every half of k[a..b) unmatched for why. */
static void cp_match_leave(const struct cp_match_mkey *k, size_t a, size_t b,
			   struct cp_match_out *out, int why)
{
	size_t i;

	for (i = a; i < b; i++)
		cp_match_unmatched(&out[k[i].idx], why);
}

/* Group k[a..b): sends first, then receives, each in post order. */
static void cp_match_group(const struct cp_match_msg *m,
			   const struct cp_match_mkey *k, size_t a, size_t b,
			   struct cp_match_out *out,
			   struct cp_match_stats *st)
{
	size_t nsend = 0, nrecv, npair, i;
	uint8_t cut = 0;

	while (a + nsend < b && !k[a + nsend].recv)
		nsend++;
	nrecv = b - a - nsend;
	for (i = a; i < b; i++)
		cut |= m[k[i].idx].cut;
	npair = nsend < nrecv ? nsend : nrecv;
	if (cut & CP_MATCH_CUT_HOLE) {
		cp_match_leave(k, a, b, out, CP_MATCH_HOLE);
		st->p2p_hole += b - a;
		return;
	}
	/* a row limit keeps a prefix: the side it cut has the fewer rows */
	if (nsend != nrecv &&
	    !(cut & (nsend < nrecv ? CP_MATCH_CUT_SEND : CP_MATCH_CUT_RECV))) {
		cp_match_leave(k, a, b, out, CP_MATCH_COUNTS);
		st->p2p_counts += b - a;
		st->p2p_groups++;
		return;
	}
	for (i = 0; i < npair; i++)
		cp_match_pair(m, k[a + i].idx, k[a + nsend + i].idx, out, st);
	cp_match_leave(k, a + npair, a + nsend, out, CP_MATCH_CUT);
	cp_match_leave(k, a + nsend + npair, b, out, CP_MATCH_CUT);
	st->p2p_cut += nsend + nrecv - 2 * npair;
}

int cp_match_p2p(const struct cp_match_msg *m, size_t n,
		 struct cp_match_out *out, struct cp_match_stats *st)
{
	struct cp_match_mkey *k;
	size_t i, a;

	if (!st || (n && (!m || !out)))
		return -CP_EINVAL;
	st->p2p_rows += n;
	if (!n)
		return 0;
	k = malloc(n * sizeof(*k));
	if (!k)
		return -CP_ENOMEM;
	for (i = 0; i < n; i++) {
		k[i].comm = m[i].comm;
		k[i].snd = m[i].recv ? m[i].peer : m[i].rank;
		k[i].rcv = m[i].recv ? m[i].rank : m[i].peer;
		k[i].tag = m[i].tag;
		k[i].recv = m[i].recv;
		k[i].post_ns = m[i].post_ns;
		k[i].order = m[i].order;
		k[i].idx = i;
	}
	qsort(k, n, sizeof(*k), cp_match_mkey_cmp);
	for (a = 0, i = 1; i <= n; i++) {
		if (i < n && cp_match_same_group(&k[a], &k[i]))
			continue;
		cp_match_group(m, k, a, i, out, st);
		a = i;
	}
	free(k);
	return 0;
}

/* Sort key of a collective row: first (comm, rank, post) to number the
 * calls of each rank, then (comm, inst) to gather an instance. */
struct cp_match_ckey {
	uint32_t comm;
	int32_t rank;
	int64_t post_ns, order;
	int64_t inst;		/* -1 until numbered */
	size_t idx;
};

static int cp_match_ckey_rank_cmp(const void *pa, const void *pb)
{
	const struct cp_match_ckey *a = pa, *b = pb;

	CP_MATCH_CMP(a->comm, b->comm);
	CP_MATCH_CMP(a->rank, b->rank);
	CP_MATCH_CMP(a->post_ns, b->post_ns);
	CP_MATCH_CMP(a->order, b->order);
	CP_MATCH_CMP(a->idx, b->idx);
	return 0;
}

static int cp_match_ckey_inst_cmp(const void *pa, const void *pb)
{
	const struct cp_match_ckey *a = pa, *b = pb;

	CP_MATCH_CMP(a->comm, b->comm);
	CP_MATCH_CMP(a->inst, b->inst);
	CP_MATCH_CMP(a->rank, b->rank);
	return 0;
}

/* Why instance k[a..b) cannot be matched, or CP_MATCH_OK. */
static int cp_match_inst_check(const struct cp_match_coll *c,
			       const struct cp_match_ckey *k, size_t a,
			       size_t b)
{
	const struct cp_match_coll *f = &c[k[a].idx];
	size_t i;

	for (i = a; i < b; i++)
		if (c[k[i].idx].hole)
			return CP_MATCH_HOLE;
	for (i = a; i < b; i++) {
		const struct cp_match_coll *r = &c[k[i].idx];

		if (r->op != f->op || r->comm_size != f->comm_size ||
		    r->broken || r->end_ns < r->post_ns)
			return CP_MATCH_MIXED;
	}
	if (f->comm_size <= 0 || b - a != (size_t)f->comm_size)
		return CP_MATCH_INCOMPLETE;
	return CP_MATCH_OK;
}

static void cp_match_inst(const struct cp_match_coll *c,
			  const struct cp_match_ckey *k, size_t a, size_t b,
			  struct cp_match_out *out, struct cp_match_stats *st)
{
	int64_t pmin = INT64_MAX, pmax = INT64_MIN, emax = INT64_MIN;
	int why = cp_match_inst_check(c, k, a, b);
	struct cp_match_out o;
	size_t i;

	cp_match_unmatched(&o, why);
	if (why == CP_MATCH_OK) {
		for (i = a; i < b; i++) {
			const struct cp_match_coll *r = &c[k[i].idx];

			pmin = r->post_ns < pmin ? r->post_ns : pmin;
			pmax = r->post_ns > pmax ? r->post_ns : pmax;
			emax = r->end_ns > emax ? r->end_ns : emax;
		}
		/* each end >= its post, so emax >= pmax */
		o.t_transfer_ns = emax - pmax;
		o.t_wait_ns = pmax - pmin;
		o.inst = k[a].inst;
		st->coll_matched += b - a;
		st->coll_insts++;
	} else if (why == CP_MATCH_INCOMPLETE) {
		st->coll_incomplete += b - a;
	} else if (why == CP_MATCH_HOLE) {
		st->coll_hole += b - a;
	} else {
		st->coll_mixed += b - a;
	}
	for (i = a; i < b; i++)
		out[k[i].idx] = o;
}

/* Keys of c[0..n) with their instance (inst NULL: -1); NULL when out of
 * memory. */
static struct cp_match_ckey *cp_match_ckeys(const struct cp_match_coll *c,
					    const int64_t *inst, size_t n)
{
	struct cp_match_ckey *k = malloc(n * sizeof(*k));
	size_t i;

	for (i = 0; k && i < n; i++) {
		k[i].comm = c[i].comm;
		k[i].rank = c[i].rank;
		k[i].post_ns = c[i].post_ns;
		k[i].order = c[i].order;
		k[i].inst = inst ? inst[i] : -1;
		k[i].idx = i;
	}
	return k;
}

int cp_match_coll_number(const struct cp_match_coll *c, size_t n,
			 int64_t *inst)
{
	struct cp_match_ckey *k;
	size_t i;

	if (n && (!c || !inst))
		return -CP_EINVAL;
	if (!n)
		return 0;
	k = cp_match_ckeys(c, NULL, n);
	if (!k)
		return -CP_ENOMEM;
	qsort(k, n, sizeof(*k), cp_match_ckey_rank_cmp);
	for (i = 0; i < n; i++) {
		k[i].inst = i && k[i].comm == k[i - 1].comm &&
			    k[i].rank == k[i - 1].rank ? k[i - 1].inst + 1 : 0;
		inst[k[i].idx] = k[i].inst;
	}
	free(k);
	return 0;
}

int cp_match_colls(const struct cp_match_coll *c, size_t n,
		   struct cp_match_out *out, struct cp_match_stats *st)
{
	int64_t *inst;
	int ret;

	if (!st || (n && (!c || !out)))
		return -CP_EINVAL;
	inst = malloc((n ? n : 1) * sizeof(*inst));
	if (!inst)
		return -CP_ENOMEM;
	ret = cp_match_coll_number(c, n, inst);
	if (!ret)
		ret = cp_match_coll_insts(c, inst, n, out, st);
	free(inst);
	return ret;
}

int cp_match_coll_insts(const struct cp_match_coll *c, const int64_t *inst,
			size_t n, struct cp_match_out *out,
			struct cp_match_stats *st)
{
	struct cp_match_ckey *k;
	size_t i, a;

	if (!st || (n && (!c || !inst || !out)))
		return -CP_EINVAL;
	st->coll_rows += n;
	if (!n)
		return 0;
	k = cp_match_ckeys(c, inst, n);
	if (!k)
		return -CP_ENOMEM;
	qsort(k, n, sizeof(*k), cp_match_ckey_inst_cmp);
	for (a = 0, i = 1; i <= n; i++) {
		if (i < n && k[i].comm == k[a].comm &&
		    k[i].inst == k[a].inst)
			continue;
		cp_match_inst(c, k, a, i, out, st);
		a = i;
	}
	free(k);
	return 0;
}
