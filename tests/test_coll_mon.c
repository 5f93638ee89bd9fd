/*
 * test_coll_mon.c - the schedules of analysis/cp_coll_sched.c against
 * what Open MPI really sends.  Each rank makes the collectives named on
 * the command line at a few sizes; rank 0 prints on stdout, in the
 * format of Open MPI's pml/monitoring output (--mca
 * pml_monitoring_enable 2 --mca pml_monitoring_enable_output 1, which
 * prints at MPI_Finalize on stderr the internal messages, "I", every
 * rank sent to each other rank: bytes, count and a histogram of sizes),
 * what the schedules of the algorithms cp_coll_decide picks say all
 * those calls send.  tests/test_coll_sched.sh compares the two.
 *
 *   mpirun -np P test_coll_mon OP[=ALG] ...
 *
 * OP=ALG says that the run was started with coll_tuned_use_dynamic_rules
 * 1 and coll_tuned_<OP>_algorithm ALG (the script sets both).  A line
 * "skip OP ALG" names a call that has no schedule (it is not made).
 * Allgatherv and reduce_scatter take blocks that grow with the rank
 * (vcounts), one of them empty at 3 doubles.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_coll.h"

#define NHIST 66	/* buckets of pml/monitoring: 0 B, then log2 */

static int nprocs;
static double *n_pair, *b_pair, *h_pair;	/* [src * P + dst] */
static int64_t vcount[CP_COLL_MAXP];		/* the v forms' blocks */
static int vcount_int[CP_COLL_MAXP], vdispl[CP_COLL_MAXP];

/* Rank i's block of a v form at count: count + i * count / 3, and none
 * for rank 1 at 3. */
static void set_vcounts(int count)
{
	int i, at = 0;

	for (i = 0; i < nprocs; i++) {
		vcount_int[i] = count == 3 && i == 1 ? 0 :
			count + (int)((int64_t)i * count / 3);
		vcount[i] = vcount_int[i];
		vdispl[i] = at;
		at += vcount_int[i];
	}
}

static void sink_xfer(void *arg, int src, int dst, double bytes)
{
	int k = src * nprocs + dst, bin = 0;

	(void)arg;
	n_pair[k] += 1;
	b_pair[k] += bytes;
	if (bytes >= 1)
		for (bin = 1; bytes >= 2; bytes /= 2)
			bin++;
	h_pair[(size_t)k * NHIST + bin] += 1;
}

static void sink_none(void *arg, int src, int dst, double bytes)
{
	(void)arg;
	(void)src;
	(void)dst;
	(void)bytes;
}

static void sink_round(void *arg)
{
	(void)arg;
}

static int root_of(enum cp_coll_op op)
{
	return op == CP_COLL_BCAST || op == CP_COLL_REDUCE ||
	       op == CP_COLL_GATHER || op == CP_COLL_SCATTER ? nprocs - 1 : 0;
}

static void run(enum cp_coll_op op, int count, double *a, double *b)
{
	int root = root_of(op), me;

	switch (op) {
	case CP_COLL_BARRIER:
		MPI_Barrier(MPI_COMM_WORLD);
		break;
	case CP_COLL_BCAST:
		MPI_Bcast(a, count, MPI_DOUBLE, root, MPI_COMM_WORLD);
		break;
	case CP_COLL_REDUCE:
		MPI_Reduce(a, b, count, MPI_DOUBLE, MPI_SUM, root,
			   MPI_COMM_WORLD);
		break;
	case CP_COLL_ALLREDUCE:
		MPI_Allreduce(a, b, count, MPI_DOUBLE, MPI_SUM,
			      MPI_COMM_WORLD);
		break;
	case CP_COLL_ALLGATHER:
		MPI_Allgather(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE,
			      MPI_COMM_WORLD);
		break;
	case CP_COLL_ALLTOALL:
		MPI_Alltoall(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE,
			     MPI_COMM_WORLD);
		break;
	case CP_COLL_GATHER:
		MPI_Gather(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, root,
			   MPI_COMM_WORLD);
		break;
	case CP_COLL_SCATTER:
		MPI_Scatter(a, count, MPI_DOUBLE, b, count, MPI_DOUBLE, root,
			    MPI_COMM_WORLD);
		break;
	case CP_COLL_REDUCE_SCATTER_BLOCK:
		MPI_Reduce_scatter_block(a, b, count, MPI_DOUBLE, MPI_SUM,
					 MPI_COMM_WORLD);
		break;
	case CP_COLL_SCAN:
		MPI_Scan(a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case CP_COLL_EXSCAN:
		MPI_Exscan(a, b, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		break;
	case CP_COLL_ALLGATHERV:
		MPI_Comm_rank(MPI_COMM_WORLD, &me);
		MPI_Allgatherv(a, vcount_int[me], MPI_DOUBLE, b, vcount_int,
			       vdispl, MPI_DOUBLE, MPI_COMM_WORLD);
		break;
	case CP_COLL_REDUCE_SCATTER:
		MPI_Reduce_scatter(a, b, vcount_int, MPI_DOUBLE, MPI_SUM,
				   MPI_COMM_WORLD);
		break;
	default:
		break;
	}
}

/* Add the schedule of op on count doubles when keep is set; 0, or -1
 * without one (the call is then not made). */
static int expect(enum cp_coll_op op, int count, const struct cp_coll_mca *m,
		  bool keep)
{
	struct cp_coll_call c = { op, nprocs, root_of(op), count, 8.0, true,
				  vcount };
	struct cp_coll_sink s = { .xfer = sink_xfer, .round = sink_round };
	struct cp_coll_sink none = { .xfer = sink_none, .round = sink_round };
	int alg;

	if (op == CP_COLL_BARRIER)
		c.count = 0;
	alg = cp_coll_decide(&c, m);
	if (alg < 0 || cp_coll_sched(&c, alg, m, keep ? &s : &none) < 0) {
		if (keep)
			printf("skip %s %s\n", cp_coll_op_name(op),
			       alg > 0 ? cp_coll_alg_name(op, alg) : "?");
		return -1;
	}
	return 0;
}

/* Open MPI's linear alltoall sends through persistent requests, which
 * pml/monitoring does not count: such calls are left out. */
static bool unseen(enum cp_coll_op op, int count, const struct cp_coll_mca *m)
{
	struct cp_coll_call c = { op, nprocs, root_of(op), count, 8.0, true,
				  vcount };

	return op == CP_COLL_ALLTOALL && cp_coll_decide(&c, m) == 1;
}

static void print_pairs(void)
{
	int i, j, k;

	for (i = 0; i < nprocs; i++)
		for (j = 0; j < nprocs; j++) {
			size_t at = (size_t)(i * nprocs + j) * NHIST;

			if (i == j || !n_pair[i * nprocs + j])
				continue;
			printf("W\t%d\t%d\t%.0f bytes\t%.0f msgs sent\t", i,
			       j, b_pair[i * nprocs + j],
			       n_pair[i * nprocs + j]);
			for (k = 0; k < NHIST; k++)
				printf("%.0f%s", h_pair[at + k],
				       k < NHIST - 1 ? "," : "\n");
		}
}

int main(int argc, char **argv)
{
	/* per-process blocks in doubles: both sides of the eager limit and
	 * of many thresholds of the fixed rules; odd counts exercise the
	 * early/late split of blocks */
	static const int counts[] = { 1, 3, 37, 187, 1001, 3000, 12345,
				      40000 };
	struct cp_coll_mca m;
	bool run_op[CP_COLL_NOPS] = { false };
	int op, k, i, rank;
	size_t np;
	double *a, *b;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (nprocs > CP_COLL_MAXP)
		MPI_Abort(MPI_COMM_WORLD, 2);
	cp_coll_mca_default(&m);
	for (i = 1; i < argc; i++) {
		size_t l = strcspn(argv[i], "=");

		for (op = 0; op < CP_COLL_NOPS; op++)
			if (strlen(cp_coll_op_name(op)) == l &&
			    !strncmp(argv[i], cp_coll_op_name(op), l))
				break;
		if (op == CP_COLL_NOPS)
			continue;
		run_op[op] = true;
		if (argv[i][l] == '=') {
			m.use_dynamic = true;
			m.alg[op] = atoi(argv[i] + l + 1);
		}
	}
	np = (size_t)nprocs * nprocs;
	/* the v forms' blocks: up to count * (1 + (P - 1) / 3) each */
	a = calloc((size_t)40000 * nprocs * nprocs + 1, sizeof(double));
	b = calloc((size_t)40000 * nprocs * nprocs + 1, sizeof(double));
	n_pair = calloc(np, sizeof(double));
	b_pair = calloc(np, sizeof(double));
	h_pair = calloc(np * NHIST, sizeof(double));
	for (op = 0; op < CP_COLL_NOPS; op++) {
		if (!run_op[op])
			continue;
		for (k = 0; k < (int)(sizeof(counts) / sizeof(counts[0]));
		     k++) {
			set_vcounts(counts[k]);
			if (unseen(op, counts[k], &m) ||
			    expect(op, counts[k], &m, rank == 0))
				continue;
			run(op, counts[k], a, b);
		}
	}
	if (rank == 0)
		print_pairs();
	free(a);
	free(b);
	free(n_pair);
	free(b_pair);
	free(h_pair);
	MPI_Finalize();
	return 0;
}
