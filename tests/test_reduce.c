/*
 * test_reduce.c - src/reduce/cp_red without MPI, on a synthetic job of
 * 6 ranks (a ring of messages both ways, Sendrecv halves, MPI_PROC_NULL
 * sends, two communicators of collectives, strided sends flagged by
 * log3P, four models predicting):
 *  - one home, and three homes whose summaries are merged, and the same
 *    three packed and unpacked, give the same summary, as does the
 *    summary written as records (src/common/cp_sum.h) and read back;
 *  - the matched rows, t_transfer and mu are those analysis/cp_match
 *    gives on all rows at once, and every prediction is compared;
 *  - a rank cut by a row limit pairs its prefix, a rank that lost rows
 *    spoils its groups, and rows out of order are refused;
 *  - the collectives are grouped by (call, size class, algorithm) with
 *    their median times, and the worst collective calls by tau-Lop's mu
 *    are each call once.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cp_coll.h"
#include "analysis/cp_err.h"
#include "src/reduce/cp_red.h"
#include "tests/test_analysis.h"

/* The models whose predictions rows carry: all but model 3. */
#define PREDICT	(((1u << CP_NMODELS) - 1) & ~(1u << 3))

#define RANKS	6
#define STEPS	40
#define OP_SEND	1
#define OP_RECV	2
#define OP_SR	3
#define OP_BCAST 4
#define OP_ALLR	5

/* The rows of every rank, in rank order; per rank the message rows
 * first, then the collective rows in (comm, post) order. */
struct job {
	struct cp_sum_row *r;
	size_t n, cap;
};

static struct cp_sum_row *add(struct job *j, int rank, int op, int peer,
			      int tag, int64_t post, int64_t dur,
			      uint64_t bytes)
{
	struct cp_sum_row *r;
	int k;

	if (j->n == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 256;
		j->r = realloc(j->r, j->cap * sizeof(*j->r));
	}
	r = &j->r[j->n++];
	memset(r, 0, sizeof(*r));
	r->seq = (int64_t)j->n;
	r->rank = rank;
	r->op = op;
	r->peer = peer;
	r->root = -1;
	r->tag = tag;
	r->comm_size = RANKS;
	r->layout = -1;
	r->t_start_ns = post;
	r->t_measured_ns = dur;
	r->bytes = bytes;
	r->site = 0x1000 + (uint64_t)op;
	r->pred_flags = CP_PF_ON;
	for (k = 0; k < CP_NMODELS; k++)	/* model 3 covers nothing:
						 * PREDICT */
		r->pred_ns[k] = k == 3 ? NAN : 100.0 + 37.0 * k +
				(double)bytes / (k + 1);
	r->pred_lmw_ns = NAN;
	return r;
}

/* Step s of rank me: a send right (tag 1), a receive from the left, a
 * Sendrecv with both (tag 2, two rows), a send to MPI_PROC_NULL; times
 * so that the receive of a message starts 5 ns after its send. */
static void ring_rows(struct job *j, int me)
{
	int right = (me + 1) % RANKS, left = (me + RANKS - 1) % RANKS, s;
	int64_t t;
	struct cp_sum_row *r;

	for (s = 0; s < STEPS; s++) {
		t = 10000 * s + 100 * me;
		r = add(j, me, OP_SEND, right, 1, t, 50, 64 << (s % 5));
		if (s % 7 == 3) {	/* strided and flagged */
			r->layout = 2;
			r->pred_flags |= CP_PF_L3_LMW_LARGEST;
			r->pred_lmw_ns = 40;
		}
		add(j, me, OP_RECV, left, 1, 10000 * s + 100 * left + 5,
		    200 + me, 64 << (s % 5))->flags = CP_F_RECV;
		add(j, me, OP_SR, left, 2, t + 1000, 300, 256);
		r = add(j, me, OP_SR, right, 2, t + 1000, 300 + s, 256);
		r->flags = CP_F_RECV | CP_F_HALF;
		add(j, me, OP_SEND, CP_PEER_PROCNULL, 3, t + 2000, 10,
		    0)->flags = CP_F_PROCNULL;
	}
}

/* The algorithm the library decides for a collective row and stores
 * in it (src/lib/cp_pred_rt.h): Open MPI's defaults. */
static int32_t lib_alg(enum cp_coll_op op, const struct cp_sum_row *r)
{
	struct cp_coll_call c = { .op = op, .nprocs = r->comm_size,
				  .count = r->count, .commute = true };

	c.type_bytes = (double)r->bytes / (double)r->count;
	return cp_coll_decide(&c, NULL);
}

static void coll_rows(struct job *j, int me)
{
	struct cp_sum_row *r;
	int s;

	for (s = 0; s < STEPS / 2; s++) {	/* world: comm 0 */
		r = add(j, me, s % 2 ? OP_ALLR : OP_BCAST, -1, INT32_MIN,
			5000 + 20000 * s + 7 * me, 400 - 7 * me + s, 8);
		r->coll = true;
		r->root = s % 2 ? -1 : 0;
		r->op_name = s % 2 ? "MPI_Allreduce" : "MPI_Bcast";
		r->count = 2;		/* of 4 bytes */
		r->alg = lib_alg(s % 2 ? CP_COLL_ALLREDUCE : CP_COLL_BCAST, r);
	}
	if (me % 2)	/* odd ranks: comm 9 of 3 ranks */
		for (s = 0; s < 5; s++) {
			r = add(j, me, OP_ALLR, -1, INT32_MIN,
				7000 + 20000 * s + me, 100 + s, 16);
			r->coll = true;
			r->comm = 9;
			r->comm_size = 3;
			r->op_name = "MPI_Allreduce";
			r->count = 4;
			r->alg = lib_alg(CP_COLL_ALLREDUCE, r);
		}
}

static void make_job(struct job *j)
{
	int me;

	memset(j, 0, sizeof(*j));
	for (me = 0; me < RANKS; me++) {
		ring_rows(j, me);
		coll_rows(j, me);
	}
}

/* Records handed to homes, kept per home. */
struct homes {
	struct cp_red_rec *r[4];
	size_t n[4], cap[4];
};

static int emit(void *arg, uint32_t h, const struct cp_red_rec *r)
{
	struct homes *hs = arg;

	if (hs->n[h] == hs->cap[h]) {
		hs->cap[h] = hs->cap[h] ? 2 * hs->cap[h] : 256;
		hs->r[h] = realloc(hs->r[h], hs->cap[h] * sizeof(*r));
	}
	hs->r[h][hs->n[h]++] = *r;
	return 0;
}

/* How reduce() adds each home's summary to *out (ADD_LINK: merged, the
 * messages homed by link, as commprof's partitions). */
enum { ADD_MERGE, ADD_PACK, ADD_TAKE, ADD_LINK };

/* Reduce job j over nhome homes, each home with its own summary, merged,
 * packed and unpacked, or taken (cp_red_sum_take) into *out. */
static int reduce(const struct job *j, uint32_t nhome, int add,
		  const uint8_t *state, struct cp_red_sum *out)
{
	struct cp_red_sum part[4];
	struct homes hs;
	struct cp_red x;
	size_t i, len;
	uint32_t h;
	int ret = 0;
	void *buf;

	memset(&hs, 0, sizeof(hs));
	cp_red_sum_init(out);
	for (h = 0; h < nhome; h++)
		cp_red_sum_init(&part[h]);
	cp_red_init(&x, &part[0], nhome, emit, &hs);
	x.by_link = add == ADD_LINK;
	for (i = 0; !ret && i < j->n; i++)
		ret = cp_red_scan_row(&x, &j->r[i]);
	for (h = 0; !ret && h < nhome; h++)
		ret = cp_red_match(&part[h], hs.r[h], hs.n[h], state, RANKS,
				   NULL, NULL);
	for (h = 0; h < nhome; h++) {
		if (!ret && add == ADD_PACK) {
			len = cp_red_sum_pack(&part[h], NULL, 0);
			buf = malloc(len);
			cp_red_sum_pack(&part[h], buf, len);
			ret = cp_red_sum_unpack(out, buf, len);
			free(buf);
		} else if (!ret && add == ADD_TAKE) {
			ret = cp_red_sum_take(out, &part[h]);
			ta_check(!part[h].acc && !part[h].nacc &&
				 !part[h].ncov, "home %u taken: left empty", h);
		} else if (!ret) {
			ret = cp_red_sum_merge(out, &part[h]);
		}
		cp_red_sum_free(&part[h]);
		free(hs.r[h]);
	}
	return ret;
}

static const struct cp_red_acc *find_acc(const struct cp_red_sum *s,
					 int model, int grp, int64_t key)
{
	size_t i;

	for (i = 0; s->acc && i <= s->maskacc; i++)
		if (s->acc[i].model == model && s->acc[i].grp == grp &&
		    s->acc[i].key == key)
			return &s->acc[i];
	return NULL;
}

static uint64_t cov_rows(const struct cp_red_sum *s, uint32_t pm,
			 uint32_t mm)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < s->ncov; i++)
		if (s->cov[i].pred_mask == pm && s->cov[i].mu_mask == mm)
			n += s->cov[i].rows;
	return n;
}

/* The same summary, up to the order of additions. */
static bool same_sum(const struct cp_red_sum *a, const struct cp_red_sum *b)
{
	static const double p[] = { 0.5, 0.9 };
	double qa[2], qb[2];
	size_t i;
	int k;

	if (memcmp(&a->st, &b->st, sizeof(a->st)) || a->nacc != b->nacc ||
	    a->ncov != b->ncov || a->nsg != b->nsg ||
	    a->p2p_skipped != b->p2p_skipped ||
	    a->calls_compared != b->calls_compared)
		return false;
	for (i = 0; i < a->ncov; i++)
		if (cov_rows(a, a->cov[i].pred_mask, a->cov[i].mu_mask) !=
		    cov_rows(b, a->cov[i].pred_mask, a->cov[i].mu_mask))
			return false;
	for (i = 0; i <= a->maskacc; i++) {
		const struct cp_red_acc *x = &a->acc[i], *y;

		if (x->model < 0)
			continue;
		y = find_acc(b, x->model, x->grp, x->key);
		if (!y || x->h.n != y->h.n || !ta_near(x->h.sum, y->h.sum, 1e-12))
			return false;
		cp_hist_quantiles(&x->h, p, 2, qa);
		cp_hist_quantiles(&y->h, p, 2, qb);
		if (qa[0] != qb[0] || qa[1] != qb[1])
			return false;
	}
	for (k = 0; k < CP_NMODELS; k++)
		if (a->nworst[k] != b->nworst[k] ||
		    memcmp(a->worst[k], b->worst[k],
			   a->nworst[k] * sizeof(**a->worst)))
			return false;
	return a->ncworst == b->ncworst &&
	       !memcmp(a->cworst, b->cworst, a->ncworst * sizeof(*a->cworst));
}

static int add_rec(void *arg, const struct cp_sum_rec *r)
{
	return cp_red_sum_add_rec(arg, r);
}

static void check_homes(const struct job *j)
{
	struct cp_red_sum one, three, packed, taken, linked, recs;
	uint8_t state[RANKS] = { 0 };
	int r1, r3, rp, rt, rl;

	r1 = reduce(j, 1, ADD_MERGE, state, &one);
	r3 = reduce(j, 3, ADD_MERGE, state, &three);
	rp = reduce(j, 3, ADD_PACK, state, &packed);
	rt = reduce(j, 3, ADD_TAKE, state, &taken);
	rl = reduce(j, 3, ADD_LINK, state, &linked);
	ta_check(!r1 && !r3 && !rp && !rt && !rl, "reductions return 0 (%d "
		 "%d %d %d %d)", r1, r3, rp, rt, rl);
	ta_check(same_sum(&one, &three), "three homes merged: the summary "
		 "of one home");
	ta_check(same_sum(&one, &packed), "three homes packed and unpacked: "
		 "the same");
	ta_check(same_sum(&one, &taken), "three homes taken: the same");
	ta_check(same_sum(&one, &linked), "three homes by link: the same");
	cp_red_sum_free(&taken);
	cp_red_sum_free(&linked);
	cp_red_sum_init(&recs);
	ta_check(!cp_red_sum_each(&one, add_rec, &recs) &&
		 same_sum(&one, &recs), "written as records and read back: "
		 "the same");
	cp_red_sum_free(&recs);
	cp_red_sum_free(&one);
	cp_red_sum_free(&three);
	cp_red_sum_free(&packed);
}

/* analysis/cp_match on every row at once, as the CLI did before. */
static void direct(const struct job *j, struct cp_match_stats *st)
{
	struct cp_match_msg *m = calloc(j->n, sizeof(*m));
	struct cp_match_coll *c = calloc(j->n, sizeof(*c));
	struct cp_match_out *o = calloc(j->n, sizeof(*o));
	size_t i, nm = 0, nc = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < j->n; i++) {
		const struct cp_sum_row *r = &j->r[i];

		if (r->coll) {
			c[nc].rank = r->rank;
			c[nc].comm = r->comm;
			c[nc].comm_size = r->comm_size;
			c[nc].op = r->op;
			c[nc].post_ns = r->t_start_ns;
			c[nc].end_ns = r->t_start_ns + r->t_measured_ns;
			c[nc++].order = r->seq;
		} else if (r->peer >= 0) {
			m[nm].rank = r->rank;
			m[nm].peer = r->peer;
			m[nm].tag = r->tag;
			m[nm].comm = r->comm;
			m[nm].recv = r->flags & CP_F_RECV;
			m[nm].post_ns = r->t_start_ns;
			m[nm].end_ns = r->t_start_ns + r->t_measured_ns;
			m[nm++].order = r->seq;
		}
	}
	cp_match_p2p(m, nm, o, st);
	cp_match_colls(c, nc, o, st);
	free(m);
	free(c);
	free(o);
}

static void check_direct(const struct job *j)
{
	struct cp_red_sum s;
	struct cp_match_stats st;
	uint8_t state[RANKS] = { 0 };
	const struct cp_red_acc *a;
	uint64_t msgs = RANKS * STEPS * 4, colls = RANKS * STEPS / 2 + 3 * 5;
	uint64_t calls = 0;
	size_t i;

	direct(j, &st);
	reduce(j, 2, ADD_MERGE, state, &s);
	ta_check(!memcmp(&st, &s.st, sizeof(st)) && st.p2p_matched == msgs &&
		 st.coll_matched == colls, "matched %zu message and %zu "
		 "collective rows, as cp_match on all rows (%llu, %llu)",
		 s.st.p2p_matched, s.st.coll_matched,
		 (unsigned long long)msgs, (unsigned long long)colls);
	ta_check(s.p2p_skipped == RANKS * STEPS &&
		 cov_rows(&s, PREDICT, 0) == RANKS * STEPS &&
		 cov_rows(&s, PREDICT, PREDICT) == msgs + colls,
		 "MPI_PROC_NULL rows counted, not compared; every other row "
		 "compared by the %d models that predict", CP_NMODELS - 1);
	a = find_acc(&s, 0, CP_RED_G_ALL, 0);
	ta_check(a && a->h.n == msgs + colls && s.calls_compared ==
		 msgs + colls - RANKS * STEPS, "lmo: %llu mu; %llu calls "
		 "compared (a Sendrecv's receive half is not a call)",
		 a ? (unsigned long long)a->h.n : 0,
		 (unsigned long long)s.calls_compared);
	/* rank 0 -> 1, tag 1, step 0: send at 0, receive posted at 5 ends
	 * at 206: t_transfer 201 against lmo's 100 + 64 */
	a = find_acc(&s, 0, CP_RED_G_LINK, 1);
	ta_check(a && a->h.n == 4 * STEPS, "link 0-1: %llu mu of lmo (0 to "
		 "1 with tag 1, 1 to 0 with tag 2, both halves)",
		 a ? (unsigned long long)a->h.n : 0);
	ta_check(s.nworst[0] == CP_RED_WORST && s.worst[0][0].mu >=
		 s.worst[0][CP_RED_WORST - 1].mu && s.nworst[3] == 0,
		 "worst rows: %d for lmo, largest first; none for a model "
		 "without predictions", CP_RED_WORST);
	for (i = 0; i <= s.masksg; i++)
		calls += s.sg[i].calls;
	ta_check(s.nsg == RANKS * 5 && calls == RANKS * 6, "strided sends: "
		 "%zu groups of (rank, bytes), %llu calls", s.nsg,
		 (unsigned long long)calls);
	cp_red_sum_free(&s);
}

/* The CP_RED_G_COLL group of op of bytes (4-byte elements) on P ranks,
 * NULL none; its algorithm as analysis/cp_coll.h decides into *alg. */
static const struct cp_red_acc *coll_acc(const struct cp_red_sum *s,
					 int model, int grp, int op,
					 enum cp_coll_op cop, int p,
					 uint64_t bytes, int *alg)
{
	struct cp_coll_call c = { cop, p, 0, (int64_t)bytes / 4, 4, true,
				  NULL };

	*alg = cp_coll_decide(&c, NULL);
	return find_acc(s, model, grp, CP_RED_COLL_KEY(op,
			cp_row_size_class(bytes), *alg));
}

/* World collective s ends at 5400 + 20001 s on every rank and rank 5
 * enters last, at 5035 + 20000 s: t_transfer 365 + s ns, skew 35 ns;
 * the broadcasts (s even) have the median t_transfer 374 ns. */
static void check_colls(const struct job *j)
{
	static const double half = 0.5;
	struct cp_red_sum s;
	uint8_t state[RANKS] = { 0 };
	const struct cp_red_acc *b, *a, *t, *w, *c;
	double qt = 0, qw = 0;
	int alg_b, alg_a, alg_c;
	size_t i, k, dup = 0, ranks = 0;

	reduce(j, 3, ADD_PACK, state, &s);
	b = coll_acc(&s, CP_MODEL_TAULOP, CP_RED_G_COLL, OP_BCAST,
		     CP_COLL_BCAST, RANKS, 8, &alg_b);
	a = coll_acc(&s, CP_MODEL_TAULOP, CP_RED_G_COLL, OP_ALLR,
		     CP_COLL_ALLREDUCE, RANKS, 8, &alg_a);
	c = coll_acc(&s, CP_MODEL_TAULOP, CP_RED_G_COLL, OP_ALLR,
		     CP_COLL_ALLREDUCE, 3, 16, &alg_c);
	ta_check(alg_b > 0 && alg_a > 0 && alg_c > 0 && b && a && c &&
		 b->h.n == RANKS * STEPS / 4 && a->h.n == RANKS * STEPS / 4 &&
		 c->h.n == 3 * 5, "collective groups by call, class and "
		 "algorithm: bcast %llu, allreduce %llu and %llu rows",
		 b ? (unsigned long long)b->h.n : 0,
		 a ? (unsigned long long)a->h.n : 0,
		 c ? (unsigned long long)c->h.n : 0);
	t = coll_acc(&s, CP_SUM_T_TRANSFER, CP_RED_G_CTIME, OP_BCAST,
		     CP_COLL_BCAST, RANKS, 8, &alg_b);
	w = coll_acc(&s, CP_SUM_T_WAIT, CP_RED_G_CTIME, OP_BCAST,
		     CP_COLL_BCAST, RANKS, 8, &alg_b);
	if (t && w) {
		cp_hist_quantiles(&t->h, &half, 1, &qt);
		cp_hist_quantiles(&w->h, &half, 1, &qw);
	}
	ta_check(t && w && t->h.n == RANKS * STEPS / 4 && qt == 375 &&
		 qw == 36, "bcast times: median t_transfer %g ns, t_wait %g "
		 "ns (plus 1), want 374 and 35", qt - 1, qw - 1);
	for (i = 0; i < s.ncworst; i++) {
		const struct cp_sum_worst *x = &s.cworst[i];

		ranks += x->rank == (x->comm == 9 ? 1 : 0);
		for (k = 0; k < i; k++)
			dup += x->comm == s.cworst[k].comm &&
			       x->t_transfer_ns == s.cworst[k].t_transfer_ns &&
			       x->t_wait_ns == s.cworst[k].t_wait_ns &&
			       x->op == s.cworst[k].op;
	}
	ta_check(s.ncworst == STEPS / 2 + 5 && !dup && ranks == s.ncworst &&
		 s.cworst[0].mu >= s.cworst[s.ncworst - 1].mu,
		 "worst collective calls: %zu (want %d), %zu twice, each by "
		 "its first rank's row, largest mu first", s.ncworst,
		 STEPS / 2 + 5, dup);
	cp_red_sum_free(&s);
}

static void check_state(void)
{
	ta_check(cp_red_rank_state(0, 0, 0, 1, true) == 0 &&
		 cp_red_rank_state(3, 0, 0, 1, true) == CP_RED_S_HOLE &&
		 cp_red_rank_state(0, 10, 4, 4, true) == CP_RED_S_CUT &&
		 cp_red_rank_state(0, 10, 4, 4, false) ==
		 (CP_RED_S_CUT | CP_RED_S_HOLE) &&
		 cp_red_rank_state(0, 10, -1, 1, false) == CP_RED_S_CUT &&
		 cp_red_rank_state(0, 10, -1, 2, false) == CP_RED_S_HOLE,
		 "rank states from meta counts: drops, identity sampling, "
		 "limits, older files");
}

/* Rank 2 keeps only its first 50 rows (a row limit: 40 message halves
 * of its 160): its four channels pair their prefix, 120 halves of its
 * partners are left.  Then rank 2 lost rows instead: its four channels
 * (320 halves) and the world's collectives (120 rows) are left. */
static void check_cut(const struct job *j)
{
	struct job c = { 0 };
	struct cp_red_sum s;
	uint8_t state[RANKS] = { 0 };
	size_t i, kept = 0;

	for (i = 0; i < j->n; i++) {
		if (j->r[i].rank == 2 && kept++ >= 50)
			continue;
		add(&c, 0, 0, 0, 0, 0, 0, 0);
		c.r[c.n - 1] = j->r[i];
	}
	state[2] = CP_RED_S_CUT;
	reduce(&c, 3, ADD_MERGE, state, &s);
	ta_check(s.st.p2p_counts == 0 && s.st.p2p_cut == 120 &&
		 s.st.p2p_matched == RANKS * STEPS * 4 - 240, "a row limit "
		 "on rank 2: %zu halves paired, %zu left after the limit, %zu "
		 "for counts", s.st.p2p_matched, s.st.p2p_cut,
		 s.st.p2p_counts);
	cp_red_sum_free(&s);
	state[2] = CP_RED_S_HOLE;
	reduce(j, 3, ADD_MERGE, state, &s);
	ta_check(s.st.p2p_hole == 320 && s.st.coll_hole == 120 &&
		 s.st.p2p_counts == 0, "rank 2 lost rows: %zu halves and %zu "
		 "collective rows left", s.st.p2p_hole, s.st.coll_hole);
	cp_red_sum_free(&s);
	free(c.r);
}

static void check_order(const struct job *j)
{
	struct cp_red_sum s;
	struct homes hs;
	struct cp_red x;
	struct cp_sum_row a = j->r[j->n - 1], b = a;
	int ret;

	memset(&hs, 0, sizeof(hs));
	cp_red_sum_init(&s);
	cp_red_init(&x, &s, 1, emit, &hs);
	b.t_start_ns -= 1000;
	ret = cp_red_scan_row(&x, &a);
	ta_check(!ret && cp_red_scan_row(&x, &b) == -CP_EINVAL,
		 "a collective row posted before the one scanned last: "
		 "-CP_EINVAL");
	cp_red_sum_free(&s);
	free(hs.r[0]);
}

int main(void)
{
	struct job j;

	make_job(&j);
	check_homes(&j);
	check_direct(&j);
	check_colls(&j);
	check_state();
	check_cut(&j);
	check_order(&j);
	free(j.r);
	return ta_done("test_reduce");
}
