/*
 * test_noncommute.c - the same reductions of 3000 doubles (24000 B) by
 * one user sum created as commuting, then by one created as not:
 * MPI_Allreduce, MPI_Reduce to rank 0, MPI_Reduce_scatter_block and
 * MPI_Reduce_scatter (equal blocks), in that order for each operation;
 * then the second is freed and an MPI_Allreduce runs by a new commuting
 * sum (Open MPI hands it the freed one's handle: the library must ask
 * again).
 * Open MPI's coll/tuned decides other algorithms for an operation that
 * does not commute (coll_tuned_decision_fixed.c); the rows say which
 * (tests/test_taulop_run.sh).  Every result is checked: exit 1 on a
 * wrong one.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3000

static void add(void *in, void *inout, int *len, MPI_Datatype *t)
{
	const double *a = in;
	double *b = inout;
	int i;

	(void)t;
	for (i = 0; i < *len; i++)
		b[i] += a[i];
}

/* r[0..n) against the sum over the ranks of s's elements from off. */
static int wrong(const double *r, int n, int off, int size)
{
	int i;

	for (i = 0; i < n; i++)
		if (r[i] != (double)size * (off + i) + size * (size - 1) / 2.0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	static double s[N], r[N];
	int rank, size, k, i, bad = 0, *counts;
	MPI_Op op[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	counts = malloc(sizeof(int) * (size_t)size);
	if (!counts || N % size)
		MPI_Abort(MPI_COMM_WORLD, 2);
	for (i = 0; i < size; i++)
		counts[i] = N / size;
	for (i = 0; i < N; i++)
		s[i] = rank + i;
	MPI_Op_create(add, 1, &op[0]);
	MPI_Op_create(add, 0, &op[1]);
	for (k = 0; k < 2; k++) {
		MPI_Allreduce(s, r, N, MPI_DOUBLE, op[k], MPI_COMM_WORLD);
		bad |= wrong(r, N, 0, size);
		MPI_Reduce(s, r, N, MPI_DOUBLE, op[k], 0, MPI_COMM_WORLD);
		bad |= rank == 0 && wrong(r, N, 0, size);
		MPI_Reduce_scatter_block(s, r, N / size, MPI_DOUBLE, op[k],
					 MPI_COMM_WORLD);
		bad |= wrong(r, N / size, rank * (N / size), size);
		MPI_Reduce_scatter(s, r, counts, MPI_DOUBLE, op[k],
				   MPI_COMM_WORLD);
		bad |= wrong(r, N / size, rank * (N / size), size);
	}
	MPI_Op_free(&op[1]);
	MPI_Op_create(add, 1, &op[1]);
	MPI_Allreduce(s, r, N, MPI_DOUBLE, op[1], MPI_COMM_WORLD);
	bad |= wrong(r, N, 0, size);
	MPI_Op_free(&op[1]);
	MPI_Op_free(&op[0]);
	if (bad)
		fprintf(stderr, "rank %d: a wrong reduction\n", rank);
	free(counts);
	MPI_Finalize();
	return bad;
}
