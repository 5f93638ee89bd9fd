/*
 * test_fault_threads.c - MPI_THREAD_MULTIPLE: on each of 2 ranks, T
 * threads make MPI calls at the same time, each N times
 *   MPI_Sendrecv with the other rank on MPI_COMM_WORLD, tag 100 + thread
 *   MPI_Allreduce on the thread's own communicator (dup'ed by main)
 * and check every result.  Rank 0 prints one line; the exit status is 0.
 *
 *   test_fault_threads T N
 *
 * Without MPI_THREAD_MULTIPLE rank 0 prints "no MPI_THREAD_MULTIPLE".
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 16

static int rank, nthreads, n;
static MPI_Comm comms[MAX_THREADS];
static int errs[MAX_THREADS];

static void *work(void *arg)
{
	int t = (int)(long)arg, peer = 1 - rank;
	long out, in, sum;

	for (int i = 0; i < n; i++) {
		out = (long)rank * 1000000 + t * 10000 + i;
		MPI_Sendrecv(&out, 1, MPI_LONG, peer, 100 + t, &in, 1,
			     MPI_LONG, peer, 100 + t, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		if (in != (long)peer * 1000000 + t * 10000 + i)
			errs[t]++;
		MPI_Allreduce(&out, &sum, 1, MPI_LONG, MPI_SUM, comms[t]);
		if (sum != 1000000L + 2 * (t * 10000L + i))
			errs[t]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	int provided, size, e = 0, all = 0;

	nthreads = argc > 1 ? atoi(argv[1]) : 4;
	n = argc > 2 ? atoi(argv[2]) : 1000;
	if (nthreads < 1 || nthreads > MAX_THREADS)
		return 2;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (provided < MPI_THREAD_MULTIPLE || size != 2) {
		if (rank == 0)
			printf("no MPI_THREAD_MULTIPLE\n");
		MPI_Finalize();
		return 0;
	}
	for (int t = 0; t < nthreads; t++)
		MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
	for (int t = 0; t < nthreads; t++)
		pthread_create(&th[t], NULL, work, (void *)(long)t);
	for (int t = 0; t < nthreads; t++) {
		pthread_join(th[t], NULL);
		e += errs[t];
		MPI_Comm_free(&comms[t]);
	}
	MPI_Reduce(&e, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("threads %d calls %d errors %d\n", nthreads, n, all);
	MPI_Finalize();
	return 0;
}
