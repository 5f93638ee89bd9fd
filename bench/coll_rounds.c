/*
 * coll_rounds.c - what tau-Lop's pricing of a collective's rounds inside
 * a host rests on (analysis/cp_taulop_eval.c), measured side by side in
 * one run.  Each pattern runs REPS times, each time after the senders
 * wrote their buffers (a byte of every cache line, as an application
 * computes what it sends) and an MPI_Barrier; a time is from the last
 * process's entry to the last one's exit on the host's monotonic clock,
 * as the library times a collective (all ranks on one host).  The
 * patterns, for each size m:
 *
 *   one message     rank 0 sends m bytes to rank 1, the others wait
 *   fan-out, 1 buf  rank 0 Isends one buffer to every other rank
 *   fan-out, P-1    rank 0 Isends a different buffer to each
 *   MPI_Bcast       of m bytes from rank 0
 *   ring            every rank sends m bytes to the next and receives
 *                   from the one before (Isend, Recv, Wait)
 *
 * Printed: each pattern's median in us, then the ratios the model's
 * rules stand for: a fan-out of one buffer against one message (a
 * sender's messages of the same data cross the channel once: near 1,
 * where P-1 separate messages would give up to P-1), P-1 buffers
 * against one, and the ring against one message (the rounds that start
 * together, taulop.Ls).  Not a test: figures depend on the host.
 *
 *   mpirun -np 4 bench/coll_rounds [-r REPS] [BYTES...]
 *
 * REPS default 60, BYTES default 1500 24000 200000.  Needs 2 ranks or
 * more.  Exit 0, or 1 on a bad argument.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/cp_clock.h"

enum { ONE, FAN_SAME, FAN_DIFF, BCAST, RING, NPAT };

static const char *const pat_name[NPAT] = { "one message", "fan-out, 1 buf",
	"fan-out, P-1", "MPI_Bcast", "ring" };

static void write_buf(char *p, size_t len)
{
	for (size_t j = 0; j < len; j += 64)
		p[j]++;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Pattern pat once, m bytes; sb holds P blocks of m, rb one, q P
 * requests. */
static void run_pat(int pat, int me, int np, size_t m, char *sb, char *rb,
		    MPI_Request *q)
{
	int n = 0, i;

	switch (pat) {
	case ONE:
		if (me == 0)
			MPI_Send(sb, (int)m, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
		else if (me == 1)
			MPI_Recv(rb, (int)m, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		break;
	case FAN_SAME:
	case FAN_DIFF:
		if (me) {
			MPI_Recv(rb, (int)m, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			break;
		}
		for (i = 1; i < np; i++)
			MPI_Isend(sb + (pat == FAN_SAME ? 0 : i * m), (int)m,
				  MPI_BYTE, i, 1, MPI_COMM_WORLD, &q[n++]);
		MPI_Waitall(n, q, MPI_STATUSES_IGNORE);
		break;
	case BCAST:
		MPI_Bcast(me ? rb : sb, (int)m, MPI_BYTE, 0, MPI_COMM_WORLD);
		break;
	case RING:
		MPI_Isend(sb, (int)m, MPI_BYTE, (me + 1) % np, 1,
			  MPI_COMM_WORLD, &q[0]);
		MPI_Recv(rb, (int)m, MPI_BYTE, (me + np - 1) % np, 1,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&q[0], MPI_STATUS_IGNORE);
		break;
	}
}

/* The median time of pattern pat over reps calls into t[reps], on rank
 * 0 (0 elsewhere). */
static double time_pat(int pat, int me, int np, size_t m, int reps,
		       char *sb, char *rb, MPI_Request *q, double *t)
{
	/* who sends: every rank of the ring, rank 0 otherwise */
	int sends = pat == RING || me == 0;
	size_t len = pat == FAN_DIFF ? np * m : m;
	double x[2], y[2];

	for (int r = -1; r < reps; r++) {
		if (sends)
			write_buf(sb, len);
		MPI_Barrier(MPI_COMM_WORLD);
		x[0] = cp_clock_s();
		run_pat(pat, me, np, m, sb, rb, q);
		x[1] = cp_clock_s();
		if (pat == ONE && me > 1)
			x[0] = x[1] = 0;	/* not taking part */
		/* the last entry and the last exit */
		MPI_Reduce(x, y, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
		if (r >= 0)
			t[r] = y[1] - y[0];
	}
	if (me)
		return 0;
	qsort(t, (size_t)reps, sizeof(*t), cmp_dbl);
	return t[reps / 2];
}

int main(int argc, char **argv)
{
	static const size_t def_sizes[] = { 1500, 24000, 200000 };
	int me, np, reps = 60, a = 1, ns, i, k;
	size_t sizes[64], mmax = 0;
	double med[NPAT], *t;
	char *sb, *rb;
	MPI_Request *q;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (a + 1 < argc && !strcmp(argv[a], "-r")) {
		reps = atoi(argv[a + 1]);
		a += 2;
	}
	for (ns = 0; a < argc && ns < 64; a++, ns++)
		sizes[ns] = (size_t)strtoull(argv[a], NULL, 10);
	if (!ns)
		for (; ns < 3; ns++)
			sizes[ns] = def_sizes[ns];
	for (i = 0; i < ns; i++) {
		if (!sizes[i])
			mmax = SIZE_MAX;
		mmax = sizes[i] > mmax ? sizes[i] : mmax;
	}
	if (np < 2 || reps < 1 || mmax > (1u << 30) / np) {
		if (!me)
			fprintf(stderr, "usage: mpirun -np P (P >= 2) %s "
				"[-r REPS] [BYTES...] (1 to 2^30/P each)\n",
				argv[0]);
		MPI_Finalize();
		return 1;
	}
	sb = calloc((size_t)np, mmax);
	rb = calloc(1, mmax);
	t = calloc((size_t)reps, sizeof(*t));
	q = calloc((size_t)np, sizeof(*q));
	if (!sb || !rb || !t || !q) {
		fprintf(stderr, "coll_rounds: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (!me) {
		printf("coll_rounds: %d ranks, median of %d calls, us (last "
		       "entry to last exit)\n%8s", np, reps, "bytes");
		for (k = 0; k < NPAT; k++)
			printf("  %14s", pat_name[k]);
		printf("  %9s  %9s  %9s\n", "1buf/one", "P-1/1buf",
		       "ring/one");
	}
	for (i = 0; i < ns; i++) {
		for (k = 0; k < NPAT; k++)
			med[k] = time_pat(k, me, np, sizes[i], reps, sb, rb,
					  q, t) * 1e6;
		if (me)
			continue;
		printf("%8zu", sizes[i]);
		for (k = 0; k < NPAT; k++)
			printf("  %14.2f", med[k]);
		printf("  %9.2f  %9.2f  %9.2f\n", med[FAN_SAME] / med[ONE],
		       med[FAN_DIFF] / med[FAN_SAME], med[RING] / med[ONE]);
	}
	free(sb);
	free(rb);
	free(t);
	free(q);
	MPI_Finalize();
	return 0;
}
