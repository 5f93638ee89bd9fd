/*
 * test_pcoll.c - persistent collectives for tests/test_pcoll.sh, on 2
 * ranks: MPI-4's MPI_<op>_init where mpi.h has them (MPICH 4), else
 * Open MPI's MPIX_<op>_init of mpi-ext.h (the macros below).  Barrier,
 * Bcast (3 doubles from root 0), Reduce (5 ints to root 1) and Allreduce
 * (7 longs) are made once and started 3 times together; every other
 * one is started 3 times, then its nonblocking form is called once with
 * the same arguments, so that the rows of the two can be compared.  Rank
 * 0 prints one line when every result was right; a wrong one exits 1
 * with a line naming it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#endif

#define STARTS 3

#if MPI_VERSION < 4 && defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define MPI_Barrier_init(...) MPIX_Barrier_init(__VA_ARGS__)
#define MPI_Bcast_init(...) MPIX_Bcast_init(__VA_ARGS__)
#define MPI_Scatter_init(...) MPIX_Scatter_init(__VA_ARGS__)
#define MPI_Scatterv_init(...) MPIX_Scatterv_init(__VA_ARGS__)
#define MPI_Gather_init(...) MPIX_Gather_init(__VA_ARGS__)
#define MPI_Gatherv_init(...) MPIX_Gatherv_init(__VA_ARGS__)
#define MPI_Allgather_init(...) MPIX_Allgather_init(__VA_ARGS__)
#define MPI_Allgatherv_init(...) MPIX_Allgatherv_init(__VA_ARGS__)
#define MPI_Alltoall_init(...) MPIX_Alltoall_init(__VA_ARGS__)
#define MPI_Alltoallv_init(...) MPIX_Alltoallv_init(__VA_ARGS__)
#define MPI_Alltoallw_init(...) MPIX_Alltoallw_init(__VA_ARGS__)
#define MPI_Reduce_init(...) MPIX_Reduce_init(__VA_ARGS__)
#define MPI_Allreduce_init(...) MPIX_Allreduce_init(__VA_ARGS__)
#define MPI_Reduce_scatter_init(...) MPIX_Reduce_scatter_init(__VA_ARGS__)
#define MPI_Reduce_scatter_block_init(...) \
	MPIX_Reduce_scatter_block_init(__VA_ARGS__)
#define MPI_Scan_init(...) MPIX_Scan_init(__VA_ARGS__)
#define MPI_Exscan_init(...) MPIX_Exscan_init(__VA_ARGS__)
#define MPI_Neighbor_allgather_init(...) \
	MPIX_Neighbor_allgather_init(__VA_ARGS__)
#define MPI_Neighbor_allgatherv_init(...) \
	MPIX_Neighbor_allgatherv_init(__VA_ARGS__)
#define MPI_Neighbor_alltoall_init(...) \
	MPIX_Neighbor_alltoall_init(__VA_ARGS__)
#define MPI_Neighbor_alltoallv_init(...) \
	MPIX_Neighbor_alltoallv_init(__VA_ARGS__)
#define MPI_Neighbor_alltoallw_init(...) \
	MPIX_Neighbor_alltoallw_init(__VA_ARGS__)
#elif MPI_VERSION < 4
#error "no persistent collectives in this MPI"
#endif

static int rank;

static void check(int ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "test_pcoll: rank %d: %s\n", rank, what);
	exit(1);
}

/* Start p STARTS times and free it, then complete i. */
static void both(MPI_Request p, MPI_Request i)
{
	for (int k = 0; k < STARTS; k++) {
		MPI_Start(&p);
		MPI_Wait(&p, MPI_STATUS_IGNORE);
	}
	MPI_Request_free(&p);
	MPI_Wait(&i, MPI_STATUS_IGNORE);
}

/* The four started together; their results are checked. */
static void four(void)
{
	double d[3] = { 0 };
	int x[5], sum[5] = { 0 };
	long l[7], lsum[7] = { 0 };
	MPI_Request rq[4];
	MPI_Status st[4];

	for (int i = 0; i < 5; i++)
		x[i] = rank + i;
	for (int i = 0; i < 7; i++)
		l[i] = 10 * rank + i;
	if (rank == 0)
		d[2] = 2.5;
	MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]);
	MPI_Bcast_init(d, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
		       &rq[1]);
	MPI_Reduce_init(x, sum, 5, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD,
			MPI_INFO_NULL, &rq[2]);
	MPI_Allreduce_init(l, lsum, 7, MPI_LONG, MPI_SUM, MPI_COMM_WORLD,
			   MPI_INFO_NULL, &rq[3]);
	for (int k = 0; k < STARTS; k++) {
		MPI_Startall(4, rq);
		MPI_Waitall(4, rq, st);
	}
	for (int i = 0; i < 4; i++)
		MPI_Request_free(&rq[i]);
	check(d[2] == 2.5 && lsum[6] == 22 && (rank != 1 || sum[4] == 9),
	      "wrong result");
}

static int sb[64], rb[64];
static const int cnt[2] = { 3, 4 }, dis[2] = { 0, 8 }, wdis[2] = { 0, 32 };
/* what each receives from the other in an alltoallv/w: cnt[rank] */
static int rcnt[2];
/* a neighbour receives a block as its other side's: equal counts */
static const int ncnt[2] = { 4, 4 };
static const MPI_Aint adis[2] = { 0, 32 };
static const MPI_Datatype ty[2] = { MPI_INT, MPI_INT };

static void rooted(MPI_Comm c)
{
	MPI_Request p, i;

	MPI_Scatter_init(sb, 2, MPI_INT, rb, 2, MPI_INT, 0, c, MPI_INFO_NULL,
			 &p);
	MPI_Iscatter(sb, 2, MPI_INT, rb, 2, MPI_INT, 0, c, &i);
	both(p, i);
	MPI_Scatterv_init(sb, cnt, dis, MPI_INT, rb, cnt[rank], MPI_INT, 1, c,
			  MPI_INFO_NULL, &p);
	MPI_Iscatterv(sb, cnt, dis, MPI_INT, rb, cnt[rank], MPI_INT, 1, c, &i);
	both(p, i);
	MPI_Gather_init(sb, 5, MPI_INT, rb, 5, MPI_INT, 1, c, MPI_INFO_NULL,
			&p);
	MPI_Igather(sb, 5, MPI_INT, rb, 5, MPI_INT, 1, c, &i);
	both(p, i);
	MPI_Gatherv_init(sb, cnt[rank], MPI_INT, rb, cnt, dis, MPI_INT, 0, c,
			 MPI_INFO_NULL, &p);
	MPI_Igatherv(sb, cnt[rank], MPI_INT, rb, cnt, dis, MPI_INT, 0, c, &i);
	both(p, i);
}

static void all(MPI_Comm c)
{
	MPI_Request p, i;

	MPI_Allgather_init(sb, 6, MPI_INT, rb, 6, MPI_INT, c, MPI_INFO_NULL,
			   &p);
	MPI_Iallgather(sb, 6, MPI_INT, rb, 6, MPI_INT, c, &i);
	both(p, i);
	MPI_Allgatherv_init(sb, cnt[rank], MPI_INT, rb, cnt, dis, MPI_INT, c,
			    MPI_INFO_NULL, &p);
	MPI_Iallgatherv(sb, cnt[rank], MPI_INT, rb, cnt, dis, MPI_INT, c, &i);
	both(p, i);
	MPI_Alltoall_init(sb, 7, MPI_INT, rb, 7, MPI_INT, c, MPI_INFO_NULL,
			  &p);
	MPI_Ialltoall(sb, 7, MPI_INT, rb, 7, MPI_INT, c, &i);
	both(p, i);
	MPI_Alltoallv_init(sb, cnt, dis, MPI_INT, rb, rcnt, dis, MPI_INT, c,
			   MPI_INFO_NULL, &p);
	MPI_Ialltoallv(sb, cnt, dis, MPI_INT, rb, rcnt, dis, MPI_INT, c, &i);
	both(p, i);
	MPI_Alltoallw_init(sb, cnt, wdis, ty, rb, rcnt, wdis, ty, c,
			   MPI_INFO_NULL, &p);
	MPI_Ialltoallw(sb, cnt, wdis, ty, rb, rcnt, wdis, ty, c, &i);
	both(p, i);
}

static void reductions(MPI_Comm c)
{
	MPI_Request p, i;

	MPI_Reduce_scatter_init(sb, rb, cnt, MPI_INT, MPI_SUM, c,
				MPI_INFO_NULL, &p);
	MPI_Ireduce_scatter(sb, rb, cnt, MPI_INT, MPI_SUM, c, &i);
	both(p, i);
	MPI_Reduce_scatter_block_init(sb, rb, 8, MPI_INT, MPI_SUM, c,
				      MPI_INFO_NULL, &p);
	MPI_Ireduce_scatter_block(sb, rb, 8, MPI_INT, MPI_SUM, c, &i);
	both(p, i);
	MPI_Scan_init(sb, rb, 9, MPI_INT, MPI_SUM, c, MPI_INFO_NULL, &p);
	MPI_Iscan(sb, rb, 9, MPI_INT, MPI_SUM, c, &i);
	both(p, i);
	MPI_Exscan_init(sb, rb, 10, MPI_INT, MPI_SUM, c, MPI_INFO_NULL, &p);
	MPI_Iexscan(sb, rb, 10, MPI_INT, MPI_SUM, c, &i);
	both(p, i);
}

/* On a periodic ring of the 2 ranks: each has 2 neighbours. */
static void neighbours(MPI_Comm c)
{
	MPI_Request p, i;

	MPI_Neighbor_allgather_init(sb, 11, MPI_INT, rb, 11, MPI_INT, c,
				    MPI_INFO_NULL, &p);
	MPI_Ineighbor_allgather(sb, 11, MPI_INT, rb, 11, MPI_INT, c, &i);
	both(p, i);
	MPI_Neighbor_allgatherv_init(sb, 4, MPI_INT, rb, ncnt, dis, MPI_INT, c,
				     MPI_INFO_NULL, &p);
	MPI_Ineighbor_allgatherv(sb, 4, MPI_INT, rb, ncnt, dis, MPI_INT, c,
				 &i);
	both(p, i);
	MPI_Neighbor_alltoall_init(sb, 12, MPI_INT, rb, 12, MPI_INT, c,
				   MPI_INFO_NULL, &p);
	MPI_Ineighbor_alltoall(sb, 12, MPI_INT, rb, 12, MPI_INT, c, &i);
	both(p, i);
	MPI_Neighbor_alltoallv_init(sb, ncnt, dis, MPI_INT, rb, ncnt, dis,
				    MPI_INT, c, MPI_INFO_NULL, &p);
	MPI_Ineighbor_alltoallv(sb, ncnt, dis, MPI_INT, rb, ncnt, dis, MPI_INT,
				c, &i);
	both(p, i);
	MPI_Neighbor_alltoallw_init(sb, ncnt, adis, ty, rb, ncnt, adis, ty, c,
				    MPI_INFO_NULL, &p);
	MPI_Ineighbor_alltoallw(sb, ncnt, adis, ty, rb, ncnt, adis, ty, c,
				&i);
	both(p, i);
}

int main(int argc, char **argv)
{
	int size, dims[1] = { 2 }, periods[1] = { 1 };
	MPI_Comm ring;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	check(size == 2, "want 2 ranks");
	rcnt[0] = rcnt[1] = cnt[rank];
	four();
	rooted(MPI_COMM_WORLD);
	all(MPI_COMM_WORLD);
	reductions(MPI_COMM_WORLD);
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	neighbours(ring);
	MPI_Comm_free(&ring);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("test_pcoll: done\n");
	MPI_Finalize();
	return 0;
}
