/*
 * colls.c - the eight collectives a new user tries first, each at three
 * sizes per process block, every call after a barrier: MPI_Bcast,
 * MPI_Reduce, MPI_Allreduce, MPI_Allgather, MPI_Alltoall, MPI_Gather,
 * MPI_Scatter and MPI_Reduce_scatter_block of MPI_DOUBLE (MPI_SUM); then
 * MPI_Allgatherv and MPI_Reduce_scatter with blocks that grow with the
 * rank (rank r's: 2 (r + 1) / (P + 1) times the size, P times it in all).
 *
 *   mpirun -np 4 colls [REPS] [BYTES...]
 *
 * REPS calls of each (default 50), each between two MPI_Barriers, so
 * that every call starts together and its time, from the last rank's
 * entry to the last rank's exit (commprof's t_transfer), is the
 * collective's own; BYTES the block sizes (default 1500 24000 200000,
 * off any calibration grid).  Prints one line per (operation, size)
 * with a checksum of the result.  Exit 0, or 1 on a wrong result.
 *
 * The barrier after the call keeps a rank that leaves the collective
 * early from refilling its buffers while others are still inside: with
 * more ranks than CPUs that work takes the CPU from a rank the
 * collective waits for, and the collective's time would hold it (on 4
 * ranks of 2 CPUs, 1.5-KB calls took 28 to 32 us instead of 2 to 12).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, GATHER, SCATTER,
       REDSCAT, ALLGATHERV, REDSCATV, NOPS };

static const char *const names[NOPS] = { "MPI_Bcast", "MPI_Reduce",
	"MPI_Allreduce", "MPI_Allgather", "MPI_Alltoall", "MPI_Gather",
	"MPI_Scatter", "MPI_Reduce_scatter_block", "MPI_Allgatherv",
	"MPI_Reduce_scatter" };

static int *vcnt, *vdispl;	/* the v forms' blocks, [P] */

/* Rank r's block of the v forms: 2 n (r + 1) / (P + 1) elements. */
static void vblocks(int n, int np)
{
	int r, at = 0;

	for (r = 0; r < np; r++) {
		vcnt[r] = (int)(2.0 * n * (r + 1) / (np + 1));
		vdispl[r] = at;
		at += vcnt[r];
	}
}

static void call(int op, double *a, double *b, int n, int rank)
{
	switch (op) {
	case ALLGATHERV:
		MPI_Allgatherv(a, vcnt[rank], MPI_DOUBLE, b, vcnt, vdispl,
			       MPI_DOUBLE, MPI_COMM_WORLD);
		break;
	case REDSCATV:
		MPI_Reduce_scatter(a, b, vcnt, MPI_DOUBLE, MPI_SUM,
				   MPI_COMM_WORLD);
		break;
	case BCAST:
		MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		break;
	case REDUCE:
		MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		break;
	case ALLREDUCE:
		MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case ALLGATHER:
		MPI_Allgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE,
			      MPI_COMM_WORLD);
		break;
	case ALLTOALL:
		MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE,
			     MPI_COMM_WORLD);
		break;
	case GATHER:
		MPI_Gather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, 0,
			   MPI_COMM_WORLD);
		break;
	case SCATTER:
		MPI_Scatter(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, 0,
			    MPI_COMM_WORLD);
		break;
	default:
		MPI_Reduce_scatter_block(a, b, n, MPI_DOUBLE, MPI_SUM,
					 MPI_COMM_WORLD);
		break;
	}
}

/* The first element of the result, where the rank has one: the sum of
 * the ranks + 1 for the reductions, rank + 1 of a block otherwise. */
static double check(int op, const double *a, const double *b, int rank,
		    int np)
{
	switch (op) {
	case BCAST:
		return a[0];
	case REDUCE:
		return rank ? np * (np + 1) / 2 : b[0];
	case GATHER:
		return rank ? 1 : b[0];
	case SCATTER:
		return rank ? b[0] : 1;
	case ALLTOALL:
	case ALLGATHER:
		return b[0];
	case REDSCATV:	/* a rank may have an empty block */
		return vcnt[rank] ? b[0] : np * (np + 1) / 2;
	default:
		return b[0];
	}
}

int main(int argc, char **argv)
{
	int sizes[16] = { 1500, 24000, 200000 }, ns = 3, reps = 50;
	int rank, np, op, k, i, r, n, bad = 0, all;
	size_t cap;
	double *a, *b, got, want;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc > 1)
		reps = atoi(argv[1]);
	if (argc > 2)
		for (ns = 0; ns < 16 && ns + 2 < argc; ns++)
			sizes[ns] = atoi(argv[ns + 2]);
	if (reps < 1)
		reps = 1;
	for (cap = 0, k = 0; k < ns; k++)
		if ((size_t)sizes[k] > cap)
			cap = (size_t)sizes[k];
	cap = cap / sizeof(double) * (size_t)np + 1;
	a = malloc(cap * sizeof(double));
	b = malloc(cap * sizeof(double));
	vcnt = malloc(2 * (size_t)np * sizeof(int));
	if (!a || !b || !vcnt)
		MPI_Abort(MPI_COMM_WORLD, 1);
	vdispl = vcnt + np;
	for (op = 0; op < NOPS; op++)
		for (k = 0; k < ns; k++) {
			n = sizes[k] / (int)sizeof(double);
			vblocks(n, np);
			for (r = 0; r < reps; r++) {
				for (i = 0; i < (int)cap; i++)
					a[i] = rank + 1;
				MPI_Barrier(MPI_COMM_WORLD);
				call(op, a, b, n, rank);
				MPI_Barrier(MPI_COMM_WORLD);
			}
			got = check(op, a, b, rank, np);
			want = op == REDUCE || op == ALLREDUCE ||
			       op == REDSCAT || op == REDSCATV ?
			       np * (np + 1) / 2 : 1;
			bad |= n > 0 && got != want;
			if (rank == 0)
				printf("%-25s %7d B x %d: %g\n", names[op],
				       n * (int)sizeof(double), reps, got);
		}
	MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	free(a);
	free(b);
	free(vcnt);
	MPI_Finalize();
	return all ? 1 : 0;
}
