/*
 * pairs.c - the application test_cluster.sh profiles on the test bed
 *: point to point between every ordered pair of ranks, at
 * sizes off the calibration grid, one message at a time, so that each
 * message's t_transfer is its own transfer over one link.
 *
 *   mpirun ... pairs [REPS]        (default 8 repetitions)
 *
 * Per size and ordered pair (i, j), REPS times: every rank meets at a
 * sleeping barrier; j posts its receive at once, i sends after 2 ms (so
 * the receive is posted first and t_transfer = receive end - send start);
 * the others sleep.  An MPI_Alltoallv first opens every connection, so
 * no message pays for TCP's handshake.  Prints one line on rank 0: ranks,
 * messages, and a checksum of the data received (the same with and
 * without commprof).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 3000 B, and 24000 to 59000 B for the per-byte time of each link (a
 * least-squares slope over six sizes, all below Open MPI's TCP eager
 * limit of 64 KiB: from two, the medians' noise and TCP's segmenting
 * moved it by 10%, once below the wire's own time; to 45000 B only, the
 * first quartiles' noise still put one link 5% below its wire). */
static const int sizes[] = { 3000, 24000, 31000, 38000, 45000, 52000, 59000 };
#define NSIZES	((int)(sizeof(sizes) / sizeof(sizes[0])))

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };

	nanosleep(&ts, NULL);
}

/* A barrier whose waiting ranks sleep: polling ranks would take the
 * cores the delay line and the measured pair need. */
static void idle_barrier(void)
{
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	for (;;) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		sleep_us(500);
	}
}

/* Every pair exchanges one int, which makes Open MPI connect them. */
static void connect_all(int n)
{
	int *sb = calloc(n, sizeof(int)), *rb = calloc(n, sizeof(int));
	int *cnt = calloc(n, sizeof(int)), *dsp = calloc(n, sizeof(int));
	int k;

	if (!sb || !rb || !cnt || !dsp)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (k = 0; k < n; k++) {
		cnt[k] = 1;
		dsp[k] = k;
	}
	MPI_Alltoallv(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT,
		      MPI_COMM_WORLD);
	free(sb);
	free(rb);
	free(cnt);
	free(dsp);
}

int main(int argc, char **argv)
{
	int me, n, reps = argc > 1 ? atoi(argv[1]) : 8, s, i, j, r, k;
	unsigned long sum = 0, all = 0;
	long msgs = 0;
	unsigned char *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	if (reps < 1)
		reps = 1;
	buf = malloc(sizes[NSIZES - 1]);
	if (!buf)
		MPI_Abort(MPI_COMM_WORLD, 1);
	connect_all(n);
	for (s = 0; s < NSIZES; s++)
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++) {
				if (i == j)
					continue;
				for (r = 0; r < reps; r++) {
					idle_barrier();
					if (me == i) {
						memset(buf, (i * 7 + j + r) & 0xff,
						       sizes[s]);
						sleep_us(2000);
						MPI_Send(buf, sizes[s], MPI_BYTE, j,
							 s, MPI_COMM_WORLD);
					} else if (me == j) {
						MPI_Recv(buf, sizes[s], MPI_BYTE,
							 i, s, MPI_COMM_WORLD,
							 MPI_STATUS_IGNORE);
						for (k = 0; k < sizes[s]; k += 997)
							sum += buf[k];
					}
					msgs++;
				}
			}
	MPI_Reduce(&sum, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	if (me == 0)
		printf("pairs: %d ranks, %ld messages, checksum %lu\n", n, msgs,
		       all);
	free(buf);
	MPI_Finalize();
	return 0;
}
