/*
 * test_flush.c - a program that sends N messages to MPI_PROC_NULL on
 * every rank, then ends in the way argv[1] says:
 *   finalize  MPI_Finalize
 *   abort     rank 0 calls MPI_Abort(3)
 *   wait      writes argv[3] (a marker file) and sleeps until killed
 * N is argv[2].  Each rank's rows must all be in its rank file.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, n = argc > 2 ? atoi(argv[2]) : 10;
	double x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < n; i++)
		MPI_Send(&x, 1, MPI_DOUBLE, MPI_PROC_NULL, i, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	if (!strcmp(argv[1], "abort") && rank == 0)
		MPI_Abort(MPI_COMM_WORLD, 3);
	if (!strcmp(argv[1], "wait")) {
		if (rank == 0) {
			FILE *f = fopen(argv[3], "w");

			if (f)
				fclose(f);
		}
		for (;;)
			sleep(1);
	}
	MPI_Finalize();
	if (rank == 0)
		printf("done\n");
	return 0;
}
