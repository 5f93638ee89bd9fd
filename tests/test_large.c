/*
 * test_large.c - MPI-4 large-count bindings for tests/test_large.sh, on
 * 2 ranks, with a file it may make and delete: test_large FILE.  Every
 * MPI_X_c that pmpi/mpi_calls.def wraps is made once with small counts
 * (one-sided calls on windows of their own, file calls on FILE), then
 * MPI_X with the same arguments, so that the rows of the two can be
 * compared; then rank 0 sends rank 1 one message
 * of 2^31 + 8 bytes with MPI_Send_c (a count the int binding cannot
 * pass).  Rank 0 prints one line when every result was right; a wrong
 * one exits 1 with a line naming it.  Built against an MPI without the
 * bindings (Open MPI 4.1), it prints "test_large: no large-count
 * bindings" and makes no call.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int rank;

static void check(int ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "test_large: rank %d: %s\n", rank, what);
	exit(1);
}

#if MPI_VERSION >= 4

#define N 5
#define BIG ((MPI_Count)INT32_MAX + 9)	/* 2^31 + 8 bytes */

static void fill(double *a, int n, double v)
{
	for (int i = 0; i < n; i++)
		a[i] = v + i;
}

static int got(const double *a, int n, double v)
{
	for (int i = 0; i < n; i++)
		if (a[i] != v + i)
			return 0;
	return 1;
}

/* Blocking, nonblocking, matched-probe and persistent point to point:
 * rank 0 sends, rank 1 receives; then both Sendrecv. */
static void p2p(int large)
{
	static char bbuf[8 * (N * sizeof(double) + MPI_BSEND_OVERHEAD)];
	double a[N], r[4][N];
	MPI_Request q[4];
	MPI_Message m;
	MPI_Status st, sts[4];
	void *bp;
	int bn, peer = 1 - rank;

	MPI_Buffer_attach(bbuf, sizeof(bbuf));
	if (rank == 0) {
		fill(a, N, 1);
		if (large)
			MPI_Send_c(a, N, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
		else
			MPI_Send(a, N, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
		if (large)
			MPI_Bsend_c(a, N, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
		else
			MPI_Bsend(a, N, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
		if (large)
			MPI_Ssend_c(a, N, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
		else
			MPI_Ssend(a, N, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
		MPI_Barrier(MPI_COMM_WORLD);	/* its receive is posted */
		if (large)
			MPI_Rsend_c(a, N, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD);
		else
			MPI_Rsend(a, N, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD);
		MPI_Barrier(MPI_COMM_WORLD);
		if (large)
			MPI_Isend_c(a, N, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD,
			    &q[0]);
		else
			MPI_Isend(a, N, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD,
			    &q[0]);
		if (large)
			MPI_Ibsend_c(a, N, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD,
			    &q[1]);
		else
			MPI_Ibsend(a, N, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD,
			    &q[1]);
		if (large)
			MPI_Issend_c(a, N, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD,
			    &q[2]);
		else
			MPI_Issend(a, N, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD,
			    &q[2]);
		if (large)
			MPI_Irsend_c(a, N, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD,
			    &q[3]);
		else
			MPI_Irsend(a, N, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD,
			    &q[3]);
		MPI_Waitall(4, q, sts);
		if (large)
			MPI_Send_c(a, N, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD);
		else
			MPI_Send(a, N, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD);
		if (large)
			MPI_Send_c(a, N, MPI_DOUBLE, 1, 10, MPI_COMM_WORLD);
		else
			MPI_Send(a, N, MPI_DOUBLE, 1, 10, MPI_COMM_WORLD);
		if (large)
			MPI_Send_init_c(a, N, MPI_DOUBLE, 1, 11, MPI_COMM_WORLD,
			    &q[0]);
		else
			MPI_Send_init(a, N, MPI_DOUBLE, 1, 11, MPI_COMM_WORLD,
			    &q[0]);
		if (large)
			MPI_Bsend_init_c(a, N, MPI_DOUBLE, 1, 12,
			    MPI_COMM_WORLD, &q[1]);
		else
			MPI_Bsend_init(a, N, MPI_DOUBLE, 1, 12, MPI_COMM_WORLD,
			    &q[1]);
		if (large)
			MPI_Ssend_init_c(a, N, MPI_DOUBLE, 1, 13,
			    MPI_COMM_WORLD, &q[2]);
		else
			MPI_Ssend_init(a, N, MPI_DOUBLE, 1, 13, MPI_COMM_WORLD,
			    &q[2]);
		if (large)
			MPI_Rsend_init_c(a, N, MPI_DOUBLE, 1, 14,
			    MPI_COMM_WORLD, &q[3]);
		else
			MPI_Rsend_init(a, N, MPI_DOUBLE, 1, 14, MPI_COMM_WORLD,
			    &q[3]);
		MPI_Barrier(MPI_COMM_WORLD);	/* the receives started */
		MPI_Startall(4, q);
		MPI_Waitall(4, q, sts);
	} else {
		for (int t = 1; t <= 3; t++) {
			if (large)
				MPI_Recv_c(r[0], N, MPI_DOUBLE, 0, t,
				    MPI_COMM_WORLD, &st);
			else
				MPI_Recv(r[0], N, MPI_DOUBLE, 0, t,
				    MPI_COMM_WORLD, &st);
			check(got(r[0], N, 1), "Send, Bsend or Ssend");
		}
		if (large)
			MPI_Irecv_c(r[0], N, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD,
			    &q[0]);
		else
			MPI_Irecv(r[0], N, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD,
			    &q[0]);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Wait(&q[0], &st);
		for (int t = 5; t <= 8; t++)
			if (large)
				MPI_Irecv_c(r[t - 5], N, MPI_DOUBLE, 0, t,
				    MPI_COMM_WORLD, &q[t - 5]);
			else
				MPI_Irecv(r[t - 5], N, MPI_DOUBLE, 0, t,
				    MPI_COMM_WORLD, &q[t - 5]);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Waitall(4, q, sts);
		for (int k = 0; k < 4; k++)
			check(got(r[k], N, 1), "a nonblocking send");
		MPI_Mprobe(0, 9, MPI_COMM_WORLD, &m, &st);
		if (large)
			MPI_Mrecv_c(r[0], N, MPI_DOUBLE, &m, &st);
		else
			MPI_Mrecv(r[0], N, MPI_DOUBLE, &m, &st);
		MPI_Mprobe(0, 10, MPI_COMM_WORLD, &m, &st);
		if (large)
			MPI_Imrecv_c(r[1], N, MPI_DOUBLE, &m, &q[0]);
		else
			MPI_Imrecv(r[1], N, MPI_DOUBLE, &m, &q[0]);
		MPI_Wait(&q[0], &st);
		check(got(r[0], N, 1) && got(r[1], N, 1), "Mrecv or Imrecv");
		for (int t = 11; t <= 14; t++)
			if (large)
				MPI_Recv_init_c(r[t - 11], N, MPI_DOUBLE, 0, t,
				    MPI_COMM_WORLD, &q[t - 11]);
			else
				MPI_Recv_init(r[t - 11], N, MPI_DOUBLE, 0, t,
				    MPI_COMM_WORLD, &q[t - 11]);
		MPI_Startall(4, q);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Waitall(4, q, sts);
		for (int k = 0; k < 4; k++)
			check(got(r[k], N, 1), "a persistent send");
	}
	for (int k = 0; k < 4; k++)
		MPI_Request_free(&q[k]);
	fill(a, N, 10 * rank);
	if (large)
		MPI_Sendrecv_c(a, 3, MPI_DOUBLE, peer, 20, r[0], 3, MPI_DOUBLE,
		    peer, 20, MPI_COMM_WORLD, &st);
	else
		MPI_Sendrecv(a, 3, MPI_DOUBLE, peer, 20, r[0], 3, MPI_DOUBLE,
		    peer, 20, MPI_COMM_WORLD, &st);
	check(got(r[0], 3, 10 * peer), "Sendrecv");
	if (large)
		MPI_Sendrecv_replace_c(a, 4, MPI_DOUBLE, peer, 21, peer, 21,
		    MPI_COMM_WORLD, &st);
	else
		MPI_Sendrecv_replace(a, 4, MPI_DOUBLE, peer, 21, peer, 21,
		    MPI_COMM_WORLD, &st);
	check(got(a, 4, 10 * peer), "Sendrecv_replace");
	fill(a, N, 10 * rank);
	if (large)
		MPI_Isendrecv_c(a, 3, MPI_DOUBLE, peer, 22, r[0], 3,
		    MPI_DOUBLE, peer, 22, MPI_COMM_WORLD, &q[0]);
	else
		MPI_Isendrecv(a, 3, MPI_DOUBLE, peer, 22, r[0], 3, MPI_DOUBLE,
		    peer, 22, MPI_COMM_WORLD, &q[0]);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	check(got(r[0], 3, 10 * peer), "Isendrecv");
	if (large)
		MPI_Isendrecv_replace_c(a, 4, MPI_DOUBLE, peer, 23, peer, 23,
		    MPI_COMM_WORLD, &q[0]);
	else
		MPI_Isendrecv_replace(a, 4, MPI_DOUBLE, peer, 23, peer, 23,
		    MPI_COMM_WORLD, &q[0]);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	check(got(a, 4, 10 * peer), "Isendrecv_replace");
	MPI_Buffer_detach(&bp, &bn);
}

/* Complete what collectives() made in form k: nonblocking (1) or
 * persistent (2, started once); blocking (0) is complete. */
static void done(int k, MPI_Request *q)
{
	if (k == 0)
		return;
	if (k == 2)
		MPI_Start(q);
	MPI_Wait(q, MPI_STATUS_IGNORE);
	if (k == 2)
		MPI_Request_free(q);
}

/* Every collective with one count, in its blocking, nonblocking and
 * persistent forms. */
static void collectives(int large, MPI_Comm nbr)
{
	MPI_Comm w = MPI_COMM_WORLD;
	MPI_Request q = MPI_REQUEST_NULL;
	long s[4], r[8];

	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < 4; i++)
			s[i] = 10 * rank + i;
		memset(r, 0, sizeof(r));
		if (k == 0 && large)
			MPI_Bcast_c(s, 4, MPI_LONG, 0, w);
		else if (k == 0)
			MPI_Bcast(s, 4, MPI_LONG, 0, w);
		else if (k == 1 && large)
			MPI_Ibcast_c(s, 4, MPI_LONG, 0, w, &q);
		else if (k == 1)
			MPI_Ibcast(s, 4, MPI_LONG, 0, w, &q);
		else if (large)
			MPI_Bcast_init_c(s, 4, MPI_LONG, 0, w, MPI_INFO_NULL,
			    &q);
		else
			MPI_Bcast_init(s, 4, MPI_LONG, 0, w, MPI_INFO_NULL,
			    &q);
		done(k, &q);
		check(s[3] == 3, "Bcast");
		for (int i = 0; i < 4; i++)
			s[i] = 10 * rank + i;
		if (k == 0 && large)
			MPI_Gather_c(s, 2, MPI_LONG, r, 2, MPI_LONG, 1, w);
		else if (k == 0)
			MPI_Gather(s, 2, MPI_LONG, r, 2, MPI_LONG, 1, w);
		else if (k == 1 && large)
			MPI_Igather_c(s, 2, MPI_LONG, r, 2, MPI_LONG, 1, w,
			    &q);
		else if (k == 1)
			MPI_Igather(s, 2, MPI_LONG, r, 2, MPI_LONG, 1, w, &q);
		else if (large)
			MPI_Gather_init_c(s, 2, MPI_LONG, r, 2, MPI_LONG, 1, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Gather_init(s, 2, MPI_LONG, r, 2, MPI_LONG, 1, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(rank == 0 || r[2] == 10, "Gather");
		if (k == 0 && large)
			MPI_Scatter_c(s, 2, MPI_LONG, r, 2, MPI_LONG, 0, w);
		else if (k == 0)
			MPI_Scatter(s, 2, MPI_LONG, r, 2, MPI_LONG, 0, w);
		else if (k == 1 && large)
			MPI_Iscatter_c(s, 2, MPI_LONG, r, 2, MPI_LONG, 0, w,
			    &q);
		else if (k == 1)
			MPI_Iscatter(s, 2, MPI_LONG, r, 2, MPI_LONG, 0, w, &q);
		else if (large)
			MPI_Scatter_init_c(s, 2, MPI_LONG, r, 2, MPI_LONG, 0, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Scatter_init(s, 2, MPI_LONG, r, 2, MPI_LONG, 0, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[0] == 2 * rank, "Scatter");
		if (k == 0 && large)
			MPI_Allgather_c(s, 3, MPI_LONG, r, 3, MPI_LONG, w);
		else if (k == 0)
			MPI_Allgather(s, 3, MPI_LONG, r, 3, MPI_LONG, w);
		else if (k == 1 && large)
			MPI_Iallgather_c(s, 3, MPI_LONG, r, 3, MPI_LONG, w,
			    &q);
		else if (k == 1)
			MPI_Iallgather(s, 3, MPI_LONG, r, 3, MPI_LONG, w, &q);
		else if (large)
			MPI_Allgather_init_c(s, 3, MPI_LONG, r, 3, MPI_LONG, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Allgather_init(s, 3, MPI_LONG, r, 3, MPI_LONG, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[3] == 10, "Allgather");
		if (k == 0 && large)
			MPI_Alltoall_c(s, 1, MPI_LONG, r, 1, MPI_LONG, w);
		else if (k == 0)
			MPI_Alltoall(s, 1, MPI_LONG, r, 1, MPI_LONG, w);
		else if (k == 1 && large)
			MPI_Ialltoall_c(s, 1, MPI_LONG, r, 1, MPI_LONG, w, &q);
		else if (k == 1)
			MPI_Ialltoall(s, 1, MPI_LONG, r, 1, MPI_LONG, w, &q);
		else if (large)
			MPI_Alltoall_init_c(s, 1, MPI_LONG, r, 1, MPI_LONG, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Alltoall_init(s, 1, MPI_LONG, r, 1, MPI_LONG, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[1] == 10 + rank, "Alltoall");
		if (k == 0 && large)
			MPI_Reduce_c(s, r, 4, MPI_LONG, MPI_SUM, 1, w);
		else if (k == 0)
			MPI_Reduce(s, r, 4, MPI_LONG, MPI_SUM, 1, w);
		else if (k == 1 && large)
			MPI_Ireduce_c(s, r, 4, MPI_LONG, MPI_SUM, 1, w, &q);
		else if (k == 1)
			MPI_Ireduce(s, r, 4, MPI_LONG, MPI_SUM, 1, w, &q);
		else if (large)
			MPI_Reduce_init_c(s, r, 4, MPI_LONG, MPI_SUM, 1, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Reduce_init(s, r, 4, MPI_LONG, MPI_SUM, 1, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(rank == 0 || r[3] == 16, "Reduce");
		if (k == 0 && large)
			MPI_Allreduce_c(s, r, 3, MPI_LONG, MPI_SUM, w);
		else if (k == 0)
			MPI_Allreduce(s, r, 3, MPI_LONG, MPI_SUM, w);
		else if (k == 1 && large)
			MPI_Iallreduce_c(s, r, 3, MPI_LONG, MPI_SUM, w, &q);
		else if (k == 1)
			MPI_Iallreduce(s, r, 3, MPI_LONG, MPI_SUM, w, &q);
		else if (large)
			MPI_Allreduce_init_c(s, r, 3, MPI_LONG, MPI_SUM, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Allreduce_init(s, r, 3, MPI_LONG, MPI_SUM, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[2] == 14, "Allreduce");
		if (k == 0 && large)
			MPI_Reduce_scatter_block_c(s, r, 2, MPI_LONG, MPI_SUM,
			    w);
		else if (k == 0)
			MPI_Reduce_scatter_block(s, r, 2, MPI_LONG, MPI_SUM,
			    w);
		else if (k == 1 && large)
			MPI_Ireduce_scatter_block_c(s, r, 2, MPI_LONG, MPI_SUM,
			    w, &q);
		else if (k == 1)
			MPI_Ireduce_scatter_block(s, r, 2, MPI_LONG, MPI_SUM, w,
			    &q);
		else if (large)
			MPI_Reduce_scatter_block_init_c(s, r, 2, MPI_LONG,
			    MPI_SUM, w, MPI_INFO_NULL, &q);
		else
			MPI_Reduce_scatter_block_init(s, r, 2, MPI_LONG,
			    MPI_SUM, w, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[0] == 10 + 4 * rank, "Reduce_scatter_block");
		if (k == 0 && large)
			MPI_Scan_c(s, r, 4, MPI_LONG, MPI_SUM, w);
		else if (k == 0)
			MPI_Scan(s, r, 4, MPI_LONG, MPI_SUM, w);
		else if (k == 1 && large)
			MPI_Iscan_c(s, r, 4, MPI_LONG, MPI_SUM, w, &q);
		else if (k == 1)
			MPI_Iscan(s, r, 4, MPI_LONG, MPI_SUM, w, &q);
		else if (large)
			MPI_Scan_init_c(s, r, 4, MPI_LONG, MPI_SUM, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Scan_init(s, r, 4, MPI_LONG, MPI_SUM, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[1] == 1 + 11 * rank, "Scan");
		if (k == 0 && large)
			MPI_Exscan_c(s, r, 2, MPI_LONG, MPI_SUM, w);
		else if (k == 0)
			MPI_Exscan(s, r, 2, MPI_LONG, MPI_SUM, w);
		else if (k == 1 && large)
			MPI_Iexscan_c(s, r, 2, MPI_LONG, MPI_SUM, w, &q);
		else if (k == 1)
			MPI_Iexscan(s, r, 2, MPI_LONG, MPI_SUM, w, &q);
		else if (large)
			MPI_Exscan_init_c(s, r, 2, MPI_LONG, MPI_SUM, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Exscan_init(s, r, 2, MPI_LONG, MPI_SUM, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(rank == 0 || r[1] == 1, "Exscan");
		if (k == 0 && large)
			MPI_Neighbor_allgather_c(s, 2, MPI_LONG, r, 2, MPI_LONG,
			    nbr);
		else if (k == 0)
			MPI_Neighbor_allgather(s, 2, MPI_LONG, r, 2, MPI_LONG,
			    nbr);
		else if (k == 1 && large)
			MPI_Ineighbor_allgather_c(s, 2, MPI_LONG, r, 2,
			    MPI_LONG, nbr, &q);
		else if (k == 1)
			MPI_Ineighbor_allgather(s, 2, MPI_LONG, r, 2, MPI_LONG,
			    nbr, &q);
		else if (large)
			MPI_Neighbor_allgather_init_c(s, 2, MPI_LONG, r, 2,
			    MPI_LONG, nbr, MPI_INFO_NULL, &q);
		else
			MPI_Neighbor_allgather_init(s, 2, MPI_LONG, r, 2,
			    MPI_LONG, nbr, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[0] == 10 * (1 - rank), "Neighbor_allgather");
		if (k == 0 && large)
			MPI_Neighbor_alltoall_c(s, 3, MPI_LONG, r, 3, MPI_LONG,
			    nbr);
		else if (k == 0)
			MPI_Neighbor_alltoall(s, 3, MPI_LONG, r, 3, MPI_LONG,
			    nbr);
		else if (k == 1 && large)
			MPI_Ineighbor_alltoall_c(s, 3, MPI_LONG, r, 3, MPI_LONG,
			    nbr, &q);
		else if (k == 1)
			MPI_Ineighbor_alltoall(s, 3, MPI_LONG, r, 3, MPI_LONG,
			    nbr, &q);
		else if (large)
			MPI_Neighbor_alltoall_init_c(s, 3, MPI_LONG, r, 3,
			    MPI_LONG, nbr, MPI_INFO_NULL, &q);
		else
			MPI_Neighbor_alltoall_init(s, 3, MPI_LONG, r, 3,
			    MPI_LONG, nbr, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[2] == 10 * (1 - rank) + 2, "Neighbor_alltoall");
	}
}

/* Every v and w collective, in its blocking, nonblocking and persistent
 * forms: counts and displacements as int (MPI_X) or as MPI_Count and
 * MPI_Aint (MPI_X_c), the same values. */
static void vcollectives(int large, MPI_Comm nbr)
{
	MPI_Comm w = MPI_COMM_WORLD;
	MPI_Request q = MPI_REQUEST_NULL;
	MPI_Datatype tl[2] = { MPI_LONG, MPI_LONG };
	int i1[2] = { 1, 1 }, i2[2] = { 2, 2 }, i3[2] = { 3, 3 };
	int i01[2] = { 0, 1 }, i02[2] = { 0, 2 }, i03[2] = { 0, 3 };
	int iw[2] = { 0, sizeof(long) };
	MPI_Count c1[2] = { 1, 1 }, c2[2] = { 2, 2 }, c3[2] = { 3, 3 };
	MPI_Aint a01[2] = { 0, 1 }, a02[2] = { 0, 2 }, a03[2] = { 0, 3 };
	MPI_Aint aw[2] = { 0, sizeof(long) };
	long s[4], r[8];

	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < 4; i++)
			s[i] = 10 * rank + i;
		memset(r, 0, sizeof(r));
		if (k == 0 && large)
			MPI_Gatherv_c(s, 2, MPI_LONG, r, c2, a02, MPI_LONG, 1,
			    w);
		else if (k == 0)
			MPI_Gatherv(s, 2, MPI_LONG, r, i2, i02, MPI_LONG, 1,
			    w);
		else if (k == 1 && large)
			MPI_Igatherv_c(s, 2, MPI_LONG, r, c2, a02, MPI_LONG, 1,
			    w, &q);
		else if (k == 1)
			MPI_Igatherv(s, 2, MPI_LONG, r, i2, i02, MPI_LONG, 1, w,
			    &q);
		else if (large)
			MPI_Gatherv_init_c(s, 2, MPI_LONG, r, c2, a02, MPI_LONG,
			    1, w, MPI_INFO_NULL, &q);
		else
			MPI_Gatherv_init(s, 2, MPI_LONG, r, i2, i02, MPI_LONG,
			    1, w, MPI_INFO_NULL, &q);
		done(k, &q);
		check(rank == 0 || r[2] == 10, "Gatherv");
		if (k == 0 && large)
			MPI_Scatterv_c(s, c2, a02, MPI_LONG, r, 2, MPI_LONG, 0,
			    w);
		else if (k == 0)
			MPI_Scatterv(s, i2, i02, MPI_LONG, r, 2, MPI_LONG, 0,
			    w);
		else if (k == 1 && large)
			MPI_Iscatterv_c(s, c2, a02, MPI_LONG, r, 2, MPI_LONG, 0,
			    w, &q);
		else if (k == 1)
			MPI_Iscatterv(s, i2, i02, MPI_LONG, r, 2, MPI_LONG, 0,
			    w, &q);
		else if (large)
			MPI_Scatterv_init_c(s, c2, a02, MPI_LONG, r, 2,
			    MPI_LONG, 0, w, MPI_INFO_NULL, &q);
		else
			MPI_Scatterv_init(s, i2, i02, MPI_LONG, r, 2, MPI_LONG,
			    0, w, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[0] == 2 * rank, "Scatterv");
		if (k == 0 && large)
			MPI_Allgatherv_c(s, 3, MPI_LONG, r, c3, a03, MPI_LONG,
			    w);
		else if (k == 0)
			MPI_Allgatherv(s, 3, MPI_LONG, r, i3, i03, MPI_LONG,
			    w);
		else if (k == 1 && large)
			MPI_Iallgatherv_c(s, 3, MPI_LONG, r, c3, a03, MPI_LONG,
			    w, &q);
		else if (k == 1)
			MPI_Iallgatherv(s, 3, MPI_LONG, r, i3, i03, MPI_LONG, w,
			    &q);
		else if (large)
			MPI_Allgatherv_init_c(s, 3, MPI_LONG, r, c3, a03,
			    MPI_LONG, w, MPI_INFO_NULL, &q);
		else
			MPI_Allgatherv_init(s, 3, MPI_LONG, r, i3, i03,
			    MPI_LONG, w, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[3] == 10, "Allgatherv");
		if (k == 0 && large)
			MPI_Alltoallv_c(s, c1, a01, MPI_LONG, r, c1, a01,
			    MPI_LONG, w);
		else if (k == 0)
			MPI_Alltoallv(s, i1, i01, MPI_LONG, r, i1, i01,
			    MPI_LONG, w);
		else if (k == 1 && large)
			MPI_Ialltoallv_c(s, c1, a01, MPI_LONG, r, c1, a01,
			    MPI_LONG, w, &q);
		else if (k == 1)
			MPI_Ialltoallv(s, i1, i01, MPI_LONG, r, i1, i01,
			    MPI_LONG, w, &q);
		else if (large)
			MPI_Alltoallv_init_c(s, c1, a01, MPI_LONG, r, c1, a01,
			    MPI_LONG, w, MPI_INFO_NULL, &q);
		else
			MPI_Alltoallv_init(s, i1, i01, MPI_LONG, r, i1, i01,
			    MPI_LONG, w, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[1] == 10 + rank, "Alltoallv");
		if (k == 0 && large)
			MPI_Alltoallw_c(s, c1, aw, tl, r, c1, aw, tl, w);
		else if (k == 0)
			MPI_Alltoallw(s, i1, iw, tl, r, i1, iw, tl, w);
		else if (k == 1 && large)
			MPI_Ialltoallw_c(s, c1, aw, tl, r, c1, aw, tl, w, &q);
		else if (k == 1)
			MPI_Ialltoallw(s, i1, iw, tl, r, i1, iw, tl, w, &q);
		else if (large)
			MPI_Alltoallw_init_c(s, c1, aw, tl, r, c1, aw, tl, w,
			    MPI_INFO_NULL, &q);
		else
			MPI_Alltoallw_init(s, i1, iw, tl, r, i1, iw, tl, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[1] == 10 + rank, "Alltoallw");
		if (k == 0 && large)
			MPI_Reduce_scatter_c(s, r, c2, MPI_LONG, MPI_SUM, w);
		else if (k == 0)
			MPI_Reduce_scatter(s, r, i2, MPI_LONG, MPI_SUM, w);
		else if (k == 1 && large)
			MPI_Ireduce_scatter_c(s, r, c2, MPI_LONG, MPI_SUM, w,
			    &q);
		else if (k == 1)
			MPI_Ireduce_scatter(s, r, i2, MPI_LONG, MPI_SUM, w,
			    &q);
		else if (large)
			MPI_Reduce_scatter_init_c(s, r, c2, MPI_LONG, MPI_SUM,
			    w, MPI_INFO_NULL, &q);
		else
			MPI_Reduce_scatter_init(s, r, i2, MPI_LONG, MPI_SUM, w,
			    MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[0] == 10 + 4 * rank, "Reduce_scatter");
		if (k == 0 && large)
			MPI_Neighbor_allgatherv_c(s, 2, MPI_LONG, r, c2, a02,
			    MPI_LONG, nbr);
		else if (k == 0)
			MPI_Neighbor_allgatherv(s, 2, MPI_LONG, r, i2, i02,
			    MPI_LONG, nbr);
		else if (k == 1 && large)
			MPI_Ineighbor_allgatherv_c(s, 2, MPI_LONG, r, c2, a02,
			    MPI_LONG, nbr, &q);
		else if (k == 1)
			MPI_Ineighbor_allgatherv(s, 2, MPI_LONG, r, i2, i02,
			    MPI_LONG, nbr, &q);
		else if (large)
			MPI_Neighbor_allgatherv_init_c(s, 2, MPI_LONG, r, c2,
			    a02, MPI_LONG, nbr, MPI_INFO_NULL, &q);
		else
			MPI_Neighbor_allgatherv_init(s, 2, MPI_LONG, r, i2, i02,
			    MPI_LONG, nbr, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[0] == 10 * (1 - rank), "Neighbor_allgatherv");
		if (k == 0 && large)
			MPI_Neighbor_alltoallv_c(s, c3, a03, MPI_LONG, r, c3,
			    a03, MPI_LONG, nbr);
		else if (k == 0)
			MPI_Neighbor_alltoallv(s, i3, i03, MPI_LONG, r, i3, i03,
			    MPI_LONG, nbr);
		else if (k == 1 && large)
			MPI_Ineighbor_alltoallv_c(s, c3, a03, MPI_LONG, r, c3,
			    a03, MPI_LONG, nbr, &q);
		else if (k == 1)
			MPI_Ineighbor_alltoallv(s, i3, i03, MPI_LONG, r, i3,
			    i03, MPI_LONG, nbr, &q);
		else if (large)
			MPI_Neighbor_alltoallv_init_c(s, c3, a03, MPI_LONG, r,
			    c3, a03, MPI_LONG, nbr, MPI_INFO_NULL, &q);
		else
			MPI_Neighbor_alltoallv_init(s, i3, i03, MPI_LONG, r, i3,
			    i03, MPI_LONG, nbr, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[2] == 10 * (1 - rank) + 2, "Neighbor_alltoallv");
		if (k == 0 && large)
			MPI_Neighbor_alltoallw_c(s, c3, a03, tl, r, c3, a03, tl,
			    nbr);
		else if (k == 0)
			MPI_Neighbor_alltoallw(s, i3, a03, tl, r, i3, a03, tl,
			    nbr);
		else if (k == 1 && large)
			MPI_Ineighbor_alltoallw_c(s, c3, a03, tl, r, c3, a03,
			    tl, nbr, &q);
		else if (k == 1)
			MPI_Ineighbor_alltoallw(s, i3, a03, tl, r, i3, a03, tl,
			    nbr, &q);
		else if (large)
			MPI_Neighbor_alltoallw_init_c(s, c3, a03, tl, r, c3,
			    a03, tl, nbr, MPI_INFO_NULL, &q);
		else
			MPI_Neighbor_alltoallw_init(s, i3, a03, tl, r, i3, a03,
			    tl, nbr, MPI_INFO_NULL, &q);
		done(k, &q);
		check(r[2] == 10 * (1 - rank) + 2, "Neighbor_alltoallw");
	}
}

/* One-sided calls in both bindings: a window made each way, a fence
 * epoch (Put, Get, Accumulate), a lock epoch (Get_accumulate, Rput,
 * Rget). */
static void rma(int large)
{
	static char base[4096];
	int peer = 1 - rank, put[3] = { 1, 2, 3 }, acc[7] = { 1, 1, 1, 1, 1,
		1, 1 }, in[9] = { 0 }, out[9];
	double got[5];
	char rput[11] = "rput bytes", rget[13];
	MPI_Request rq;
	MPI_Win w;
	void *p;

	if (large)
		MPI_Win_allocate_c(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p,
		    &w);
	else
		MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w);
	MPI_Win_free(&w);
	if (large)
		MPI_Win_allocate_shared_c(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
		    &p, &w);
	else
		MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
		    &p, &w);
	MPI_Win_free(&w);
	memset(base, 0, sizeof(base));
	if (large)
		MPI_Win_create_c(base, sizeof(base), 1, MPI_INFO_NULL,
		    MPI_COMM_WORLD, &w);
	else
		MPI_Win_create(base, sizeof(base), 1, MPI_INFO_NULL,
		    MPI_COMM_WORLD, &w);
	MPI_Win_fence(0, w);
	if (large)
		MPI_Put_c(put, 3, MPI_INT, peer, 0, 3, MPI_INT, w);
	else
		MPI_Put(put, 3, MPI_INT, peer, 0, 3, MPI_INT, w);
	if (large)
		MPI_Get_c(got, 5, MPI_DOUBLE, peer, 64, 5, MPI_DOUBLE, w);
	else
		MPI_Get(got, 5, MPI_DOUBLE, peer, 64, 5, MPI_DOUBLE, w);
	if (large)
		MPI_Accumulate_c(acc, 7, MPI_INT, peer, 128, 7, MPI_INT,
		    MPI_SUM, w);
	else
		MPI_Accumulate(acc, 7, MPI_INT, peer, 128, 7, MPI_INT, MPI_SUM,
		    w);
	MPI_Win_fence(0, w);
	check(((int *)base)[2] == 3 && ((int *)(base + 128))[6] == 1,
	      "a fence epoch");
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, w);
	if (large)
		MPI_Get_accumulate_c(in, 9, MPI_INT, out, 9, MPI_INT, peer, 256,
		    9, MPI_INT, MPI_SUM, w);
	else
		MPI_Get_accumulate(in, 9, MPI_INT, out, 9, MPI_INT, peer, 256,
		    9, MPI_INT, MPI_SUM, w);
	if (large)
		MPI_Rput_c(rput, 11, MPI_CHAR, peer, 1024, 11, MPI_CHAR, w,
		    &rq);
	else
		MPI_Rput(rput, 11, MPI_CHAR, peer, 1024, 11, MPI_CHAR, w, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_Rget_c(rget, 13, MPI_CHAR, peer, 2048, 13, MPI_CHAR, w,
		    &rq);
	else
		MPI_Rget(rget, 13, MPI_CHAR, peer, 2048, 13, MPI_CHAR, w, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Win_unlock(peer, w);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_free(&w);
}

/* File calls in both bindings, each pass the same offsets, so that the
 * reads find the same bytes: 1 to 15 chars from offset 2000. */
static void io(int large, MPI_File f)
{
	char c[16] = "0123456789abcde";
	MPI_Offset at = 2000 + 100 * rank;
	MPI_Request rq;

	MPI_File_seek(f, at, MPI_SEEK_SET);
	if (large)
		MPI_File_iwrite_c(f, c, 3, MPI_CHAR, &rq);
	else
		MPI_File_iwrite(f, c, 3, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_write_c(f, c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
	else
		MPI_File_write(f, c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_write_all_c(f, c, 2, MPI_CHAR, MPI_STATUS_IGNORE);
	else
		MPI_File_write_all(f, c, 2, MPI_CHAR, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_write_at_c(f, at + 40, c, 3, MPI_CHAR,
		    MPI_STATUS_IGNORE);
	else
		MPI_File_write_at(f, at + 40, c, 3, MPI_CHAR,
		    MPI_STATUS_IGNORE);
	if (large)
		MPI_File_write_at_all_c(f, at + 10, c, 4, MPI_CHAR,
		    MPI_STATUS_IGNORE);
	else
		MPI_File_write_at_all(f, at + 10, c, 4, MPI_CHAR,
		    MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iwrite_at_c(f, at + 20, c, 5, MPI_CHAR, &rq);
	else
		MPI_File_iwrite_at(f, at + 20, c, 5, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iwrite_all_c(f, c, 6, MPI_CHAR, &rq);
	else
		MPI_File_iwrite_all(f, c, 6, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iwrite_at_all_c(f, at + 30, c, 7, MPI_CHAR, &rq);
	else
		MPI_File_iwrite_at_all(f, at + 30, c, 7, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_seek(f, at, MPI_SEEK_SET);
	if (large)
		MPI_File_read_c(f, c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
	else
		MPI_File_read(f, c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_read_all_c(f, c, 2, MPI_CHAR, MPI_STATUS_IGNORE);
	else
		MPI_File_read_all(f, c, 2, MPI_CHAR, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_read_at_c(f, at, c, 8, MPI_CHAR, MPI_STATUS_IGNORE);
	else
		MPI_File_read_at(f, at, c, 8, MPI_CHAR, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_read_at_all_c(f, at, c, 9, MPI_CHAR,
		    MPI_STATUS_IGNORE);
	else
		MPI_File_read_at_all(f, at, c, 9, MPI_CHAR, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iread_c(f, c, 9, MPI_CHAR, &rq);
	else
		MPI_File_iread(f, c, 9, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iread_at_c(f, at, c, 10, MPI_CHAR, &rq);
	else
		MPI_File_iread_at(f, at, c, 10, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iread_all_c(f, c, 11, MPI_CHAR, &rq);
	else
		MPI_File_iread_all(f, c, 11, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iread_at_all_c(f, at, c, 12, MPI_CHAR, &rq);
	else
		MPI_File_iread_at_all(f, at, c, 12, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_File_seek_shared(f, 3000, MPI_SEEK_SET);
	if (large)
		MPI_File_write_shared_c(f, c, 13, MPI_CHAR, MPI_STATUS_IGNORE);
	else
		MPI_File_write_shared(f, c, 13, MPI_CHAR, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iwrite_shared_c(f, c, 14, MPI_CHAR, &rq);
	else
		MPI_File_iwrite_shared(f, c, 14, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_write_ordered_c(f, c, 15, MPI_CHAR,
		    MPI_STATUS_IGNORE);
	else
		MPI_File_write_ordered(f, c, 15, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_seek_shared(f, 3000, MPI_SEEK_SET);
	if (large)
		MPI_File_read_shared_c(f, c, 13, MPI_CHAR, MPI_STATUS_IGNORE);
	else
		MPI_File_read_shared(f, c, 13, MPI_CHAR, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_iread_shared_c(f, c, 14, MPI_CHAR, &rq);
	else
		MPI_File_iread_shared(f, c, 14, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	if (large)
		MPI_File_read_ordered_c(f, c, 15, MPI_CHAR, MPI_STATUS_IGNORE);
	else
		MPI_File_read_ordered(f, c, 15, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
}

/* 2^31 + 8 bytes from rank 0 to rank 1. */
static void big(void)
{
	char *b = malloc((size_t)BIG);

	check(b != NULL, "no memory for the large message");
	if (rank == 0) {
		memset(b, 7, (size_t)BIG);
		b[BIG - 1] = 9;
		MPI_Send_c(b, BIG, MPI_BYTE, 1, 30, MPI_COMM_WORLD);
	} else {
		MPI_Status st;
		MPI_Count n = 0;

		b[BIG - 1] = 0;
		MPI_Recv_c(b, BIG, MPI_BYTE, 0, 30, MPI_COMM_WORLD, &st);
		MPI_Get_count_c(&st, MPI_BYTE, &n);
		check(n == BIG && b[0] == 7 && b[BIG - 1] == 9,
		      "the large message");
	}
	free(b);
}

int main(int argc, char **argv)
{
	int size, peer;
	MPI_Comm nbr;
	MPI_File f;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	check(size == 2, "wants 2 ranks");
	peer = 1 - rank;
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &peer,
				       MPI_UNWEIGHTED, 1, &peer,
				       MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &nbr);
	check(argc == 2 && MPI_File_open(MPI_COMM_WORLD, argv[1],
					 MPI_MODE_CREATE | MPI_MODE_RDWR,
					 MPI_INFO_NULL, &f) == MPI_SUCCESS,
	      "usage: test_large FILE (a file it may make)");
	for (int large = 1; large >= 0; large--) {
		p2p(large);
		collectives(large, nbr);
		vcollectives(large, nbr);
		rma(large);
		io(large, f);
	}
	MPI_File_close(&f);
	if (rank == 0)
		MPI_File_delete(argv[1], MPI_INFO_NULL);
	MPI_Barrier(MPI_COMM_WORLD);
	big();
	MPI_Comm_free(&nbr);
	if (rank == 0)
		printf("test_large: done\n");
	MPI_Finalize();
	return 0;
}

#else

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0)
		printf("test_large: no large-count bindings\n");
	MPI_Finalize();
	return 0;
}

#endif
