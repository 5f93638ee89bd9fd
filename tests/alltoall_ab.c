/*
 * alltoall_ab.c - the two Alltoall algorithms of the PlogPT paper
 * (section IV), by hand over point to point, partner rank xor i at step
 * i (P a power of two): A posts a step's Irecv, Sends, then waits for
 * it; B posts every Irecv first, then Sends step after step.
 *
 * usage: alltoall_ab a|b BYTES REPS
 * Rank 0 prints "alltoall A|B BYTES bytes: T s per call" (the mean over
 * REPS calls after a barrier, the slowest rank's) and a checksum of what
 * arrived, the same for A and B.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static void alltoall(int a, char *out, char *in, int bytes, int rank,
		     int size, MPI_Request *rq)
{
	int i;

	if (!a)
		for (i = 1; i < size; i++)
			MPI_Irecv(in + (size_t)i * bytes, bytes, MPI_CHAR,
				  rank ^ i, i, MPI_COMM_WORLD, &rq[i]);
	for (i = 1; i < size; i++) {
		if (a)
			MPI_Irecv(in + (size_t)i * bytes, bytes, MPI_CHAR,
				  rank ^ i, i, MPI_COMM_WORLD, &rq[i]);
		MPI_Send(out + (size_t)i * bytes, bytes, MPI_CHAR, rank ^ i,
			 i, MPI_COMM_WORLD);
		if (a)
			MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
	}
	if (!a)
		MPI_Waitall(size - 1, rq + 1, MPI_STATUSES_IGNORE);
}

int main(int argc, char **argv)
{
	int rank, size, bytes, reps, a, i, r;
	double t0, t, tmax;
	uint64_t sum = 0, all;
	MPI_Request *rq;
	char *out, *in;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc != 4 || (strcmp(argv[1], "a") && strcmp(argv[1], "b")) ||
	    (bytes = atoi(argv[2])) < 1 || (reps = atoi(argv[3])) < 1 ||
	    (size & (size - 1))) {
		if (!rank)
			fprintf(stderr, "usage: alltoall_ab a|b BYTES REPS "
				"(a power of two of ranks)\n");
		MPI_Finalize();
		return 2;
	}
	a = !strcmp(argv[1], "a");
	out = malloc((size_t)size * bytes);
	in = calloc((size_t)size, bytes);
	rq = malloc(sizeof(*rq) * size);
	if (!out || !in || !rq)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (i = 0; i < size * bytes; i++)
		out[i] = (char)(rank * 31 + i / bytes * 7 + i % 13);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (r = 0; r < reps; r++)
		alltoall(a, out, in, bytes, rank, size, rq);
	t = (MPI_Wtime() - t0) / reps;
	for (i = bytes; i < size * bytes; i++)
		sum += (unsigned char)in[i] * (uint64_t)(i % 101 + 1);
	MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Reduce(&sum, &all, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	if (!rank)
		printf("alltoall %s %d bytes: %.6e s per call, checksum "
		       "%llu\n", a ? "A" : "B", bytes, tmax,
		       (unsigned long long)all);
	free(out);
	free(in);
	free(rq);
	MPI_Finalize();
	return 0;
}
