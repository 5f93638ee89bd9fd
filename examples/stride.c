/*
 * stride.c - the same 8 KiB sent three ways, to profile: a column of a
 * row-major matrix through MPI_Type_vector (1024 doubles, 1 KiB apart:
 * MPI must pack them, which took 1.5 to 3 times the contiguous send's
 * time on the 2-core test machine under Open MPI, depending on its
 * speed, and as long under MPICH), a column of a byte image (8192 chars,
 * 64 B apart: a block per byte, whose packing takes 5 to 7 times the
 * contiguous send's time there under either MPI) and a contiguous array
 * of 1024 doubles.
 * Ranks pair up (0-1, 2-3, ...) and bounce the messages STEPS times;
 * then rank 0 scatters, gathers and broadcasts a block, COLL_REPS times
 * after a barrier each, so that the collective models have something to
 * price (the first calls of a run also pay for what MPI sets up at first
 * use, 10 to 70 us here: one call each would show only that).  Rank 0
 * prints integer checksums, identical with or without the profiler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

#define N 1024		/* elements per message */
#define LD 128		/* row length of the matrix: stride 1 KiB */
#define NB 8192		/* bytes of the image's column */
#define LB 64		/* row length of the image: stride 64 B */
#define STEPS 200
#define COLL_REPS 20	/* rounds of the collectives */

static long sum(const double *x, int n, int stride)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += (long)x[(long)i * stride];
	return s;
}

static long bytes_sum(const unsigned char *x, int n, int stride)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += x[(long)i * stride];
	return s;
}

/* Bounce the columns and the array between partners; returns the sum of
 * what this rank received last. */
static long bounce(double *mat, double *vec, unsigned char *img,
		   MPI_Datatype col, MPI_Datatype bcol, int rank, int peer)
{
	for (int s = 0; s < STEPS; s++) {
		if (rank % 2 == 0) {
			/* strided: MPI packs 1024 doubles 1 KiB apart */
			MPI_Send(mat, 1, col, peer, 1, MPI_COMM_WORLD);
			MPI_Recv(mat, 1, col, peer, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			/* strided: 8192 blocks of one byte */
			MPI_Send(img, 1, bcol, peer, 3, MPI_COMM_WORLD);
			MPI_Recv(img, 1, bcol, peer, 3, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			/* contiguous: the same 8 KiB in one block */
			MPI_Send(vec, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
			MPI_Recv(vec, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(mat, 1, col, peer, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			mat[0] += 1;
			MPI_Send(mat, 1, col, peer, 1, MPI_COMM_WORLD);
			MPI_Recv(img, 1, bcol, peer, 3, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			img[0] += 1;
			MPI_Send(img, 1, bcol, peer, 3, MPI_COMM_WORLD);
			MPI_Recv(vec, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			vec[0] += 1;
			MPI_Send(vec, N, MPI_DOUBLE, peer, 2, MPI_COMM_WORLD);
		}
	}
	return sum(mat, N, LD) + sum(vec, N, 1) + bytes_sum(img, NB, LB);
}

/* Scatter, gather and broadcast one block of n doubles per rank, reps
 * times after a barrier each; the sum of what the last broadcast
 * brought. */
static long collectives(int rank, int size, int reps)
{
	int n = 256;
	double *src = calloc((size_t)n * size, sizeof(double));
	double *all = calloc((size_t)n * size, sizeof(double));
	double *mine = calloc((size_t)n, sizeof(double));
	long s = 0;

	if (!src || !all || !mine)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (int i = 0; rank == 0 && i < n * size; i++)
		src[i] = i % 97;
	for (int k = 0; k < reps; k++) {
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Scatter(src, n, MPI_DOUBLE, mine, n, MPI_DOUBLE, 0,
			    MPI_COMM_WORLD);
		for (int i = 0; i < n; i++)
			mine[i] += rank;
		MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0,
			   MPI_COMM_WORLD);
		MPI_Bcast(all, n * size, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	}
	s = sum(all, n * size, 1);
	free(src);
	free(all);
	free(mine);
	return s;
}

int main(int argc, char **argv)
{
	double *mat, *vec;
	unsigned char *img;
	MPI_Datatype col, bcol;
	int rank, size;
	long mine = 0, total = 0, coll;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	mat = malloc(sizeof(double) * N * LD);
	vec = malloc(sizeof(double) * N);
	img = malloc((size_t)NB * LB);
	if (!mat || !vec || !img)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (int i = 0; i < N * LD; i++)
		mat[i] = i % 31;
	for (int i = 0; i < N; i++)
		vec[i] = i % 29;
	for (long i = 0; i < (long)NB * LB; i++)
		img[i] = (unsigned char)(i % 23);
	MPI_Type_vector(N, 1, LD, MPI_DOUBLE, &col);
	MPI_Type_commit(&col);
	MPI_Type_vector(NB, 1, LB, MPI_UNSIGNED_CHAR, &bcol);
	MPI_Type_commit(&bcol);
	if (size >= 2 && (rank % 2 == 1 || rank + 1 < size))
		mine = bounce(mat, vec, img, col, bcol, rank, rank ^ 1);
	MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	coll = collectives(rank, size, COLL_REPS);
	if (rank == 0)
		printf("ranks %d steps %d checksum %ld collectives %ld\n", size,
		       STEPS, total, coll);
	MPI_Type_free(&col);
	MPI_Type_free(&bcol);
	free(mat);
	free(vec);
	free(img);
	MPI_Finalize();
	return 0;
}
