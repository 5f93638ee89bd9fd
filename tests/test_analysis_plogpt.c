/*
 * test_analysis_plogpt.c - PlogPT without MPI: the replay of the PlogPT
 * paper's example of section III-E (4 nodes, b(1) = 3, b(2) = 4, g = 8,
 * L = 3) must give its times (Isends end at 12, Irecvs at 15, the run at
 * 26); replays of Alltoall A and B must equal the closed forms of
 * section IV on trees with and without full bisection; the RTO rule must
 * stall Alltoall B where a switch with shallow buffers lies between two
 * heights, and nowhere else.  Then one transfer alone, the size above
 * which Alltoall B stalls, and the estimates of the calibration.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_model.h"
#include "analysis/cp_plogpt_fit.h"
#include "analysis/cp_stats.h"
#include "analysis/cp_replay.h"
#include "tests/test_analysis.h"

#define MAXOPS	64

struct prog {
	struct cp_replay_op ops[16][MAXOPS];
	struct cp_replay_rank ranks[16];
};

static int put(struct prog *p, int r, enum cp_replay_kind k, int peer,
	       double bytes, int waits)
{
	struct cp_replay_rank *rk = &p->ranks[r];

	rk->ops = p->ops[r];
	rk->ops[rk->n] = (struct cp_replay_op){ .kind = k, .peer = peer,
						.bytes = bytes,
						.waits = waits };
	return rk->n++;
}

static void init(struct prog *p, int nranks)
{
	int r;

	memset(p, 0, sizeof(*p));
	for (r = 0; r < nranks; r++) {
		p->ranks[r].ops = p->ops[r];
		p->ranks[r].leaf = r;
	}
}

static void test_example(void)
{
	static const double gm[] = { 1 }, gt[] = { 8 };
	struct cp_plogpt_net net = { .height = 2, .l_s = 3, .g_bytes = gm,
				     .g_s = gt, .g_n = 1, .eps_s = 0.1,
				     .t_rto_s = 200 };
	struct cp_replay_result res;
	struct prog p;
	int r, rc;
	bool ok = true;

	net.b_bps[1] = 3;
	net.b_bps[2] = 4;
	net.d_s[1] = net.d_s[2] = 1;
	init(&p, 4);
	/* Fig. 9 */
	for (r = 0; r < 4; r++) {
		int rv = put(&p, r, CP_REPLAY_IRECV, r ^ 2, 1, 0);
		int sd = put(&p, r, CP_REPLAY_ISEND, r ^ 2, 1, 0);

		put(&p, r, CP_REPLAY_WAIT, 0, 0, sd);
		put(&p, r, CP_REPLAY_WAIT, 0, 0, rv);
	}
	put(&p, 0, CP_REPLAY_WAIT, 0, 0, put(&p, 0, CP_REPLAY_ISEND, 3, 1, 0));
	put(&p, 3, CP_REPLAY_WAIT, 0, 0, put(&p, 3, CP_REPLAY_IRECV, 0, 1, 0));
	rc = cp_replay_run(&net, p.ranks, 4, &res);
	ta_check(rc == 0 && res.settled && res.n_rto == 0,
		 "III-E: replay runs, no RTO (rc %d, %d RTO)", rc, res.n_rto);
	for (r = 0; r < 4; r++)
		ok &= p.ops[r][1].f_s == 12 && p.ops[r][2].l_s == 12 &&
		      p.ops[r][3].l_s == 15 && p.ops[r][1].height == 2;
	ta_check(ok, "III-E: Isends share b(2)/2 = 2 and end at 12 (eq. 16-17),"
		 " Irecvs at 12 + L = 15 (eq. 15)");
	ta_check(p.ops[0][4].e_s == 15 && p.ops[0][4].f_s == 23 &&
		 p.ops[3][5].l_s == 26,
		 "III-E: 0 -> 3 alone at b(1) = 3 from 15 ends at 23, rank 3 "
		 "leaves at 26 (got %g, %g)", p.ops[0][4].f_s,
		 p.ops[3][5].l_s);
	ta_check(res.total_s == 26, "III-E: the run takes 26 (got %g)",
		 res.total_s);
	/* rank 0 computes 5 before its last Isend: it starts at 20 */
	p.ops[0][4].before_s = 5;
	rc = cp_replay_run(&net, p.ranks, 4, &res);
	ta_check(rc == 0 && p.ops[0][4].e_s == 20 && res.total_s == 31,
		 "III-E with 5 of computation before 0 -> 3: enters at 20, the "
		 "run takes 31 (got %g, %g)", p.ops[0][4].e_s, res.total_s);
}

/* Alltoall over 2^D ranks, partner r xor i at step i; a: Irecv, Send,
 * Wait per step; else every Irecv first, then the Sends. */
static void alltoall(struct prog *p, int d, bool a, double m)
{
	int n = 1 << d, r, i;

	init(p, n);
	for (r = 0; r < n; r++) {
		int rv[16];

		for (i = 1; i < n; i++) {
			if (a)
				rv[i] = put(p, r, CP_REPLAY_IRECV, r ^ i, m, 0);
			else if (i == 1)
				for (int k = 1; k < n; k++)
					rv[k] = put(p, r, CP_REPLAY_IRECV,
						    r ^ k, m, 0);
			put(p, r, CP_REPLAY_WAIT, 0, 0,
			    put(p, r, CP_REPLAY_ISEND, r ^ i, m, 0));
			if (a)
				put(p, r, CP_REPLAY_WAIT, 0, 0, rv[i]);
		}
		if (!a)
			for (i = 1; i < n; i++)
				put(p, r, CP_REPLAY_WAIT, 0, 0, rv[i]);
	}
}

static void test_alltoall(void)
{
	static const double gm[] = { 0, 65536 }, gt[] = { 2e-5, 6.8e-3 };
	struct cp_plogpt_net net = { .height = 3, .l_s = 4e-5, .g_bytes = gm,
				     .g_s = gt, .g_n = 2, .eps_s = 0.1,
				     .eps_t_s = 0, .t_rto_s = 0.2 };
	struct cp_replay_result res;
	double want, w, pa, pb, m = 30000;
	static struct prog p;
	int rc;

	/* thinner toward the root: b(h+1) < 2 b(h) */
	net.b_bps[1] = 1.25e7;
	net.b_bps[2] = 1.5e7;
	net.b_bps[3] = 2e7;
	alltoall(&p, 3, true, m);
	rc = cp_replay_run(&net, p.ranks, 8, &res);
	cp_plogpt_alltoall_a(&net, m, &want);
	ta_check(rc == 0 && ta_near(res.total_s, want, 1e-12),
		 "Alltoall A, 8 ranks, thin tree: replay %.9g = W + (P-1)L "
		 "%.9g", res.total_s, want);
	alltoall(&p, 3, false, m);
	rc = cp_replay_run(&net, p.ranks, 8, &res);
	cp_plogpt_alltoall_b(&net, m, 0, &want);
	ta_check(rc == 0 && ta_near(res.total_s, want, 1e-12),
		 "Alltoall B, 8 ranks, thin tree, eps_T = 0: replay %.9g = "
		 "W + L %.9g", res.total_s, want);
	cp_plogpt_alltoall_w(&net, m, &w);
	cp_plogp_eval_alltoall_a(net.l_s, gm, gt, 2, m, 8, &pa);
	ta_check(w > 7 * (pa / 7 - net.l_s) * 1.01,
		 "thin tree: W %.6g exceeds PLogP's (P-1)g(m) %.6g", w,
		 pa - 7 * net.l_s);

	/* full bisection: b(h) = 2^(h-1) b(1), PlogPT is PLogP */
	net.b_bps[2] = 2.5e7;
	net.b_bps[3] = 5e7;
	cp_plogpt_alltoall_a(&net, m, &want);
	cp_plogp_eval_alltoall_b(net.l_s, gm, gt, 2, m, 8, &pb);
	cp_plogp_eval_alltoall_a(net.l_s, gm, gt, 2, m, 8, &pa);
	ta_check(ta_near(want, pa, 1e-12),
		 "full bisection: PlogPT's A %.9g is PLogP's (P-1)(g+L) %.9g",
		 want, pa);
	alltoall(&p, 3, false, m);
	rc = cp_replay_run(&net, p.ranks, 8, &res);
	ta_check(rc == 0 && ta_near(res.total_s, pb, 1e-12),
		 "full bisection: replay of B %.9g is PLogP's (P-1)g + L %.9g",
		 res.total_s, pb);
}

/* Alltoall B over 4 ranks with its steps in falling order: partner
 * r xor 3, r xor 2 (height 2), then r xor 1 (height 1). */
static void alltoall_b_down(struct prog *p, double m)
{
	int r, i, rv[4];

	init(p, 4);
	for (r = 0; r < 4; r++) {
		for (i = 3; i >= 1; i--)
			rv[i] = put(p, r, CP_REPLAY_IRECV, r ^ i, m, 0);
		for (i = 3; i >= 1; i--)
			put(p, r, CP_REPLAY_WAIT, 0, 0,
			    put(p, r, CP_REPLAY_ISEND, r ^ i, m, 0));
		for (i = 3; i >= 1; i--)
			put(p, r, CP_REPLAY_WAIT, 0, 0, rv[i]);
	}
}

static void test_rto(void)
{
	static const double gm[] = { 0, 65536 }, gt[] = { 2e-5, 6.8e-3 };
	struct cp_plogpt_net net = { .height = 2, .l_s = 4e-5, .g_bytes = gm,
				     .g_s = gt, .g_n = 2, .eps_s = 0.1,
				     .eps_t_s = 1e-5, .t_rto_s = 0.2 };
	struct cp_replay_result res;
	double want, m = 30000;
	static struct prog p;
	int rc, r;
	bool ok = true;

	/* a switch between heights 1 and 2 (b(2) = b(1)), buffers of 1 ms
	 * at 10 MB/s hold 10 kB < m */
	net.b_bps[1] = net.b_bps[2] = 1e7;
	net.d_s[1] = net.d_s[2] = 1e-3;
	ta_check(cp_plogpt_switch(&net, 1, 2) && !cp_plogpt_switch(&net, 2, 2),
		 "P_S(1, 2) with b(2) = b(1); P_S(2, 2) false");
	net.d_s[2] = NAN;
	ta_check(cp_plogpt_switch(&net, 1, 2) &&
		 cp_plogpt_rto_bytes(&net, 1) == 1e4,
		 "d(2) not measured: P_S(1, 2) from the rates alone, and the "
		 "RTO rule's buffer at height 1 as before");
	net.b_bps[2] = 2e7;
	ta_check(!cp_plogpt_switch(&net, 1, 2),
		 "d(2) not measured: no P_S(1, 2) with b(2) = 2 b(1)");
	net.b_bps[2] = 1e7;
	net.d_s[2] = 1e-3;
	alltoall(&p, 2, false, m);
	rc = cp_replay_run(&net, p.ranks, 4, &res);
	cp_plogpt_alltoall_b(&net, m, 1, &want);
	for (r = 0; r < 4; r++)
		ok &= p.ops[r][3].rto && !p.ops[r][5].rto && !p.ops[r][7].rto;
	ta_check(rc == 0 && ok && res.n_rto == 4 && res.settled,
		 "Alltoall B, 4 ranks: each height-1 Send stalls (the height-2 "
		 "burst to its destination starts as it ends), no other (%d "
		 "RTO, %d passes)", res.n_rto, res.passes);
	ta_check(ta_near(res.total_s, want, 1e-12),
		 "Alltoall B with its D - 1 = 1 stall: replay %.9g = W + L + "
		 "T_RTO %.9g", res.total_s, want);
	alltoall(&p, 2, true, m);
	rc = cp_replay_run(&net, p.ranks, 4, &res);
	cp_plogpt_alltoall_a(&net, m, &want);
	ta_check(rc == 0 && res.n_rto == 0 && ta_near(res.total_s, want, 1e-12),
		 "Alltoall A paces its steps: no RTO, %.9g = W + (P-1)L",
		 res.total_s);

	/* full bisection and equal buffers: no switch, no stall */
	net.b_bps[2] = 2e7;
	alltoall(&p, 2, false, m);
	rc = cp_replay_run(&net, p.ranks, 4, &res);
	ta_check(rc == 0 && res.n_rto == 0,
		 "full bisection: Alltoall B draws no RTO (%d)", res.n_rto);
	/* deep buffers: d(1) b_c = 1 MB >= m */
	net.b_bps[2] = 1e7;
	net.d_s[1] = net.d_s[2] = 0.1;
	alltoall(&p, 2, false, m);
	rc = cp_replay_run(&net, p.ranks, 4, &res);
	ta_check(rc == 0 && res.n_rto == 0,
		 "buffers that hold the message: no RTO (%d)", res.n_rto);

	/* P_B at the lower height, the edges into the destination that a
	 * height-2 send and the height-1 send after it share */
	net.d_s[1] = 0.1;
	net.d_s[2] = 1e-3;
	alltoall_b_down(&p, m);
	rc = cp_replay_run(&net, p.ranks, 4, &res);
	ta_check(rc == 0 && res.n_rto == 0,
		 "height 2 then 1, deep height-1 buffers: no RTO although "
		 "the height-2 ones overflow (%d)", res.n_rto);
	net.d_s[1] = 1e-3;
	net.d_s[2] = 0.1;
	alltoall_b_down(&p, m);
	rc = cp_replay_run(&net, p.ranks, 4, &res);
	for (r = 0, ok = true; r < 4; r++)
		ok &= !p.ops[r][3].rto && p.ops[r][5].rto && !p.ops[r][7].rto;
	ta_check(rc == 0 && ok && res.n_rto == 4,
		 "height 2 then 1, shallow height-1 buffers: each second "
		 "height-2 send stalls (%d RTO)", res.n_rto);
}

static void test_errors(void)
{
	static const double gm[] = { 1 }, gt[] = { 8 };
	struct cp_plogpt_net net = { .height = 1, .l_s = 3, .g_bytes = gm,
				     .g_s = gt, .g_n = 1 };
	struct cp_replay_result res;
	static struct prog p;

	net.b_bps[1] = 3;
	init(&p, 2);
	put(&p, 0, CP_REPLAY_WAIT, 0, 0, put(&p, 0, CP_REPLAY_IRECV, 1, 1, 0));
	ta_check(cp_replay_run(&net, p.ranks, 2, &res) == -CP_ENOPRED &&
		 isnan(p.ops[0][1].l_s),
		 "a receive without its send: -CP_ENOPRED, its Wait NAN");
	init(&p, 2);
	put(&p, 0, CP_REPLAY_ISEND, 5, 1, 0);
	ta_check(cp_replay_run(&net, p.ranks, 2, &res) == -CP_EINVAL,
		 "a peer out of range: -CP_EINVAL");
	init(&p, 2);
	p.ranks[1].leaf = 2;
	ta_check(cp_replay_run(&net, p.ranks, 2, &res) == -CP_EINVAL,
		 "a leaf beyond 2^D: -CP_EINVAL");
	init(&p, 2);
	put(&p, 0, CP_REPLAY_WAIT, 0, 0, 0);
	ta_check(cp_replay_run(&net, p.ranks, 2, &res) == -CP_EINVAL,
		 "a Wait of no earlier operation: -CP_EINVAL");
	ta_check(cp_plogpt_height(0, 0) == 0 && cp_plogpt_height(2, 3) == 1 &&
		 cp_plogpt_height(0, 7) == 3 && cp_plogpt_height(5, 1) == 3,
		 "heights: same leaf 0, siblings 1, across the root D");
}

/* One transfer alone, eq. 24's threshold and N_RTO, and the fits. */
/* q[0..n) as delays timed in bursts of 6 roundtrips each */
static void delays(struct cp_plogpt_delay *d, const double *q, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = (struct cp_plogpt_delay){ .s = q[i], .burst = (int)i / 6 };
}

/* d(h) from roundtrips timed in 7 incasts on the tree bed's 256-KiB
 * buffer (5.24 ms at 400 Mbit/s), less the free median, in ms, six a
 * burst: slow start, the full buffer, TCP backed off, single pings
 * resent 10 ms later (nine in four bursts, 10.2 to 10.9) and three in a
 * row in one, a burst in which the host stalled (6.6 to 7.3), the idle
 * queue of a timeout. */
static void test_pile(void)
{
	static const double q[] = {
		0.1, 10.4, 1.2, 10.2, 5.22, 5.25,
		15.9, 5.24, 5.26, 10.6, 4.5, 4.4,
		12.5, 12.3, 11.8, 5.2, 5.23, 4.1,
		7.3, 6.6, 7.1, 6.9, 7.2, 6.8,
		0.02, 10.5, 0.02, 10.3, 0.03, 0.02,
		0.3, 10.2, 2.8, 5.21, 10.7, 5.1,
		0.2, 10.9, 2.5, 5.26, 10.4, 3.9 };
	static const double idle[] = { 0, -0.01, 0, 0, -0.02, 0, 0, 0.01,
					0, -0.01 };
	static const double bad[] = { 1, 2, NAN, 3, 4, 5, 6, 7, 8, 9 };
	static const double low[] = {
		0.03, 0.03, 0.02, 0.03, 0.03, 0.02,
		0.02, 0.03, 0.03, 0.03, 0.02, 0.03,
		0.03, 0.02, 0.03, 0.03, 0.03, 0.02,
		0.3, 1.7, 1.75, 1.76, 0.5, 0.02 };
	enum { N = sizeof(q) / sizeof(q[0]),
	       NL = sizeof(low) / sizeof(low[0]) };
	struct cp_plogpt_delay d[N];
	double v = NAN, lo, hi, p90 = NAN;
	size_t k = 0;
	int rc = cp_stats_percentile(q, N, 0.9, &p90);

	delays(d, q, N);
	rc = rc ? rc : cp_plogpt_fit_pile(d, N, 0, &v, &lo, &hi, &k);
	ta_check(rc == 0 && ta_near(v, 5.22, 1e-9) && lo == 5.1 &&
		 hi == 5.26 && k == 10 && p90 > 6.5,
		 "d(h): the median of the highest pile of 8 or more held "
		 "delays within 10%% from 3 bursts or more, %g (%g to %g, %zu),"
		 " not the stalled burst's 6.6 to 7.3 nor the resent pings; "
		 "the 90th percentile is %g", v, lo, hi, k, p90);
	delays(d, q, N);
	for (size_t i = 0; i < N; i++)
		d[i].burst %= 2;
	ta_check(cp_plogpt_fit_pile(d, N, 0, &v, &lo, &hi, &k) == -CP_ENUM,
		 "d(h): the same delays from two bursts make no pile");
	delays(d, q, 8);
	ta_check(cp_plogpt_fit_pile(d, 8, 0, &v, &lo, &hi, &k) == -CP_EINVAL,
		 "d(h): fewer than 8 held delays refused");
	delays(d, bad, 10);
	ta_check(cp_plogpt_fit_pile(d, 10, 0, &v, &lo, &hi, &k) == -CP_EINVAL,
		 "d(h): NaN refused");
	delays(d, idle, 10);
	for (size_t i = 0; i < 10; i++)
		d[i].burst = 0;
	ta_check(cp_plogpt_fit_pile(d, 10, 0, &v, &lo, &hi, &k) == -CP_ENUM,
		 "d(h): no queue seen");
	delays(d, q, N);
	ta_check(cp_plogpt_fit_pile(d, N, 0.1, &v, &lo, &hi, &k) == 0 &&
		 ta_near(v, 5.22, 1e-9) && k == 10,
		 "d(h): a floor below the pile leaves it, %g (%zu)", v, k);
	delays(d, q, N);
	ta_check(cp_plogpt_fit_pile(d, N, -1, &v, &lo, &hi, &k) ==
			 -CP_EINVAL &&
		 cp_plogpt_fit_pile(d, N, NAN, &v, &lo, &hi, &k) == -CP_EINVAL,
		 "d(h): a negative or NaN floor refused");
	/* TCP timed out in three bursts: their roundtrips sit at the idle
	 * queue; the fourth reached the full buffer (1.75 ms) for two */
	delays(d, low, NL);
	ta_check(cp_plogpt_fit_pile(d, NL, 0, &v, &lo, &hi, &k) == 0 &&
		 ta_near(v, 0.02, 1e-9),
		 "d(h): without a floor the idle queue's pile, %g", v);
	delays(d, low, NL);
	ta_check(cp_plogpt_fit_pile(d, NL, 0.1, &v, &lo, &hi, &k) == -CP_ENUM,
		 "d(h): no pile above the free roundtrips' spread: no queue "
		 "seen");
}

static void test_online(void)
{
	static const double gm[] = { 0, 65536 }, gt[] = { 2e-5, 6.8e-3 };
	struct cp_plogpt_net net = { .height = 3, .l_s = 4e-5, .g_bytes = gm,
				     .g_s = gt, .g_n = 2, .eps_s = 0.1,
				     .eps_t_s = 1e-5, .t_rto_s = 0.2 };
	double t, g, b[4] = { 0, 1e7, 3e7, 4e7 }, lo[4] = { 0, 1, 1, 1 };
	double hi[4] = { 0, 1.5, 1, 1 };
	bool ex;

	net.b_bps[1] = 1e7;
	net.b_bps[2] = 5e6;	/* a thin height-2 edge: half of b(1) */
	net.b_bps[3] = 1e7;	/* b(3) = 2 b(2): no switch between 2 and 3 */
	net.d_s[1] = net.d_s[2] = net.d_s[3] = 1e-3;
	cp_plogpt_gap(&net, 30000, &g);
	ta_check(!cp_plogpt_p2p(&net, 0, 30000, &t, &ex) &&
		 ta_near(t, 4e-5 + g, 1e-12) && !ex,
		 "p2p at height 0: L + g(m)");
	ta_check(!cp_plogpt_p2p(&net, 1, 30000, &t, &ex) &&
		 ta_near(t, 4e-5 + g, 1e-12),
		 "p2p at height 1: L + g(m)");
	ta_check(!cp_plogpt_p2p(&net, 3, 30000, &t, &ex) &&
		 ta_near(t, 4e-5 + 2 * g, 1e-12),
		 "p2p at height 3: g(m) b(1)/b(2), the narrowest edge");
	ta_check(cp_plogpt_p2p(&net, 4, 30000, &t, &ex) == -CP_EINVAL &&
		 !cp_plogpt_p2p(&net, 1, 1e5, &t, &ex) && ex,
		 "p2p: a height above D refused; a size past g's table "
		 "flagged");
	/* 1->2: P_S (b(2) = b(1)/2), every leaf at height 1 gets b(1) =
	 * 1e7, a 1 ms buffer holds 1e4 B; 2->3: no switch */
	ta_check(ta_near(cp_plogpt_rto_bytes(&net, 1), 1e4, 1e-12) &&
		 isinf(cp_plogpt_rto_bytes(&net, 2)) &&
		 isinf(cp_plogpt_rto_bytes(&net, 3)),
		 "eq. 24: 1 -> 2 stalls above d(1) b(1) = 1e4 B; 2 -> 3 never");
	ta_check(cp_plogpt_alltoall_nrto(&net, 9999) == 0 &&
		 cp_plogpt_alltoall_nrto(&net, 10001) == 1,
		 "N_RTO 0 below 1e4 B, 1 above");
	ta_check(!cp_plogpt_fit_l(1e-4, 2e-5, &t) && ta_near(t, 3e-5, 1e-12) &&
		 cp_plogpt_fit_l(1e-5, 2e-5, &t) == -CP_ENUM &&
		 cp_plogpt_fit_l(NAN, 0, &t) == -CP_EINVAL,
		 "L = RTT(0)/2 - g(0); negative and NaN refused");
	test_pile();
	ta_check(cp_plogpt_fit_cap_b(b, 3) == 1 && b[2] == 2e7 && b[3] == 4e7,
		 "b(h + 1) <= 2 b(h): b(2) capped to 2e7, b(3) kept");
	ta_check(ta_near(cp_plogpt_fit_eps_s(lo, hi, lo, lo, 3),
			 log(1.5) * log(1.5), 1e-12) &&
		 cp_plogpt_fit_eps_s(lo, lo, lo, lo, 3) == CP_PLOGPT_EPS_S_MIN,
		 "eps_S: the widest spread of one height, at least the floor");
	ta_check(!cp_plogpt_fit_eps_t(gm, gt, 2, &t) &&
		 ta_near(t, 4 * (2e-5 + (6.8e-3 - 2e-5) * 1448 / 65536), 1e-9),
		 "eps_T: 4 g(1448)");
}

int main(void)
{
	test_example();
	test_alltoall();
	test_rto();
	test_online();
	test_errors();
	return ta_done("test_analysis_plogpt");
}
