/*
 * test_tau.c - messages whose concurrency tau the library must see, for
 * tests/test_taulop_run.sh: on 2 ranks, 1000 bytes each time,
 *   tag 1: a ping-pong, one message at a time (tau 1);
 *   tag 2: both ranks MPI_Irecv, then MPI_Send, then MPI_Wait, as a
 *          halo exchange does (tau 2 for the send and the receive);
 *   tag 3: MPI_Sendrecv (tau 2 for each half);
 *   tag 4: the halo exchange of tag 2 after 20 ms outside MPI on both
 *          ranks (its quiet gap).
 * Exit 0.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
	char a[1000] = { 0 }, b[1000];
	MPI_Request q;
	int rank, peer;
	double t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	if (rank == 0) {
		MPI_Send(a, 1000, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
		MPI_Recv(b, 1000, MPI_CHAR, 1, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Recv(b, 1000, MPI_CHAR, 0, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		MPI_Send(a, 1000, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank < 2) {
		MPI_Irecv(b, 1000, MPI_CHAR, peer, 2, MPI_COMM_WORLD, &q);
		MPI_Send(a, 1000, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
		MPI_Sendrecv(a, 1000, MPI_CHAR, peer, 3, b, 1000, MPI_CHAR,
			     peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		t = MPI_Wtime() + 0.02;
		while (MPI_Wtime() < t)
			;
		MPI_Irecv(b, 1000, MPI_CHAR, peer, 4, MPI_COMM_WORLD, &q);
		MPI_Send(a, 1000, MPI_CHAR, peer, 4, MPI_COMM_WORLD);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
