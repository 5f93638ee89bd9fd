/*
 * test_analysis_breaks.c - analysis/cp_breaks without MPI: piecewise-
 * linear size rows with 0, 1 and 2 known breaks plus Gaussian noise
 * (fixed seed); the break indices must come back within +-1 and BIC must
 * choose the right number of breaks.
 */
#include "config.h"

#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/cp_breaks.h"
#include "analysis/cp_err.h"
#include "tests/test_analysis.h"

#define N 60

/* y on segment s: a[s] + b[s]*x; segment ends (last index) in end[]. */
static void gen(gsl_rng *r, double *x, double *y, const int *end, int nseg,
		const double *a, const double *b, double sd)
{
	int i, s = 0;

	for (i = 0; i < N; i++) {
		if (s < nseg - 1 && i > end[s])
			s++;
		x[i] = 1024.0 * (i + 1);
		y[i] = a[s] + b[s] * x[i] + gsl_ran_gaussian(r, sd);
	}
}

static void one_case(gsl_rng *r, const char *name, const int *end,
		     int nseg, const double *a, const double *b)
{
	double x[N], y[N];
	struct cp_breaks bp;
	int rc, s, ok;

	gen(r, x, y, end, nseg, a, b, 2e-6);
	rc = cp_breaks_fit(x, y, N, 0, -1, 0.95, &bp);
	if (!ta_check(rc == 0, "%s: fit returns 0 (got %d)", name, rc))
		return;
	ta_check(bp.m == nseg - 1, "%s: BIC picks %d breaks (got %d; h %d, "
		 "max %d)", name, nseg - 1, bp.m, bp.h, bp.max_breaks);
	for (s = 0; s < nseg - 1 && s < bp.m; s++)
		ta_check(abs(bp.brk[s] - end[s]) <= 1,
			 "%s: break %d at index %d +-1 (got %d)", name, s,
			 end[s], bp.brk[s]);
	ok = bp.seg[0].first == 0 && bp.seg[bp.m].last == N - 1;
	for (s = 1; s <= bp.m; s++)
		ok &= bp.seg[s].first == bp.seg[s - 1].last + 1;
	ta_check(ok, "%s: segments tile 0..%d", name, N - 1);
	ta_check(fabs(bp.seg[bp.m].fit.c1.val - b[nseg - 1]) <
		 0.05 * b[nseg - 1],
		 "%s: last segment slope %.4g within 5%% of %.4g", name,
		 bp.seg[bp.m].fit.c1.val, b[nseg - 1]);
	cp_breaks_free(&bp);
}

static void test_limits(void)
{
	double x[N] = { 0 }, y[N] = { 0 };
	struct cp_breaks bp;
	int i;

	for (i = 0; i < N; i++) {
		x[i] = i;
		y[i] = 3 + 2 * i;
	}
	ta_check(cp_breaks_default_h(60) == 9 && cp_breaks_default_h(10) == 3,
		 "default h: floor(0.15 n), at least 3");
	ta_check(cp_breaks_fit(x, y, N, 2, -1, 0.95, &bp) == -CP_EINVAL,
		 "h = 2 refused (a segment fits 2 coefficients)");
	ta_check(cp_breaks_fit(x, y, N, 31, -1, 0.95, &bp) == -CP_EINVAL,
		 "h > n/2 refused");
	ta_check(cp_breaks_fit(x, y, N, 10, 5, 0.95, &bp) == -CP_EINVAL,
		 "5 breaks with h = 10, n = 60 refused (max ceil(n/h)-2 = 4)");
	ta_check(cp_breaks_fit(x, y, N, 10, 2, 0.95, &bp) == 0 &&
		 bp.m == 2 && bp.max_breaks == 2,
		 "imposed 2 breaks on a line: 2 breaks returned");
	cp_breaks_free(&bp);
	ta_check(cp_breaks_fit(x, y, N, 10, -1, 0.95, &bp) == 0 && bp.m == 0,
		 "exact line: BIC picks 0 (RSS 0)");
	cp_breaks_free(&bp);
}

/* Two series on a geometric size row from 64 B to 4 MiB sharing a jump
 * at 4096 B (an eager limit), one of them with a second break at 64 KiB
 * of its own, 2% relative noise, relative weights: the joint fit finds
 * both, the second from one series alone. */
static void test_joint(gsl_rng *r)
{
	enum { S = 25 };
	double x[S], y[2 * S], w[2 * S], v;
	struct cp_breaks bp;
	int i, k, rc;

	for (i = 0; i < S; i++) {
		x[i] = 64 * pow(2, i / 2.0);
		for (k = 0; k < 2; k++) {
			v = x[i] < 4096 ? 0.3e-6 + 0.06e-9 * x[i] :
			    2.6e-6 + 0.07e-9 * x[i];
			if (k && x[i] >= 65536)
				v = 5e-6 + 0.2e-9 * x[i];
			v *= 1 + gsl_ran_gaussian(r, 0.02);
			y[k * S + i] = v;
			w[k * S + i] = 1 / (v * v);
		}
	}
	rc = cp_breaks_fit_joint(x, y, w, 2, S, 3, -1, &bp);
	ta_check(!rc && bp.m == 2 && x[bp.brk[0] + 1] == 4096 &&
		 x[bp.brk[1] + 1] == 65536,
		 "joint, relative: breaks before 4096 and 65536 (got %d: %.0f "
		 "%.0f)", rc ? -1 : bp.m, !rc && bp.m ? x[bp.brk[0] + 1] : 0,
		 !rc && bp.m > 1 ? x[bp.brk[1] + 1] : 0);
	ta_check(!rc && bp.seg[0].fit.n == 0, "joint: no per-segment fit");
	if (!rc)
		cp_breaks_free(&bp);
	w[3] = -1;
	ta_check(cp_breaks_fit_joint(x, y, w, 2, S, 3, -1, &bp) ==
		 -CP_EINVAL, "joint: a negative weight is refused");
}

int main(void)
{
	static const int end1[] = { 29 }, end2[] = { 19, 39 };
	static const double a0[] = { 1e-4 }, b0[] = { 1e-9 };
	/* scatter-like: a leap and a steeper slope */
	static const double a1[] = { 1e-4, 3e-4 }, b1[] = { 1e-9, 4e-9 };
	/* gather-like: small, escalated and flat, large */
	static const double a2[] = { 1e-4, 9e-4, 2e-4 };
	static const double b2[] = { 2e-9, 0, 6e-9 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, 7);
	one_case(r, "no break", end1, 1, a0, b0);
	one_case(r, "one break", end1, 2, a1, b1);
	one_case(r, "two breaks", end2, 3, a2, b2);
	test_limits();
	test_joint(r);
	gsl_rng_free(r);
	return ta_done("test_analysis_breaks");
}
