/*
 * cp_breaks.c - Bai-Perron optimal partitions of a piecewise-linear
 * regression by dynamic programming (analysis/cp_breaks.h).
 *
 * Cost: O(n^2) segment RSS (one pass per start, Welford updates: the
 * prefix-sum formula Sxx = sum x^2 - (sum x)^2/n loses digits when sizes
 * are large and a segment spans little of them), O(m*n^2) for the table.
 * Memory n^2 doubles: size rows have tens to a few hundred points.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_breaks.h"
#include "analysis/cp_err.h"

int cp_breaks_default_h(int n)
{
	int h = (int)floor(0.15 * n);

	return h < 3 ? 3 : h;
}

/* rss[i*n + j] += weighted RSS of the line through observations i..j
 * (j >= i + 1) of one series; w NULL: all weights 1.  West's weighted
 * update of the means and co-moments. */
static void segment_rss(const double *x, const double *y, const double *w,
			int n, double *rss)
{
	double mx, my, sxx, sxy, syy, dx, dy, r, sw, wk;
	int i, j;

	for (i = 0; i < n; i++) {
		mx = my = sxx = sxy = syy = sw = 0;
		for (j = i; j < n; j++) {
			wk = w ? w[j] : 1;
			sw += wk;
			dx = x[j] - mx;
			dy = y[j] - my;
			mx += wk / sw * dx;
			my += wk / sw * dy;
			sxx += wk * dx * (x[j] - mx);
			sxy += wk * dx * (y[j] - my);
			syy += wk * dy * (y[j] - my);
			r = sxx > 0 ? syy - sxy * sxy / sxx : syy;
			rss[i * n + j] += r > 0 ? r : 0;
		}
	}
}

/* best[m*n + j]: least RSS of 0..j cut into m + 1 segments of >= h points;
 * arg[m*n + j]: last index of the m-th segment in that optimum. */
static void partition_table(const double *rss, int n, int h, int maxb,
			    double *best, int *arg)
{
	double c;
	int m, i, j;

	for (j = 0; j < n; j++)
		best[j] = j >= h - 1 ? rss[j] : INFINITY;
	for (m = 1; m <= maxb; m++) {
		for (j = 0; j < n; j++) {
			best[m * n + j] = INFINITY;
			arg[m * n + j] = -1;
			for (i = m * h - 1; i <= j - h; i++) {
				c = best[(m - 1) * n + i] +
				    rss[(i + 1) * n + j];
				if (c < best[m * n + j]) {
					best[m * n + j] = c;
					arg[m * n + j] = i;
				}
			}
		}
	}
}

/* strucchange: -2 logLik + log(n) * (k + 1) * (m + 1), k = 2 for one
 * series; k = 2 * nser coefficients per segment for nser series sharing
 * the breaks. */
static double bic(double rss, int n, int m, int nser)
{
	return n * (log(rss) + 1 - log((double)n) + log(2 * M_PI)) +
	       log((double)n) * (2.0 * nser + 1) * (m + 1);
}

/* Breaks from the partition table; segment bounds (and fits when fit). */
static int fill_segments(const double *x, const double *y, const int *arg,
			 bool fit, double level, struct cp_breaks *b)
{
	int n = b->nobs, j = n - 1, s, first, rc;

	for (s = b->m; s > 0; s--) {
		b->brk[s - 1] = arg[s * n + j];
		j = b->brk[s - 1];
	}
	for (s = 0; s <= b->m; s++) {
		first = s ? b->brk[s - 1] + 1 : 0;
		b->seg[s].first = first;
		b->seg[s].last = s < b->m ? b->brk[s] : n - 1;
		memset(&b->seg[s].fit, 0, sizeof(b->seg[s].fit));
		if (!fit)
			continue;
		rc = cp_stats_linfit(x + first, y + first,
				     b->seg[s].last - first + 1, level,
				     &b->seg[s].fit);
		if (rc)
			return rc;
	}
	return 0;
}

static int check_input(const double *x, const double *y, const double *w,
		       int nser, int n, int h)
{
	int i;

	if (!x || !y || nser < 1 || h < 3 || n < 2 * h)
		return -CP_EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -CP_EINVAL;
	for (i = 0; i < nser * n; i++)
		if (!isfinite(y[i]) || (w && !(w[i] >= 0 && isfinite(w[i]))))
			return -CP_EINVAL;
	return 0;
}

static int fit_any(const double *x, const double *y, const double *w,
		   int nser, int n, int h, int breaks, double level,
		   struct cp_breaks *b)
{
	double *rss = NULL, *best = NULL;
	int *arg = NULL, maxb, m, k, rc;

	memset(b, 0, sizeof(*b));
	if (h <= 0)
		h = cp_breaks_default_h(n);
	rc = check_input(x, y, w, nser, n, h);
	if (rc)
		return rc;
	maxb = (n + h - 1) / h - 2;
	if (breaks > maxb || breaks < -1)
		return -CP_EINVAL;
	if (breaks >= 0)
		maxb = breaks;
	b->nobs = n;
	b->h = h;
	b->max_breaks = maxb;
	rc = -CP_ENOMEM;
	rss = calloc((size_t)n * n, sizeof(*rss));
	best = malloc((size_t)(maxb + 1) * n * sizeof(*best));
	arg = malloc((size_t)(maxb + 1) * n * sizeof(*arg));
	b->rss = malloc((maxb + 1) * sizeof(*b->rss));
	b->bic = malloc((maxb + 1) * sizeof(*b->bic));
	if (!rss || !best || !arg || !b->rss || !b->bic)
		goto out_free;
	for (k = 0; k < nser; k++)
		segment_rss(x, y + (size_t)k * n, w ? w + (size_t)k * n : NULL,
			    n, rss);
	partition_table(rss, n, h, maxb, best, arg);
	b->m = breaks;
	for (m = 0; m <= maxb; m++) {
		b->rss[m] = best[m * n + n - 1];
		b->bic[m] = bic(b->rss[m], n * nser, m, nser);
		if (breaks < 0 && (m == 0 || b->bic[m] < b->bic[b->m]))
			b->m = m;
	}
	b->brk = malloc((b->m + 1) * sizeof(*b->brk));
	b->seg = malloc((b->m + 1) * sizeof(*b->seg));
	if (!b->brk || !b->seg)
		goto out_free;
	rc = fill_segments(x, y, arg, nser == 1 && !w, level, b);
out_free:
	free(rss);
	free(best);
	free(arg);
	if (rc)
		cp_breaks_free(b);
	return rc;
}

int cp_breaks_fit(const double *x, const double *y, int n, int h,
		  int breaks, double level, struct cp_breaks *b)
{
	return fit_any(x, y, NULL, 1, n, h, breaks, level, b);
}

int cp_breaks_fit_joint(const double *x, const double *y, const double *w,
			int nser, int n, int h, int breaks,
			struct cp_breaks *b)
{
	return fit_any(x, y, w, nser, n, h, breaks, CP_STATS_LEVEL, b);
}

void cp_breaks_free(struct cp_breaks *b)
{
	free(b->brk);
	free(b->seg);
	free(b->rss);
	free(b->bic);
	b->brk = NULL;
	b->seg = NULL;
	b->rss = b->bic = NULL;
}
