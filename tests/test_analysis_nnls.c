/*
 * test_analysis_nnls.c - analysis/cp_nnls without MPI: small problems
 * whose answer is known by hand, the Karush-Kuhn-Tucker conditions on
 * random ones (every active unknown's gradient <= 0, every passive one's
 * 0), agreement with GSL's unconstrained fit where no bound is reached,
 * free unknowns that go negative, weights, dependent columns, and the
 * recovery of known non-negative parameters from noisy synthetic data:
 * within their intervals, and 95% intervals that cover about 95% of the
 * time over many draws (fixed seed).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_multifit.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/cp_err.h"
#include "analysis/cp_nnls.h"
#include "analysis/cp_stats.h"
#include "tests/test_analysis.h"

static void test_by_hand(void)
{
	/* x0 is fitted by the mean of 2 and 1, x1 by 1 */
	static const double a[] = { 1, 0, 1, 0, 0, 1 };
	static const double b1[] = { 2, 1, 1 }, b2[] = { -1, -1, -1 };
	static const double b3[] = { 2, 1, -3 };
	static const bool fr[] = { false, true };
	struct cp_nnls s;
	int rc;

	rc = cp_nnls_solve(a, b1, NULL, 3, 2, NULL, &s);
	ta_check(!rc && ta_near(s.x[0], 1.5, 1e-12) &&
		 ta_near(s.x[1], 1, 1e-12) && !s.active[0] && !s.active[1],
		 "by hand: x = (1.5, 1), both passive (%.17g, %.17g)",
		 rc ? NAN : s.x[0], rc ? NAN : s.x[1]);
	ta_check(!rc && ta_near(s.rss, 0.5, 1e-12) && s.df == 1,
		 "by hand: rss 0.5, df 1");
	cp_nnls_free(&s);
	rc = cp_nnls_solve(a, b2, NULL, 3, 2, NULL, &s);
	ta_check(!rc && s.x[0] == 0 && s.x[1] == 0 && s.active[0] &&
		 s.active[1] && s.se[0] == 0,
		 "all negative: x = 0, both active, se 0");
	ta_check(!rc && ta_near(s.rss, 3, 1e-12), "all negative: rss 3");
	cp_nnls_free(&s);
	rc = cp_nnls_solve(a, b3, NULL, 3, 2, fr, &s);
	ta_check(!rc && ta_near(s.x[1], -3, 1e-12) && !s.active[1] &&
		 ta_near(s.x[0], 1.5, 1e-12),
		 "a free unknown stays negative (-3)");
	cp_nnls_free(&s);
	rc = cp_nnls_solve(a, b3, NULL, 3, 2, NULL, &s);
	ta_check(!rc && s.x[1] == 0 && s.active[1] &&
		 ta_near(s.x[0], 1.5, 1e-12),
		 "the same constrained sits at 0");
	cp_nnls_free(&s);
}

/* KKT of the weighted problem at the returned x. */
static bool kkt(const double *a, const double *b, const double *w, int m,
		int n, const bool *fr, const struct cp_nnls *s, double tol)
{
	double g, r, gmax = 0;
	int i, c;
	bool ok = true;

	for (c = 0; c < n; c++) {
		for (g = 0, i = 0; i < m; i++) {
			r = b[i];
			for (int k = 0; k < n; k++)
				r -= a[i * n + k] * s->x[k];
			g += (w ? w[i] : 1) * a[i * n + c] * r;
		}
		gmax = fmax(gmax, fabs(g));
		if (s->active[c])
			ok &= !fr[c] && s->x[c] == 0 && g <= tol;
		else
			ok &= fabs(g) <= tol && (fr[c] || s->x[c] >= 0);
	}
	return ok;
}

static void test_kkt(gsl_rng *rng)
{
	enum { M = 30, N = 6 };
	double a[M * N], b[M], w[M];
	bool fr[N];
	struct cp_nnls s;
	int k, i, c, bad = 0, nact = 0, rc;

	for (k = 0; k < 200; k++) {
		for (i = 0; i < M; i++) {
			for (c = 0; c < N; c++)
				a[i * N + c] = gsl_rng_uniform(rng) - 0.3;
			b[i] = gsl_ran_gaussian(rng, 1);
			w[i] = 0.5 + gsl_rng_uniform(rng);
		}
		for (c = 0; c < N; c++)
			fr[c] = c == k % N;
		rc = cp_nnls_solve(a, b, w, M, N, fr, &s);
		if (rc || !kkt(a, b, w, M, N, fr, &s, 1e-9))
			bad++;
		for (c = 0; !rc && c < N; c++)
			nact += s.active[c];
		cp_nnls_free(&s);
	}
	ta_check(!bad && nact > 100,
		 "KKT on 200 random weighted problems (%d failed, %d "
		 "unknowns at their bound)", bad, nact);
}

/* Where no bound is reached: GSL's unconstrained fit, standard errors
 * too. */
static void test_vs_gsl(gsl_rng *rng)
{
	enum { M = 40, N = 3 };
	double a[M * N], b[M], c0, chisq;
	gsl_matrix *x = gsl_matrix_alloc(M, N), *cov = gsl_matrix_alloc(N, N);
	gsl_vector *y = gsl_vector_alloc(M), *c = gsl_vector_alloc(N);
	gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(M, N);
	struct cp_nnls s;
	bool ok;
	int i, j, rc;

	for (i = 0; i < M; i++) {
		a[i * N] = 1;
		a[i * N + 1] = i * 1000.0;
		a[i * N + 2] = (i % 7) * 1e-3;
		b[i] = 2e-6 + 3e-9 * a[i * N + 1] + 5e-4 * a[i * N + 2] +
		       gsl_ran_gaussian(rng, 1e-7);
		for (j = 0; j < N; j++)
			gsl_matrix_set(x, i, j, a[i * N + j]);
		gsl_vector_set(y, i, b[i]);
	}
	gsl_multifit_linear(x, y, c, cov, &chisq, ws);
	rc = cp_nnls_solve(a, b, NULL, M, N, NULL, &s);
	ok = !rc;
	for (j = 0; ok && j < N; j++) {
		c0 = gsl_vector_get(c, j);
		ok = ta_near(s.x[j], c0, 1e-7) && !s.active[j] &&
		     ta_near(s.se[j], sqrt(gsl_matrix_get(cov, j, j)), 1e-6) &&
		     ta_near(s.se_free[j], s.se[j], 1e-9);
	}
	ta_check(ok && s.df == M - N,
		 "no bound reached: GSL's fit and standard errors, columns "
		 "nine orders of magnitude apart");
	cp_nnls_free(&s);
	gsl_matrix_free(x);
	gsl_matrix_free(cov);
	gsl_vector_free(y);
	gsl_vector_free(c);
	gsl_multifit_linear_free(ws);
}

static void test_weights_errors(void)
{
	static const double a[] = { 1, 1, 1, 2, 1, 3, 1, 4 };
	static const double b[] = { 1.1, 1.9, 3.2, 3.9 };
	static const double w1[] = { 1, 2, 3, 4 }, w2[] = { 10, 20, 30, 40 };
	static const double wneg[] = { 1, -1, 1, 1 };
	static const double dup[] = { 1, 1, 1, 1, 1, 1 };
	static const bool fr2[] = { true, true };
	struct cp_nnls s1, s2, s;
	double bn[] = { 1, NAN, 1, 1 };
	int r1, r2;

	r1 = cp_nnls_solve(a, b, w1, 4, 2, NULL, &s1);
	r2 = cp_nnls_solve(a, b, w2, 4, 2, NULL, &s2);
	ta_check(!r1 && !r2 && ta_near(s1.x[1], s2.x[1], 1e-12) &&
		 ta_near(s1.se[1], s2.se[1], 1e-9) &&
		 ta_near(s2.rss, 10 * s1.rss, 1e-9),
		 "weights scaled by 10: same x and se, rss x 10");
	cp_nnls_free(&s1);
	cp_nnls_free(&s2);
	ta_check(cp_nnls_solve(a, b, wneg, 4, 2, NULL, &s) == -CP_EINVAL,
		 "a negative weight: -CP_EINVAL");
	ta_check(cp_nnls_solve(a, bn, NULL, 4, 2, NULL, &s) == -CP_EINVAL,
		 "a NAN: -CP_EINVAL");
	ta_check(cp_nnls_solve(a, b, NULL, 0, 2, NULL, &s) == -CP_EINVAL,
		 "no rows: -CP_EINVAL");
	r1 = cp_nnls_solve(dup, b, NULL, 3, 2, NULL, &s);
	ta_check(!r1 && s.x[0] + s.x[1] > 0 && (s.active[0] || s.active[1]) &&
		 isnan(s.se_free[0]),
		 "two equal constrained columns: one carries the fit, the "
		 "other sits at 0, no free standard error");
	if (!r1)
		cp_nnls_free(&s);
	ta_check(cp_nnls_solve(dup, b, NULL, 3, 2, fr2, &s) == -CP_ENUM,
		 "two equal free columns: -CP_ENUM");
}

/* y = c + t*M with c, t >= 0 and a third unknown truly 0: recovered in
 * their 99.9% intervals once; 95% coverage over 400 draws. */
static void test_recovery(gsl_rng *rng)
{
	enum { M = 24, N = 3, DRAWS = 400 };
	static const double tr[N] = { 3e-6, 2e-10, 0 };
	double a[M * N], b[M], w[M], t999, y;
	struct cp_nnls s;
	int i, d, c, hit[N] = { 0 }, ok1 = 1, rc;

	t999 = cp_stats_tq(0.999, M - N);
	for (d = 0; d < DRAWS; d++) {
		for (i = 0; i < M; i++) {
			double mb = 4096.0 * (1 << (i % 12));

			a[i * N] = 1;
			a[i * N + 1] = mb;
			a[i * N + 2] = i < M / 2 ? 1 : 0;
			y = tr[0] + tr[1] * mb;
			/* relative noise 2%, weighted as the LMO fit does */
			b[i] = y * (1 + gsl_ran_gaussian(rng, 0.02));
			w[i] = 1 / (y * y);
		}
		rc = cp_nnls_solve(a, b, w, M, N, NULL, &s);
		if (rc) {
			ok1 = 0;
			continue;
		}
		for (c = 0; c < 2; c++) {
			double q = cp_stats_tq(0.95, s.df);

			hit[c] += fabs(s.x[c] - tr[c]) <= q * s.se[c];
			if (d == 0)
				ok1 &= fabs(s.x[c] - tr[c]) <= t999 * s.se[c];
		}
		/* the zero unknown: at the bound or within its interval */
		hit[2] += s.active[2] ||
			  s.x[2] <= cp_stats_tq(0.95, s.df) * s.se[2];
		cp_nnls_free(&s);
	}
	ta_check(ok1, "recovery: c and t inside their 99.9%% intervals");
	for (c = 0; c < N; c++)
		ta_check(hit[c] >= 0.92 * DRAWS && hit[c] <= 0.99 * DRAWS + 4,
			 "recovery: 95%% interval of unknown %d covers %d of "
			 "%d draws", c, hit[c], DRAWS);
}

int main(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	cp_stats_init();
	gsl_rng_set(rng, 18);
	test_by_hand();
	test_kkt(rng);
	test_vs_gsl(rng);
	test_weights_errors();
	test_recovery(rng);
	gsl_rng_free(rng);
	return ta_done("test_analysis_nnls");
}
