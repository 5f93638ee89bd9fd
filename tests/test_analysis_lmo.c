/*
 * test_analysis_lmo.c - analysis/cp_lmo without MPI.  Times of the three
 * LMO series are synthesized from known C_i, t_i and beta_ij (n = 4 and
 * n = 6, distinct links) plus Gaussian noise (fixed seed); the estimator
 * must recover every parameter inside its interval, with intervals under
 * 20% of the value, and order the links right.  Also: coverage of the 95%
 * intervals, the n = 2 assumption flags, failures with causes, S, M1, M2
 * and kappa from synthetic scatter and gather rows, predictions.  Both
 * ways to get t_i are checked: 002's (fixed part of the one-to-two taken
 * as 2C_i) and ours (measured by the empty one-to-two), also on data
 * with link latency, which the root of a one-to-two pays only once.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/cp_err.h"
#include "analysis/cp_lmo.h"
#include "tests/test_analysis.h"

/* Single draws are checked against 99.9% intervals: with 41 parameters
 * at 95%, two would miss on a correct estimator.  The 95% level is
 * checked by its coverage over many draws (test_coverage_v). */
#define LEVEL 0.999
#define MSG 65536.0
#define REPS 10
#define SD 2e-6			/* noise of one measured time, s */

struct truth {
	int n;
	double c[8];		/* s */
	double t[8];		/* s/B */
	double ib[28];		/* s/B, by cp_lmo_pair_idx */
	double h[8];		/* s, link latency shares: i <-> j pays
				 * h_i + h_j each way, on the wire (not on a
				 * processor, so transfers overlap) */
};

static double ib_of(const struct truth *p, int i, int j)
{
	return p->ib[cp_lmo_pair_idx(p->n, i, j)];
}

/* T_ij(M1 out, 0 back) of the model */
static double o2o(const struct truth *p, int i, int j, double m)
{
	return 2 * p->c[i] + 2 * p->c[j] + (p->t[i] + p->t[j]) * m +
	       m * ib_of(p, i, j) + 2 * (p->h[i] + p->h[j]);
}

static double o2t(const struct truth *p, int i, int j, int k, double m)
{
	double a = 2 * p->c[j] + p->t[j] * m + m * ib_of(p, i, j) +
		   2 * (p->h[i] + p->h[j]);
	double b = 2 * p->c[k] + p->t[k] * m + m * ib_of(p, i, k) +
		   2 * (p->h[i] + p->h[k]);

	return 4 * p->c[i] + 2 * p->t[i] * m + (a > b ? a : b);
}

struct data {
	double *rt0, *o2o, *o2t, *o2t0;
	struct cp_lmo_meas in;
};

/* diff: hand the empty one-to-two to the estimator (t_i ours) */
static void synth_v(gsl_rng *r, const struct truth *p, struct data *d,
		    bool diff)
{
	int n = p->n, np = cp_lmo_npairs(n), i, j, k, q, x;

	d->rt0 = malloc(np * REPS * sizeof(double));
	d->o2o = malloc(np * REPS * sizeof(double));
	d->o2t = malloc((cp_lmo_no2t(n) + 1) * REPS * sizeof(double));
	d->o2t0 = malloc((cp_lmo_no2t(n) + 1) * REPS * sizeof(double));
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			for (x = 0; x < REPS; x++) {
				q = cp_lmo_pair_idx(n, i, j) * REPS + x;
				d->rt0[q] = o2o(p, i, j, 0) +
					    gsl_ran_gaussian(r, SD);
				d->o2o[q] = o2o(p, i, j, MSG) +
					    gsl_ran_gaussian(r, SD);
			}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = j + 1; k < n; k++) {
				if (i == j || i == k)
					continue;
				q = cp_lmo_o2t_idx(n, i, j, k) * REPS;
				for (x = 0; x < REPS; x++) {
					d->o2t[q + x] = o2t(p, i, j, k, MSG) +
						gsl_ran_gaussian(r, SD);
					d->o2t0[q + x] = o2t(p, i, j, k, 0) +
						gsl_ran_gaussian(r, SD);
				}
			}
	d->in = (struct cp_lmo_meas){ n, MSG, REPS, REPS, REPS, d->rt0,
				      d->o2o, d->o2t, diff ? REPS : 0,
				      diff ? d->o2t0 : NULL, CP_LMO_STAT_MEAN };
}

static void synth(gsl_rng *r, const struct truth *p, struct data *d)
{
	synth_v(r, p, d, false);
}

static void data_free(struct data *d)
{
	free(d->rt0);
	free(d->o2o);
	free(d->o2t);
	free(d->o2t0);
}

static bool covers(const struct cp_est *e, double v)
{
	return e->lo <= v && v <= e->hi;
}

static void truth_init(struct truth *p, int n, gsl_rng *r)
{
	int i, np = cp_lmo_npairs(n), *perm = malloc(np * sizeof(int));

	memset(p, 0, sizeof(*p));
	p->n = n;
	for (i = 0; i < n; i++) {
		p->c[i] = (40 + 7 * i) * 1e-6;		/* 40..75 us */
		p->t[i] = (1.0 + 0.6 * ((i * 3) % n)) * 1e-9;
	}
	/* distinct links 5, 6, ... ns/B in a shuffled order */
	for (i = 0; i < np; i++)
		perm[i] = i;
	gsl_ran_shuffle(r, perm, np, sizeof(int));
	for (i = 0; i < np; i++)
		p->ib[i] = (5.0 + perm[i]) * 1e-9;
	free(perm);
}

/* Are the links in the same order by estimate as by truth?  Every pair
 * of links must compare the same way. */
static bool same_order(const struct truth *p, const struct cp_lmo *m)
{
	int np = cp_lmo_npairs(p->n), a, b;
	bool ok = true;

	for (a = 0; a < np; a++)
		for (b = 0; b < np; b++)
			ok &= (p->ib[a] < p->ib[b]) ==
			      (m->ib_spb[a].val < m->ib_spb[b].val);
	return ok;
}

/* Every parameter inside its interval.  diff: t_i ours; lat: the
 * processors also have link latency shares of 25..100 us. */
static void recover_v(gsl_rng *r, int n, bool diff, bool lat)
{
	struct truth p;
	struct data d;
	struct cp_lmo m;
	const struct cp_est *e;
	int i, j, q, rc;
	double pred, h;
	unsigned want = diff ? CP_LMO_F_T_MEASURED : 0;

	truth_init(&p, n, r);
	for (i = 0; lat && i < n; i++)
		p.h[i] = (25 + 75.0 * ((i * 5) % n) / (n - 1)) * 1e-6;
	synth_v(r, &p, &d, diff);
	rc = cp_lmo_estimate(&d.in, LEVEL, &m);
	ta_check(rc == 0 && m.nfail == 0 && m.flags == want,
		 "n=%d%s%s: estimate returns 0, nothing failed, flags %#x "
		 "(rc %d, flags %#x)", n, diff ? " t ours" : "",
		 lat ? " latency" : "", want, rc, m.flags);
	/* C_i takes the latency shares: T_ij(0) cannot tell them apart */
	for (i = 0; i < n; i++)
		p.c[i] += p.h[i];
	for (i = 0; i < n; i++) {
		e = &m.c_s[i];
		ta_check(covers(e, p.c[i]) && e->hi - e->lo < 0.2 * p.c[i],
			 "n=%d: C_%d %.3f us in [%.3f, %.3f] (true %.1f), "
			 "%d samples", n, i, e->val * 1e6, e->lo * 1e6,
			 e->hi * 1e6, p.c[i] * 1e6, e->n);
	}
	for (i = 0; i < n; i++) {
		e = &m.t_spb[i];
		ta_check(covers(e, p.t[i]) && e->hi - e->lo < 0.2 * p.t[i],
			 "n=%d: t_%d %.4f ns/B in [%.4f, %.4f] (true %.2f)",
			 n, i, e->val * 1e9, e->lo * 1e9, e->hi * 1e9,
			 p.t[i] * 1e9);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			q = cp_lmo_pair_idx(n, i, j);
			e = &m.ib_spb[q];
			ta_check(covers(e, p.ib[q]) &&
				 e->hi - e->lo < 0.2 * p.ib[q] &&
				 covers(&m.beta_Bps[q], 1 / p.ib[q]),
				 "n=%d: 1/beta_%d%d %.4f ns/B in [%.4f, %.4f] "
				 "(true %.1f), beta in CI too", n, i, j,
				 e->val * 1e9, e->lo * 1e9, e->hi * 1e9,
				 p.ib[q] * 1e9);
		}
	ta_check(same_order(&p, &m), "n=%d: the %d links ordered as the truth",
		 n, cp_lmo_npairs(n));
	cp_lmo_predict_p2p(&m, 1, n - 1, 1e5, &pred);
	h = 2 * (p.h[1] + p.h[n - 1]);	/* o2o() counts it twice now */
	ta_check(ta_near(pred, o2o(&p, 1, n - 1, 1e5) - 2 * p.c[1] -
			 2 * p.c[n - 1] + p.c[1] + p.c[n - 1] - h, 0.01),
		 "n=%d: p2p 1 -> %d of 1e5 B predicted within 1%%", n, n - 1);
	cp_lmo_free(&m);
	data_free(&d);
}

static void recover(gsl_rng *r, int n)
{
	recover_v(r, n, false, false);
}

/* Link latency makes 002's t_i wrong by -2h_i/M: with small t_i it
 * comes out negative and takes the links with it. */
static void test_latency_paper(gsl_rng *r)
{
	struct truth p;
	struct data d;
	struct cp_lmo m;
	int i, rc, nt = 0;

	truth_init(&p, 4, r);
	for (i = 0; i < 4; i++) {
		p.h[i] = (25 + 25 * i) * 1e-6;
		p.t[i] = 0.2e-9;
	}
	synth_v(r, &p, &d, false);
	rc = cp_lmo_estimate(&d.in, LEVEL, &m);
	for (i = 0; i < 4; i++)
		nt += m.t_spb[i].fail != NULL;
	ta_check(rc == -CP_ENUM && nt == 4,
		 "link latency, t_i as 002: all 4 t_i fail (%d), t_3 %.3f "
		 "ns/B (true 0.2, -2h_3/M %.3f)", nt, m.t_spb[3].val * 1e9,
		 -2 * p.h[3] / MSG * 1e9);
	cp_lmo_free(&m);
	data_free(&d);
	synth_v(r, &p, &d, true);
	rc = cp_lmo_estimate(&d.in, LEVEL, &m);
	for (i = 0, nt = 0; i < 4; i++)
		nt += covers(&m.t_spb[i], 0.2e-9);
	ta_check(rc == 0 && nt == 4,
		 "same data, t_i ours: 4 of 4 t_i cover 0.2 ns/B (%d)", nt);
	cp_lmo_free(&m);
	data_free(&d);
}

/* A crowded host: 30% of the repetitions 300 us late.  The means are
 * thrown off; the minimum (CP_LMO_STAT_MIN) recovers every link within
 * 5%, without intervals. */
static void test_stat_min(gsl_rng *r)
{
	struct truth p;
	struct data d;
	struct cp_lmo m;
	double *all[4], worst[2] = { 0, 0 }, e;
	size_t len[4];
	int k, q, i, rc, noci = 1;

	truth_init(&p, 4, r);
	for (i = 0; i < 4; i++)
		p.h[i] = (25 + 25 * i) * 1e-6;
	for (k = 0; k < 2; k++) {
		synth_v(r, &p, &d, true);
		all[0] = d.rt0;
		all[1] = d.o2o;
		all[2] = d.o2t;
		all[3] = d.o2t0;
		len[0] = len[1] = (size_t)cp_lmo_npairs(4) * REPS;
		len[2] = len[3] = (size_t)cp_lmo_no2t(4) * REPS;
		for (q = 0; q < 4; q++)
			for (i = 0; i < (int)len[q]; i++)
				if (gsl_rng_uniform(r) < 0.3)
					all[q][i] += 300e-6;
		d.in.stat = k ? CP_LMO_STAT_MIN : CP_LMO_STAT_MEAN;
		rc = cp_lmo_estimate(&d.in, LEVEL, &m);
		for (q = 0; q < 6; q++) {
			e = m.ib_spb[q].fail ? INFINITY :
			    fabs(m.ib_spb[q].val / p.ib[q] - 1);
			worst[k] = e > worst[k] ? e : worst[k];
			if (k)
				noci &= m.ib_spb[q].lo == m.ib_spb[q].hi;
		}
		if (k)
			ta_check(rc == 0 && (m.flags & CP_LMO_F_STAT_MIN) &&
				 worst[1] < 0.05 && noci,
				 "30%% of repetitions 300 us late: minimum "
				 "recovers every link within %.1f%% (< 5%%), no "
				 "intervals; the mean was %.1f%% off", 100 *
				 worst[1], 100 * worst[0]);
		cp_lmo_free(&m);
		data_free(&d);
	}
	ta_check(worst[0] > 0.10, "the mean is thrown off (%.1f%% > 10%%)",
		 100 * worst[0]);
}

/* t_i = 0 exactly: estimates scatter around 0; those below it are set to
 * 0 with the flag, none fails, and the links stay right. */
static void test_clamp(gsl_rng *r)
{
	struct truth p;
	struct data d;
	struct cp_lmo m;
	int it, i, q, fails = 0, clamped = 0, zero = 0, off = 0;

	truth_init(&p, 4, r);
	for (i = 0; i < 4; i++)
		p.t[i] = 0;
	for (it = 0; it < 20; it++) {
		synth_v(r, &p, &d, true);
		cp_lmo_estimate(&d.in, LEVEL, &m);
		fails += m.nfail;
		clamped += (m.flags & CP_LMO_F_T_CLAMPED) != 0;
		for (i = 0; i < 4; i++)
			zero += m.t_spb[i].val == 0 && m.t_spb[i].lo < 0;
		for (q = 0; q < 6; q++)
			off += !covers(&m.ib_spb[q], p.ib[q]);
		cp_lmo_free(&m);
		data_free(&d);
	}
	ta_check(fails == 0 && clamped > 0 && zero > 0 && off <= 1,
		 "t_i = 0: 20 draws, %d failures, %d clamped models, %d t_i "
		 "set to 0, %d of 120 links outside their interval", fails,
		 clamped, zero, off);
}

/* Monte Carlo coverage of the 95% intervals on n = 4, 300 draws; diff:
 * t_i ours, with link latency in the data. */
static void test_coverage_v(gsl_rng *r, bool diff)
{
	int it, i, q, n = 4, iters = 300, np = cp_lmo_npairs(4);
	int cc = 0, ct = 0, cb = 0;
	struct truth p;
	struct data d;
	struct cp_lmo m;

	truth_init(&p, n, r);
	for (i = 0; diff && i < n; i++)
		p.h[i] = (25 + 25 * i) * 1e-6;
	for (it = 0; it < iters; it++) {
		synth_v(r, &p, &d, diff);
		cp_lmo_estimate(&d.in, 0.95, &m);
		for (i = 0; i < n; i++) {
			cc += covers(&m.c_s[i], p.c[i] + p.h[i]);
			ct += covers(&m.t_spb[i], p.t[i]);
		}
		for (q = 0; q < np; q++)
			cb += covers(&m.ib_spb[q], p.ib[q]);
		cp_lmo_free(&m);
		data_free(&d);
	}
	ta_check(cc >= 0.92 * iters * n && cc <= 0.98 * iters * n,
		 "%s95%% CIs of C_i cover in %.1f%% of %d",
		 diff ? "t ours: " : "", 100.0 * cc / iters / n, iters * n);
	ta_check(ct >= 0.92 * iters * n && ct <= 0.98 * iters * n,
		 "%s95%% CIs of t_i cover in %.1f%% of %d",
		 diff ? "t ours: " : "", 100.0 * ct / iters / n, iters * n);
	ta_check(cb >= 0.92 * iters * np && cb <= 0.98 * iters * np,
		 "%s95%% CIs of 1/beta cover in %.1f%% of %d",
		 diff ? "t ours: " : "", 100.0 * cb / iters / np, iters * np);
}

static void test_coverage(gsl_rng *r)
{
	test_coverage_v(r, false);
	test_coverage_v(r, true);
}

static void test_n2(gsl_rng *r)
{
	struct truth p = { 2, { 50e-6, 50e-6 }, { 0, 0 }, { 10e-9 }, { 0 } };
	struct data d;
	struct cp_lmo m;
	int rc;

	synth(r, &p, &d);
	d.in.o2t_s = NULL;
	d.in.reps2 = 0;
	rc = cp_lmo_estimate(&d.in, LEVEL, &m);
	ta_check(rc == 0 && m.flags == (CP_LMO_F_EQUAL_C | CP_LMO_F_ZERO_T),
		 "n=2: flags EQUAL_C|ZERO_T (got %#x, rc %d)", m.flags, rc);
	ta_check(m.c_s[0].val == m.c_s[1].val && covers(&m.c_s[0], 50e-6),
		 "n=2: C_0 = C_1 = T_01(0)/4 = %.3f us", m.c_s[0].val * 1e6);
	ta_check(m.t_spb[0].val == 0 && m.t_spb[1].val == 0 &&
		 m.t_spb[0].n == 0 && !m.t_spb[0].fail,
		 "n=2: t_i = 0 assumed (0 samples), not failed");
	ta_check(covers(&m.ib_spb[0], 10e-9),
		 "n=2: 1/beta_01 carries the per-byte cost: %.4f ns/B",
		 m.ib_spb[0].val * 1e9);
	cp_lmo_free(&m);
	data_free(&d);
}

static void test_failures(gsl_rng *r)
{
	struct truth p;
	struct data d;
	struct cp_lmo m;
	int rc;

	truth_init(&p, 4, r);
	p.t[2] = -3e-9;		/* data that can only give t_2 < 0 */
	synth(r, &p, &d);
	rc = cp_lmo_estimate(&d.in, LEVEL, &m);
	ta_check(rc == -CP_ENUM && m.t_spb[2].fail &&
		 !strcmp(m.t_spb[2].fail, "negative per-byte delay t_i"),
		 "negative t_2: -CP_ENUM, cause \"%s\"",
		 m.t_spb[2].fail ? m.t_spb[2].fail : "(none)");
	ta_check(m.ib_spb[cp_lmo_pair_idx(4, 0, 2)].fail &&
		 m.beta_Bps[cp_lmo_pair_idx(4, 2, 3)].fail &&
		 !m.ib_spb[cp_lmo_pair_idx(4, 0, 1)].fail && m.nfail == 4,
		 "links of 2 flagged \"%s\", others kept; nfail %d",
		 m.ib_spb[cp_lmo_pair_idx(4, 0, 2)].fail, m.nfail);
	cp_lmo_free(&m);
	data_free(&d);

	truth_init(&p, 4, r);
	p.c[0] = -30e-6;
	synth(r, &p, &d);
	rc = cp_lmo_estimate(&d.in, LEVEL, &m);
	ta_check(rc == -CP_ENUM && m.c_s[0].fail &&
		 !strcmp(m.c_s[0].fail, "negative fixed delay C_i") &&
		 m.t_spb[0].fail && !m.t_spb[1].fail,
		 "negative C_0: cause \"%s\", t_0 \"%s\"", m.c_s[0].fail,
		 m.t_spb[0].fail);
	cp_lmo_free(&m);
	d.in.rt0_s = d.rt0;
	d.rt0[5] = NAN;
	ta_check(cp_lmo_estimate(&d.in, LEVEL, &m) == -CP_EINVAL,
		 "a NaN time: -CP_EINVAL");
	d.in.reps0 = 1;
	ta_check(cp_lmo_estimate(&d.in, LEVEL, &m) == -CP_EINVAL,
		 "1 repetition (no interval possible): -CP_EINVAL");
	data_free(&d);
}

static void test_indices(void)
{
	int n = 6, i, j, k, seen[60] = { 0 }, ok = 1, x;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++) {
				if (i == j || i == k || j <= k)
					continue;
				x = cp_lmo_o2t_idx(n, i, j, k);
				ok &= x >= 0 && x < 60 &&
				      x == cp_lmo_o2t_idx(n, i, k, j);
				if (x >= 0 && x < 60)
					seen[x]++;
			}
	for (i = 0; i < 60; i++)
		ok &= seen[i] == 1;
	ta_check(ok && cp_lmo_no2t(6) == 60,
		 "one-to-two indices: a bijection onto 0..59 for n=6");
	ta_check(cp_lmo_pair_idx(6, 0, 1) == 0 && cp_lmo_pair_idx(6, 5, 4) ==
		 14 && cp_lmo_pair_idx(6, 2, 2) == -CP_EINVAL,
		 "pair indices: {0,1} 0, {4,5} 14, {2,2} refused");
}

/* Scatter and gather rows from root 0 to 1..3 of a known model, sizes
 * 1..48 KB; S after 20 KB; gather linear to 16 KB, escalating flat levels
 * to 30 KB, linear from 31 KB; kappa1 = 1, kappa2 = 3 ns/B (NT0). */
static void test_thresholds(gsl_rng *r)
{
	struct truth p;
	struct data d;
	struct cp_lmo m;
	struct cp_lmo_thresh th;
	const int peers[] = { 1, 2, 3 };
	double sb[48], st[48], gt[48], mx, sm, x, rt, t, want;
	int i, k, rc;

	truth_init(&p, 4, r);
	p.c[3] = 90e-6;		/* peer 3 is the max at every size */
	p.ib[cp_lmo_pair_idx(4, 0, 3)] = 30e-9;
	synth(r, &p, &d);
	cp_lmo_estimate(&d.in, LEVEL, &m);
	for (i = 0; i < 48; i++) {
		sb[i] = 1024.0 * (i + 1);
		rt = 3 * (p.c[0] + p.t[0] * sb[i]);
		mx = sm = 0;
		for (k = 1; k < 4; k++) {
			x = p.c[k] + p.t[k] * sb[i] + sb[i] * ib_of(&p, 0, k);
			sm += x;
			mx = x > mx ? x : mx;
		}
		st[i] = rt + (i <= 19 ? mx : sm) + gsl_ran_gaussian(r, SD);
		if (i <= 15)
			gt[i] = rt + mx + 1e-9 * sb[i];
		else if (i <= 29)
			gt[i] = 0.2 * (1 + gsl_rng_uniform_int(r, 2));
		else
			gt[i] = rt + sm + 3e-9 * sb[i];
		gt[i] += gsl_ran_gaussian(r, SD);
	}
	/* T^(i+1)/T^1 > 10 first at i+1 = 16: M1 = M_15 */
	cp_lmo_thresh_init(&th);
	rc = cp_lmo_scatter_thresh(sb, st, 48, 0, LEVEL, &th);
	ta_check(rc == 0 && abs(th.s_idx - 19) <= 1,
		 "scatter: S at index 19 +-1 (got %d, S = %.0f B)", th.s_idx,
		 th.s_bytes);
	rc = cp_lmo_gather_thresh(sb, gt, 48, 0, LEVEL, &th);
	ta_check(rc == 0 && th.m1_idx == 15 && th.m1_bytes == 16384,
		 "gather: M1 = M_15 = 16384 B (got %d, %.0f)", th.m1_idx,
		 th.m1_bytes);
	ta_check(abs(th.m2_idx - 30) <= 1 && !(th.flags & CP_LMO_T_NO_M2),
		 "gather: M2 starts the last segment at index 30 +-1 (got "
		 "%d, %d breaks)", th.m2_idx, th.gather_breaks);
	rc = cp_lmo_kappa(&m, 0, peers, 3, LEVEL, &th);
	ta_check(rc == 0 && covers(&th.kappa1_spb[CP_LMO_KAPPA_NT0], 1e-9),
		 "kappa1 (minus n*t_0) %.3f ns/B in [%.3f, %.3f] (true 1)",
		 th.kappa1_spb[1].val * 1e9, th.kappa1_spb[1].lo * 1e9,
		 th.kappa1_spb[1].hi * 1e9);
	ta_check(covers(&th.kappa2_spb[CP_LMO_KAPPA_NT0], 3e-9),
		 "kappa2 (minus n*t_0) %.3f ns/B in [%.3f, %.3f] (true 3)",
		 th.kappa2_spb[1].val * 1e9, th.kappa2_spb[1].lo * 1e9,
		 th.kappa2_spb[1].hi * 1e9);
	ta_check(ta_near(th.kappa2_spb[0].val - th.kappa2_spb[1].val,
			 3 * m.t_spb[0].val, 1e-9),
		 "kappa2 as printed = variant + n*t_0");
	rc = cp_lmo_predict_gather(&m, &th, CP_LMO_KAPPA_PRINTED, 0, peers,
				   3, 24576, &t);
	ta_check(rc == -CP_ENOPRED,
		 "gather of 24 KB (between M1 and M2): -CP_ENOPRED");
	want = gt[40];
	rc = cp_lmo_predict_gather(&m, &th, CP_LMO_KAPPA_NT0, 0, peers, 3,
				   sb[40], &t);
	ta_check(rc == 0 && ta_near(t, want, 0.02),
		 "gather of 41 KB predicted %.1f us, measured %.1f us", t * 1e6,
		 want * 1e6);
	rc = cp_lmo_predict_gather(&m, &th, CP_LMO_KAPPA_NT0, 0, peers, 3,
				   sb[5], &t);
	ta_check(rc == 0 && ta_near(t, gt[5], 0.02),
		 "gather of 6 KB predicted %.1f us, measured %.1f us", t * 1e6,
		 gt[5] * 1e6);
	rc = cp_lmo_predict_scatter(&m, &th, 0, peers, 3, sb[30], &t);
	ta_check(rc == 0 && ta_near(t, st[30], 0.02),
		 "scatter of 31 KB (serial) predicted %.1f us, measured %.1f",
		 t * 1e6, st[30] * 1e6);
	rc = cp_lmo_predict_scatter(&m, &th, 0, peers, 3, sb[4], &t);
	ta_check(rc == 0 && ta_near(t, st[4], 0.02),
		 "scatter of 5 KB (parallel) predicted %.1f us, measured %.1f",
		 t * 1e6, st[4] * 1e6);
	cp_lmo_free(&m);
	data_free(&d);
}

int main(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, 2024);
	test_indices();
	recover(r, 4);
	recover(r, 6);
	recover_v(r, 4, true, false);
	recover_v(r, 6, true, true);
	test_latency_paper(r);
	test_clamp(r);
	test_stat_min(r);
	test_coverage(r);
	test_n2(r);
	test_failures(r);
	test_thresholds(r);
	gsl_rng_free(r);
	return ta_done("test_analysis_lmo");
}
