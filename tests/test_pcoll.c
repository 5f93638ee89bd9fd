/*
 * test_pcoll.c - persistent collectives for tests/test_pcoll.sh, on 2
 * ranks: MPI-4's MPI_<op>_init where mpi.h has them (MPICH 4), else
 * Open MPI's MPIX_<op>_init of mpi-ext.h.  Each of Barrier, Bcast (3
 * doubles from root 0), Reduce (5 ints to root 1) and Allreduce (7
 * longs) is made once and started 3 times.  Rank 0 prints one line when
 * every result was right; a wrong one exits 1 with a line naming it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#endif

#define STARTS 3

static void make(MPI_Request rq[4], double *d, int *x, int *sum, long *l,
		 long *lsum)
{
#if MPI_VERSION >= 4
	MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]);
	MPI_Bcast_init(d, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
		       &rq[1]);
	MPI_Reduce_init(x, sum, 5, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD,
			MPI_INFO_NULL, &rq[2]);
	MPI_Allreduce_init(l, lsum, 7, MPI_LONG, MPI_SUM, MPI_COMM_WORLD,
			   MPI_INFO_NULL, &rq[3]);
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
	MPIX_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &rq[0]);
	MPIX_Bcast_init(d, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
			&rq[1]);
	MPIX_Reduce_init(x, sum, 5, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD,
			 MPI_INFO_NULL, &rq[2]);
	MPIX_Allreduce_init(l, lsum, 7, MPI_LONG, MPI_SUM, MPI_COMM_WORLD,
			    MPI_INFO_NULL, &rq[3]);
#else
#error "no persistent collectives in this MPI"
#endif
}

int main(int argc, char **argv)
{
	double d[3] = { 0 };
	int rank, x[5], sum[5] = { 0 }, ok = 1;
	long l[7], lsum[7] = { 0 };
	MPI_Request rq[4];
	MPI_Status st[4];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (int i = 0; i < 5; i++)
		x[i] = rank + i;
	for (int i = 0; i < 7; i++)
		l[i] = 10 * rank + i;
	if (rank == 0)
		d[2] = 2.5;
	make(rq, d, x, sum, l, lsum);
	for (int k = 0; k < STARTS; k++) {
		MPI_Startall(4, rq);
		MPI_Waitall(4, rq, st);
	}
	for (int i = 0; i < 4; i++)
		MPI_Request_free(&rq[i]);
	ok = d[2] == 2.5 && lsum[6] == 22 && (rank != 1 || sum[4] == 9);
	if (!ok) {
		fprintf(stderr, "test_pcoll: rank %d: wrong result\n", rank);
		return 1;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("test_pcoll: done\n");
	MPI_Finalize();
	return 0;
}
