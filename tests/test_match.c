/*
 * test_match.c - an MPI program of 2 ranks whose late sides are known,
 * for tests/test_match.sh: every phase starts at a barrier, and one rank
 * sleeps SLEEP_MS before its call, so the matching must find who was
 * late and a wait of about SLEEP_MS.  Tags tell the phases apart:
 *   1  rank 0 sleeps, then sends to 1 (posted early): late sender
 *   2  rank 1 sends to 0, rank 0 sleeps, then receives: late receiver
 *   3, 4  Isend 3 and 4 from 0; rank 1 posts Irecv 4 before Irecv 3
 *   5  MPI_Sendrecv between 0 and 1
 *   6  rank 0 receives with MPI_ANY_SOURCE, rank 1 sends
 * then MPI_Bcast with rank 1 late and MPI_Allreduce with rank 0 late.
 * Prints "test_match: done" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define SLEEP_MS 60

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void late_sender(int rank, int *buf)
{
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		sleep_ms(SLEEP_MS);
		MPI_Send(buf, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
	} else {
		MPI_Recv(buf, 4, MPI_INT, 0, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	}
}

static void late_receiver(int rank, int *buf)
{
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1) {
		MPI_Send(buf, 4, MPI_INT, 0, 2, MPI_COMM_WORLD);
	} else {
		sleep_ms(SLEEP_MS);
		MPI_Recv(buf, 4, MPI_INT, 1, 2, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	}
}

static void crossing_tags(int rank, int *buf)
{
	MPI_Request rq[2];

	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		MPI_Isend(buf, 8, MPI_INT, 1, 3, MPI_COMM_WORLD, &rq[0]);
		MPI_Isend(buf + 8, 16, MPI_INT, 1, 4, MPI_COMM_WORLD, &rq[1]);
	} else {
		MPI_Irecv(buf + 8, 16, MPI_INT, 0, 4, MPI_COMM_WORLD, &rq[0]);
		MPI_Irecv(buf, 8, MPI_INT, 0, 3, MPI_COMM_WORLD, &rq[1]);
	}
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
}

static void exchange(int rank, int *buf)
{
	int peer = 1 - rank;

	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Sendrecv(buf, 2, MPI_INT, peer, 5, buf + 2, 2, MPI_INT, peer, 5,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void any_source(int rank, int *buf)
{
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		MPI_Recv(buf, 3, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	else
		MPI_Send(buf, 3, MPI_INT, 0, 6, MPI_COMM_WORLD);
}

static void collectives(int rank, int *buf)
{
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1)
		sleep_ms(SLEEP_MS);
	MPI_Bcast(buf, 5, MPI_INT, 0, MPI_COMM_WORLD);
	/* the root may leave Bcast at once: line up again */
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		sleep_ms(SLEEP_MS);
	MPI_Allreduce(MPI_IN_PLACE, buf, 6, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	int buf[64] = { 0 }, rank, size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		if (!rank)
			fprintf(stderr, "test_match: needs 2 ranks\n");
		MPI_Finalize();
		return 1;
	}
	late_sender(rank, buf);
	late_receiver(rank, buf);
	crossing_tags(rank, buf);
	exchange(rank, buf);
	any_source(rank, buf);
	collectives(rank, buf);
	if (!rank)
		printf("test_match: done\n");
	MPI_Finalize();
	return 0;
}
