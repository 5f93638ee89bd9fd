/*
 * test_analysis_taulop.c - analysis/cp_taulop without MPI: the formulas
 * on integer tables where every value is exact (one transmission, tau-Lop
 * paper's eq. 9 example, a binomial broadcast and a recursive doubling
 * allreduce written out by hand, the baselines over the same rounds, channels
 * and reductions), then the estimation: Ring and fan times synthesized from
 * known o and L with noise must give them back, within their intervals.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/cp_err.h"
#include "analysis/cp_taulop.h"
#include "analysis/cp_taulop_fit.h"
#include "tests/test_analysis.h"

/* Shared memory tables, microseconds: o(m) = 1 + m/1000 and
 * L(m, tau) = tau * (2 + m/100), at sizes 0, 100, 1000 and tau 1, 2, 4. */
static const double sizes[] = { 0, 100, 1000 };
static const double taus[] = { 1, 2, 4 };
static double o_tab[3], l_tab[9];

static double o_true(double m)
{
	return 1 + m / 1000;
}

static double l_true(double m, double tau)
{
	return tau * (2 + m / 100);
}

static void tables(struct cp_taulop *m)
{
	int is, it;

	for (is = 0; is < 3; is++) {
		o_tab[is] = o_true(sizes[is]);
		for (it = 0; it < 3; it++)
			l_tab[is * 3 + it] = l_true(sizes[is], taus[it]);
	}
	memset(m, 0, sizeof(*m));
	m->ch[CP_TL_SHM] = (struct cp_taulop_chan){
		.nsizes = 3, .ntau = 3, .hops = 2, .size_bytes = sizes,
		.tau = taus, .o_s = o_tab, .l_s = l_tab };
	m->red_spb = 0.01;
}

static void test_formulas(const struct cp_taulop *m)
{
	unsigned f = 0;
	double t, x;
	const double sz[] = { 35, 97, 124 };
	const int cnt[] = { 1, 1, 1 };

	t = cp_taulop_p2p(m, CP_TL_SHM, 100, 2, NAN, &f);
	ta_check(t == o_true(100) + 2 * l_true(100, 2) && !f,
		 "2 || T_0(100) = o(100) + 2 L(100, 2) = %g", t);
	/* between measured points: linear in m, then in tau */
	t = cp_taulop_l(&m->ch[CP_TL_SHM], 550, 3, &f);
	ta_check(ta_near(t, 3 * (2 + 5.5), 1e-12) && !f,
		 "L(550, 3) interpolated = %g (want 22.5)", t);
	t = cp_taulop_l(&m->ch[CP_TL_SHM], 2000, 2, &f);
	ta_check(t == 2 * l_true(1000, 2) && f == CP_TL_F_EXTRAP_SIZE,
		 "L(2000, 2) = 2 L(1000, 2) (L(A m) = A L(m)), flagged");
	f = 0;
	t = cp_taulop_l(&m->ch[CP_TL_SHM], 100, 8, &f);
	ta_check(t == 2 * l_true(100, 4) && f == CP_TL_F_EXTRAP_TAU,
		 "L(100, 8) = 2 L(100, 4) (the bound A L), flagged");
	ta_check(isnan(cp_taulop_p2p(m, CP_TL_NET, 100, 1, NAN, NULL)),
		 "an uncalibrated channel prices nothing");
	/* where the channel has them, written messages' L (1.5 L here)
	 * prices a message and the L of rounds that start together (3 L)
	 * a round, each only its own */
	{
		struct cp_taulop w = *m;
		double lw[9], ls[9];
		int i;

		for (i = 0; i < 9; i++) {
			lw[i] = 1.5 * l_tab[i];
			ls[i] = 3 * l_tab[i];
		}
		w.ch[CP_TL_SHM].lw_s = lw;
		w.ch[CP_TL_SHM].ls_s = ls;
		f = 0;
		t = cp_taulop_p2p(&w, CP_TL_SHM, 550, 3, NAN, &f);
		x = o_true(550) + 2 * 1.5 * 3 * (2 + 5.5);
		ta_check(ta_near(t, x, 1e-12) && !f,
			 "3 || T_0(550) of a written message: o + 2 Lw = %g "
			 "(want %g)", t, x);
		t = cp_taulop_round(&w, CP_TL_SHM, sz, cnt, 3, 5, &f);
		x = 5 + 2 * 3 * (l_true(35, 3) + l_true(62, 2) +
				 l_true(27, 1));
		ta_check(ta_near(t, x, 1e-12) && !f,
			 "a round prices with Ls: %g (want %g)", t, x);
		w.ch[CP_TL_SHM].ls_s = NULL;
		t = cp_taulop_round(&w, CP_TL_SHM, sz, cnt, 1, 5, &f);
		ta_check(t == 5 + 2 * l_true(35, 1),
			 "without Ls a round prices with L, not Lw (%g)", t);
	}
	/* a message after a quiet gap: the gap table's extra time, linear
	 * in m (the largest size's above it), linear in log(gap), from 0 at
	 * gap 0, the last gap's above it, below 0 where measured so, none
	 * where unset; the message never below o */
	{
		struct cp_taulop g = *m;
		const double gaps[] = { 10, 100, 1000 };
		const double lg[] = { 0.1, 0.5, -0.2, 1, 2, 4, 10, 20, NAN };
		const struct cp_taulop_chan *c = &g.ch[CP_TL_SHM];
		const struct { double m, gap, want; } k[] = {
			{ 100, 100, 2 }, { 100, 5, 0.5 },
			{ 100, sqrt(1000), 1.5 }, { 100, 5000, 4 },
			{ 550, 100, 11 }, { 2000, 10, 10 },
			{ 0, 1000, -0.2 },
			{ 1000, 1000, 0 }, { 100, NAN, 0 }, { 100, 0, 0 },
		};

		g.ch[CP_TL_SHM].ngap = 3;
		g.ch[CP_TL_SHM].gap_s = gaps;
		g.ch[CP_TL_SHM].lg_s = lg;
		for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
			t = cp_taulop_gap(c, k[i].m, k[i].gap);
			ta_check(ta_near(t, k[i].want, 1e-12),
				 "gap extra of %g B after %g = %g (want %g)",
				 k[i].m, k[i].gap, t, k[i].want);
		}
		f = 0;
		t = cp_taulop_p2p(&g, CP_TL_SHM, 100, 2, 100, &f);
		x = o_true(100) + 2 * l_true(100, 2) + 2;
		ta_check(ta_near(t, x, 1e-12) && !f,
			 "2 || T_0(100) after a gap of 100: o + 2 L + 2 = %g "
			 "(want %g)", t, x);
		t = cp_taulop_p2p(m, CP_TL_SHM, 100, 2, 100, NULL);
		ta_check(t == o_true(100) + 2 * l_true(100, 2),
			 "no gap table: the gap adds nothing (%g)", t);
		{
			double neg[9];

			for (size_t i = 0; i < 9; i++)
				neg[i] = -100;
			g.ch[CP_TL_SHM].lg_s = neg;
			t = cp_taulop_p2p(&g, CP_TL_SHM, 100, 2, 100, NULL);
			ta_check(t == o_true(100),
				 "a gap's saving stops at o: %g (want %g)", t,
				 o_true(100));
		}
	}
	/* tau-Lop paper eq. 9: T(124) || T(97) || T(35) = 3||T(35) + 2||T(62)
	 * + T(27), the remainders' overheads dropped (A1) */
	f = 0;
	t = cp_taulop_round(m, CP_TL_SHM, sz, cnt, 3, 5, &f);
	x = 5 + 2 * (l_true(35, 3) + l_true(62, 2) + l_true(27, 1));
	ta_check(ta_near(t, x, 1e-12),
		 "eq. 9 round: o + 2[L(35,3) + L(62,2) + L(27,1)] = %g (want "
		 "%g)", t, x);
}

static void test_colls(const struct cp_taulop *m)
{
	struct cp_coll_mca mca;
	struct cp_coll_call c = { CP_COLL_BCAST, 4, 0, 100, 1, true, NULL };
	int32_t hosts[4] = { 0, 0, 1, 1 };
	struct cp_coll_place pl = { NULL, hosts };
	unsigned f = 0;
	double t, x;
	int rc;

	cp_coll_mca_default(&mca);
	mca.use_dynamic = true;
	mca.alg[CP_COLL_BCAST] = 6;
	/* Open MPI's binomial broadcast on 4: the root sends to 1 and 2 at
	 * once, then 1 to 3; the root's two messages carry the same data,
	 * which the channel carries once (its overhead paid twice) */
	rc = cp_taulop_coll(m, &c, 6, &mca, NULL, NULL, &t, &f);
	x = 2 * o_true(100) + 2 * l_true(100, 1) + o_true(100) +
	    2 * l_true(100, 1);
	ta_check(!rc && ta_near(t, x, 1e-12) && !f,
		 "binomial bcast P=4 of 100 B: 2o + 2L(100,1) + o + 2L(100,1) "
		 "= %g (want %g)", t, x);
	/* the linear one: the root's three messages at once */
	rc = cp_taulop_coll(m, &c, 1, NULL, NULL, NULL, &t, &f);
	x = 3 * o_true(100) + 2 * l_true(100, 1);
	ta_check(!rc && ta_near(t, x, 1e-12) && !f,
		 "linear bcast P=4 of 100 B: 3o + 2L(100,1) = %g (want %g)", t,
		 x);
	/* on two hosts (the network with the same tables, one hop): the
	 * root's two messages to the other host both cross its link */
	{
		struct cp_taulop m2 = *m;

		m2.ch[CP_TL_NET] = m->ch[CP_TL_SHM];
		m2.ch[CP_TL_NET].hops = 1;
		rc = cp_taulop_coll(&m2, &c, 1, NULL, &pl, NULL, &t, &f);
		x = fmax(o_true(100) + 2 * l_true(100, 1),
			 2 * o_true(100) + l_true(100, 2));
		ta_check(!rc && ta_near(t, x, 1e-12) && !f,
			 "linear bcast on 2 hosts: max(o + 2L(100,1), "
			 "2o + L_1(100,2)) = %g (want %g)", t, x);
	}
	/* recursive doubling allreduce: two rounds of 4 exchanges, each
	 * followed by a reduction of the whole message */
	c.op = CP_COLL_ALLREDUCE;
	c.count = 1000;
	rc = cp_taulop_coll(m, &c, 3, NULL, NULL, NULL, &t, &f);
	x = 2 * (o_true(1000) + 2 * l_true(1000, 4) + 1000 * 0.01);
	ta_check(!rc && ta_near(t, x, 1e-12),
		 "recursive doubling allreduce P=4 of 1000 B = %g (want %g)",
		 t, x);
	/* across two hosts with no network tables: not priced */
	f = 0;
	rc = cp_taulop_coll(m, &c, 3, NULL, &pl, NULL, &t, &f);
	ta_check(rc == -1 && (f & CP_TL_F_NOCHAN) && isnan(t),
		 "a round on an uncalibrated channel: not predicted");
	{
		struct cp_taulop m2 = *m;

		m2.red_spb = NAN;
		f = 0;
		rc = cp_taulop_coll(&m2, &c, 3, NULL, NULL, NULL, &t, &f);
		ta_check(rc == -1 && (f & CP_TL_F_NORED),
			 "a reduction without its cost: not predicted");
		c.op = CP_COLL_ALLGATHER;
		rc = cp_taulop_coll(&m2, &c, 3, NULL, NULL, NULL, &t, &f);
		/* 2000 B lies beyond the table: L(2000) = 2 L(1000) */
		ta_check(!rc && ta_near(t, o_true(1000) + 2 * l_true(1000, 4) +
					   o_true(2000) + 4 * l_true(1000, 4),
					1e-12),
			 "allgather (no reduction) needs no reduction cost");
	}
	/* the baselines over the same rounds: per process, max of what it
	 * sends and what it receives, rounds added */
	c.op = CP_COLL_BCAST;
	c.count = 100;
	rc = cp_coll_baseline(CP_COLL_HOCKNEY, 3, 0.5, 0, &c, 1, NULL, &t);
	ta_check(!rc && t == 3 * (3 + 0.5 * 100),
		 "Hockney of a linear bcast P=4: 3 (alpha + beta m) = %g", t);
	c.op = CP_COLL_ALLGATHER;
	rc = cp_coll_baseline(CP_COLL_LOGGP, 3, 1, 0.5, &c, 3, NULL, &t);
	ta_check(!rc && t == (3 + 2 + 0.5 * 99) + (3 + 2 + 0.5 * 199),
		 "LogGP of a recursive doubling allgather P=4: one message "
		 "of m, one of 2m = %g", t);
	rc = cp_coll_baseline(CP_COLL_LOGGP, 3, 1, 0.5, &c, 9, NULL, &t);
	ta_check(rc == -CP_COLL_E_ALG, "no algorithm 9 of allgather");
}

/* Linear gather and scatter: a blocking send below the channel's first
 * rendezvous size returns before its receiver takes it, so the peers'
 * (gather) or the root's (scatter) messages share one round; at or
 * above it, and where the size is unknown, a round each.  The channel
 * here carries concurrent transfers for free (L(m, tau) = L(m, 1)), so
 * that one round of three costs less than three. */
static void test_eager(const struct cp_taulop *m)
{
	struct cp_coll_call c = { CP_COLL_GATHER, 4, 0, 100, 1, true, NULL };
	struct cp_taulop m2 = *m;
	double t, l1[9], apart = 3 * (o_true(100) + 2 * l_true(100, 1));
	int rc, i;

	for (i = 0; i < 9; i++)
		l1[i] = l_true(sizes[i / 3], 1);
	m2.ch[CP_TL_SHM].l_s = l1;

	rc = cp_taulop_coll(&m2, &c, 1, NULL, NULL, NULL, &t, NULL);
	ta_check(!rc && ta_near(t, apart, 1e-12),
		 "linear gather P=4 of 100 B, no rendezvous size: three rounds "
		 "= %g (want %g)", t, apart);
	m2.ch[CP_TL_SHM].rndv_bytes = 1000;
	rc = cp_taulop_coll(&m2, &c, 1, NULL, NULL, NULL, &t, NULL);
	ta_check(!rc && ta_near(t, o_true(100) + 2 * l_true(100, 1), 1e-12),
		 "linear gather of eager messages: one round, o + 2L(100,3) = "
		 "%g", t);
	c.op = CP_COLL_SCATTER;
	rc = cp_taulop_coll(&m2, &c, 1, NULL, NULL, NULL, &t, NULL);
	ta_check(!rc && ta_near(t, 3 * o_true(100) + 2 * l_true(100, 1),
				1e-12),
		 "linear scatter of eager messages: one round, 3o + 2L(100,3) "
		 "= %g", t);
	m2.ch[CP_TL_SHM].rndv_bytes = 100;
	rc = cp_taulop_coll(&m2, &c, 1, NULL, NULL, NULL, &t, NULL);
	ta_check(!rc && ta_near(t, apart, 1e-12),
		 "linear scatter at the rendezvous size: three rounds = %g "
		 "(want %g)", t, apart);
}

/* Noise of +-2%, deterministic. */
static double noisy(double x, unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return x * (0.98 + 0.04 * ((*seed >> 8) % 1000) / 1000.0);
}

static void test_fit(void)
{
	enum { NS = 3, NT = 5, REPS = 11 };
	const double tau[NT] = { 1, 2, 3, 4, 8 };
	const int deg[NT] = { 1, 1, 1, 1, 2 };
	double ring[NS * NT * REPS], isend[NS * REPS];
	struct cp_taulop_meas in = { NS, sizes, NT, tau, deg, REPS, ring,
				     REPS, isend, 2, false };
	struct cp_taulop_fit f;
	unsigned seed = 7;
	int is, it, r, bad_in = 0, bad_near = 0, rc;
	struct cp_est e;

	for (is = 0; is < NS; is++) {
		double m = sizes[is];

		for (it = 0; it < NT; it++)
			for (r = 0; r < REPS; r++)
				ring[(is * NT + it) * REPS + r] = noisy(
					deg[it] * o_true(m) +
					2 * l_true(m, tau[it]), &seed);
		for (r = 0; r < REPS; r++)
			isend[is * REPS + r] = noisy(o_true(m), &seed);
	}
	rc = cp_taulop_fit(&in, 0.95, &f);
	ta_check(!rc && f.nsizes == NS && f.ntau == NT, "fit: %d sizes x %d "
		 "taus", f.nsizes, f.ntau);
	for (is = 0; !rc && is < NS; is++)
		for (it = 0; it < NT; it++) {
			struct cp_est *l = &f.l_s[is * NT + it];
			double want = l_true(sizes[is], tau[it]);

			bad_in += l->fail || !(l->lo <= want && want <= l->hi);
			bad_near += !ta_near(l->val, want, 0.05);
		}
	ta_check(!rc && !bad_in && !bad_near, "L recovered within 5%% and "
		 "inside its interval at every size and tau (%d outside, %d "
		 "off)", bad_in, bad_near);
	ta_check(!rc && f.o_s[2].lo <= o_true(1000) &&
		 o_true(1000) <= f.o_s[2].hi &&
		 ta_near(f.o_s[2].val, o_true(1000), 0.03),
		 "o(1000) = %g in [%g, %g] (true 2)", f.o_s[2].val,
		 f.o_s[2].lo, f.o_s[2].hi);
	cp_taulop_fit_free(&f);
	/* a Ring faster than its overheads: L below 0 beyond noise fails */
	for (r = 0; r < REPS; r++)
		ring[(2 * NT + 4) * REPS + r] = 1;
	rc = cp_taulop_fit(&in, 0.95, &f);
	ta_check(!rc && f.l_s[2 * NT + 4].fail && !f.l_s[2 * NT + 3].fail,
		 "an L wholly below 0 fails, its neighbours do not");
	cp_taulop_fit_free(&f);
	/* timed from the last process's start (rounds after a barrier),
	 * the same L is 0: the message was there before its receiver */
	in.from_last = true;
	rc = cp_taulop_fit(&in, 0.95, &f);
	ta_check(!rc && !f.l_s[2 * NT + 4].fail &&
		 f.l_s[2 * NT + 4].val == 0 && f.l_s[2 * NT + 4].hi == 0 &&
		 f.l_s[2 * NT + 4].lo < 0 && (f.flags & CP_TLFIT_CLAMPED),
		 "from the last start, an L wholly below 0 is 0 [%g, %g], "
		 "flagged", f.l_s[2 * NT + 4].lo, f.l_s[2 * NT + 4].hi);
	cp_taulop_fit_free(&f);
	in.from_last = false;
	in.tau = (const double[]){ 2, 3, 4, 5, 8 };
	ta_check(cp_taulop_fit(&in, 0.95, &f) == -CP_EINVAL,
		 "taus must start at 1: -CP_EINVAL");
	{
		const double x[] = { 5, 1, 4, 2, 3, 9, 8, 7, 6, 10, 11 };

		rc = cp_taulop_median_ci(x, 11, 0.95, &e);
		ta_check(!rc && e.val == 6 && e.lo == 2 && e.hi == 10,
			 "median of 1..11 is 6, 95%% interval [x(2), x(10)] "
			 "= [%g, %g]", e.lo, e.hi);
	}
	{
		const double b[] = { 1000, 2000, 4000, 8000 };
		const double t[] = { 1.0, 2.1, 3.9, 8.0 };

		rc = cp_taulop_fit_unit(b, t, 4, 0.95, &e);
		ta_check(!rc && ta_near(e.val, 0.001, 0.05) && e.lo <= e.val,
			 "reduction cost per byte from a line: %g", e.val);
	}
}

/* Fresh bytes of buffers of the given sizes under the defaults. */
static double fresh_of(const struct cp_taulop_heap *h, const double *n,
		       int k)
{
	struct cp_taulop_scratch sc = { 0 };
	int i;

	for (i = 0; i < k; i++)
		cp_taulop_scratch_add(h, NULL, &sc, n[i], 0, n[i]);
	return cp_taulop_fresh(h, NULL, &sc);
}

/* Minor faults per call, in a child of its own (a fresh heap), of k
 * buffers of n bytes malloc'ed, written and freed together, after one
 * block of pre bytes (0: none) and then warm calls (to settle glibc's
 * thresholds), over the next 5 calls (1 when warm is 0: the first);
 * -1 when the child failed. */
static long faults_after(size_t pre, size_t n, int k, int warm)
{
	int fd[2], i, it, calls = warm ? 5 : 1;
	long f = -1;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct rusage r0, r1;
		char *b[8];

		if (pre) {
			b[0] = malloc(pre);
			if (!b[0])
				_exit(1);
			memset(b[0], 1, pre);
			free(b[0]);
		}
		for (it = 0; it < warm + calls; it++) {
			if (it == warm)
				getrusage(RUSAGE_SELF, &r0);
			for (i = 0; i < k; i++) {
				b[i] = malloc(n);
				if (!b[i])
					_exit(1);
				memset(b[i], it, n);
			}
			for (i = 0; i < k; i++)
				free(b[i]);
		}
		getrusage(RUSAGE_SELF, &r1);
		f = (r1.ru_minflt - r0.ru_minflt) / calls;
		_exit(write(fd[1], &f, sizeof(f)) == sizeof(f) ? 0 : 1);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &f, sizeof(f)) != sizeof(f))
		f = -1;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return f;
}

static long faults_of(size_t n, int k)
{
	return faults_after(0, n, k, 3);
}

/* Fresh bytes, under the defaults, of the call after a block of pre
 * bytes (0: none) and warm calls of k buffers of n bytes, each raising
 * hist as glibc would. */
static double fresh_after(double pre, double n, int k, int warm)
{
	double thr = 0;
	int it, i;

	for (it = -1; it <= warm; it++) {
		struct cp_taulop_scratch sc = { 0 };
		double f;

		if (it < 0 && !pre)
			continue;
		for (i = 0; i < (it < 0 ? 1 : k); i++)
			cp_taulop_scratch_add(NULL, &thr, &sc,
					      it < 0 ? pre : n, 0,
					      it < 0 ? pre : n);
		f = cp_taulop_fresh(NULL, &thr, &sc);
		cp_taulop_hist_raise(NULL, &thr, &sc);
		if (it == warm)
			return f;
	}
	return NAN;
}

/* The thresholds as earlier calls left them (struct cp_taulop_hist),
 * against glibc: a block freed before raises them above a later call's
 * buffers, which the heap then keeps; the first call of a size maps its
 * buffers and faults all it writes. */
static void test_heap_hist(void)
{
	static const struct {
		double pre, n;
		int k, warm;
	} cases[] = { { 600000, 100000, 2, 3 }, { 400000, 300000, 2, 3 },
		      { 1000000, 200000, 3, 3 }, { 200000, 800000, 2, 3 },
		      { 0, 800000, 2, 0 }, { 0, 300000, 1, 0 },
		      { 0, 100000, 2, 3 }, { 250000, 60000, 3, 3 } };
	double n[2] = { 100000, 100000 };
	int i, bad = 0;

	/* 2 x 100000 B after 600000 B: the trim threshold is 2 x 602112,
	 * the heap keeps them; alone (no history), 17 pages past the pad */
	ta_check(fresh_after(600000, 100000, 2, 3) == 0 &&
		 fresh_of(NULL, n, 2) == 200000 - CP_TL_HEAP_PAD,
		 "2 x 100000 B after a block of 600000 B: no fresh page");
	ta_check(fresh_after(0, 800000, 2, 0) == 1600000,
		 "the first call of 2 x 800000 B: mapped, all fresh");
	ta_check(fresh_after(0, 800000, 2, 3) == 1600000 - CP_TL_HEAP_PAD,
		 "its later calls: the steady state");
	for (i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
		double want = fresh_after(cases[i].pre, cases[i].n,
					  cases[i].k, cases[i].warm) /
			      CP_TL_PAGE;
		long got = faults_after((size_t)cases[i].pre,
					(size_t)cases[i].n, cases[i].k,
					cases[i].warm);

		if (got < 0 || fabs((double)got - want) > 0.1 * want + 3) {
			bad++;
			printf("note: glibc: %.0f B, then %d x %.0f B after "
			       "%d calls: %ld faults a call, said %.1f\n",
			       cases[i].pre, cases[i].k, cases[i].n,
			       cases[i].warm, got, want);
		}
	}
#if defined(__SANITIZE_ADDRESS__)
	printf("note: glibc's faults after history not compared: "
	       "AddressSanitizer's malloc\n");
#else
	ta_check(!bad, "glibc's faults after history as said in %d cases "
		 "of %d", (int)(sizeof(cases) / sizeof(cases[0])) - bad,
		 (int)(sizeof(cases) / sizeof(cases[0])));
#endif
}

/* The pages tau-Lop adds to a reduce-scatter of 4 x 24000 B on 4 ranks
 * (recursive halving) whose ranks' thresholds are thr[]: the price at
 * 1 us a page less the price without pages. */
static double rsb_pages(const struct cp_taulop *m, const double *thr)
{
	struct cp_coll_call c = { CP_COLL_REDUCE_SCATTER_BLOCK, 4, 0, 3000,
				  8, true, NULL };
	double t[4] = { thr[0], thr[1], thr[2], thr[3] }, t0, t1;
	struct cp_taulop_hist h = { t, 4 };
	struct cp_taulop m2 = *m;

	m2.page_s = 1e-6;
	if (cp_taulop_coll(&m2, &c, 3, NULL, NULL, &h, &t1, NULL))
		return NAN;
	m2.page_s = 0;
	memcpy(t, thr, sizeof(t));
	if (cp_taulop_coll(&m2, &c, 3, NULL, NULL, &h, &t0, NULL))
		return NAN;
	return round((t1 - t0) * 1e6 * 1000) / 1000;
}

/* Each rank's own thresholds: in Open MPI 4.1, 4 ranks, counted per
 * call and rank, a reduce-scatter of 4 x 24000 B faults 4 pages on
 * ranks 0 and 1 and 13 on ranks 2 and 3 (the upper half of recursive
 * halving receives into the upper half of its buffer, past the top
 * pad); after 5 binomial reduces of 200000 B, whose root (0) and rank
 * 2 map their buffers, ranks 0 and 2 fault none and 1 and 3 as
 * before. */
static void test_heap_ranks(const struct cp_taulop *m)
{
	const double raised = 200704;	/* the chunk of 200000 B */
	const double none[4] = { 0 }, all[4] = { raised, raised, raised,
						 raised };
	const double even[4] = { raised, 0, raised, 0 };
	const double upper[4] = { 0, 0, raised, raised };
	struct cp_coll_call c = { CP_COLL_REDUCE, 4, 0, 25000, 8, true, NULL };
	double t[4] = { 0 }, x;
	struct cp_taulop_hist h = { t, 4 };
	int i;

	ta_check(rsb_pages(m, none) == 12,
		 "reduce-scatter of 4 x 24000 B, no threshold raised: "
		 "%g pages (the upper half's)", rsb_pages(m, none));
	ta_check(rsb_pages(m, all) == 0,
		 "every rank's threshold at 200704 B: no page");
	ta_check(rsb_pages(m, even) == 12,
		 "ranks 0 and 2 raised: rank 3's %g pages", rsb_pages(m, even));
	ta_check(rsb_pages(m, upper) == 4,
		 "ranks 2 and 3 raised: rank 1's %g pages",
		 rsb_pages(m, upper));
	for (i = 0; i < 5; i++)
		cp_taulop_coll(m, &c, 5, NULL, NULL, &h, &x, NULL);
	ta_check(t[0] == raised && t[2] == raised && t[1] == 0 && t[3] == 0,
		 "binomial reduces of 200000 B raise ranks 0 and 2: %g %g %g "
		 "%g", t[0], t[1], t[2], t[3]);
}

/* The scratch of Open MPI's algorithms and glibc's heap: when the
 * buffers of a call come back as fresh pages, and what tau-Lop adds. */
static void test_scratch(const struct cp_taulop *m)
{
	static const struct {
		double n;
		int k;
	} cases[] = { { 800000, 2 }, { 200000, 1 }, { 200000, 3 },
		      { 100000, 2 }, { 60000, 3 }, { 600000, 2 },
		      { 50000, 1 }, { 300000, 2 } };
	struct cp_taulop_heap dflt = { 0 }, fixed = { true, 65536, 1e9, 0 };
	struct cp_coll_call c = { CP_COLL_REDUCE_SCATTER_BLOCK, 4, 0, 25000,
				  8, true, NULL };
	struct cp_taulop m2 = *m;
	double n[3] = { 800000, 800000, 0 }, t0, t1;
	int i, rc, bad = 0;

	/* two buffers of 800000 B: the top of the heap reaches twice the
	 * largest once they are freed, is trimmed to the pad, and the
	 * next call faults all but the pad in again */
	ta_check(fresh_of(&dflt, n, 2) == 1600000 - CP_TL_HEAP_PAD,
		 "2 x 800000 B: fresh %g B", fresh_of(&dflt, n, 2));
	ta_check(fresh_of(&dflt, n, 1) == 0,
		 "one buffer of 800000 B: kept by the heap");
	n[0] = 40e6;
	ta_check(fresh_of(&dflt, n, 1) == 40e6,
		 "40 MB: above the dynamic threshold's cap, mapped each call");
	n[0] = 100000;
	ta_check(fresh_of(&fixed, n, 1) == 100000 &&
		 fresh_of(&fixed, n + 2, 1) == 0,
		 "MALLOC_MMAP_THRESHOLD_ 65536: 100000 B mapped each call");
	/* glibc compares its request (8 B more, to 16) with the threshold:
	 * 65513 B is mapped, 65512 B is not (seen with mallopt) */
	n[0] = 65513;
	ta_check(fresh_of(&fixed, n, 1) == 65513,
		 "MALLOC_MMAP_THRESHOLD_ 65536: 65513 B mapped: fresh %g",
		 fresh_of(&fixed, n, 1));
	n[0] = 65512;
	ta_check(fresh_of(&fixed, n, 1) == 0,
		 "MALLOC_MMAP_THRESHOLD_ 65536: 65512 B from the heap: fresh %g",
		 fresh_of(&fixed, n, 1));
	/* against glibc itself, in a fresh process per case */
	for (i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++) {
		double want, nn[3] = { cases[i].n, cases[i].n, cases[i].n };
		long got = faults_of((size_t)cases[i].n, cases[i].k);

		want = fresh_of(&dflt, nn, cases[i].k) / CP_TL_PAGE;
		if (got < 0 || fabs((double)got - want) > 0.1 * want + 3) {
			bad++;
			printf("note: glibc: %d x %.0f B: %ld faults a call, "
			       "said %.1f\n", cases[i].k, cases[i].n, got,
			       want);
		}
	}
#if defined(__SANITIZE_ADDRESS__)
	printf("note: glibc's faults not compared: AddressSanitizer's "
	       "malloc\n");
#else
	ta_check(!bad, "glibc's faults per call as said in %d cases of %d",
		 (int)(sizeof(cases) / sizeof(cases[0])) - bad,
		 (int)(sizeof(cases) / sizeof(cases[0])));
#endif
	/* recursive halving on 4 ranks: every rank mallocs twice the four
	 * blocks of 200000 B, copies its send buffer into the first and
	 * receives half of it into the second: 800000 + 400000 B written,
	 * less the top pad, 261 pages (262 faults a call counted in Open
	 * MPI 4.1); the page cost is added once, for the rank that faults
	 * most */
	m2.page_s = 0;
	rc = cp_taulop_coll(&m2, &c, 3, NULL, NULL, NULL, &t0, NULL);
	m2.page_s = 1e-6;
	rc |= cp_taulop_coll(&m2, &c, 3, NULL, NULL, NULL, &t1, NULL);
	ta_check(!rc && ta_near(t1 - t0, 261e-6, 1e-6),
		 "recursive halving of 4 x 200000 B: + 261 pages x 1 us = "
		 "%g us", (t1 - t0) * 1e6);
	/* binomial reduce of 200000 B on 4: the root's segment buffers,
	 * the second written by its second child (the first child's data
	 * go to the receive buffer): 49 pages (50 counted); rank 2's
	 * accumulator past the pad: 17 (17) */
	c.op = CP_COLL_REDUCE;
	c.count = 25000;
	rc = cp_taulop_coll(&m2, &c, 5, NULL, NULL, NULL, &t1, NULL);
	m2.page_s = 0;
	rc |= cp_taulop_coll(&m2, &c, 5, NULL, NULL, NULL, &t0, NULL);
	ta_check(!rc && ta_near(t1 - t0, 49e-6, 1e-6),
		 "binomial reduce of 200000 B: + 49 pages x 1 us = %g us",
		 (t1 - t0) * 1e6);
	m2.page_s = 1e-6;
	/* a binomial reduce of 24000 B: one buffer and a segment's, both
	 * within the top pad: no fault */
	c.op = CP_COLL_REDUCE;
	c.count = 3000;
	rc = cp_taulop_coll(&m2, &c, 5, NULL, NULL, NULL, &t1, NULL);
	m2.page_s = 0;
	rc |= cp_taulop_coll(&m2, &c, 5, NULL, NULL, NULL, &t0, NULL);
	ta_check(!rc && t1 == t0, "binomial reduce of 24000 B: no fault");
}

/* The collective settings a run's meta table carries, both ways. */
static void test_mca_text(void)
{
	struct cp_coll_mca m, back;
	char buf[512];

	cp_coll_mca_default(&m);
	cp_coll_mca_format(&m, buf, sizeof(buf));
	ta_check(!strcmp(buf, "dynamic=0 rules=0 radix=4"),
		 "Open MPI's defaults: '%s'", buf);
	m.use_dynamic = true;
	m.alg[CP_COLL_BCAST] = 6;
	m.segsize[CP_COLL_BCAST] = 8192;
	m.max_requests[CP_COLL_ALLTOALL] = 2;
	cp_coll_mca_format(&m, buf, sizeof(buf));
	ta_check(!strcmp(buf, "dynamic=1 rules=0 radix=4 bcast=6,8192,4,4,0 "
			 "alltoall=0,0,4,4,2"), "forced: '%s'", buf);
	ta_check(!cp_coll_mca_parse(buf, &back) &&
		 !memcmp(&m, &back, sizeof(m)), "parsed back the same");
	ta_check(cp_coll_mca_parse("dynamic=1 bcast=6", &back) ==
		 -CP_COLL_E_ARG && !back.use_dynamic,
		 "a malformed word: refused, defaults kept");
}

/* A damaged row's block size (count times type bytes past 2^63, which
 * the fuzzer found: a float-to-integer overflow) is refused, not
 * decided. */
static void test_decide_range(void)
{
	struct cp_coll_call c = { CP_COLL_BCAST, 4, 0, 1 << 30, 8, true, NULL };

	ta_check(cp_coll_decide(&c, NULL) > 0, "8 GiB broadcast: decided");
	c.type_bytes = 1.7e10;
	ta_check(cp_coll_decide(&c, NULL) == -CP_COLL_E_ARG,
		 "2^30 elements of 1.7e10 B: refused");
	c.type_bytes = INFINITY;
	ta_check(cp_coll_decide(&c, NULL) == -CP_COLL_E_ARG,
		 "infinite element: refused");
}

int main(void)
{
	struct cp_taulop m;

	test_mca_text();
	test_decide_range();
	tables(&m);
	test_formulas(&m);
	test_colls(&m);
	test_eager(&m);
	test_scratch(&m);
	test_heap_hist();
	test_heap_ranks(&m);
	test_fit();
	return ta_done("test_analysis_taulop");
}
