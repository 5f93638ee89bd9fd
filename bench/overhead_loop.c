/*
 * overhead_loop.c - the timed loops of bench/overhead.  A plain MPI
 * program that knows nothing of any profiler: the script runs it with and
 * without a preloaded library and compares.
 *
 *   overhead_loop [-n ITERS] [-r REPS] [-w WARMUP] [-p PAUSE_MS] BENCH...
 *
 * BENCH is one of
 *   procnull   MPI_Send of 0 bytes to MPI_PROC_NULL (any number of ranks;
 *              the script runs it alone)
 *   pp0, pp8   ping-pong of 0 / 8 bytes between ranks 0 and 1
 *   allreduce  MPI_Allreduce of one double, MPI_SUM, on MPI_COMM_WORLD
 *   rss        ITERS MPI_Send to MPI_PROC_NULL between two readings of
 *              VmHWM (peak RSS); a third reading after MPI_Finalize,
 *              which may flush what a profiler kept
 *
 * Rank 0 prints one line per timed BENCH, "BENCH NS_PER_CALL", the median
 * over REPS repetitions of ITERS iterations each.  Before them come WARMUP
 * untimed calls per rank (a fixed count, so that instruction counts of
 * runs with different ITERS differ only by the loop) and a pause of
 * PAUSE_MS: a profiler that buffers rows gets its buffers touched by the
 * warm-up and emptied by its flusher during the pause, so that the timed
 * calls see the steady state rather than first-touch page faults or a
 * full buffer.  A ping-pong round trip is
 * four calls on the critical path (send and receive on each rank), so its
 * ns per call is a quarter of the round trip; an Allreduce iteration is
 * one call on each rank, at the same time, so it counts as one call.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, nranks;
static long iters = 1000000, reps = 5, warmup = 1000, pause_ms;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void procnull_loop(long n)
{
	char c = 0;

	for (long i = 0; i < n; i++)
		MPI_Send(&c, 0, MPI_CHAR, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
}

/* n round trips between ranks 0 and 1; other ranks stay out */
static void pingpong_loop(long n, int bytes)
{
	char buf[8] = { 0 };

	if (rank == 0) {
		for (long i = 0; i < n; i++) {
			MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		}
	} else if (rank == 1) {
		for (long i = 0; i < n; i++) {
			MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
		}
	}
}

static void allreduce_loop(long n)
{
	double x = rank, y;

	for (long i = 0; i < n; i++)
		MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void run_loop(const char *bench, long n)
{
	if (!strcmp(bench, "procnull"))
		procnull_loop(n);
	else if (!strcmp(bench, "pp0"))
		pingpong_loop(n, 0);
	else if (!strcmp(bench, "pp8"))
		pingpong_loop(n, 8);
	else
		allreduce_loop(n);
}

/* calls on the critical path per loop iteration */
static double calls_per_iter(const char *bench)
{
	return !strncmp(bench, "pp", 2) ? 4.0 : 1.0;
}

/* calls each rank makes per loop iteration */
static long rank_calls_per_iter(const char *bench)
{
	return !strncmp(bench, "pp", 2) ? 2 : 1;
}

static void pause_all(void)
{
	struct timespec ts = { pause_ms / 1000, pause_ms % 1000 * 1000000 };

	if (!pause_ms)
		return;
	MPI_Barrier(MPI_COMM_WORLD);
	while (nanosleep(&ts, &ts))
		;
}

/* returns 0, or -1 when BENCH needs more ranks than there are */
static int timed(const char *bench)
{
	double *ns = calloc(reps, sizeof(*ns));

	if (!ns)
		return -1;
	if (strcmp(bench, "procnull") && nranks < 2) {
		free(ns);
		return -1;
	}
	run_loop(bench, warmup / rank_calls_per_iter(bench));
	pause_all();
	for (long r = 0; r < reps; r++) {
		double t0;

		MPI_Barrier(MPI_COMM_WORLD);
		t0 = now_ns();
		run_loop(bench, iters);
		ns[r] = (now_ns() - t0) / (iters * calls_per_iter(bench));
	}
	MPI_Barrier(MPI_COMM_WORLD);
	qsort(ns, reps, sizeof(*ns), cmp_double);
	if (rank == 0)
		printf("%s %.2f\n", bench,
		       reps % 2 ? ns[reps / 2] :
		       (ns[reps / 2 - 1] + ns[reps / 2]) / 2);
	free(ns);
	return 0;
}

/* peak resident set size in kB, from /proc/self/status; -1 if unknown */
static long vmhwm_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void rss(long *before_kb, long *after_kb)
{
	procnull_loop(warmup);
	*before_kb = vmhwm_kb();
	procnull_loop(iters);
	*after_kb = vmhwm_kb();
}

int main(int argc, char **argv)
{
	long before_kb = -1, after_kb = -1;
	int opt, want_rss = 0, rc = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	while ((opt = getopt(argc, argv, "n:r:w:p:")) != -1) {
		long v = strtol(optarg, NULL, 10);

		if (v < (opt == 'w' || opt == 'p' ? 0 : 1))
			opt = '?';
		if (opt == 'n')
			iters = v;
		else if (opt == 'r')
			reps = v;
		else if (opt == 'w')
			warmup = v;
		else if (opt == 'p')
			pause_ms = v;
		else {
			if (rank == 0)
				fprintf(stderr, "usage: overhead_loop [-n ITERS]"
					" [-r REPS] [-w WARMUP] [-p PAUSE_MS]"
					" BENCH...\n");
			MPI_Finalize();
			return 2;
		}
	}
	for (int i = optind; i < argc; i++) {
		const char *b = argv[i];

		if (!strcmp(b, "rss")) {
			rss(&before_kb, &after_kb);
			want_rss = 1;
		} else if (strcmp(b, "procnull") && strcmp(b, "pp0") &&
			   strcmp(b, "pp8") && strcmp(b, "allreduce")) {
			if (rank == 0)
				fprintf(stderr, "overhead_loop: unknown bench"
					" %s\n", b);
			rc = 2;
		} else if (timed(b)) {
			if (rank == 0)
				fprintf(stderr, "overhead_loop: %s needs 2"
					" ranks\n", b);
			rc = 2;
		}
	}
	fflush(stdout);
	MPI_Finalize();
	if (want_rss && rank == 0) {
		printf("rss %ld %ld %ld %ld\n", iters, before_kb, after_kb,
		       vmhwm_kb());
	}
	return rc;
}
