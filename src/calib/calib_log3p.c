/*
 * calib_log3p.c - log3P's tables between ranks 0 and 1 (log3P
 * paper, analysis/cp_log3p.h): memcpy, send-to-self and remote times
 * of contiguous messages over the sizes of the LMO sweep, and remote
 * times of strided ones over sizes, blocks and gaps.
 *
 * A remote time is one-way: rank 0 writes its message (so that the data
 * are in its cache, as freshly computed data are), the two ranks meet
 * with rank 1's receive posted, rank 0 sends, rank 1 replies; between
 * ranks of one host the time is rank 1's receive completion less rank
 * 0's send start on the host's clock (what commprof's t_transfer is),
 * between hosts the roundtrip less the empty message's one-way time
 * (half its roundtrip: the LMO one-to-one of the LMO paper).  Between
 * ranks of one host a warm-up message of the same size and layout goes
 * first (it pays for what the next one finds ready: the receive
 * buffer's cache lines, the datatype's first use), as in tests/probe.c;
 * sample() says the rest.
 *
 * The remote values are measured in rounds (rounds()): each round takes
 * one sample of every value, so that every message comes amid others,
 * as an application's do.  The log3P paper times the same message over
 * and over; on this project's 2-core host that is a state which
 * applications do not see: strided messages of 47 to 150 KB, sent back
 * to back, took 1.3 to 1.6 times as long as the same messages amid
 * others (after the receiver had written 2 MiB elsewhere, its second
 * message was as fast as amid others: the receiver's caches are part of
 * that state), and contiguous ones of 7 to 23 KB, each written right
 * before its send, 1.2 to 1.4 times as long as when the ranks had met
 * in between.  A slow spell of the host then lifts some rounds of every
 * value rather than all samples of a few.
 * A round takes its values by the size of their messages, up in one
 * round and down in the next, those of one size in an order of the
 * round's own (round_order()): every message comes amid messages of
 * sizes like its own, as an exchange's do, the faces of a halo one
 * after the other.  What comes before moves a message's time: 10992 B
 * in 16-B blocks 1600 B apart took 4.29 and 4.34 us sent again and again
 * (each after its warm-up), and their neighbour on the grid, 10240 B,
 * 3.3 us amid the random order of all sizes, where most messages are
 * larger; tests/probe.c, which sends a size's layouts one after
 * another, measured 4.1 us.  Over tests/probe.c log3P's mu_bar (10%
 * quantiles of 20 messages) came out 1.118 to 1.127 in three
 * calibrations by size, 1.122 to 1.143 in three by size up only (a
 * round's small messages then follow the largest), 1.131 to 1.158 in
 * three in random order.
 *
 * A value is the 10% quantile of its m samples (the log3P paper takes
 * their minimum: the undisturbed time; under load the quantile still
 * finds a tenth of undisturbed samples while it leans less on one
 * lucky one), its 95% interval that of the quantile by order
 * statistics.  A value whose m samples (with their warm-ups) would take
 * more than 0.3 s gets as many as fill it, at least 10, and one whose
 * extent passes 64 MiB 10; the rounds stop, after at least 10, when
 * the calibration has run 90 s (--quick: 10 s).
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
#include "src/common/cp_clock.h"

#define TAG_L3		82
/* Extents above HOT_BYTES leave every cache between repetitions: such
 * a cell is memory's cost, which large strided messages of applications
 * pay (capped at 64 MiB, the table priced 300-900 KB of tests/probe.c
 * from cells that stayed in cache, 2 to 2.6 times too fast); measured
 * with MIN_SAMP samples (log3P took 23.6 s
 * capped at 64 MiB and 24.2 s at 256 MiB, one default 2-rank
 * calibration each). */
#define CAP_BYTES	(256u << 20)	/* largest extent of a buffer */
/* Most blocks of a strided cell: 1 MiB of one-byte blocks took 5 ms a
 * message; the cap leaves the 1-byte cells of 512 KiB and 1 MiB (up to
 * 18 with the gaps) to the column, which extrapolates its largest
 * measured size per block (a default 2-rank calibration took 38.7 s
 * without the cap, 26.0 s with it). */
#define CAP_BLOCKS	(1u << 18)
#define HOT_BYTES	(64u << 20)	/* above: MIN_SAMP samples */
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
 * one-double blocks, whose strides of 256 B, 1 and 4 KiB have
 * companions of 1088 and 4160 B: a stride that is a multiple of 256 B
 * maps its elements to a fraction of the cache's sets and packs up to
 * 4.5 times as slowly (cp_log3p_eval interpolates each class over its
 * own points).  --quick: fewer.  32-B blocks: measured in rounds, a
 * block of 8 to 32 B added 3.3 to 6.1 ns to a message of 5 to 64 KiB
 * under Open MPI, one of 40 B 7 to 11, of 64 B 13 to 30: 16 and 64 B
 * alone priced 40-B blocks too slow (tests/probe.c's 40-B blocks of 2
 * to 23 KB: mean mu 1.19 to 1.32 in four calibrations without 32 B,
 * 1.12 to 1.15 in five with it). */
static const double blocks[] = { 1, 8, 16, 32, 64, 256, 1024 };
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
	double half_rt0;	/* the empty message's one-way time, s:
				 * half its roundtrip, back to back
				 * (empty_rt), then as the rounds timed
				 * it */
	double target_s;	/* repetitions per sample fill this */
	double deadline;	/* MPI_Wtime after which no cell is measured
				 * again, and no round begins (after
				 * MIN_SAMP) */
	bool warm;		/* ranks 0 and 1 share a host: a warm-up
				 * message before each timed one, and a
				 * sample is one-way on the host's clock
				 * (sample()) */
	int m;			/* samples */
	double *samp;		/* [m] */
	int redone;
};

enum kind { K_MEM, K_SELF, K_REMOTE };

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One repetition (back to back: the local values, the empty
 * roundtrip, the strided sweep); rank 0's time, 0 on rank 1. */
static double once(struct ctx *x, enum kind k, MPI_Datatype t, int count,
		   size_t bytes)
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
		     size_t bytes, int nm[2])
{
	double s = 0;
	int i;

	for (i = 0; i < 2; i++)		/* warm-up */
		once(x, k, t, count, bytes);
	for (i = 0; i < 3; i++)
		s += once(x, k, t, count, bytes);
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
static double summarize(double *v, int n, double out[3])
{
	double sd;
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
		  size_t bytes, double out[3])
{
	int nm[2], j, i, again, tries;
	double s, sp, best = INFINITY, v[3];

	reps_for(x, k, t, count, bytes, nm);
	for (tries = 0; tries < TRIES; tries++) {
		for (j = 0; j < nm[1]; j++) {
			for (s = 0, i = 0; i < nm[0]; i++)
				s += once(x, k, t, count, bytes);
			x->samp[j] = s / nm[0];
		}
		again = 0;
		if (x->r0) {
			sp = summarize(x->samp, nm[1], v);
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

/* Rank 0's values of l's grids; the strided ones NAN until measured. */
static void alloc_values(struct calib_l3 *l)
{
	int k, nc = l->nss * l->nb * l->ng, i;

	l->nsd = calloc((size_t)nc + 1, sizeof(int));
	if (!l->nsd)
		calib_fatal("out of memory");
	for (k = 0; k < 3; k++) {
		l->tmem[k] = vec(l->ns);
		l->t00[k] = vec(l->ns);
		l->t01[k] = vec(l->ns);
		l->t01sd[k] = vec(nc);
		for (i = 0; i < nc; i++)
			l->t01sd[k][i] = NAN;
	}
}

/*
 * Half the empty roundtrip back to back, for the strided sweep's
 * one-way times (strided_breaks()); the tables take the empty
 * message's from the rounds (remote()).
 */
static void empty_rt(struct ctx *x)
{
	double v[3];
	int m = x->m;

	x->m = m > 50 ? m : 50;
	value(x, K_REMOTE, MPI_BYTE, 0, 0, v);
	x->m = m;
	if (x->r0)
		x->half_rt0 = v[0] / 2;
}

/* What is taken off a sample of the rounds to make it one-way: the
 * empty message's one-way time where samples are roundtrips (between
 * hosts), nothing where they are one-way already (sample()). */
static double taken_off(const struct ctx *x)
{
	return x->warm ? 0 : x->half_rt0;
}

/* Rank 0: the remote values (value, lo, hi) one-way. */
static void one_way(const struct ctx *x, struct calib_l3 *l)
{
	int k, i, nc = l->nss * l->nb * l->ng;

	for (k = 0; k < 3; k++) {
		for (i = 0; i < l->ns; i++)
			l->t01[k][i] -= taken_off(x);
		for (i = 0; i < nc; i++)
			l->t01sd[k][i] -= taken_off(x);
	}
}

/* v into dst[k][i] on rank 0; on the memcpy and self values' second
 * pass the faster value, and an interval that holds both passes'
 * intervals: how far the host moved within the run is part of what a
 * value is known to. */
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

/* Contiguous memcpy and self, on rank 0, in two passes (the second in
 * the other order, while the calibration has time). */
static void local(struct ctx *x, struct calib_l3 *l)
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
			value(x, K_MEM, MPI_BYTE, 0, s, v);
			keep(x, l->tmem, i, v, !pass);
			value(x, K_SELF, MPI_BYTE, (int)s, s, v);
			keep(x, l->t00, i, v, !pass);
			calib_progress(x->c, "self", n, l->ns);
		}
	calib_idle_barrier_on(x->pair);
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

/* A remote value measured in rounds: one message of count t, whose
 * data rank 0 writes first (nblk blocks of b bytes, d apart), and where
 * its value goes on rank 0 (dst[k][i], k = value, lo, hi). */
struct cell {
	MPI_Datatype t;
	int count;
	double nblk, b, d;
	double **dst;
	int i;
	int quota;		/* samples it takes */
	int n;			/* taken */
	double *samp;		/* [quota], rank 0 */
};

struct cells {
	struct cell *v;
	int n, cap;
};

/* Append a cell taking quota samples (t committed; freed with the
 * list). */
static void cell_add(struct cells *cs, const struct ctx *x, MPI_Datatype t,
		     int count, const double blk[3], double **dst, int i,
		     int quota)
{
	struct cell *c;

	if (cs->n == cs->cap) {
		cs->cap = cs->cap ? 2 * cs->cap : 256;
		cs->v = realloc(cs->v, (size_t)cs->cap * sizeof(*cs->v));
		if (!cs->v)
			calib_fatal("out of memory");
	}
	c = &cs->v[cs->n++];
	memset(c, 0, sizeof(*c));
	c->t = t;
	c->count = count;
	c->nblk = blk[0];
	c->b = blk[1];
	c->d = blk[2];
	c->dst = dst;
	c->i = i;
	c->quota = quota;
	if (x->r0 && !(c->samp = malloc((size_t)x->m * sizeof(double))))
		calib_fatal("out of memory");
}

static void cells_free(struct cells *cs)
{
	int k;

	for (k = 0; k < cs->n; k++) {
		if (cs->v[k].t != MPI_BYTE)
			MPI_Type_free(&cs->v[k].t);
		free(cs->v[k].samp);
	}
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}

/* ord: 0 .. n-1 shuffled for round r (Fisher-Yates, xorshift64 seeded
 * by r: the same on both ranks). */
static void shuffle(int *ord, int n, int r)
{
	unsigned long long z = 0x9E3779B97F4A7C15ull * (unsigned)(r + 1);
	int i, j, tmp;

	for (i = 0; i < n; i++)
		ord[i] = i;
	for (i = n - 1; i > 0; i--) {
		z ^= z << 13;
		z ^= z >> 7;
		z ^= z << 17;
		j = (int)(z % (unsigned long long)(i + 1));
		tmp = ord[i];
		ord[i] = ord[j];
		ord[j] = tmp;
	}
}

/* A cell's place in a round: its message's bytes, then its place in
 * the round's shuffle. */
struct slot {
	double bytes;
	int shuffled, cell;
};

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? -1 : 1;
	return (x->shuffled > y->shuffled) - (x->shuffled < y->shuffled);
}

/* ord: the cells of cs in round r's order (the file's head): by their
 * messages' bytes, up in even rounds and down in odd ones, those of
 * one size shuffled by round (sl: scratch, cs->n of them). */
static void round_order(int *ord, struct slot *sl, const struct cells *cs,
			int r)
{
	int i, n = cs->n;

	shuffle(ord, n, r);
	for (i = 0; i < n; i++) {
		sl[i].cell = ord[i];
		sl[i].shuffled = i;
		sl[i].bytes = cs->v[ord[i]].nblk * cs->v[ord[i]].b;
	}
	qsort(sl, (size_t)n, sizeof(*sl), cmp_slot);
	for (i = 0; i < n; i++)
		ord[r % 2 ? n - 1 - i : i] = sl[i].cell;
}

/* Rank 0 writes c's data, as an application that computed them. */
static void touch(struct ctx *x, const struct cell *c)
{
	double k;

	for (k = 0; k < c->nblk; k++)
		calib_touch(x->sbuf + (size_t)(k * c->d), (size_t)c->b);
}

/* One sample of c (the file's head says how): rank 0's time, 0 on
 * rank 1.  Rank 0 writes the data again after the warm-up, and the
 * ranks meet before the timed message: the writes' own cost (their
 * cache lines taken back from the receiver's cache) is the
 * application's, not the message's (written right before the send,
 * contiguous 7 to 90 KB took 1.1 to 1.4 times as long).
 * On one host (x->warm) the sample is what commprof's t_transfer is:
 * rank 1's receive completion less rank 0's send start, both on the
 * host's monotonic clock (rank 1 sends its time in the reply).  A
 * roundtrip less half the empty one is not: the reply after a message
 * took 0.07 to 0.14 us longer than half an empty roundtrip, at 2100 B
 * to 90 KB, under Open MPI on the development host (4 to 8% of the
 * one-way time at 2 to 12 KB).  Between hosts it is the roundtrip
 * (taken_off()). */
static double sample(struct ctx *x, const struct cell *c)
{
	MPI_Request rq;
	double t0, t1 = 0;

	if (!x->r0) {
		if (x->warm)
			MPI_Recv(x->rbuf, c->count, c->t, 0, TAG_L3, x->pair,
				 MPI_STATUS_IGNORE);
		MPI_Irecv(x->rbuf, c->count, c->t, 0, TAG_L3 + 1, x->pair,
			  &rq);
		if (x->warm)
			MPI_Barrier(x->pair);
		else
			MPI_Send(x->rbuf, 0, MPI_BYTE, 0, TAG_L3, x->pair);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		t1 = cp_clock_s();
		MPI_Send(&t1, 1, MPI_DOUBLE, 0, TAG_L3, x->pair);
		return 0;
	}
	touch(x, c);
	if (x->warm) {
		MPI_Send(x->sbuf, c->count, c->t, 1, TAG_L3, x->pair);
		touch(x, c);
		MPI_Barrier(x->pair);
	} else {
		MPI_Recv(x->rbuf, 0, MPI_BYTE, 1, TAG_L3, x->pair,
			 MPI_STATUS_IGNORE);
	}
	t0 = cp_clock_s();
	MPI_Send(x->sbuf, c->count, c->t, 1, TAG_L3 + 1, x->pair);
	MPI_Recv(&t1, 1, MPI_DOUBLE, 1, TAG_L3, x->pair, MPI_STATUS_IGNORE);
	return x->warm ? t1 - t0 : cp_clock_s() - t0;
}

/* Round 0's samples set the quotas: a cell whose m samples (with their
 * warm-ups) would take more than CELL_S takes as many as fill it, at
 * least MIN_SAMP.  Rank 0 decides; rank 1 agrees. */
static void quotas(struct ctx *x, struct cells *cs)
{
	int *q = malloc(((size_t)cs->n + 1) * sizeof(int)), k;
	double cost;

	if (!q)
		calib_fatal("out of memory");
	for (k = 0; k < cs->n; k++) {
		q[k] = cs->v[k].quota;
		if (!x->r0)
			continue;
		cost = cs->v[k].samp[0] * (x->warm ? 2 : 1);
		if (cost * q[k] > CELL_S)
			q[k] = (int)(CELL_S / cost);
		q[k] = q[k] < MIN_SAMP ? MIN_SAMP : q[k];
		q[k] = q[k] > cs->v[k].quota ? cs->v[k].quota : q[k];
	}
	MPI_Bcast(q, cs->n, MPI_INT, 0, x->pair);
	for (k = 0; k < cs->n; k++)
		cs->v[k].quota = q[k];
	free(q);
}

/* Every cell of cs in rounds (the file's head), then on rank 0 its
 * value, lo and hi into dst; returns the rounds run.  The interval
 * holds, besides the quantile's own, the quantiles of the first and of
 * the second half of the rounds: how far the host moved within the
 * phase is part of what a value is known to (the LMO sweep's two
 * passes likewise). */
static int rounds(struct ctx *x, struct cells *cs)
{
	int *ord = malloc(((size_t)cs->n + 1) * sizeof(int)), r, j, h;
	struct slot *sl = malloc(((size_t)cs->n + 1) * sizeof(*sl));
	int go = 1;
	struct cell *c;
	double t, v[3], q1, q2;

	if (!ord || !sl)
		calib_fatal("out of memory");
	for (r = 0; r < x->m && go; r++) {
		round_order(ord, sl, cs, r);
		for (j = 0; j < cs->n; j++) {
			c = &cs->v[ord[j]];
			if (c->n >= c->quota)
				continue;
			t = sample(x, c);
			if (x->r0)
				c->samp[c->n] = t;
			c->n++;
		}
		if (r == 0)
			quotas(x, cs);
		go = x->r0 && (r + 1 < MIN_SAMP || MPI_Wtime() < x->deadline);
		MPI_Bcast(&go, 1, MPI_INT, 0, x->pair);
		calib_progress(x->c, "remote, in rounds", r + 1, x->m);
	}
	free(ord);
	free(sl);
	for (j = 0; x->r0 && j < cs->n; j++) {
		c = &cs->v[j];
		/* the halves' quantiles before summarize sorts the samples;
		 * a half of fewer than MIN_SAMP leaves the interval as is */
		h = c->n / 2;
		q1 = h < MIN_SAMP ? NAN : calib_quantile(c->samp, h, CALIB_Q);
		q2 = h < MIN_SAMP ? NAN :
		     calib_quantile(c->samp + h, c->n - h, CALIB_Q);
		summarize(c->samp, c->n, v);
		v[1] = fmin(v[1], fmin(q1, q2));
		v[2] = fmax(v[2], fmax(q1, q2));
		c->dst[0][c->i] = v[0];
		c->dst[1][c->i] = v[1];
		c->dst[2][c->i] = v[2];
	}
	return r;
}

/* Is cell (is, ib, ig)'s extent above HOT_BYTES (MIN_SAMP samples)? */
static bool cold_cell(const struct calib_l3 *l, int is, int ib, int ig)
{
	return l->ssizes[is] / l->blocks[ib] *
	       (l->blocks[ib] + l->gaps[ig]) > HOT_BYTES;
}

/* The layouts of the check off the tables (check()): on no grid point
 * (a struct with gaps: 3 doubles and an int, 28 of every 64 bytes;
 * 40-B blocks 8 B apart; 16-B blocks 1600 B apart; bytes 64 B apart, a
 * column of a char image). */
static const struct {
	double b, d, n;
	const char *what;
} chk[] = {
	{ 28, 64, 2048, "struct 28 of 64 B" },
	{ 28, 64, 24576, "struct 28 of 64 B" },
	{ 40, 48, 1200, "vector 40 of 48 B" },
	{ 40, 48, 12000, "vector 40 of 48 B" },
	{ 16, 1600, 640, "vector 16 of 1600 B" },
	{ 16, 1600, 6400, "vector 16 of 1600 B" },
	{ 1, 64, 2000, "bytes 1 of 64 B" },
	{ 1, 64, 20000, "bytes 1 of 64 B" },
};
#define NCHK	N(chk)

/* The check's datatype of layout i, committed. */
static MPI_Datatype chk_type(int i)
{
	MPI_Datatype t, f[2] = { MPI_DOUBLE, MPI_INT }, st;
	int bl[2] = { 3, 1 };
	MPI_Aint dp[2] = { 0, 24 };

	if (chk[i].b != 28) {
		vector_of(chk[i].n, chk[i].b, chk[i].d, &t);
		return t;
	}
	MPI_Type_create_struct(2, bl, dp, f, &st);
	MPI_Type_create_resized(st, 0, 64, &t);
	MPI_Type_free(&st);
	MPI_Type_commit(&t);
	return t;
}

/* The remote values: the contiguous sizes, every strided cell within
 * the caps, and the check's layouts (into cv[3][NCHK]), all in one set
 * of rounds. */
static void remote(struct ctx *x, struct calib_l3 *l, double **cv)
{
	struct cells cs = { 0 };
	int i, is, ib, ig, nc = l->nss * l->nb * l->ng;
	double blk[3] = { 0, 0, 0 }, e0[3], *ev[3] = { e0, e0 + 1, e0 + 2 };
	MPI_Datatype t;

	cell_add(&cs, x, MPI_BYTE, 0, blk, ev, 0, x->m);
	for (i = 0; i < l->ns; i++) {
		blk[0] = 1;
		blk[1] = blk[2] = l->sizes[i];
		cell_add(&cs, x, MPI_BYTE, (int)l->sizes[i], blk, l->t01, i,
			 x->m);
	}
	for (i = 0; i < nc; i++) {
		is = i / (l->nb * l->ng);
		ib = i / l->ng % l->nb;
		ig = i % l->ng;
		if (!strided_type(l->ssizes[is], l->blocks[ib], l->gaps[ig],
				  &t)) {
			l->capped += l->ssizes[is] >= l->blocks[ib];
			continue;
		}
		blk[0] = l->ssizes[is] / l->blocks[ib];
		blk[1] = l->blocks[ib];
		blk[2] = l->blocks[ib] + l->gaps[ig];
		cell_add(&cs, x, t, 1, blk, l->t01sd, i,
			 cold_cell(l, is, ib, ig) ? MIN_SAMP : x->m);
	}
	for (i = 0; i < (int)NCHK; i++) {
		blk[0] = chk[i].n;
		blk[1] = chk[i].b;
		blk[2] = chk[i].d;
		cell_add(&cs, x, chk_type(i), chk[i].b == 28 ? (int)chk[i].n :
			 1, blk, cv, i, x->m);
	}
	l->rounds = rounds(x, &cs);
	if (x->r0) {
		calib_progress_end(x->c);
		printf("log3p: the empty message's one-way time %.3f us (%s "
		       "in the rounds; half its roundtrip back to back %.3f "
		       "us)\n", (x->warm ? e0[0] : e0[0] / 2) * 1e6,
		       x->warm ? "its receive's completion less its send's "
		       "start" : "half its roundtrip", x->half_rt0 * 1e6);
		x->half_rt0 = x->warm ? e0[0] : e0[0] / 2;
	}
	l->ncells = cs.n;
	for (i = 0; x->r0 && i < cs.n; i++)
		if (cs.v[i].dst == l->t01sd)
			l->nsd[cs.v[i].i] = cs.v[i].n;
	cells_free(&cs);
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
 * residuals, at least 3 sizes a segment), each narrowed by bisection
 * (narrow()), and the sizes on both sides of each become strided and
 * contiguous sizes (l_mw is a strided time less the contiguous one of
 * its size).  Before any value is measured; collective over the pair;
 * on rank 0 prints what it found.
 */
#define BRK_SAMP	MIN_SAMP
#define BRK_MAX		4	/* breaks kept, the first ones */

/* *v (n of them) := the sorted s[0..ns). */
static void set_sizes(double **v, int *n, double *s, int ns)
{
	qsort(s, (size_t)ns, sizeof(double), cmp_dbl);
	free(*v);
	*v = malloc(((size_t)ns + 1) * sizeof(double));
	if (!*v)
		calib_fatal("out of memory");
	memcpy(*v, s, (size_t)ns * sizeof(double));
	*n = ns;
}

/* Narrow the break between lo and hi bytes (one-way times ylo, yhi on
 * rank 0) by bisection, the half in which the time climbs more keeping
 * it, until the two sides are within BRK_NARROW of lo: the table then
 * interpolates across a jump (MPICH's above) over that much only, not
 * over the step between two sizes of the sweep (2 KiB at 8 KiB).
 * Collective over the pair; rank 0 decides. */
#define BRK_NARROW	(1.0 / 32)

static void narrow(struct ctx *x, double *lo, double *hi, double *ylo,
		   double *yhi)
{
	double mid, y = 0, v[3];
	int left;
	MPI_Datatype t;

	for (;;) {
		mid = 8 * floor((*lo + *hi) / 16);
		if (!(mid > *lo && mid < *hi && *hi - *lo > *lo * BRK_NARROW) ||
		    !strided_type(mid, 8, 8, &t))
			return;
		value(x, K_REMOTE, t, 1, 0, v);
		MPI_Type_free(&t);
		if (x->r0)
			y = v[0] - x->half_rt0;
		left = x->r0 && y - *ylo > *yhi - y;
		MPI_Bcast(&left, 1, MPI_INT, 0, x->pair);
		if (left) {
			*hi = mid;
			*yhi = y;
		} else {
			*lo = mid;
			*ylo = y;
		}
	}
}

static void strided_breaks(struct ctx *x, struct calib_l3 *l)
{
	double xs[MAXS], ys[MAXS], w[MAXS], v[3], ss[MAXS];
	double lo[BRK_MAX], hi[BRK_MAX], ylo[BRK_MAX] = { 0 };
	double yhi[BRK_MAX] = { 0 };
	int n = 0, i, k, m = x->m, nss = l->nss, nb = 0;
	struct cp_breaks b;
	MPI_Datatype t;
	char found[400] = "";
	size_t o = 0;

	x->m = BRK_SAMP;
	for (i = 0; i < l->ns && n < MAXS; i++) {
		if (l->sizes[i] < 1024 || l->sizes[i] > 256 << 10 ||
		    !strided_type(l->sizes[i], 8, 8, &t))
			continue;
		value(x, K_REMOTE, t, 1, 0, v);
		MPI_Type_free(&t);
		xs[n] = l->sizes[i];
		ys[n] = v[0] - x->half_rt0;
		w[n] = ys[n] > 0 ? 1 / (ys[n] * ys[n]) : 0;
		n++;
	}
	if (x->r0 && n >= 6 &&
	    !cp_breaks_fit_joint(xs, ys, w, 1, n, 3, -1, &b)) {
		for (k = 0; k < b.m && k < BRK_MAX; k++) {
			i = b.brk[k];
			lo[nb] = xs[i];
			hi[nb] = xs[i + 1];
			ylo[nb] = ys[i];
			yhi[nb++] = ys[i + 1];
		}
		cp_breaks_free(&b);
	}
	MPI_Bcast(&nb, 1, MPI_INT, 0, x->pair);
	MPI_Bcast(lo, nb, MPI_DOUBLE, 0, x->pair);
	MPI_Bcast(hi, nb, MPI_DOUBLE, 0, x->pair);
	memcpy(ss, l->ssizes, (size_t)nss * sizeof(double));
	for (k = 0; k < nb; k++) {
		double a = lo[k], z = hi[k];

		narrow(x, &lo[k], &hi[k], &ylo[k], &yhi[k]);
		add_size(ss, &nss, a);
		add_size(ss, &nss, lo[k]);
		add_size(ss, &nss, hi[k]);
		add_size(ss, &nss, z);
		if (o < sizeof(found))
			o += (size_t)snprintf(found + o, sizeof(found) - o,
					      "%s%.0f-%.0f B, narrowed to "
					      "%.0f-%.0f B (%.1f to %.1f us)",
					      k ? ", " : "", a, z, lo[k],
					      hi[k], ylo[k] * 1e6,
					      yhi[k] * 1e6);
	}
	x->m = m;
	if (x->r0)
		printf("log3p strided sweep: doubles 16 B apart at %d sizes "
		       "of 1 KiB to 256 KiB: %s%s\n", n,
		       nb ? "breaks between " : "no break", nb ? found : "");
	set_sizes(&l->ssizes, &l->nss, ss, nss);
	memcpy(ss, l->sizes, (size_t)l->ns * sizeof(double));
	n = l->ns;
	for (k = 0; k < nb; k++) {
		add_size(ss, &n, lo[k]);
		add_size(ss, &n, hi[k]);
	}
	set_sizes(&l->sizes, &l->ns, ss, n);
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

/* The check off the tables: each layout of chk, predicted and measured
 * (cv: its remote values), with mu; rank 0. */
static void check(const struct ctx *x, const struct calib_l3 *l,
		  double *const *cv)
{
	struct cp_log3p_pred p;
	double v, mu;
	int i;

	if (!x->r0 || !l->ok)
		return;
	printf("log3p off the tables, remote, predicted vs measured "
	       "(us):\n%-20s %9s %10s %10s %7s\n", "layout", "bytes",
	       "predicted", "measured", "mu");
	for (i = 0; i < (int)NCHK; i++) {
		v = cv[0][i] - taken_off(x);
		cp_log3p_eval(&l->tab, chk[i].n * chk[i].b, chk[i].d,
			      chk[i].b, &p);
		if (cp_stats_mu(v, p.t_s, &mu))
			mu = NAN;
		printf("%-20s %9.0f %10.2f %10.2f %7.3f\n", chk[i].what,
		       chk[i].n * chk[i].b, p.t_s * 1e6, v * 1e6, mu);
	}
}

void calib_l3_run(struct calib *c, const double *lmo_sizes, int n,
		  const double *first, const double *below, int nreg,
		  struct calib_gauge *g, struct calib_l3 *l)
{
	struct ctx x = { .c = c, .pair = MPI_COMM_NULL, .r0 = c->rank == 0,
			 .target_s = c->quick ? 10e-6 : 20e-6,
			 .m = c->samples };
	double t0 = MPI_Wtime(), *cv[3];
	int k;

	memset(l, 0, sizeof(*l));
	grids(l, lmo_sizes, n, first, below, nreg, c->quick);
	MPI_Comm_split(MPI_COMM_WORLD, c->rank < 2 ? 0 : MPI_UNDEFINED,
		       c->rank, &x.pair);
	if (c->rank >= 2) {
		calib_idle_barrier();
		return;
	}
	x.sbuf = calloc(CAP_BYTES + 64, 1);
	x.rbuf = calloc(CAP_BYTES + 64, 1);
	x.samp = calloc((size_t)x.m + 50, sizeof(double));
	for (k = 0; k < 3; k++)
		cv[k] = calloc(NCHK, sizeof(double));
	if (!x.sbuf || !x.rbuf || !x.samp || !cv[0] || !cv[1] || !cv[2])
		calib_fatal("out of memory");
	/* every page written once: a strided cell reads up to CAP_BYTES
	 * of sbuf, and pages of calloc's never written read as the one
	 * shared zero page, always in cache (16384 doubles 1 KiB apart
	 * were sent in 51 us from such pages, in 90 us from written ones) */
	calib_touch(x.sbuf, CAP_BYTES + 64);
	calib_touch(x.rbuf, CAP_BYTES + 64);
	l->nsamp = x.m;
	x.warm = calib_node_ranks(x.pair) == 2;
	calib_pin(c, c->rank);
	/* measuring cells again and the rounds stop 90 s (quick: 10 s)
	 * into the calibration, to keep it within its time on a crowded
	 * host */
	x.deadline = c->t0_s + (c->quick ? 10 : 90);
	empty_rt(&x);
	strided_breaks(&x, l);
	if (x.r0)
		alloc_values(l);
	local(&x, l);
	calib_gauge_pair(c, g);
	remote(&x, l, cv);
	if (x.r0) {
		calib_progress_end(c);
		one_way(&x, l);
		l->half_rt0 = x.half_rt0;
		derive(l);
	}
	check(&x, l, cv);
	l->redone = x.redone;
	if (x.r0)
		printf("log3p: %d contiguous sizes, %d strided sizes x %d "
		       "blocks x %d gaps (%d cells over the %u MiB extent "
		       "cap or %u blocks left to extrapolation); %d remote "
		       "cells in %d rounds (%d wanted), %s; %d local values "
		       "measured again for their spread; %.1f s\n", l->ns,
		       l->nss, l->nb, l->ng, l->capped, CAP_BYTES >> 20,
		       CAP_BLOCKS, l->ncells, l->rounds, l->nsamp,
		       x.warm ? "each sample after a warm-up message" :
		       "no warm-up (the ranks are on two hosts)", l->redone,
		       MPI_Wtime() - t0);
	calib_unpin(c);
	free(x.sbuf);
	free(x.rbuf);
	free(x.samp);
	for (k = 0; k < 3; k++)
		free(cv[k]);
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
		e.n = l->nsd[i];
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
	free(l->nsd);
	cp_log3p_free(&l->tab);
	memset(l, 0, sizeof(*l));
}
