/*
 * app.c - the application of tests/test_stack.sh, on 2 ranks: its MPI
 * calls go through the wrapper library tests/stack/wrap.c.  Rank 0 sends
 * rank 1 four ints, both allreduce; rank 0 prints one line when the
 * results were right.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

void wrap_send(const int *x, int n, int peer);
void wrap_allreduce(int *x);

int main(int argc, char **argv)
{
	int rank, x[4] = { 1, 2, 3, 4 }, y = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0)
		wrap_send(x, 4, 1);				/* APP_SEND */
	else
		MPI_Recv(x, 4, MPI_INT, 0, 3, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	y = rank + 1;
	wrap_allreduce(&y);					/* APP_ALL */
	if (y != 3 || x[3] != 4) {
		fprintf(stderr, "app: rank %d: wrong result\n", rank);
		exit(1);
	}
	if (rank == 0)
		printf("app: done\n");
	MPI_Finalize();
	return 0;
}
