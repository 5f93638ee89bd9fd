/*
 * gauge.c - how fast the host moves data between two ranks now, for
 * tests/test_probe.sh to tell a steady host from one that changed speed
 * between a calibration and the run it predicts.
 *
 *   mpirun -np 2 gauge SECONDS
 *
 * Ranks 0 and 1 send 256 KiB back and forth for SECONDS, in windows of
 * 0.2 s; a window's value is its fastest one-way time (half a
 * roundtrip).  Rank 0 prints one line: the smallest and the largest
 * window value in microseconds.
 *
 * Why: on the 2-vCPU virtual machines this project runs on, one-way
 * times of 256 KiB between the two ranks alternate between about 40 us
 * and about 125 us in spells of seconds to a minute (the hypervisor
 * places the two virtual CPUs near each other or apart), with the
 * machine otherwise idle.  A calibration made in one spell predicts
 * another spell up to 3 times off, which says nothing about the
 * models.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BYTES	(256 << 10)
#define WIN_S	0.2

int main(int argc, char **argv)
{
	double secs, t0, w0, t, best = 1e30, lo = 1e30, hi = 0;
	int rank, go = 1, peer;
	char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	secs = argc > 1 ? atof(argv[1]) : 2;
	buf = calloc(BYTES, 1);
	if (!buf)
		MPI_Abort(MPI_COMM_WORLD, 1);
	peer = rank ^ 1;
	t0 = w0 = MPI_Wtime();
	while (go) {
		if (rank < 2) {
			t = MPI_Wtime();
			if (rank == 0) {
				MPI_Send(buf, BYTES, MPI_BYTE, peer, 0,
					 MPI_COMM_WORLD);
				MPI_Recv(buf, BYTES, MPI_BYTE, peer, 0,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, BYTES, MPI_BYTE, peer, 0,
					 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, BYTES, MPI_BYTE, peer, 0,
					 MPI_COMM_WORLD);
			}
			t = (MPI_Wtime() - t) / 2;
			best = t < best ? t : best;
		}
		if (rank == 0 && MPI_Wtime() - w0 >= WIN_S) {
			lo = best < lo ? best : lo;
			hi = best > hi ? best : hi;
			best = 1e30;
			w0 = MPI_Wtime();
			go = w0 - t0 < secs;
		}
		MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
	if (rank == 0)
		printf("%.1f %.1f\n", lo * 1e6, hi * 1e6);
	free(buf);
	MPI_Finalize();
	return 0;
}
