/*
 * overhead_loop.c - the timed loops of bench/overhead.  A plain MPI
 * program that knows nothing of any profiler: the script runs it with and
 * without a preloaded library and compares.
 *
 *   overhead_loop [-n ITERS] [-r REPS] [-w WARMUP] [-p PAUSE_MS]
 *                 [-R CALLS_PER_S] BENCH...
 *
 * BENCH is one of
 *   procnull   MPI_Send of 0 bytes to MPI_PROC_NULL (any number of ranks;
 *              the script runs it alone)
 *   recv       MPI_Recv of 0 bytes from MPI_PROC_NULL
 *   isendwait  MPI_Isend of 0 bytes to MPI_PROC_NULL, then MPI_Wait: one
 *              iteration, two calls
 *   strided    MPI_Send of one vector (16 doubles, stride 2) to
 *              MPI_PROC_NULL
 *   pp0, pp8   ping-pong of 0 / 8 bytes between ranks 0 and 1
 *   allreduce  MPI_Allreduce of one double, MPI_SUM, on MPI_COMM_WORLD
 *   allgatherv MPI_Allgatherv of one double per rank on MPI_COMM_WORLD,
 *              the same counts every call (a profiler that prices it
 *              reads every rank's count)
 *   selfpair   MPI_Send of 8 bytes to oneself, then MPI_Recv of them:
 *              calls the models price (log3P's message to oneself),
 *              unlike those to MPI_PROC_NULL; one iteration, two calls
 *   stridedself  the same with the vector of strided
 *   rate       ITERS MPI_Send to MPI_PROC_NULL paced at CALLS_PER_S (-R),
 *              once; prints "rate CALLS ACHIEVED_PER_S SECONDS CPU_S",
 *              CPU_S the process's CPU time over the loop, every thread
 *              (a profiler's too)
 *   burst      ITERS MPI_Send to MPI_PROC_NULL as fast as they go, once;
 *              after MPI_Finalize prints "burst CALLS LOOP_S TOTAL_S",
 *              TOTAL_S from the first call to the end of MPI_Finalize
 *              (which waits for a profiler's last writes)
 *   rss        ITERS MPI_Send to MPI_PROC_NULL between two readings of
 *              VmHWM (peak RSS); a third reading after MPI_Finalize,
 *              which may flush what a profiler kept
 *   stalls     ITERS round trips of 1 KiB between ranks 0 and 1, each
 *              timed on rank 0, once; prints "stalls N MEAN_NS MEDIAN_NS
 *              P999_NS MAX_NS OVER_100US": how often and how long the
 *              application is held up (a profiler's thread taking a
 *              core from a rank that spins in MPI)
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
static long iters = 1000000, reps = 5, warmup = 1000, pause_ms, rate;
static MPI_Datatype vec;	/* 16 doubles, every other one */
static double vbuf[32];

/* CPU seconds of the process so far, every thread */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

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

/* out of line: one callsite for its MPI_Send wherever it runs (the rss
 * run's warm-up and loop must land in one aggregate group) */
__attribute__((noinline))
static void procnull_loop(long n)
{
	char c = 0;

	for (long i = 0; i < n; i++)
		MPI_Send(&c, 0, MPI_CHAR, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
}

static void recv_loop(long n)
{
	char c = 0;

	for (long i = 0; i < n; i++)
		MPI_Recv(&c, 0, MPI_CHAR, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
}

static void isendwait_loop(long n)
{
	MPI_Request rq;
	char c = 0;

	for (long i = 0; i < n; i++) {
		MPI_Isend(&c, 0, MPI_CHAR, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
			  &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
	}
}

static void strided_loop(long n)
{
	for (long i = 0; i < n; i++)
		MPI_Send(vbuf, 1, vec, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
}

/* n messages to this rank itself on MPI_COMM_SELF, each received at
 * once: the self transport buffers a small one, so nothing waits */
static void self_loop(long n, int strided)
{
	char buf[8] = { 0 };

	for (long i = 0; i < n; i++) {
		if (strided)
			MPI_Send(vbuf, 1, vec, 0, 0, MPI_COMM_SELF);
		else
			MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_SELF);
		MPI_Recv(vbuf + 16, 16, MPI_DOUBLE, 0, 0, MPI_COMM_SELF,
			 MPI_STATUS_IGNORE);
	}
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

static void allgatherv_loop(long n)
{
	double x = rank, *y = calloc((size_t)nranks, sizeof(*y));
	int *counts = calloc((size_t)nranks, sizeof(*counts));
	int *displs = calloc((size_t)nranks, sizeof(*displs));

	if (!y || !counts || !displs)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (int r = 0; r < nranks; r++) {
		counts[r] = 1;
		displs[r] = r;
	}
	for (long i = 0; i < n; i++)
		MPI_Allgatherv(&x, 1, MPI_DOUBLE, y, counts, displs,
			       MPI_DOUBLE, MPI_COMM_WORLD);
	free(y);
	free(counts);
	free(displs);
}

/* not inlined: callgrind dumps its counts around it (bench/overhead) */
__attribute__((noinline))
static void run_loop(const char *bench, long n)
{
	if (!strcmp(bench, "procnull"))
		procnull_loop(n);
	else if (!strcmp(bench, "recv"))
		recv_loop(n);
	else if (!strcmp(bench, "isendwait"))
		isendwait_loop(n);
	else if (!strcmp(bench, "strided"))
		strided_loop(n);
	else if (!strcmp(bench, "selfpair"))
		self_loop(n, 0);
	else if (!strcmp(bench, "stridedself"))
		self_loop(n, 1);
	else if (!strcmp(bench, "pp0"))
		pingpong_loop(n, 0);
	else if (!strcmp(bench, "pp8"))
		pingpong_loop(n, 8);
	else if (!strcmp(bench, "allgatherv"))
		allgatherv_loop(n);
	else
		allreduce_loop(n);
}

/* calls on the critical path per loop iteration (isendwait and the self
 * pairs: a pair is timed as one) */
static double calls_per_iter(const char *bench)
{
	return !strncmp(bench, "pp", 2) ? 4.0 : 1.0;
}

/* calls each rank makes per loop iteration */
static long rank_calls_per_iter(const char *bench)
{
	return !strncmp(bench, "pp", 2) || !strcmp(bench, "isendwait") ||
	       strstr(bench, "self") ? 2 : 1;
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

/* benchmarks of one process */
static int one_rank(const char *bench)
{
	static const char *const one[] = {
		"procnull", "recv", "isendwait", "strided", "allreduce",
		"allgatherv", "selfpair", "stridedself",
	};

	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		if (!strcmp(bench, one[i]))
			return 1;
	return 0;
}

/* returns 0, or -1 when BENCH needs more ranks than there are */
static int timed(const char *bench)
{
	double *ns = calloc(reps, sizeof(*ns));

	if (!ns)
		return -1;
	if (!one_rank(bench) && nranks < 2) {
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

/* n sends to MPI_PROC_NULL at r calls a second: the clock is read once
 * every 16 calls, and the loop waits for the time of the next 16.  A
 * loop that falls more than 1 ms behind (descheduled) goes on from now,
 * at the rate, rather than catching up in a burst: the rate printed is
 * what it kept. */
static void paced(long n)
{
	double start = now_ns(), t0 = start, t, step = 16e9 / (double)rate;
	double cpu0 = cpu_s();

	for (long i = 0, j = 0; i < n; i += 16, j++) {
		while ((t = now_ns()) - t0 < (double)j * step)
			;
		if (t - t0 - (double)j * step > 1e6) {
			t0 = t;
			j = 0;
		}
		procnull_loop(n - i < 16 ? n - i : 16);
	}
	t = (now_ns() - start) / 1e9;
	if (rank == 0)
		printf("rate %ld %.0f %.3f %.3f\n", n, (double)n / t, t,
		       cpu_s() - cpu0);
}

/* n round trips of 1 KiB, each timed on rank 0 (after the warm-up and
 * the pause, as the timed benchmarks) */
static int stalls(long n)
{
	static char buf[1024];
	double *t = calloc((size_t)n, sizeof(*t)), sum = 0, t0;
	long i, over = 0;

	if (!t || nranks < 2) {
		free(t);
		return -1;
	}
	pingpong_loop(warmup / 2, 8);
	pause_all();
	MPI_Barrier(MPI_COMM_WORLD);
	for (i = 0; i < n; i++) {
		t0 = now_ns();
		if (rank == 0) {
			MPI_Send(buf, sizeof(buf), MPI_CHAR, 1, 1,
				 MPI_COMM_WORLD);
			MPI_Recv(buf, sizeof(buf), MPI_CHAR, 1, 1,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(buf, sizeof(buf), MPI_CHAR, 0, 1,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, sizeof(buf), MPI_CHAR, 0, 1,
				 MPI_COMM_WORLD);
		}
		t[i] = now_ns() - t0;
		sum += t[i];
		over += t[i] > 100e3;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	qsort(t, (size_t)n, sizeof(*t), cmp_double);
	if (rank == 0)
		printf("stalls %ld %.0f %.0f %.0f %.0f %ld\n", n, sum / n,
		       t[n / 2], t[(size_t)((double)n * 0.999)], t[n - 1],
		       over);
	free(t);
	return 0;
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
	double burst_t0 = 0, burst_loop = -1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	MPI_Type_vector(16, 1, 2, MPI_DOUBLE, &vec);
	MPI_Type_commit(&vec);
	while ((opt = getopt(argc, argv, "n:r:w:p:R:h")) != -1) {
		/* an unknown option ('?') and -h have no optarg */
		int arg = strchr("nrwpR", opt) != NULL;
		long v = arg ? strtol(optarg, NULL, 10) : -1;

		if (arg && v < (opt == 'w' || opt == 'p' ? 0 : 1))
			opt = '?';
		if (opt == 'n')
			iters = v;
		else if (opt == 'R')
			rate = v;
		else if (opt == 'r')
			reps = v;
		else if (opt == 'w')
			warmup = v;
		else if (opt == 'p')
			pause_ms = v;
		else {
			if (rank == 0)
				fprintf(opt == 'h' ? stdout : stderr,
					"usage: overhead_loop [-n ITERS]"
					" [-r REPS] [-w WARMUP] [-p PAUSE_MS]"
					" [-R CALLS_PER_S] BENCH...\n");
			MPI_Finalize();
			return opt == 'h' ? 0 : 2;
		}
	}
	for (int i = optind; i < argc; i++) {
		const char *b = argv[i];

		if (!strcmp(b, "rss")) {
			rss(&before_kb, &after_kb);
			want_rss = 1;
		} else if (!strcmp(b, "rate") && rate > 0) {
			paced(iters);
		} else if (!strcmp(b, "stalls")) {
			if (stalls(iters)) {
				if (rank == 0)
					fprintf(stderr, "overhead_loop: stalls"
						" needs 2 ranks\n");
				rc = 2;
			}
		} else if (!strcmp(b, "burst")) {
			burst_t0 = now_ns();
			procnull_loop(iters);
			burst_loop = (now_ns() - burst_t0) / 1e9;
		} else if (!one_rank(b) && strcmp(b, "pp0") &&
			   strcmp(b, "pp8")) {
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
	MPI_Type_free(&vec);
	MPI_Finalize();
	if (burst_loop >= 0 && rank == 0)
		printf("burst %ld %.3f %.3f\n", iters, burst_loop,
		       (now_ns() - burst_t0) / 1e9);
	if (want_rss && rank == 0) {
		printf("rss %ld %ld %ld %ld\n", iters, before_kb, after_kb,
		       vmhwm_kb());
	}
	return rc;
}
