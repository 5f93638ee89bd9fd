/*
 * cp_hist.h - a histogram of proportional errors mu >= 1 that can be
 * added to one value at a time, merged with another (across threads,
 * partitions and ranks: the reductions of analysis/cp_reduce.h), and
 * asked for its mean and its quantiles, in memory that grows with the
 * spread of the values, not with their number.
 *
 * Bins are logarithmic: 2^res bins per octave, bin i holding
 * 2^(i / 2^res) <= v < 2^((i + 1) / 2^res), so a bin is 0.068% wide at
 * res 10 (CP_HIST_FINE) and 1.09% at res 6 (CP_HIST_COARSE).  Each bin
 * keeps its count and the least and greatest value it got, so that a
 * quantile that falls on a bin holding one value (or one value many
 * times) is that value exactly, and any other is off by less than the
 * bin's width.  Count, sum, least and greatest value are exact.
 *
 * Not thread-safe: one histogram, one thread.  Actions return 0 or
 * -CP_E* (analysis/cp_err.h).  Plain libc: the profiling library links it.
 */
#ifndef CP_HIST_H
#define CP_HIST_H

#include <stddef.h>
#include <stdint.h>

#define CP_HIST_FINE	10	/* 1024 bins per octave */
#define CP_HIST_COARSE	6	/* 64 bins per octave */

/* One bin in use. */
struct cp_hist_bin {
	uint32_t idx;		/* bin number, see above */
	uint64_t n;		/* values in it (0: the slot is free) */
	double lo, hi;		/* least and greatest of them */
};

struct cp_hist {
	uint64_t n;		/* values added */
	double sum;		/* their sum: mean = sum / n */
	int res;		/* log2 of the bins per octave */
	uint32_t nb;		/* bins in use */
	uint32_t mask;		/* slots of b - 1 (a power of two), 0: none */
	struct cp_hist_bin *b;	/* open-addressing table of bins */
};

/* cp_hist_init - an empty histogram of 2^res bins per octave (1 <= res
 * <= 16).  -CP_EINVAL for another res.  Allocates nothing. */
int cp_hist_init(struct cp_hist *h, int res);

/* cp_hist_free - free h's bins; h is then empty (as after init).  Cannot
 * fail. */
void cp_hist_free(struct cp_hist *h);

/* cp_hist_add - add value v (finite, >= 1).  -CP_EINVAL for another v,
 * -CP_ENOMEM (h unchanged). */
int cp_hist_add(struct cp_hist *h, double v);

/* cp_hist_merge - add every value of `from` to `into`: from at into's
 * res or finer (each of its bins then lies in one of into's, which
 * takes it whole), else -CP_EINVAL; -CP_ENOMEM may leave `into` with
 * part of `from`. */
int cp_hist_merge(struct cp_hist *into, const struct cp_hist *from);

/*
 * cp_hist_quantiles - the p[i]-quantiles (0 <= p[i] <= 1) into q[i], as
 * R's type 7 (linear interpolation between order statistics, as
 * cp_stats_percentile), each order statistic read from its bin: the
 * bin's j-th of c values is lo + (hi - lo) j / (c - 1).  -CP_EINVAL when
 * h is empty or a p is out of range, -CP_ENOMEM.
 * h: histogram; p: quantiles wanted; np: their count; q: out.
 */
int cp_hist_quantiles(const struct cp_hist *h, const double *p, size_t np,
		      double *q);

/*
 * cp_hist_pack - h as bytes (native byte order: for the ranks of one job
 * and the files they write on one platform): into buf when len is big
 * enough.  Returns the bytes the packed form takes, whatever len is.
 * Cannot fail.
 */
size_t cp_hist_pack(const struct cp_hist *h, void *buf, size_t len);

/* cp_hist_unpack - merge the packed histogram of len bytes at buf into
 * h (initialised; the packed one at h's res or finer, as
 * cp_hist_merge).  Returns 0, -CP_EINVAL (not a packed histogram of h's
 * res or finer) or -CP_ENOMEM. */
int cp_hist_unpack(struct cp_hist *h, const void *buf, size_t len);

#endif
