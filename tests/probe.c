/*
 * probe.c - the application tests/test_probe.sh profiles: one-way
 * messages from rank 0 to rank 1 whose sizes and layouts lie on no grid
 * of commprof-calibrate, so that the predictions it checks come from
 * interpolation, not from a table point.
 *
 *   mpirun -np 2 probe [REPS]        (default 20 repetitions)
 *
 * Sizes 2100 B to 900000 B of data, each as contiguous bytes, as single
 * doubles 2 to 200 doubles apart, as blocks of 2 doubles (16 B) and of 5
 * doubles (40 B) at strides of 3 to 200 doubles (MPI_Type_vector), in
 * REPS rounds, each of every size and layout once, each such message
 * right after a warm-up message of the same size and layout (tag WARM +
 * layout): the first message of a size and layout pays for what the
 * next one finds ready (the receive buffer's pages and cache lines, the
 * datatype's first use; 1.68 against 1.16 for log3P's mean mu in one
 * run), which no model prices, and test_probe.sh leaves the warm-up
 * rows out.  Rounds rather than REPS messages in a row: a slow spell of
 * a crowded host (milliseconds to seconds) then lifts one repetition of
 * a configuration, not all of them.  Twenty of them: test_probe.sh
 * measures a configuration by the 10% quantile of its messages, the
 * statistic of the calibration's values, which 4 messages do not
 * estimate (their fastest, near the 16% quantile, put log3P's mu_bar
 * 0.008 to 0.022 above the 10% quantile of 20: five runs of 20 against
 * five calibrations, each run's rounds 1-4, 5-8 and 9-12 against all
 * 20).
 *
 * One message at a time, measured cleanly: rank 0 writes its data (as
 * an application that computed them), rank 1 posts its receive, both
 * meet at a barrier, rank 0 waits 20 us (so that the receive is surely
 * posted and t_transfer is the message's own time) and sends, rank 1
 * waits for the receive and checks the data.  Prints one line on rank
 * 0: messages and a checksum of what rank 1 received (the same with and
 * without commprof).  Ranks above 1 only join the barriers.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int sizes[] = { 2100, 3000, 3700, 5000, 7000, 11000, 23000,
			     47000, 90000, 150000, 300000, 550000, 900000 };
/* layouts: block doubles, stride doubles (0: contiguous bytes) */
static const int layouts[][2] = {
	{ 0, 0 },
	{ 1, 2 }, { 1, 3 }, { 1, 5 }, { 1, 12 }, { 1, 37 }, { 1, 95 },
	{ 1, 200 },
	{ 2, 3 }, { 2, 5 }, { 2, 12 }, { 2, 37 }, { 2, 95 }, { 2, 200 },
	{ 5, 6 }, { 5, 8 }, { 5, 15 }, { 5, 40 }, { 5, 100 }, { 5, 200 },
};
#define NSIZES	((int)(sizeof(sizes) / sizeof(sizes[0])))
#define NLAY	((int)(sizeof(layouts) / sizeof(layouts[0])))
#define SPIN_US	20
#define WARM	1000	/* tag of a warm-up message, plus the layout */

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The datatype of size s in layout l (MPI_BYTE: contiguous bytes);
 * *count: the count to pass. */
static MPI_Datatype layout_type(int s, int l, int *count)
{
	int b = layouts[l][0], d = layouts[l][1];
	MPI_Datatype t;

	if (!b) {
		*count = s;
		return MPI_BYTE;
	}
	MPI_Type_vector(s / (8 * b), b, d, MPI_DOUBLE, &t);
	MPI_Type_commit(&t);
	*count = 1;
	return t;
}

/* Rank 0's data: a value per double of the layout. */
static void fill(double *v, int s, int l, int seed)
{
	int b = layouts[l][0], d = layouts[l][1], i, k;

	if (!b) {
		memset(v, seed & 0xff, (size_t)s);
		return;
	}
	for (i = 0; i < s / (8 * b); i++)
		for (k = 0; k < b; k++)
			v[(size_t)i * d + k] = seed + i + k;
}

/* What rank 1 received, summed (a few elements). */
static unsigned long sum_of(const double *v, int s, int l)
{
	int b = layouts[l][0], d = layouts[l][1], i, n;
	unsigned long x = 0;

	if (!b) {
		for (i = 0; i < s; i += 997)
			x += ((const unsigned char *)v)[i];
		return x;
	}
	n = s / (8 * b);
	for (i = 0; i < n; i += 97)
		x += (unsigned long)v[(size_t)i * d];
	return x;
}

/* One message of size index is in layout l (datatype t, count n) from
 * rank 0 to rank 1, measured cleanly; returns what rank 1 received,
 * summed (0 on other ranks). */
static unsigned long one(int me, double *buf, int is, int l, MPI_Datatype t,
			 int n, int tag)
{
	MPI_Request req;
	double t0;

	if (me == 0)
		fill(buf, sizes[is], l, tag + is);
	if (me == 1)
		MPI_Irecv(buf, n, t, 0, tag, MPI_COMM_WORLD, &req);
	MPI_Barrier(MPI_COMM_WORLD);
	if (me == 0) {
		t0 = now_us();
		while (now_us() - t0 < SPIN_US)
			;
		MPI_Send(buf, n, t, 1, tag, MPI_COMM_WORLD);
	} else if (me == 1) {
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		return sum_of(buf, sizes[is], l);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int me, np, reps = argc > 1 ? atoi(argv[1]) : 20, is, l, r;
	int cnt[NSIZES][NLAY];
	MPI_Datatype type[NSIZES][NLAY];
	unsigned long sum = 0, all = 0;
	size_t big = (size_t)900000 * 200 + 64;
	long msgs = 0;
	double *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	buf = me < 2 ? malloc(big) : NULL;
	if (np < 2 || reps < 1 || (me < 2 && !buf)) {
		if (me == 0)
			fprintf(stderr, "probe: 2 ranks and memory needed\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (buf)
		memset(buf, 0, big);
	for (is = 0; is < NSIZES; is++)
		for (l = 0; l < NLAY; l++)
			type[is][l] = layout_type(sizes[is], l, &cnt[is][l]);
	for (r = 0; r < reps; r++)
		for (is = 0; is < NSIZES; is++)
			for (l = 0; l < NLAY; l++) {
				sum += one(me, buf, is, l, type[is][l],
					   cnt[is][l], WARM + l);
				sum += one(me, buf, is, l, type[is][l],
					   cnt[is][l], l);
			}
	msgs = (long)reps * NSIZES * NLAY;
	for (is = 0; is < NSIZES; is++)
		for (l = 0; l < NLAY; l++)
			if (type[is][l] != MPI_BYTE)
				MPI_Type_free(&type[is][l]);
	MPI_Reduce(&sum, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	if (me == 0)
		printf("probe: %ld messages after warm-ups, checksum %lu\n",
		       msgs, all);
	free(buf);
	MPI_Finalize();
	return 0;
}
