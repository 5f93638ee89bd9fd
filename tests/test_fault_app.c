/*
 * test_fault_app.c - the application of the fault tests.
 *
 *   test_fault_app MODE N [RC]
 *
 * Every rank exchanges N messages with its ring neighbours (MPI_Sendrecv)
 * and does an MPI_Allreduce every 8th step; rank 0 prints a checksum that
 * depends on every message, so a damaged payload changes stdout.
 * MODE:
 *   rows    MPI_Init, the exchange, MPI_Finalize
 *   fork    as rows, but half way every rank forks a child that does
 *           plain work (no MPI) for 50 ms, prints one line (rank 0's
 *           child only) and leaves with exit(); the parent waits for it
 *           and goes on
 *   thread  as rows, started with MPI_Init_thread(MPI_THREAD_FUNNELED)
 * The program returns RC (default 0) after MPI_Finalize.  In fork mode a
 * fourth argument names a file where each parent appends its child's pid.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int rank, size;

/* N exchanges starting at step `from`; returns this rank's checksum */
static long exchange(int from, int n)
{
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	long sum = 0, out[4], in[4], part, total;

	for (int i = from; i < from + n; i++) {
		for (int k = 0; k < 4; k++)
			out[k] = (long)rank * 1000003 + i * 31 + k;
		MPI_Sendrecv(out, 4, MPI_LONG, right, i % 32, in, 4, MPI_LONG,
			     left, i % 32, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		for (int k = 0; k < 4; k++)
			sum = (sum * 7 + in[k]) % 1000000007;
		if (i % 8 == 7) {
			part = sum;
			MPI_Allreduce(&part, &total, 1, MPI_LONG, MPI_SUM,
				      MPI_COMM_WORLD);
			sum = (sum + total) % 1000000007;
		}
	}
	return sum;
}

/* the child: a little arithmetic, one line from rank 0's, exit() */
static void child(int n)
{
	unsigned long h = 5381;

	for (int i = 0; i < n * 100; i++)
		h = h * 33 + (unsigned long)i;
	usleep(50000);	/* outlive a few of the parent's flushes */
	if (rank == 0)
		printf("child of rank 0: %lu\n", h % 1000);
	exit(0);
}

static int fork_and_wait(int n, const char *pidfile)
{
	FILE *f;
	int st = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		child(n);
	if (pidfile && (f = fopen(pidfile, "a"))) {
		fprintf(f, "%d\n", (int)pid);
		fclose(f);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "rows";
	int n = argc > 2 ? atoi(argv[2]) : 100;
	int rc = argc > 3 ? atoi(argv[3]) : 0;
	int provided = -1, bad = 0, allbad = 0;
	long sum, all = 0;

	if (!strcmp(mode, "thread"))
		MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	else
		MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(mode, "fork")) {
		sum = exchange(0, n / 2);
		bad = fork_and_wait(n, argc > 4 ? argv[4] : NULL);
		sum = (sum + exchange(n / 2, n - n / 2)) % 1000000007;
	} else {
		sum = exchange(0, n);
	}
	MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&bad, &allbad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		printf("%s ranks %d steps %d checksum %ld\n", mode, size, n,
		       all);
		if (provided >= 0)
			printf("thread level %s\n",
			       provided >= MPI_THREAD_FUNNELED ? "ok" : "low");
		if (allbad)
			printf("%d children failed\n", allbad);
	}
	MPI_Finalize();
	return rc;
}
