/*
 * cp_hist.c - logarithmic histograms of mu with exact bin extremes
 * (analysis/cp_hist.h).
 *
 * The bin of v comes from its IEEE-754 bits: for v >= 1, the exponent
 * and the top res bits of the mantissa, less those of 1.0, are
 * floor(log2(v) 2^res) up to the mantissa's linear spacing inside an
 * octave; that is the bin width's only uneven part (at most a factor
 * 2^(1/2^res) between a bin's two ends), and no log() is taken per value.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_hist.h"

#define CP_HIST_MAGIC	0x31485043u	/* "CPH1" */

int cp_hist_init(struct cp_hist *h, int res)
{
	if (res < 1 || res > 16)
		return -CP_EINVAL;
	memset(h, 0, sizeof(*h));
	h->res = res;
	return 0;
}

void cp_hist_free(struct cp_hist *h)
{
	int res = h->res;

	free(h->b);
	memset(h, 0, sizeof(*h));
	h->res = res;
}

/* The bin of v at res bins per octave (log2).  A bin at a finer res'
 * lies in bin idx >> (res' - res) at res: the same bits, fewer kept. */
static uint32_t cp_hist_idx_at(int res, double v)
{
	uint64_t bits, one;

	memcpy(&bits, &v, sizeof(bits));
	v = 1.0;
	memcpy(&one, &v, sizeof(one));
	return (uint32_t)((bits - one) >> (52 - res));
}

static uint32_t cp_hist_idx(const struct cp_hist *h, double v)
{
	return cp_hist_idx_at(h->res, v);
}

static uint32_t cp_hist_home(uint32_t idx, uint32_t mask)
{
	return (uint32_t)(((uint64_t)idx * UINT64_C(0x9e3779b97f4a7c15)) >>
			  32) & mask;
}

/* The slot of bin idx in a table of mask + 1 slots: where it is, or the
 * free slot where it goes. */
static struct cp_hist_bin *cp_hist_slot(struct cp_hist_bin *b, uint32_t mask,
					uint32_t idx)
{
	uint32_t i = cp_hist_home(idx, mask);

	while (b[i].n && b[i].idx != idx)
		i = (i + 1) & mask;
	return &b[i];
}

/* Room for one more bin: the table at most half full. */
static int cp_hist_room(struct cp_hist *h)
{
	uint32_t mask = h->mask ? 2 * h->mask + 1 : 15, i;
	struct cp_hist_bin *b;

	if (h->mask && 2 * (h->nb + 1) <= h->mask + 1)
		return 0;
	b = calloc((size_t)mask + 1, sizeof(*b));
	if (!b)
		return -CP_ENOMEM;
	for (i = 0; h->mask && i <= h->mask; i++)
		if (h->b[i].n)
			*cp_hist_slot(b, mask, h->b[i].idx) = h->b[i];
	free(h->b);
	h->b = b;
	h->mask = mask;
	return 0;
}

/* Add c values from lo to hi to bin idx (all of them in it). */
static int cp_hist_put(struct cp_hist *h, uint32_t idx, uint64_t c, double lo,
		       double hi)
{
	struct cp_hist_bin *s = h->mask ? cp_hist_slot(h->b, h->mask, idx) :
				NULL;

	if (!s || !s->n) {
		if (cp_hist_room(h))
			return -CP_ENOMEM;
		s = cp_hist_slot(h->b, h->mask, idx);
		s->idx = idx;
		s->lo = lo;
		s->hi = hi;
		h->nb++;
	}
	s->n += c;
	if (lo < s->lo)
		s->lo = lo;
	if (hi > s->hi)
		s->hi = hi;
	return 0;
}

int cp_hist_add(struct cp_hist *h, double v)
{
	int ret;

	if (!isfinite(v) || !(v >= 1))
		return -CP_EINVAL;
	ret = cp_hist_put(h, cp_hist_idx(h, v), 1, v, v);
	if (ret)
		return ret;
	h->n++;
	h->sum += v;
	return 0;
}

int cp_hist_merge(struct cp_hist *into, const struct cp_hist *from)
{
	uint32_t i;
	int ret;

	if (into->res > from->res)
		return -CP_EINVAL;
	for (i = 0; from->mask && i <= from->mask; i++) {
		const struct cp_hist_bin *b = &from->b[i];

		if (!b->n)
			continue;
		ret = cp_hist_put(into, b->idx >> (from->res - into->res),
				  b->n, b->lo, b->hi);
		if (ret)
			return ret;
	}
	into->n += from->n;
	into->sum += from->sum;
	return 0;
}

static int cp_hist_bin_cmp(const void *pa, const void *pb)
{
	const struct cp_hist_bin *a = pa, *b = pb;

	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The k-th (from 0) smallest value, read from bins v[0..nb) sorted by
 * bin; *at and *before carry the walk from one k to a larger one. */
static double cp_hist_order(const struct cp_hist_bin *v, uint32_t nb,
			    uint64_t k, uint32_t *at, uint64_t *before)
{
	const struct cp_hist_bin *b;
	uint64_t j;

	while (*at + 1 < nb && *before + v[*at].n <= k)
		*before += v[(*at)++].n;
	b = &v[*at];
	j = k - *before;
	if (b->n == 1 || j == 0)
		return b->lo;
	if (j >= b->n - 1)
		return b->hi;
	return b->lo + (b->hi - b->lo) * (double)j / (double)(b->n - 1);
}

/* Indices of p sorted by p, so that one walk over the bins serves all. */
static int cp_hist_by_p(const double *p, size_t np, size_t *ix)
{
	size_t i, j, t;

	for (i = 0; i < np; i++) {
		if (!(p[i] >= 0 && p[i] <= 1))
			return -CP_EINVAL;
		ix[i] = i;
	}
	for (i = 1; i < np; i++)	/* a handful of quantiles: insertion */
		for (j = i; j > 0 && p[ix[j - 1]] > p[ix[j]]; j--) {
			t = ix[j];
			ix[j] = ix[j - 1];
			ix[j - 1] = t;
		}
	return 0;
}

int cp_hist_quantiles(const struct cp_hist *h, const double *p, size_t np,
		      double *q)
{
	struct cp_hist_bin *v;
	uint64_t before = 0, k;
	uint32_t i, nb = 0, at = 0;
	size_t *ix, j;
	double pos, x0, x1;
	int ret;

	if (!h->n || !h->nb)
		return -CP_EINVAL;
	v = malloc(h->nb * sizeof(*v));
	ix = malloc((np ? np : 1) * sizeof(*ix));
	ret = v && ix ? cp_hist_by_p(p, np, ix) : -CP_ENOMEM;
	if (ret)
		goto out_free;
	for (i = 0; i <= h->mask; i++)
		if (h->b[i].n)
			v[nb++] = h->b[i];
	qsort(v, nb, sizeof(*v), cp_hist_bin_cmp);
	for (j = 0; j < np; j++) {
		pos = (double)(h->n - 1) * p[ix[j]];
		k = (uint64_t)pos;
		x0 = cp_hist_order(v, nb, k, &at, &before);
		q[ix[j]] = x0;
		if (k + 1 < h->n && pos > (double)k) {
			uint32_t a2 = at;
			uint64_t b2 = before;

			x1 = cp_hist_order(v, nb, k + 1, &a2, &b2);
			q[ix[j]] = x0 + (pos - (double)k) * (x1 - x0);
		}
	}
out_free:
	free(v);
	free(ix);
	return ret;
}

/* Packed form: magic, res, nb (uint32 each), n (uint64), sum (double),
 * then per bin idx (uint32), n (uint64), lo, hi (double); no padding. */
#define CP_HIST_HEAD	(3 * 4 + 8 + 8)
#define CP_HIST_BIN	(4 + 8 + 8 + 8)

static unsigned char *cp_hist_put_bytes(unsigned char *p, const void *v,
					size_t n)
{
	memcpy(p, v, n);
	return p + n;
}

size_t cp_hist_pack(const struct cp_hist *h, void *buf, size_t len)
{
	size_t need = CP_HIST_HEAD + (size_t)h->nb * CP_HIST_BIN;
	uint32_t head[3] = { CP_HIST_MAGIC, (uint32_t)h->res, h->nb }, i;
	unsigned char *p = buf;

	if (len < need)
		return need;
	p = cp_hist_put_bytes(p, head, sizeof(head));
	p = cp_hist_put_bytes(p, &h->n, 8);
	p = cp_hist_put_bytes(p, &h->sum, 8);
	for (i = 0; h->mask && i <= h->mask; i++) {
		const struct cp_hist_bin *b = &h->b[i];

		if (!b->n)
			continue;
		p = cp_hist_put_bytes(p, &b->idx, 4);
		p = cp_hist_put_bytes(p, &b->n, 8);
		p = cp_hist_put_bytes(p, &b->lo, 8);
		p = cp_hist_put_bytes(p, &b->hi, 8);
	}
	return need;
}

static void cp_hist_get_bin(const unsigned char *p, struct cp_hist_bin *b)
{
	memcpy(&b->idx, p, 4);
	memcpy(&b->n, p + 4, 8);
	memcpy(&b->lo, p + 12, 8);
	memcpy(&b->hi, p + 20, 8);
}

/* A packed bin that a histogram of res could have made: values in its
 * range, in order. */
static bool cp_hist_bin_ok(int res, const struct cp_hist_bin *b)
{
	return b->n && b->lo >= 1 && b->lo <= b->hi && isfinite(b->hi) &&
	       cp_hist_idx_at(res, b->lo) == b->idx &&
	       cp_hist_idx_at(res, b->hi) == b->idx;
}

int cp_hist_unpack(struct cp_hist *h, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	struct cp_hist_bin b;
	uint32_t head[3], i;
	uint64_t n;
	double sum;
	int pass, ret;

	if (len < CP_HIST_HEAD)
		return -CP_EINVAL;
	memcpy(head, p, sizeof(head));
	memcpy(&n, p + 12, 8);
	memcpy(&sum, p + 20, 8);
	/* h's res or finer (a summary of an older commprof, whose links
	 * had 64 bins per octave) */
	if (head[0] != CP_HIST_MAGIC || head[1] < (uint32_t)h->res ||
	    head[1] > 16 ||
	    len != CP_HIST_HEAD + (size_t)head[2] * CP_HIST_BIN)
		return -CP_EINVAL;
	/* all bins checked before h changes */
	for (pass = 0; pass < 2; pass++) {
		p = (const unsigned char *)buf + CP_HIST_HEAD;
		for (i = 0; i < head[2]; i++, p += CP_HIST_BIN) {
			cp_hist_get_bin(p, &b);
			if (!pass && !cp_hist_bin_ok((int)head[1], &b))
				return -CP_EINVAL;
			if (pass && (ret = cp_hist_put(h, b.idx >> (head[1] -
							(uint32_t)h->res),
						       b.n, b.lo, b.hi)))
				return ret;
		}
	}
	h->n += n;
	h->sum += sum;
	return 0;
}
