/*
 * calib_log3p.c - log3P's tables between ranks 0 and 1 (log3P
 * paper, analysis/cp_log3p.h): memcpy, send-to-self and remote times
 * of contiguous messages over the sizes of the LMO sweep, and remote
 * times of strided ones over sizes, blocks and gaps.
 *
 * A remote time is one-way: rank 0 writes its message (so that the data
 * are in its cache, as freshly computed data are, and not in the
 * receiver's from the repetition before), sends it, and rank 1 replies
 * with an empty message; the time less half an empty roundtrip is the
 * message's (the LMO one-to-one of the LMO paper).  The log3P paper times half
 * roundtrips of the same buffers, whose data a multi-core host keeps in the
 * receiving core's cache after the first repetition: on this kind of host that
 * doubled the apparent bandwidth of single-copy messages.
 *
 * A value is the 10% quantile of m samples (the log3P paper takes their
 * minimum: the undisturbed time; on a quiet host both are within a few percent
 * of the median, and under load the quantile still finds a tenth of
 * undisturbed samples while it leans less on one lucky one); a sample is
 * the mean of as many repetitions as fill about 20 us (log3P paper: n > 100
 * repetitions; large messages need one each); a message longer than
 * 3 ms gets as many samples as fill 0.3 s, at least 10.  A cell whose median
 * stands more than 25% above that quantile ran in a slow spell and is
 * measured again, up to 3 times while the phase has time left, keeping
 * the calmest try.  The 95% interval is that of the quantile by order
 * statistics.  While the calibration has time, every remote cell is
 * measured in a second pass, in the other order, and the faster pass
 * kept, the interval widened to hold both passes' (see again(),
 * keep()).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_breaks.h"
#include "analysis/cp_err.h"
#include "analysis/cp_stats.h"
#include "src/calib/calib.h"

#define TAG_L3		82
/* Extents above HOT_BYTES leave every cache between repetitions: such
 * a cell is memory's cost, which large strided messages of applications
 * pay (capped at 64 MiB, the table priced 300-900 KB of tests/probe.c
 * from cells that stayed in cache, 2 to 2.6 times too fast); measured
 * with MIN_SAMP samples in the first pass only (log3P took 23.6 s
 * capped at 64 MiB and 24.2 s at 256 MiB, one default 2-rank
 * calibration each). */
#define CAP_BYTES	(256u << 20)	/* largest extent of a buffer */
/* Most blocks of a strided cell: 1 MiB of one-byte blocks took 5 ms a
 * message; the cap leaves the 1-byte cells of 512 KiB and 1 MiB (up to
 * 18 with the gaps) to the column, which extrapolates its largest
 * measured size per block (a default 2-rank calibration took 38.7 s
 * without the cap, 26.0 s with it). */
#define CAP_BLOCKS	(1u << 18)
#define HOT_BYTES	(64u << 20)	/* above: MIN_SAMP samples, one pass */
#define MAXS		64
#define SPREAD		0.25	/* median this far above it: a slow spell */
#define TRIES		3
#define CELL_S		0.3	/* most time for the samples of a cell */
#define MIN_SAMP	10

/* Blocks from one byte (a column of a char image, whose packing costs
 * per block what a double's does, or more: priced per block from
 * one-double blocks, 8192 bytes 64 B apart under Open MPI took 43 us,
 * log3P said 2.4) to 1 KiB; gaps from one double to 8 KiB, on
 * both sides of a cache line (64 B) and of a page (4 KiB) of stride for
 * one-double blocks, whose strides of 1 and 4 KiB have companions of
 * 1088 and 4160 B: a stride that is a multiple of 1 KiB maps its
 * elements to a fraction of the cache's sets and packs up to twice as
 * slowly (cp_log3p_eval interpolates each class over its own points).
 * --quick: fewer.  No 32-B blocks: on the
 * development host they cost as much per block as 64-B ones, and as a
 * grid point that step made 40-B blocks 16% too slow by interpolation,
 * where 16 and 64 B bracket them within a few percent. */
static const double blocks[] = { 1, 8, 16, 64, 256, 1024 };
static const double gaps[] = { 8, 56, 120, 248, 1016, 1080, 4088, 4152,
				8184 };
static const double qblocks[] = { 1, 8, 64, 1024 };
static const double qgaps[] = { 8, 248, 8184 };
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct ctx {
	struct calib *c;
	MPI_Comm pair;		/* ranks 0 and 1 */
	bool r0;
	char *sbuf, *rbuf;	/* CAP_BYTES each */
	double half_rt0;	/* half the empty roundtrip, s: the least
				 * of its moments (empty_rt) */
	double target_s;	/* repetitions per sample fill this */
	double deadline;	/* MPI_Wtime after which no cell is measured
				 * again */
	int m;			/* samples */
	double *samp;		/* [m] */
	int redone;
	double rt0_us[3];	/* half the empty roundtrip at each moment */
	int nrt0;
};

enum kind { K_MEM, K_SELF, K_REMOTE };

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One repetition; rank 0's time (touching untimed), 0 on rank 1.
 * touch: bytes of the message's data to write first (contiguous). */
static double once(struct ctx *x, enum kind k, MPI_Datatype t, int count,
		   size_t bytes, size_t touch)
{
	double t0;

	if (k == K_MEM) {
		t0 = MPI_Wtime();
		memcpy(x->rbuf, x->sbuf, bytes);
		__asm__ volatile("" ::: "memory");
		return MPI_Wtime() - t0;
	}
	if (k == K_SELF) {
		t0 = MPI_Wtime();
		MPI_Sendrecv(x->sbuf, count, t, 0, TAG_L3, x->rbuf, count, t, 0,
			     TAG_L3, MPI_COMM_SELF, MPI_STATUS_IGNORE);
		return MPI_Wtime() - t0;
	}
	if (!x->r0) {
		MPI_Recv(x->rbuf, count, t, 0, TAG_L3, x->pair,
			 MPI_STATUS_IGNORE);
		MPI_Send(x->rbuf, 0, MPI_BYTE, 0, TAG_L3, x->pair);
		return 0;
	}
	calib_touch(x->sbuf, touch);
	t0 = MPI_Wtime();
	MPI_Send(x->sbuf, count, t, 1, TAG_L3, x->pair);
	MPI_Recv(x->rbuf, 0, MPI_BYTE, 1, TAG_L3, x->pair, MPI_STATUS_IGNORE);
	return MPI_Wtime() - t0;
}

/* Repetitions per sample and samples of a cell: rank 0 times a few,
 * remote ones agree.  nm[0]: repetitions that fill target_s; nm[1]:
 * the samples, fewer than m for a message so long that m of them would
 * take more than CELL_S (as many as fill it, at least MIN_SAMP). */
static void reps_for(struct ctx *x, enum kind k, MPI_Datatype t, int count,
		     size_t bytes, size_t touch, int nm[2])
{
	double s = 0;
	int i;

	for (i = 0; i < 2; i++)		/* warm-up */
		once(x, k, t, count, bytes, touch);
	for (i = 0; i < 3; i++)
		s += once(x, k, t, count, bytes, touch);
	s /= 3;
	nm[0] = s > 0 ? (int)(x->target_s / s) : 1000;
	nm[0] = nm[0] < 1 ? 1 : nm[0] > 1000 ? 1000 : nm[0];
	nm[1] = s * x->m > CELL_S ? (int)(CELL_S / s) : x->m;
	nm[1] = nm[1] < MIN_SAMP ? MIN_SAMP : nm[1];
	if (k == K_REMOTE)
		MPI_Bcast(nm, 2, MPI_INT, 0, x->pair);
}

/* The CALIB_Q quantile of the samples and its 95% interval by order
 * statistics (binomial ranks, normal approximation); returns the
 * spread (median / quantile - 1) that says whether a slow spell lifted
 * most of them. */
static double summarize(const struct ctx *x, int n, double out[3])
{
	double *v = x->samp, sd;
	int lo, hi;

	qsort(v, (size_t)n, sizeof(double), cmp_dbl);
	sd = sqrt(n * CALIB_Q * (1 - CALIB_Q));
	lo = (int)floor(n * CALIB_Q - 1.96 * sd);
	hi = (int)ceil(n * CALIB_Q + 1.96 * sd);
	out[0] = calib_quantile(v, n, CALIB_Q);
	out[1] = v[lo < 0 ? 0 : lo];
	out[2] = v[hi > n - 1 ? n - 1 : hi];
	out[1] = fmin(out[1], out[0]);
	out[2] = fmax(out[2], out[0]);
	return out[0] > 0 ? calib_quantile(v, n, 0.5) / out[0] - 1 : 0;
}

/* One table value: value, lo, hi of kind k into out (rank 0); a cell
 * whose samples spread more than SPREAD is measured again, up to TRIES
 * times while the phase is within its time, and the calmest try kept. */
static void value(struct ctx *x, enum kind k, MPI_Datatype t, int count,
		  size_t bytes, size_t touch, double out[3])
{
	int nm[2], j, i, again, tries;
	double s, sp, best = INFINITY, v[3];

	reps_for(x, k, t, count, bytes, touch, nm);
	for (tries = 0; tries < TRIES; tries++) {
		for (j = 0; j < nm[1]; j++) {
			for (s = 0, i = 0; i < nm[0]; i++)
				s += once(x, k, t, count, bytes, touch);
			x->samp[j] = s / nm[0];
		}
		again = 0;
		if (x->r0) {
			sp = summarize(x, nm[1], v);
			if (sp < best) {
				best = sp;
				memcpy(out, v, sizeof(v));
			}
			again = sp > SPREAD && tries + 1 < TRIES &&
				MPI_Wtime() < x->deadline;
		}
		if (k == K_REMOTE)
			MPI_Bcast(&again, 1, MPI_INT, 0, x->pair);
		if (!again)
			break;
		x->redone++;
	}
}

static void add_size(double *s, int *n, double v)
{
	int i;

	for (i = 0; i < *n; i++)
		if (s[i] == v)
			return;
	if (*n < MAXS)
		s[(*n)++] = v;
}

/* Grids: the contiguous sizes of the sweep (with 8 B and two sizes per
 * doubling to its largest: 64, 96, 128, ... B) up to 4 MiB; the
 * strided sizes 256 B, 1 KiB, 16 KiB x 2^k (quick: 1 KiB, 16 KiB x 4^k),
 * and the sweep sizes on both sides of each regime boundary up to
 * 256 KiB (a protocol's; above, breaks come from caches and the
 * per-byte cost carries over).  A break the LMO sweep refined (below[k]
 * > 0) adds its two sides to the contiguous sizes, so that the table
 * does not interpolate across a protocol's jump, and they are the
 * strided sizes around it. */
static void grids(struct calib_l3 *l, const double *sizes, int n,
		  const double *first, const double *below, int nreg,
		  bool quick)
{
	double s[MAXS], ss[MAXS];
	int ns = 0, nss = 0, i, k;

	add_size(s, &ns, 8);
	for (i = 0; i < n; i++)
		if (sizes[i] <= 4 << 20)
			add_size(s, &ns, sizes[i]);
	/* two sizes per doubling up to the sweep's largest, also where
	 * the sweep had one (--quick with more ranks than CPUs) */
	for (k = 64; n > 0 && 1.5 * k < sizes[n - 1]; k *= 2)
		add_size(s, &ns, 1.5 * k);
	for (k = 1; k < nreg; k++)
		if (below[k] > 0) {
			add_size(s, &ns, below[k]);
			add_size(s, &ns, first[k]);
		}
	qsort(s, (size_t)ns, sizeof(double), cmp_dbl);
	for (i = 0; i < ns; i++)
		if ((!quick && s[i] == 256) || s[i] == 1024 ||
		    (s[i] >= 16384 &&
		     fmod(log2(s[i] / 16384), quick ? 2 : 1) == 0))
			add_size(ss, &nss, s[i]);
	for (k = 1; k < nreg && first[k] <= 256 << 10; k++)
		for (i = 1; i < ns; i++)
			if (s[i] >= first[k] && s[i - 1] < first[k]) {
				add_size(ss, &nss, s[i - 1]);
				add_size(ss, &nss, s[i]);
			}
	qsort(ss, (size_t)nss, sizeof(double), cmp_dbl);
	l->ns = ns;
	l->nss = nss;
	l->nb = quick ? N(qblocks) : N(blocks);
	l->ng = quick ? N(qgaps) : N(gaps);
	l->sizes = malloc((size_t)ns * sizeof(double));
	l->ssizes = malloc((size_t)nss * sizeof(double));
	l->blocks = malloc((size_t)l->nb * sizeof(double));
	l->gaps = malloc((size_t)l->ng * sizeof(double));
	if (!l->sizes || !l->ssizes || !l->blocks || !l->gaps)
		calib_fatal("out of memory");
	memcpy(l->sizes, s, (size_t)ns * sizeof(double));
	memcpy(l->ssizes, ss, (size_t)nss * sizeof(double));
	memcpy(l->blocks, quick ? qblocks : blocks,
	       (size_t)l->nb * sizeof(double));
	memcpy(l->gaps, quick ? qgaps : gaps, (size_t)l->ng * sizeof(double));
}

static double *vec(int n)
{
	double *v = malloc(((size_t)n + 1) * sizeof(double));

	if (!v)
		calib_fatal("out of memory");
	return v;
}

/* The strided values (value, lo, hi) of every cell of l's grid, NAN
 * until measured. */
static void alloc_strided(struct calib_l3 *l)
{
	int k, nc = l->nss * l->nb * l->ng, i;

	for (k = 0; k < 3; k++) {
		free(l->t01sd[k]);
		l->t01sd[k] = vec(nc);
		for (i = 0; i < nc; i++)
			l->t01sd[k][i] = NAN;
	}
}

static void alloc_values(struct calib_l3 *l)
{
	int k;

	for (k = 0; k < 3; k++) {
		l->tmem[k] = vec(l->ns);
		l->t00[k] = vec(l->ns);
		l->t01[k] = vec(l->ns);
	}
	alloc_strided(l);
}

/*
 * Half the empty roundtrip, for the one-way times: remote values are
 * roundtrips (a message, an empty reply) until one_way() takes it off.
 * Timed at three moments (before the contiguous sizes, before the
 * strided sweep, after the strided cells), the least kept: one timing
 * takes half a millisecond, and where the host ran slow for it (this
 * virtual machine changes speed for minutes: a gauge of 19 us, then 33
 * us) all its samples are slow, so that fast roundtrips of small
 * messages, less it, come out negative (the likely cause of 17 failed
 * log3P entries to 8 KiB and a failed PLogP g(m), whose points are
 * these times, in stop 33's CI under MPICH).  A value timed while the
 * host was slow is then a little too long, not negative.
 */
static void empty_rt(struct ctx *x)
{
	double v[3], h;
	int m = x->m;

	x->m = m > 50 ? m : 50;
	value(x, K_REMOTE, MPI_BYTE, 0, 0, 0, v);
	x->m = m;
	if (!x->r0)
		return;
	h = v[0] / 2;
	x->half_rt0 = x->nrt0 ? fmin(x->half_rt0, h) : h;
	if (x->nrt0 < 3)
		x->rt0_us[x->nrt0++] = h * 1e6;
}

/* Rank 0: the remote values (value, lo, hi) less half the empty
 * roundtrip. */
static void one_way(const struct ctx *x, struct calib_l3 *l)
{
	int k, i, nc = l->nss * l->nb * l->ng;

	for (k = 0; k < 3; k++) {
		for (i = 0; i < l->ns; i++)
			l->t01[k][i] -= x->half_rt0;
		for (i = 0; i < nc; i++)
			l->t01sd[k][i] -= x->half_rt0;
	}
}

/* A second pass over the remote cells, in the other order, while the
 * calibration has time: a host that slows down for seconds (another
 * job's memory traffic slowed strided copies fourfold here, for tens of
 * seconds at a time) lifts every sample of the cells it meets, which
 * their own spread cannot show; the faster pass of each cell is kept.
 * Rank 0 decides; remote ranks agree. */
static bool again(struct ctx *x)
{
	int go = x->r0 && MPI_Wtime() < x->deadline;

	MPI_Bcast(&go, 1, MPI_INT, 0, x->pair);
	return go;
}

/* v into dst[k][i] on rank 0: on the first pass as it is; on the second
 * the faster value, and an interval that holds both passes' intervals:
 * how far the host moved within the run is part of what a value is
 * known to. */
static void keep(const struct ctx *x, double **dst, int i, const double v[3],
		 bool first)
{
	int k;

	if (!x->r0)
		return;
	if (first) {
		for (k = 0; k < 3; k++)
			dst[k][i] = v[k];
		return;
	}
	dst[0][i] = fmin(dst[0][i], v[0]);
	dst[1][i] = fmin(dst[1][i], v[1]);
	dst[2][i] = fmax(dst[2][i], v[2]);
}

/* Contiguous: memcpy and self on rank 0, then remote. */
static void contiguous(struct ctx *x, struct calib_l3 *l)
{
	double v[3];
	int i, n, pass;
	size_t s;

	for (pass = 0; x->r0 && pass < 2; pass++)
		for (n = 0; n < l->ns; n++) {
			if (pass && MPI_Wtime() >= x->deadline)
				break;
			i = pass ? l->ns - 1 - n : n;
			s = (size_t)l->sizes[i];
			value(x, K_MEM, MPI_BYTE, 0, s, 0, v);
			keep(x, l->tmem, i, v, !pass);
			value(x, K_SELF, MPI_BYTE, (int)s, s, 0, v);
			keep(x, l->t00, i, v, !pass);
			calib_progress(x->c, "self", n, l->ns);
		}
	calib_idle_barrier_on(x->pair);
	for (pass = 0; pass < 2; pass++)
		for (n = 0; n < l->ns && (!pass || again(x)); n++) {
			i = pass ? l->ns - 1 - n : n;
			s = (size_t)l->sizes[i];
			value(x, K_REMOTE, MPI_BYTE, (int)s, s, s, v);
			keep(x, l->t01, i, v, !pass);
			calib_progress(x->c, pass ? "contiguous again" :
				       "contiguous", n, l->ns);
		}
}

/* n blocks of b bytes, d bytes apart, committed: of doubles where b
 * and d are multiples of 8 (as applications send them), else of bytes
 * (MPI_UNSIGNED_CHAR). */
static void vector_of(double n, double b, double d, MPI_Datatype *t)
{
	if (fmod(b, 8) == 0 && fmod(d, 8) == 0)
		MPI_Type_vector((int)n, (int)(b / 8), (int)(d / 8), MPI_DOUBLE,
				t);
	else
		MPI_Type_vector((int)n, (int)b, (int)d, MPI_UNSIGNED_CHAR, t);
	MPI_Type_commit(t);
}

/* s bytes in blocks of b, gaps g: one element of the vector type. */
static bool strided_type(double s, double b, double g, MPI_Datatype *t)
{
	double nblk = s / b;

	if (nblk < 1 || nblk != floor(nblk) || nblk * (b + g) > CAP_BYTES ||
	    nblk > CAP_BLOCKS)
		return false;
	vector_of(nblk, b, b + g, t);
	return true;
}

/* Is cell (is, ib, ig)'s extent above HOT_BYTES (MIN_SAMP samples)? */
static bool cold_cell(const struct calib_l3 *l, int is, int ib, int ig)
{
	return l->ssizes[is] / l->blocks[ib] *
	       (l->blocks[ib] + l->gaps[ig]) > HOT_BYTES;
}

static void strided(struct ctx *x, struct calib_l3 *l)
{
	int is, ib, ig, c, n, nc = l->nss * l->nb * l->ng, pass, m = x->m;
	bool big;
	MPI_Datatype t;
	double v[3];
	char what[40];

	for (pass = 0; pass < 2; pass++)
		for (n = 0; n < nc; n++) {
			c = pass ? nc - 1 - n : n;
			is = c / (l->nb * l->ng);
			ib = c / l->ng % l->nb;
			ig = c % l->ng;
			if (!strided_type(l->ssizes[is], l->blocks[ib],
					  l->gaps[ig], &t)) {
				l->capped += !pass &&
					     l->ssizes[is] >= l->blocks[ib];
				continue;
			}
			if (pass && !again(x)) {
				MPI_Type_free(&t);
				break;
			}
			big = cold_cell(l, is, ib, ig);
			if (pass && big) {
				MPI_Type_free(&t);
				continue;
			}
			x->m = big ? MIN_SAMP : m;
			value(x, K_REMOTE, t, 1, 0, 0, v);
			x->m = m;
			MPI_Type_free(&t);
			keep(x, l->t01sd, c, v, !pass);
			l->repassed += pass;
			snprintf(what, sizeof(what), "%s%.0f B, blocks %.0f",
				 pass ? "again " : "", l->ssizes[is],
				 l->blocks[ib]);
			calib_progress(x->c, what, n, nc);
		}
}

/*
 * The strided protocol's own breaks (ours): a library may switch
 * protocols for non-contiguous data at sizes of its own, which the
 * contiguous regimes do not show (MPICH 4 on the development host:
 * doubles 16 B apart one-way in 2.3 us at 8 KiB and in 44.8 us at 10
 * KiB, in this sweep), and a table whose strided sizes straddle such a
 * jump interpolates across it (a quick calibration priced
 * examples/stride's 8-KiB column at 53 us, whose sends took 3 us).  So
 * one-double blocks 8 B apart are timed at every contiguous size of 1
 * KiB to 256 KiB, BRK_SAMP samples each, the breaks of their one-way
 * times found as the LMO sweep's are (cp_breaks_fit_joint, relative
 * residuals, at least 3 sizes a segment), and the sizes on both sides
 * of each become strided sizes.  Collective over the pair; on rank 0
 * prints what it found.
 */
#define BRK_SAMP	MIN_SAMP
#define BRK_MAX		4	/* breaks kept, the first ones */

static void strided_breaks(struct ctx *x, struct calib_l3 *l)
{
	double xs[MAXS], ys[MAXS], w[MAXS], v[3], ss[MAXS];
	int n = 0, i, k, m = x->m, nss = l->nss, nadd = 0;
	struct cp_breaks b;
	MPI_Datatype t;
	char found[320] = "";
	size_t o = 0;

	x->m = BRK_SAMP;
	for (i = 0; i < l->ns && n < MAXS; i++) {
		if (l->sizes[i] < 1024 || l->sizes[i] > 256 << 10 ||
		    !strided_type(l->sizes[i], 8, 8, &t))
			continue;
		value(x, K_REMOTE, t, 1, 0, 0, v);
		MPI_Type_free(&t);
		xs[n] = l->sizes[i];
		ys[n] = v[0] - x->half_rt0;
		w[n] = ys[n] > 0 ? 1 / (ys[n] * ys[n]) : 0;
		n++;
	}
	x->m = m;
	memcpy(ss, l->ssizes, (size_t)nss * sizeof(double));
	if (x->r0 && n >= 6 &&
	    !cp_breaks_fit_joint(xs, ys, w, 1, n, 3, -1, &b)) {
		for (k = 0; k < b.m && k < BRK_MAX; k++) {
			i = b.brk[k];
			add_size(ss, &nss, xs[i]);
			add_size(ss, &nss, xs[i + 1]);
			if (o < sizeof(found))
				o += (size_t)snprintf(found + o,
						      sizeof(found) - o,
						      "%s%.0f-%.0f B (%.1f to "
						      "%.1f us)", k ? ", " : "",
						      xs[i], xs[i + 1],
						      ys[i] * 1e6,
						      ys[i + 1] * 1e6);
			nadd++;
		}
		cp_breaks_free(&b);
	}
	if (x->r0)
		printf("log3p strided sweep: doubles 16 B apart at %d sizes "
		       "of 1 KiB to 256 KiB: %s%s\n", n,
		       nadd ? "breaks between " : "no break",
		       nadd ? found : "");
	MPI_Bcast(&nss, 1, MPI_INT, 0, x->pair);
	MPI_Bcast(ss, nss, MPI_DOUBLE, 0, x->pair);
	if (nss == l->nss)
		return;
	qsort(ss, (size_t)nss, sizeof(double), cmp_dbl);
	free(l->ssizes);
	l->ssizes = malloc((size_t)nss * sizeof(double));
	if (!l->ssizes)
		calib_fatal("out of memory");
	memcpy(l->ssizes, ss, (size_t)nss * sizeof(double));
	l->nss = nss;
	if (x->r0)
		alloc_strided(l);
}

/* Rank 0: the tables from the values. */
static void derive(struct calib_l3 *l)
{
	struct cp_log3p_meas in = { l->ns, l->sizes, l->tmem[0], l->t00[0],
				    l->t01[0], l->nss, l->nb, l->ng, l->ssizes,
				    l->blocks, l->gaps, l->t01sd[0] };
	int rc = cp_log3p_derive(&in, &l->tab);

	if (rc) {
		printf("log3p: derive failed: %s\n", cp_err_str(rc));
		return;
	}
	l->ok = true;
}

/* The check off the tables: layouts on no grid point, measured and
 * predicted, with mu (a struct with gaps: 3 doubles and an int, 28 of
 * every 64 bytes; 40-B blocks 8 B apart; 16-B blocks 1600 B apart;
 * bytes 64 B apart, a column of a char image). */
static void check(struct ctx *x, struct calib_l3 *l)
{
	static const struct { double b, d, n; const char *what; } lay[] = {
		{ 28, 64, 2048, "struct 28 of 64 B" },
		{ 28, 64, 24576, "struct 28 of 64 B" },
		{ 40, 48, 1200, "vector 40 of 48 B" },
		{ 40, 48, 12000, "vector 40 of 48 B" },
		{ 16, 1600, 640, "vector 16 of 1600 B" },
		{ 16, 1600, 6400, "vector 16 of 1600 B" },
		{ 1, 64, 2000, "bytes 1 of 64 B" },
		{ 1, 64, 20000, "bytes 1 of 64 B" },
	};
	struct cp_log3p_pred p;
	MPI_Datatype t, f[2] = { MPI_DOUBLE, MPI_INT }, st;
	int bl[2] = { 3, 1 }, i;
	MPI_Aint dp[2] = { 0, 24 };
	double v[3], mu;

	MPI_Type_create_struct(2, bl, dp, f, &st);
	MPI_Type_create_resized(st, 0, 64, &t);
	MPI_Type_free(&st);
	MPI_Type_commit(&t);
	if (x->r0)
		printf("log3p off the tables, remote, predicted vs measured "
		       "(us):\n%-20s %9s %10s %10s %7s\n", "layout", "bytes",
		       "predicted", "measured", "mu");
	for (i = 0; i < (int)(sizeof(lay) / sizeof(lay[0])); i++) {
		MPI_Datatype u = t;

		if (lay[i].b != 28)
			vector_of(lay[i].n, lay[i].b, lay[i].d, &u);
		value(x, K_REMOTE, u, lay[i].b == 28 ? (int)lay[i].n : 1, 0, 0,
		      v);
		v[0] -= x->half_rt0;
		if (u != t)
			MPI_Type_free(&u);
		if (!x->r0 || !l->ok)
			continue;
		cp_log3p_eval(&l->tab, lay[i].n * lay[i].b, lay[i].d,
			      lay[i].b, &p);
		if (cp_stats_mu(v[0], p.t_s, &mu))
			mu = NAN;
		printf("%-20s %9.0f %10.2f %10.2f %7.3f\n", lay[i].what,
		       lay[i].n * lay[i].b, p.t_s * 1e6, v[0] * 1e6, mu);
	}
	MPI_Type_free(&t);
}

void calib_l3_run(struct calib *c, const double *lmo_sizes, int n,
		  const double *first, const double *below, int nreg,
		  struct calib_gauge *g, struct calib_l3 *l)
{
	struct ctx x = { .c = c, .pair = MPI_COMM_NULL, .r0 = c->rank == 0,
			 .target_s = c->quick ? 10e-6 : 20e-6,
			 .m = c->samples };
	double t0 = MPI_Wtime();

	memset(l, 0, sizeof(*l));
	grids(l, lmo_sizes, n, first, below, nreg, c->quick);
	MPI_Comm_split(MPI_COMM_WORLD, c->rank < 2 ? 0 : MPI_UNDEFINED,
		       c->rank, &x.pair);
	if (c->rank >= 2) {
		calib_idle_barrier();
		return;
	}
	if (x.r0)
		alloc_values(l);
	x.sbuf = calloc(CAP_BYTES + 64, 1);
	x.rbuf = calloc(CAP_BYTES + 64, 1);
	x.samp = calloc((size_t)x.m + 50, sizeof(double));
	if (!x.sbuf || !x.rbuf || !x.samp)
		calib_fatal("out of memory");
	/* every page written once: a strided cell reads up to CAP_BYTES
	 * of sbuf, and pages of calloc's never written read as the one
	 * shared zero page, always in cache (16384 doubles 1 KiB apart
	 * were sent in 51 us from such pages, in 90 us from written ones) */
	calib_touch(x.sbuf, CAP_BYTES + 64);
	calib_touch(x.rbuf, CAP_BYTES + 64);
	l->nsamp = x.m;
	calib_pin(c, c->rank);
	/* measuring cells again stops 90 s (quick: 10 s) into the
	 * calibration, to keep it within its time on a crowded host */
	x.deadline = c->t0_s + (c->quick ? 10 : 90);
	empty_rt(&x);
	contiguous(&x, l);
	calib_gauge_pair(c, g);
	empty_rt(&x);
	strided_breaks(&x, l);
	strided(&x, l);
	empty_rt(&x);
	if (x.r0) {
		calib_progress_end(c);
		printf("log3p: half the empty roundtrip %.3f, %.3f, %.3f us "
		       "(before, amid, after the sizes), the least taken\n",
		       x.rt0_us[0], x.rt0_us[1], x.rt0_us[2]);
		one_way(&x, l);
		l->half_rt0 = x.half_rt0;
		derive(l);
	}
	check(&x, l);
	l->redone = x.redone;
	if (x.r0)
		printf("log3p: %d contiguous sizes, %d strided sizes x %d "
		       "blocks x %d gaps (%d cells over the %u MiB extent "
		       "cap or %u blocks left to extrapolation), %d samples "
		       "each, %d "
		       "cells measured again for their spread, %d strided "
		       "cells in a second pass; %.1f s\n", l->ns, l->nss,
		       l->nb, l->ng, l->capped, CAP_BYTES >> 20, CAP_BLOCKS,
		       l->nsamp,
		       l->redone, l->repassed, MPI_Wtime() - t0);
	calib_unpin(c);
	free(x.sbuf);
	free(x.rbuf);
	free(x.samp);
	MPI_Comm_free(&x.pair);
	calib_idle_barrier();
}

void calib_l3_fill(const struct calib_l3 *l, struct cp_params *p)
{
	int i, nc = l->nss * l->nb * l->ng, n = l->nsamp;
	struct cp_est e;

	memcpy(p->l3_size_bytes, l->sizes, (size_t)l->ns * sizeof(double));
	memcpy(p->l3_ssize_bytes, l->ssizes, (size_t)l->nss * sizeof(double));
	memcpy(p->l3_block_bytes, l->blocks, (size_t)l->nb * sizeof(double));
	memcpy(p->l3_gap_bytes, l->gaps, (size_t)l->ng * sizeof(double));
	if (!l->ok)
		return;
	/* intervals of differences: the ends of the parts' intervals */
	for (i = 0; i < l->ns; i++) {
		double mw = l->tab.o_mw_s[i], mlo, mhi;

		calib_put_range(&p->l3_t_mem_s[i], l->tmem[0][i],
				l->tmem[1][i], l->tmem[2][i], n);
		mlo = fmax(0, fmin(mw, l->t00[1][i] - l->tmem[2][i]));
		mhi = fmax(mw, l->t00[2][i] - l->tmem[1][i]);
		calib_put_range(&p->l3_o_mw_s[i], mw, mlo, mhi, n);
		calib_put_range(&p->l3_o_net_s[i], l->tab.o_net_s[i],
				fmin(l->tab.o_net_s[i], l->t01[1][i] - mhi),
				fmax(l->tab.o_net_s[i], l->t01[2][i] - mlo),
				n);
	}
	for (i = 0; i < nc; i++) {
		int is = i / (l->nb * l->ng), k;
		double v = l->tab.l_mw_s[i];

		if (isnan(v))
			continue;
		for (k = 0; l->sizes[k] != l->ssizes[is]; k++)
			;
		memset(&e, 0, sizeof(e));
		e.val = v;
		e.lo = fmin(v, l->t01sd[1][i] - l->t01[2][k]);
		e.hi = fmax(v, l->t01sd[2][i] - l->t01[1][k]);
		e.n = cold_cell(l, is, i / l->ng % l->nb, i % l->ng) ?
		      MIN_SAMP : n;
		calib_put(&p->l3_l_mw_s[i], &e, false);
	}
}

void calib_l3_free(struct calib_l3 *l)
{
	int k;

	for (k = 0; k < 3; k++) {
		free(l->tmem[k]);
		free(l->t00[k]);
		free(l->t01[k]);
		free(l->t01sd[k]);
	}
	free(l->sizes);
	free(l->ssizes);
	free(l->blocks);
	free(l->gaps);
	cp_log3p_free(&l->tab);
	memset(l, 0, sizeof(*l));
}
