/*
 * test_analysis_stats.c - analysis/cp_stats and analysis/cp_baseline
 * without MPI: summaries of fixed samples, mu/rho identities, and the
 * recovery of Hockney, LogGP and PLogP parameters from times synthesized
 * with known values and Gaussian noise (fixed seed).
 */
#include "config.h"

#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/cp_baseline.h"
#include "analysis/cp_err.h"
#include "analysis/cp_stats.h"
#include "tests/test_analysis.h"

/* Single draws are checked against 99.9% intervals, so that the dozen
 * such checks here pass on a correct estimator with any seed (at 95%,
 * one of twenty would miss); the 95% level itself is checked by its
 * coverage over many draws (test_coverage). */
#define LEVEL 0.999

static bool within(const struct cp_est *e, double truth)
{
	return e->lo <= truth && truth <= e->hi;
}

static void test_summaries(void)
{
	const double x[] = { 5, 1, 4, 2, 3 };
	const double y[] = { 1, 3, 5, 7 };	/* y = 1 + 2x, x = 0..3 */
	const double xs[] = { 0, 1, 2, 3 };
	struct cp_linfit f;
	struct cp_est e;
	double v;

	cp_stats_mean(x, 5, &v);
	ta_check(v == 3, "mean of 5,1,4,2,3 is 3 (got %g)", v);
	cp_stats_median(x, 5, &v);
	ta_check(v == 3, "median is 3 (got %g)", v);
	cp_stats_percentile(x, 5, 0.25, &v);
	ta_check(v == 2, "25th percentile is 2 (got %g)", v);
	cp_stats_percentile(x, 4, 0.5, &v);
	ta_check(v == 3, "median of 5,1,4,2 is 3 (got %g)", v);
	cp_stats_min(x, 5, &v);
	ta_check(v == 1, "min is 1 (got %g)", v);
	ta_check(cp_stats_mean(x, 0, &v) == -CP_EINVAL,
		 "mean of no sample is -CP_EINVAL");
	ta_check(cp_stats_percentile(x, 5, 1.5, &v) == -CP_EINVAL,
		 "percentile 1.5 is -CP_EINVAL");
	cp_stats_mean_ci(x, 5, 0.95, &e);
	/* sd = sqrt(2.5), se = sqrt(0.5), t(0.975, 4) = 2.776445 */
	ta_check(ta_near(e.hi - e.val, 2.776445 * sqrt(0.5), 1e-6) &&
		 e.df == 4 && e.n == 5,
		 "mean CI half-width t(4)*se = %.6f (got %.6f)",
		 2.776445 * sqrt(0.5), e.hi - e.val);
	cp_stats_linfit(xs, y, 4, 0.95, &f);
	ta_check(ta_near(f.c0.val, 1, 1e-12) && ta_near(f.c1.val, 2, 1e-12) &&
		 f.c1.lo == f.c1.hi,
		 "exact line y = 1 + 2x: c0 %g c1 %g, zero-width CI",
		 f.c0.val, f.c1.val);
	ta_check(cp_stats_linfit(xs, y, 2, 0.95, &f) == -CP_EINVAL,
		 "line through 2 points is -CP_EINVAL (no CI)");
}

static void test_mu_rho(gsl_rng *r)
{
	double a, b, mu, rho, back;
	int i, ok = 1, sym = 1, conv = 1;
	const double rr[] = { 10, 10, 10 }, ee[] = { 10, 20, 5 };
	struct cp_errsum s;

	for (i = 0; i < 1000; i++) {
		a = gsl_rng_uniform_pos(r) * 100;
		b = gsl_rng_uniform_pos(r) * 100;
		cp_stats_mu(a, b, &mu);
		ok &= mu >= 1 && (mu == 1) == (a == b);
		cp_stats_mu(b, a, &back);
		sym &= mu == back;
		cp_stats_rho(a, b, &rho);
		cp_stats_mu_of_rho(rho, b >= a, &back);
		conv &= ta_near(back, mu, 1e-12);
		cp_stats_rho_of_mu(mu, b >= a, &back);
		conv &= ta_near(back, rho, 1e-12) || rho < 1e-12;
	}
	ta_check(ok, "mu >= 1 and mu == 1 iff equal, 1000 random pairs");
	ta_check(sym, "mu(r, e) == mu(e, r)");
	ta_check(conv, "mu <-> rho conversions agree both ways");
	cp_stats_mu(7.5, 7.5, &mu);
	ta_check(mu == 1, "mu(7.5, 7.5) == 1 exactly");
	cp_stats_mu(10, 5, &mu);
	cp_stats_rho(10, 5, &rho);
	ta_check(mu == 2 && rho == 0.5,
		 "underestimate by 2x: mu 2, rho 0.5 (got %g, %g)", mu, rho);
	ta_check(cp_stats_mu(0, 1, &mu) == -CP_EINVAL,
		 "mu with measured 0 is -CP_EINVAL");
	cp_stats_errsum(rr, ee, 3, &s);
	ta_check(ta_near(s.mu_bar, (1 + 2 + 2) / 3.0, 1e-12) &&
		 s.mu_max == 2 && ta_near(s.rho_mean, 0.5, 1e-12) &&
		 s.rho_max == 1,
		 "errsum: mu_bar 5/3, mu_max 2, rho mean 0.5, rho max 1");
}

static void test_hockney(gsl_rng *r)
{
	const double alpha = 25e-6, beta = 8e-9, sd = 1e-6;
	double bytes[40], t[40];
	struct cp_hockney h;
	int i, rc;

	for (i = 0; i < 40; i++) {
		bytes[i] = 1024.0 * (i + 1);
		t[i] = alpha + beta * bytes[i] + gsl_ran_gaussian(r, sd);
	}
	rc = cp_hockney_fit(bytes, t, 40, LEVEL, &h);
	ta_check(rc == 0 && within(&h.alpha_s, alpha) &&
		 h.alpha_s.hi - h.alpha_s.lo < 0.2 * alpha,
		 "hockney alpha %.3g in [%.3g, %.3g] (true %.3g)",
		 h.alpha_s.val, h.alpha_s.lo, h.alpha_s.hi, alpha);
	ta_check(rc == 0 && within(&h.beta_spb, beta) &&
		 h.beta_spb.hi - h.beta_spb.lo < 0.2 * beta,
		 "hockney beta %.4g in [%.4g, %.4g] (true %.4g)",
		 h.beta_spb.val, h.beta_spb.lo, h.beta_spb.hi, beta);
	ta_check(ta_near(cp_hockney_predict(&h, 1e5), alpha + beta * 1e5,
			 0.01), "hockney predicts 100000 B within 1%%");
}

static void fill(gsl_rng *r, double *x, int n, double mean, double sd)
{
	int i;

	for (i = 0; i < n; i++)
		x[i] = mean + gsl_ran_gaussian(r, sd);
}

/* 95% intervals must cover the truth in 95% of 2000 draws (binomial sd
 * 0.5%: accept 93%..97%): Student-t for a mean, Welch-Satterthwaite for
 * LogGP's L = RTT/2 - o_s - o_r, and the Hockney slope. */
static void test_coverage(gsl_rng *r)
{
	double a[8], b[8], c[8], bytes[10], t[10];
	int it, i, n = 2000, cm = 0, cl = 0, ch = 0;
	struct cp_loggp_meas in = { a, 8, b, 8, c, 8, a, 8, 1, a, 8, 1 };
	struct cp_hockney h;
	struct cp_loggp p;
	struct cp_est e;

	for (it = 0; it < n; it++) {
		fill(r, a, 8, 3e-6, 0.3e-6);
		fill(r, b, 8, 4e-6, 0.1e-6);
		fill(r, c, 8, 2 * (20e-6 + 7e-6), 2e-6);
		cp_stats_mean_ci(a, 8, 0.95, &e);
		cm += within(&e, 3e-6);
		cp_loggp_fit(&in, 0.95, &p);
		cl += within(&p.l_s, 20e-6);
		for (i = 0; i < 10; i++) {
			bytes[i] = 1000.0 * i;
			t[i] = 1e-5 + 1e-9 * bytes[i] +
			       gsl_ran_gaussian(r, 1e-6);
		}
		cp_hockney_fit(bytes, t, 10, 0.95, &h);
		ch += within(&h.beta_spb, 1e-9);
	}
	ta_check(cm >= 0.93 * n && cm <= 0.97 * n,
		 "95%% mean CI (8 samples) covers in %.1f%% of %d draws",
		 100.0 * cm / n, n);
	ta_check(cl >= 0.93 * n && cl <= 0.97 * n,
		 "95%% CI of L (Welch-Satterthwaite) covers in %.1f%%",
		 100.0 * cl / n);
	ta_check(ch >= 0.93 * n && ch <= 0.97 * n,
		 "95%% CI of a Hockney slope (10 sizes) covers in %.1f%%",
		 100.0 * ch / n);
}

static void test_loggp(gsl_rng *r)
{
	const double os = 3e-6, orr = 4e-6, l = 20e-6, g = 5e-6, gb = 2e-9;
	const double big = 1 << 20;
	double snd[30], rcv[30], rtt[30], bur[30], bbur[30], t;
	struct cp_loggp_meas in = {
		snd, 30, rcv, 30, rtt, 30, bur, 30, 100, bbur, 30, big
	};
	struct cp_loggp p;
	int rc;

	fill(r, snd, 30, os, 0.1e-6);
	fill(r, rcv, 30, orr, 0.1e-6);
	fill(r, rtt, 30, 2 * (l + os + orr), 0.5e-6);
	fill(r, bur, 30, 100 * g, 5e-6);
	fill(r, bbur, 30, 100 * gb * big, 1e-3);
	rc = cp_loggp_fit(&in, LEVEL, &p);
	ta_check(rc == 0 && within(&p.l_s, l),
		 "LogGP L = RTT/2 - o_s - o_r: %.3g in [%.3g, %.3g]",
		 p.l_s.val, p.l_s.lo, p.l_s.hi);
	ta_check(within(&p.o_s, (os + orr) / 2),
		 "LogGP o = (o_s + o_r)/2: %.4g in [%.4g, %.4g]",
		 p.o_s.val, p.o_s.lo, p.o_s.hi);
	ta_check(within(&p.g_s, g), "LogGP g = T_n/n: %.4g in [%.4g, %.4g]",
		 p.g_s.val, p.g_s.lo, p.g_s.hi);
	ta_check(within(&p.gb_spb, gb),
		 "LogGP G = g(M)/M: %.4g in [%.4g, %.4g]",
		 p.gb_spb.val, p.gb_spb.lo, p.gb_spb.hi);
	cp_loggp_bcast_tree(&p, 1025, 8, &t);
	ta_check(ta_near(t, 3 * (2 * p.o_s.val + p.l_s.val +
				 1024 * p.gb_spb.val) + 2 * p.g_s.val, 1e-12),
		 "LogGP tree bcast, 8 procs: h = 3");
	/* one send preempted for 800 us: in the mean, o_s 30 us and L
	 * negative; beyond the far-out fences, left out */
	ta_check(p.dropped == 0, "no sample dropped from normal samples (%d)",
		 p.dropped);
	snd[7] = 800e-6;
	rc = cp_loggp_fit(&in, LEVEL, &p);
	ta_check(rc == 0 && p.dropped == 1 && within(&p.l_s, l) &&
		 within(&p.os_s, os), "one send 800 us of 30: left out (%d), "
		 "L %.3g, o_s %.3g", p.dropped, p.l_s.val, p.os_s.val);
}

static void test_plogp(void)
{
	/* L = 10, g(0) = 2, g(1000) = 12, g(3000) = 40 (us) */
	const double b[] = { 0, 1000, 3000 }, rtt[] = { 24, 44, 100 };
	struct cp_plogp p;
	double t;
	bool ex;
	int rc;

	rc = cp_plogp_from_rtt(2, b, rtt, 3, &p);
	ta_check(rc == 0 && p.l_s == 10 && p.g_s[1] == 12 && p.g_s[2] == 40,
		 "PLogP L = RTT(0)/2 - g(0) = 10, g(m) = RTT(m)/2 - L");
	cp_plogp_predict(&p, 2000, &t, &ex);
	ta_check(t == 10 + 26 && !ex,
		 "PLogP L + g(2000) = 36 interpolated (got %g)", t);
	cp_plogp_predict(&p, 5000, &t, &ex);
	ta_check(t == 10 + 68 && ex,
		 "PLogP beyond 3000 B extends the last segment, flagged");
	cp_plogp_free(&p);
	/* a burst gap above the empty one-way time: capped, L = 0 */
	rc = cp_plogp_from_rtt(15, b, rtt, 3, &p);
	ta_check(rc == 0 && p.l_s == 0 && p.g_s[0] == 12 &&
		 p.g0_meas_s == 15 && p.g_s[1] == 22 && p.g_s[2] == 50,
		 "PLogP g(0) 15 above RTT(0)/2 = 12: capped, L = 0 (rc %d, "
		 "L %g, g(0) %g)", rc, p.l_s, p.g_s[0]);
	cp_plogp_predict(&p, 0, &t, &ex);
	ta_check(t == 12, "PLogP capped: L + g(0) is RTT(0)/2 (got %g)", t);
	cp_plogp_free(&p);
}

int main(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, 4242);
	test_summaries();
	test_mu_rho(r);
	test_hockney(r);
	test_loggp(r);
	test_plogp();
	test_coverage(r);
	gsl_rng_free(r);
	return ta_done("test_analysis_stats");
}
