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
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_breaks.h"
#include "analysis/cp_err.h"

int cp_breaks_default_h(int n)
{
	int h = (int)floor(0.15 * n);

	return h < 3 ? 3 : h;
}

/* rss[i*n + j]: RSS of the line through observations i..j (j >= i + 1). */
static void segment_rss(const double *x, const double *y, int n, double *rss)
{
	double mx, my, sxx, sxy, syy, dx, dy, r;
	int i, j, k;

	for (i = 0; i < n; i++) {
		mx = my = sxx = sxy = syy = 0;
		for (j = i; j < n; j++) {
			k = j - i + 1;
			dx = x[j] - mx;
			dy = y[j] - my;
			mx += dx / k;
			my += dy / k;
			sxx += dx * (x[j] - mx);
			sxy += dx * (y[j] - my);
			syy += dy * (y[j] - my);
			r = sxx > 0 ? syy - sxy * sxy / sxx : syy;
			rss[i * n + j] = r > 0 ? r : 0;
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

static double bic(double rss, int n, int m)
{
	/* strucchange: -2 logLik + log(n) * (k + 1) * (m + 1), k = 2 */
	return n * (log(rss) + 1 - log((double)n) + log(2 * M_PI)) +
	       log((double)n) * 3.0 * (m + 1);
}

static int fill_segments(const double *x, const double *y, const int *arg,
			 double level, struct cp_breaks *b)
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
		rc = cp_stats_linfit(x + first, y + first,
				     b->seg[s].last - first + 1, level,
				     &b->seg[s].fit);
		if (rc)
			return rc;
	}
	return 0;
}

int cp_breaks_fit(const double *x, const double *y, int n, int h,
		  int breaks, double level, struct cp_breaks *b)
{
	double *rss = NULL, *best = NULL;
	int *arg = NULL, maxb, m, i, rc = -CP_ENOMEM;

	memset(b, 0, sizeof(*b));
	if (h <= 0)
		h = cp_breaks_default_h(n);
	if (!x || !y || h < 3 || n < 2 * h)
		return -CP_EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]) || !isfinite(y[i]))
			return -CP_EINVAL;
	maxb = (n + h - 1) / h - 2;
	if (breaks > maxb || breaks < -1)
		return -CP_EINVAL;
	if (breaks >= 0)
		maxb = breaks;
	b->nobs = n;
	b->h = h;
	b->max_breaks = maxb;
	rss = malloc((size_t)n * n * sizeof(*rss));
	best = malloc((size_t)(maxb + 1) * n * sizeof(*best));
	arg = malloc((size_t)(maxb + 1) * n * sizeof(*arg));
	b->rss = malloc((maxb + 1) * sizeof(*b->rss));
	b->bic = malloc((maxb + 1) * sizeof(*b->bic));
	if (!rss || !best || !arg || !b->rss || !b->bic)
		goto out_free;
	segment_rss(x, y, n, rss);
	partition_table(rss, n, h, maxb, best, arg);
	b->m = breaks;
	for (m = 0; m <= maxb; m++) {
		b->rss[m] = best[m * n + n - 1];
		b->bic[m] = bic(b->rss[m], n, m);
		if (breaks < 0 && (m == 0 || b->bic[m] < b->bic[b->m]))
			b->m = m;
	}
	b->brk = malloc((b->m + 1) * sizeof(*b->brk));
	b->seg = malloc((b->m + 1) * sizeof(*b->seg));
	if (!b->brk || !b->seg)
		goto out_free;
	rc = fill_segments(x, y, arg, level, b);
out_free:
	free(rss);
	free(best);
	free(arg);
	if (rc)
		cp_breaks_free(b);
	return rc;
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
