/*
 * test_hist.c - analysis/cp_hist without MPI: quantiles of values that
 * fall one to a bin are exact (the statistics the report prints of a
 * hand-written run), those of 200,000 spread values are within a bin's
 * width of the exact ones of cp_stats_percentile, a histogram built in
 * four parts and merged (or packed and unpacked) answers as the one
 * built whole, and bad input is refused.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_hist.h"
#include "analysis/cp_stats.h"
#include "tests/test_analysis.h"

static void check_exact(void)
{
	static const double p[] = { 0.5, 0.9, 0, 1 };
	struct cp_hist h;
	double q[4];
	int i, ret = 0;

	cp_hist_init(&h, CP_HIST_FINE);
	for (i = 11; i >= 1; i--)
		ret |= cp_hist_add(&h, i);
	ret |= cp_hist_quantiles(&h, p, 4, q);
	ta_check(!ret && q[0] == 6 && q[1] == 10 && q[2] == 1 && q[3] == 11 &&
		 h.n == 11 && h.sum == 66, "1..11: median %g, p90 %g, min "
		 "%g, max %g, mean %g (6, 10, 1, 11, 6)", q[0], q[1], q[2],
		 q[3], h.sum / (double)h.n);
	cp_hist_free(&h);
	cp_hist_init(&h, CP_HIST_FINE);
	cp_hist_add(&h, 1.5);
	cp_hist_add(&h, 2.5);
	cp_hist_quantiles(&h, p, 2, q);
	ta_check(ta_near(q[1], 2.4, 1e-12) && q[0] == 2,
		 "1.5, 2.5: p90 %.15g (2.4), median %g (2)", q[1], q[0]);
	for (i = 0; i < 1000; i++)
		cp_hist_add(&h, 3.25);
	cp_hist_quantiles(&h, p, 1, q);
	ta_check(q[0] == 3.25 && h.nb == 3, "one value 1000 times: its bin "
		 "gives it back exactly (%g, %u bins)", q[0], h.nb);
	cp_hist_free(&h);
}

/* A deterministic spread of mu: 1 + a log-uniform part up to 500. */
static double draw(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return exp((double)(*s >> 8) / (double)(1u << 24) * log(500.0));
}

static void check_spread(int res, double width)
{
	static const double p[] = { 0.5, 0.9, 0.1 };
	enum { N = 200000 };
	double *x = malloc(N * sizeof(*x)), q[3], e, worst = 0;
	struct cp_hist h;
	unsigned s = 42;
	int i;

	cp_hist_init(&h, res);
	for (i = 0; i < N; i++) {
		x[i] = draw(&s);
		cp_hist_add(&h, x[i]);
	}
	cp_hist_quantiles(&h, p, 3, q);
	for (i = 0; i < 3; i++) {
		cp_stats_percentile(x, N, p[i], &e);
		if (fabs(q[i] - e) / e > worst)
			worst = fabs(q[i] - e) / e;
	}
	ta_check(worst < width, "res %d, 200000 values: quantiles within "
		 "%.3g of exact (bin width %.3g), %u bins", res, worst, width,
		 h.nb);
	cp_hist_free(&h);
	free(x);
}

static bool same(const struct cp_hist *a, const struct cp_hist *b)
{
	static const double p[] = { 0.5, 0.9, 0.25 };
	double qa[3], qb[3];

	if (a->n != b->n || a->nb != b->nb || !ta_near(a->sum, b->sum, 1e-12))
		return false;
	cp_hist_quantiles(a, p, 3, qa);
	cp_hist_quantiles(b, p, 3, qb);
	return !memcmp(qa, qb, sizeof(qa));
}

static void check_merge(void)
{
	struct cp_hist whole, part[4], sum, unp;
	unsigned s = 7;
	unsigned char *buf;
	size_t len;
	int i, ret = 0;

	cp_hist_init(&whole, CP_HIST_FINE);
	cp_hist_init(&sum, CP_HIST_FINE);
	cp_hist_init(&unp, CP_HIST_FINE);
	for (i = 0; i < 4; i++)
		cp_hist_init(&part[i], CP_HIST_FINE);
	for (i = 0; i < 50000; i++) {
		double v = draw(&s);

		cp_hist_add(&whole, v);
		cp_hist_add(&part[i % 4], v);
	}
	for (i = 0; i < 4; i++)
		ret |= cp_hist_merge(&sum, &part[i]);
	ta_check(!ret && same(&whole, &sum), "four parts merged answer as "
		 "the whole (%u bins)", sum.nb);
	len = cp_hist_pack(&whole, NULL, 0);
	buf = malloc(len);
	ta_check(cp_hist_pack(&whole, buf, len) == len &&
		 !cp_hist_unpack(&unp, buf, len) && same(&whole, &unp),
		 "packed (%zu bytes) and unpacked: the same", len);
	ta_check(cp_hist_unpack(&unp, buf, len - 1) == -CP_EINVAL,
		 "a cut packed form is refused");
	buf[30] ^= 0x40;	/* the first bin's number */
	ta_check(cp_hist_unpack(&unp, buf, len) == -CP_EINVAL &&
		 unp.n == whole.n, "a damaged bin is refused, nothing added");
	free(buf);
	cp_hist_free(&whole);
	cp_hist_free(&sum);
	cp_hist_free(&unp);
	for (i = 0; i < 4; i++)
		cp_hist_free(&part[i]);
}

/* A finer histogram merged or unpacked into a coarser one: as if its
 * values had been added to the coarser one (a stored summary whose links
 * had 64 bins per octave, read where they have 16). */
static void check_coarsen(void)
{
	struct cp_hist fine, coarse, merged, unp;
	unsigned s = 11;
	unsigned char *buf;
	size_t len;
	int i, ret;

	cp_hist_init(&fine, CP_HIST_COARSE);
	cp_hist_init(&coarse, 4);
	cp_hist_init(&merged, 4);
	cp_hist_init(&unp, 4);
	for (i = 0; i < 20000; i++) {
		double v = draw(&s);

		cp_hist_add(&fine, v);
		cp_hist_add(&coarse, v);
	}
	cp_hist_add(&fine, 1);	/* bin 0 of both */
	cp_hist_add(&coarse, 1);
	ret = cp_hist_merge(&merged, &fine);
	ta_check(!ret && same(&coarse, &merged), "64 bins per octave merged "
		 "into 16: as added there (%u bins of %u)", merged.nb,
		 fine.nb);
	len = cp_hist_pack(&fine, NULL, 0);
	buf = malloc(len);
	cp_hist_pack(&fine, buf, len);
	ta_check(!cp_hist_unpack(&unp, buf, len) && same(&coarse, &unp),
		 "64 bins per octave unpacked into 16: the same");
	free(buf);
	len = cp_hist_pack(&coarse, NULL, 0);
	buf = malloc(len);
	cp_hist_pack(&coarse, buf, len);
	ta_check(cp_hist_unpack(&fine, buf, len) == -CP_EINVAL &&
		 fine.n == 20001, "16 bins per octave into 64: refused");
	free(buf);
	cp_hist_free(&fine);
	cp_hist_free(&coarse);
	cp_hist_free(&merged);
	cp_hist_free(&unp);
}

static void check_bad(void)
{
	struct cp_hist h, c;
	double q, p = 0.5;

	ta_check(cp_hist_init(&h, 0) == -CP_EINVAL &&
		 cp_hist_init(&h, 17) == -CP_EINVAL, "res 0 and 17 refused");
	cp_hist_init(&h, CP_HIST_FINE);
	cp_hist_init(&c, CP_HIST_COARSE);
	ta_check(cp_hist_add(&h, 0.5) == -CP_EINVAL &&
		 cp_hist_add(&h, NAN) == -CP_EINVAL &&
		 cp_hist_add(&h, INFINITY) == -CP_EINVAL && h.n == 0,
		 "mu below 1, NaN and infinity refused");
	ta_check(cp_hist_quantiles(&h, &p, 1, &q) == -CP_EINVAL,
		 "no quantile of an empty histogram");
	cp_hist_add(&h, 2);
	cp_hist_add(&c, 2);
	p = 1.5;
	ta_check(cp_hist_quantiles(&h, &p, 1, &q) == -CP_EINVAL &&
		 cp_hist_merge(&h, &c) == -CP_EINVAL && h.n == 1,
		 "p out of range, merging a coarser resolution: refused");
	cp_hist_free(&h);
	cp_hist_free(&c);
}

int main(void)
{
	check_exact();
	check_spread(CP_HIST_FINE, 0.00068);
	check_spread(CP_HIST_COARSE, 0.011);
	check_merge();
	check_coarsen();
	check_bad();
	return ta_done("test_hist");
}
