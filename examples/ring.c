/*
 * ring.c - a small deterministic MPI application to profile: each step
 * passes a token around a ring, exchanges a halo with both neighbours (a
 * strided column through MPI_Type_vector next to a contiguous row), and
 * agrees on a checksum with MPI_Allreduce; rank 0 broadcasts the step
 * count first.  Rank 0 prints integer checksums, identical on every run
 * and with or without the profiler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

#define ROWS 64		/* local grid rows */
#define COLS 128	/* local grid columns */

/* Fill the grid with small integers (exact in double) that depend on the
 * rank, so that checksums tell whose data arrived where. */
static void grid_fill(double *g, int rank)
{
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < COLS; j++)
			g[i * COLS + j] = (double)((rank + 1) * 1000 + i * 7 + j);
}

/* One step: token ring, halo exchange, checksum.  Returns the global
 * checksum of this step. */
static long ring_step(double *g, MPI_Datatype col, int rank, int size,
		      int step)
{
	int left = (rank + size - 1) % size, right = (rank + 1) % size;
	long token = 0, local = 0, global = 0;
	double ghost_col[ROWS], ghost_row[COLS];

	/* token ring: rank 0 starts, everyone adds its rank and step */
	if (rank == 0) {
		token = step;
		MPI_Send(&token, 1, MPI_LONG, right, 1, MPI_COMM_WORLD);
		MPI_Recv(&token, 1, MPI_LONG, left, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&token, 1, MPI_LONG, left, 1, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		token += rank * 10 + step;
		MPI_Send(&token, 1, MPI_LONG, right, 1, MPI_COMM_WORLD);
	}

	/* halo: last column to the right (strided), first row to the left
	 * (contiguous); the received data lands in ghost buffers */
	MPI_Sendrecv(&g[COLS - 1], 1, col, right, 2,
		     ghost_col, ROWS, MPI_DOUBLE, left, 2,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&g[0], COLS, MPI_DOUBLE, left, 3,
		     ghost_row, COLS, MPI_DOUBLE, right, 3,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);

	/* the next step sees the neighbours' data */
	for (int i = 0; i < ROWS; i++)
		g[i * COLS] += ghost_col[i] / 1000;
	for (int j = 0; j < COLS; j++)
		g[(ROWS - 1) * COLS + j] += ghost_row[j] / 1000;

	for (int i = 0; i < ROWS * COLS; i++)
		local += (long)g[i];
	local += token;
	MPI_Allreduce(&local, &global, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	return global;
}

int main(int argc, char **argv)
{
	int rank, size, steps = 0;
	double *g;
	MPI_Datatype col;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	g = malloc(sizeof(*g) * ROWS * COLS);
	if (!g) {
		fprintf(stderr, "ring: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	grid_fill(g, rank);
	/* one column of the row-major grid: ROWS blocks of one double */
	MPI_Type_vector(ROWS, 1, COLS, MPI_DOUBLE, &col);
	MPI_Type_commit(&col);

	if (rank == 0)
		steps = argc > 1 ? atoi(argv[1]) : 10;
	MPI_Bcast(&steps, 1, MPI_INT, 0, MPI_COMM_WORLD);

	for (int s = 0; s < steps; s++) {
		long sum = ring_step(g, col, rank, size, s);

		if (rank == 0)
			printf("step %d checksum %ld\n", s, sum);
	}
	if (rank == 0)
		printf("ranks %d steps %d done\n", size, steps);

	MPI_Type_free(&col);
	free(g);
	MPI_Finalize();
	return 0;
}
