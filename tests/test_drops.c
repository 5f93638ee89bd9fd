/*
 * test_drops.c - many calls, fast, from known callsites with known
 * peers, for tests/test_drops.sh: run with a tiny COMMPROF_RING, most of
 * the rows are dropped, and the aggregates must still hold every call
 * under its own callsite and peer.  On each of 2 ranks, T threads
 * (MPI_THREAD_MULTIPLE; the main thread alone when T is 1) loop N times
 * over
 *   MPI_Send of 8 bytes to MPI_PROC_NULL
 *   MPI_Sendrecv of one int with the other rank (T = 1 only)
 *   MPI_Isend to MPI_PROC_NULL, then MPI_Wait
 *   MPI_Allreduce of one int on MPI_COMM_WORLD (T = 1 only)
 * and check the results.  (Threads that wait for each other's ranks
 * take seconds a thousand steps here: Open MPI's progress under
 * MPI_THREAD_MULTIPLE, two cores shared.)  Rank 0 prints
 * "drops T N errors E".
 *
 *   test_drops T N
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 8

static int rank, nthreads, n;
static int errs[MAX_THREADS];

static void *work(void *arg)
{
	int t = (int)(long)arg, peer = 1 - rank, out, in, sum;
	char c[8] = { 0 };
	MPI_Request rq;

	for (int i = 0; i < n; i++) {
		MPI_Send(c, 8, MPI_CHAR, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
		out = rank + 1;
		if (nthreads == 1) {
			MPI_Sendrecv(&out, 1, MPI_INT, peer, 100, &in, 1,
				     MPI_INT, peer, 100, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
			errs[t] += in != peer + 1;
		}
		MPI_Isend(c, 8, MPI_CHAR, MPI_PROC_NULL, 2, MPI_COMM_WORLD,
			  &rq);
		MPI_Wait(&rq, MPI_STATUS_IGNORE);
		if (nthreads == 1) {
			MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM,
				      MPI_COMM_WORLD);
			errs[t] += sum != 3;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	int provided, size, e = 0, all = 0;

	nthreads = argc > 1 ? atoi(argv[1]) : 1;
	n = argc > 2 ? atoi(argv[2]) : 1000;
	if (nthreads < 1 || nthreads > MAX_THREADS)
		return 2;
	MPI_Init_thread(&argc, &argv, nthreads > 1 ? MPI_THREAD_MULTIPLE :
			MPI_THREAD_SINGLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if ((nthreads > 1 && provided < MPI_THREAD_MULTIPLE) || size != 2) {
		if (rank == 0)
			printf("no MPI_THREAD_MULTIPLE or not 2 ranks\n");
		MPI_Finalize();
		return 0;
	}
	if (nthreads == 1) {
		work(NULL);
	} else {
		for (int t = 0; t < nthreads; t++)
			pthread_create(&th[t], NULL, work, (void *)(long)t);
		for (int t = 0; t < nthreads; t++)
			pthread_join(th[t], NULL);
	}
	for (int t = 0; t < nthreads; t++)
		e += errs[t];
	MPI_Reduce(&e, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("drops %d %d errors %d\n", nthreads, n, all);
	MPI_Finalize();
	return 0;
}
