/*
 * cp_breaks.h - optimal breakpoints of a piecewise-linear regression
 * y = a_j + b_j*x, one line per segment (LMO paper: S and
 * M2).  Bai & Perron (2003) dynamic programming over least-squares
 * segment costs, as R strucchange::breakpoints does it:
 *  - every segment has at least h observations (strucchange's h; here at
 *    least 3 because each segment fits 2 coefficients);
 *  - at most ceil(n/h) - 2 breaks;
 *  - for each number of breaks m the partition of least total RSS;
 *  - m chosen by BIC as strucchange's summary does:
 *    BIC(m) = n*(log(RSS_m) + 1 - log(n) + log(2*pi)) + log(n)*df,
 *    df = (m + 1)*(k + 1) with k = 2 regressors (logLik.breakpoints
 *    counts one variance per segment).  The first minimum wins.
 * Observations must be ordered by x (a size row); indices are 0-based and
 * a break is the index of the LAST observation of a segment.
 */
#ifndef CP_BREAKS_H
#define CP_BREAKS_H

#include "analysis/cp_stats.h"

/* One segment of the chosen partition. */
struct cp_seg {
	int first;		/* index of its first observation */
	int last;		/* index of its last observation */
	struct cp_linfit fit;	/* y = c0 + c1*x on first..last */
};

/* A fitted partition.  Arrays are owned by the struct: cp_breaks_free. */
struct cp_breaks {
	int nobs;		/* observations */
	int h;			/* minimum segment size used */
	int max_breaks;		/* largest m evaluated */
	int m;			/* number of breaks chosen */
	int *brk;		/* [m] last index of segments 0..m-1 */
	struct cp_seg *seg;	/* [m + 1] segments, in order */
	double *rss;		/* [max_breaks + 1] least RSS for each m */
	double *bic;		/* [max_breaks + 1] BIC for each m */
};

/* Minimum segment size for n observations when the caller has none:
 * floor(0.15*n) as strucchange, at least 3.  Cannot fail. */
int cp_breaks_default_h(int n);

/* Fit the optimal partition of (x[i], y[i]), i < n.
 * x, y: observations ordered by x; n: count;
 * h: minimum segment size, <= 0 for cp_breaks_default_h(n); must be >= 3
 *    and <= n/2 (strucchange's limits);
 * breaks: number of breaks to impose (0 .. ceil(n/h) - 2), or -1 to
 *    evaluate all and choose by BIC;
 * level: confidence level of the segment fits;
 * b: out; on success owns arrays to release with cp_breaks_free(); on
 *    error holds none.
 * Errors: -CP_EINVAL (bad n, h or breaks, non-finite data, a segment whose
 * x are all equal), -CP_ENOMEM. */
int cp_breaks_fit(const double *x, const double *y, int n, int h,
		  int breaks, double level, struct cp_breaks *b);

/* The same partition for nser series observed at the same x (a size
 * sweep over several links): each series has its own line in every
 * segment, the breaks are shared, the cost of a partition is the sum of
 * the series' weighted RSS, and BIC counts 2*nser coefficients and one
 * variance per segment over nser*n observations.  Weights make the
 * residuals relative (w = 1/y^2: a size sweep spans microseconds to
 * milliseconds, and unweighted the largest sizes would decide every
 * break).
 * x: [n] ordered; y, w: [s * n + i] series s at x[i], w NULL for 1;
 * nser >= 1; n, h, breaks: as cp_breaks_fit; b: out, its segments hold
 * first and last only (fit zero, n 0).
 * Errors as cp_breaks_fit; -CP_EINVAL for a negative weight. */
int cp_breaks_fit_joint(const double *x, const double *y, const double *w,
			int nser, int n, int h, int breaks,
			struct cp_breaks *b);

/* Release the arrays of b (NULL-safe, idempotent).  Cannot fail. */
void cp_breaks_free(struct cp_breaks *b);

#endif
