/*
 * cp_coll.h - the message schedules of collective operations as Open MPI
 * 4.1's coll/tuned component runs them: which algorithm its fixed
 * decision rules (or the user's MCA overrides) pick for an operation,
 * a communicator size and a message size, and, for that algorithm, the
 * rounds of concurrent point-to-point transfers it sends (ompi/mca/coll/
 * base/coll_base_*.c of Open MPI 4.1).  The models price a collective
 * from these rounds (analysis/cp_taulop.h for tau-Lop, the baselines
 * over the same rounds).
 *
 * A schedule is not stored: cp_coll_sched() hands each transfer and
 * each reduction to a sink, round after round, so that pricing needs no
 * allocation.  Ranks are group ranks 0..P-1 of the communicator.
 *
 * Plain libc (libcpmodel.la): no MPI, no global state; thread-safe.
 */
#ifndef CP_COLL_H
#define CP_COLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The collective operations scheduled, as X(ID, name): name is the one of
 * Open MPI's MCA parameter coll_tuned_<name>_algorithm and of the report.
 */
#define CP_COLL_OP_MAP(X)					\
	X(BARRIER, barrier)					\
	X(BCAST, bcast)						\
	X(REDUCE, reduce)					\
	X(ALLREDUCE, allreduce)					\
	X(ALLGATHER, allgather)					\
	X(ALLTOALL, alltoall)					\
	X(GATHER, gather)					\
	X(SCATTER, scatter)					\
	X(REDUCE_SCATTER_BLOCK, reduce_scatter_block)		\
	X(SCAN, scan)						\
	X(EXSCAN, exscan)					\
	X(ALLGATHERV, allgatherv)				\
	X(REDUCE_SCATTER, reduce_scatter)

enum cp_coll_op {
#define CP_COLL_OP_ID(id, name) CP_COLL_##id,
	CP_COLL_OP_MAP(CP_COLL_OP_ID)
#undef CP_COLL_OP_ID
	CP_COLL_NOPS
};

/*
 * Open MPI 4.1's algorithms, X(op, number, name, modelled): number as in
 * coll_tuned_<op>_algorithm, name as ompi_info lists it; modelled is 0
 * for an algorithm whose schedule is not written here (its calls get no
 * collective prediction, flagged CP_COLL_E_ALG).  Open MPI falls back
 * from some algorithms to others (Rabenseifner's reduce to the linear
 * one below 2^floor(log2 P) elements); a fallback is modelled where the
 * algorithm is not: the reduce's Rabenseifner schedule proper is not.
 */
#define CP_COLL_ALG_MAP(X)						\
	X(BARRIER, 1, "linear", 1)					\
	X(BARRIER, 2, "double_ring", 1)					\
	X(BARRIER, 3, "recursive_doubling", 1)				\
	X(BARRIER, 4, "bruck", 1)					\
	X(BARRIER, 5, "two_proc", 1)					\
	X(BARRIER, 6, "tree", 1)					\
	X(BCAST, 1, "basic_linear", 1)					\
	X(BCAST, 2, "chain", 1)						\
	X(BCAST, 3, "pipeline", 1)					\
	X(BCAST, 4, "split_binary_tree", 0)				\
	X(BCAST, 5, "binary_tree", 1)					\
	X(BCAST, 6, "binomial", 1)					\
	X(BCAST, 7, "knomial", 1)					\
	X(BCAST, 8, "scatter_allgather", 0)				\
	X(BCAST, 9, "scatter_allgather_ring", 0)			\
	X(REDUCE, 1, "linear", 1)					\
	X(REDUCE, 2, "chain", 1)					\
	X(REDUCE, 3, "pipeline", 1)					\
	X(REDUCE, 4, "binary", 1)					\
	X(REDUCE, 5, "binomial", 1)					\
	X(REDUCE, 6, "in-order_binary", 1)				\
	X(REDUCE, 7, "rabenseifner", 1)					\
	X(ALLREDUCE, 1, "basic_linear", 1)				\
	X(ALLREDUCE, 2, "nonoverlapping", 1)				\
	X(ALLREDUCE, 3, "recursive_doubling", 1)			\
	X(ALLREDUCE, 4, "ring", 1)					\
	X(ALLREDUCE, 5, "segmented_ring", 1)				\
	X(ALLREDUCE, 6, "rabenseifner", 1)				\
	X(ALLGATHER, 1, "linear", 1)					\
	X(ALLGATHER, 2, "bruck", 1)					\
	X(ALLGATHER, 3, "recursive_doubling", 1)			\
	X(ALLGATHER, 4, "ring", 1)					\
	X(ALLGATHER, 5, "neighbor", 1)					\
	X(ALLGATHER, 6, "two_proc", 1)					\
	X(ALLTOALL, 1, "linear", 1)					\
	X(ALLTOALL, 2, "pairwise", 1)					\
	X(ALLTOALL, 3, "modified_bruck", 1)				\
	X(ALLTOALL, 4, "linear_sync", 1)				\
	X(ALLTOALL, 5, "two_proc", 1)					\
	X(GATHER, 1, "basic_linear", 1)					\
	X(GATHER, 2, "binomial", 1)					\
	X(GATHER, 3, "linear_sync", 1)					\
	X(SCATTER, 1, "basic_linear", 1)				\
	X(SCATTER, 2, "binomial", 1)					\
	X(SCATTER, 3, "linear_nb", 1)					\
	X(REDUCE_SCATTER_BLOCK, 1, "basic_linear", 1)			\
	X(REDUCE_SCATTER_BLOCK, 2, "recursive_doubling", 1)		\
	X(REDUCE_SCATTER_BLOCK, 3, "recursive_halving", 1)		\
	X(REDUCE_SCATTER_BLOCK, 4, "butterfly", 1)			\
	X(SCAN, 1, "linear", 1)						\
	X(SCAN, 2, "recursive_doubling", 0)				\
	X(EXSCAN, 1, "linear", 1)					\
	X(EXSCAN, 2, "recursive_doubling", 0)				\
	X(ALLGATHERV, 1, "default", 1)					\
	X(ALLGATHERV, 2, "bruck", 1)					\
	X(ALLGATHERV, 3, "ring", 1)					\
	X(ALLGATHERV, 4, "neighbor", 1)					\
	X(ALLGATHERV, 5, "two_proc", 1)					\
	X(REDUCE_SCATTER, 1, "non-overlapping", 1)			\
	X(REDUCE_SCATTER, 2, "recursive_halving", 1)			\
	X(REDUCE_SCATTER, 3, "ring", 1)					\
	X(REDUCE_SCATTER, 4, "butterfly", 1)

/* Highest algorithm number of any operation. */
#define CP_COLL_MAXALG 9

/* Largest communicator whose collectives are scheduled: the baselines
 * keep a per-rank sum on the stack, and an alltoall sends P(P-1)
 * messages in one round. */
#define CP_COLL_MAXP 256

/*
 * What the user set through Open MPI's MCA parameters (ompi_info --param
 * coll tuned --level 9; named below without their coll_tuned_ prefix).
 * The forced values count only when use_dynamic is set, as in
 * coll/tuned: coll_tuned_use_dynamic_rules.
 */
struct cp_coll_mca {
	bool use_dynamic;		/* use_dynamic_rules */
	int alg[CP_COLL_NOPS];		/* <op>_algorithm, 0 unset */
	int segsize[CP_COLL_NOPS];	/* ..._algorithm_segmentsize, bytes */
	int tree_fanout[CP_COLL_NOPS];	/* ..._algorithm_tree_fanout */
	int chain_fanout[CP_COLL_NOPS];	/* ..._algorithm_chain_fanout */
	int max_requests[CP_COLL_NOPS];	/* ..._algorithm_max_requests */
	int bcast_radix;		/* bcast_algorithm_knomial_radix */
	bool rules_file;		/* dynamic_rules_filename
					 * set: decisions we do not know */
};

/* cp_coll_mca_default - m as Open MPI 4.1 sets it when the user sets
 * nothing: no dynamic rules, tree and chain fanout 4, no segments, no
 * request limit, knomial radix 4.  Cannot fail. */
void cp_coll_mca_default(struct cp_coll_mca *m);

/*
 * cp_coll_mca_format - m as one line of text for a run's meta table:
 * "dynamic=D rules=R radix=K" and, for each operation whose settings
 * are not Open MPI's defaults, "OP=ALG,SEGSIZE,TREE,CHAIN,MAXREQ".
 * buf: out, len bytes (truncated to fit, always terminated when len >
 * 0).  Cannot fail.
 */
void cp_coll_mca_format(const struct cp_coll_mca *m, char *buf, size_t len);

/*
 * cp_coll_mca_parse - the text of cp_coll_mca_format back into m
 * (defaults for what it does not name).  Returns 0, or -CP_COLL_E_ARG on
 * a word it does not know (m then holds the defaults).
 */
int cp_coll_mca_parse(const char *text, struct cp_coll_mca *m);

/* One collective call, as its schedule needs it. */
struct cp_coll_call {
	enum cp_coll_op op;
	int nprocs;		/* communicator size P */
	int root;		/* group rank of the root (rooted ops) */
	int64_t count;		/* elements of the per-process block:
				 * the message of bcast, reduce, allreduce;
				 * one peer's block of allgather, alltoall,
				 * gather, scatter; the result block of
				 * reduce_scatter_block; of allgatherv and
				 * reduce_scatter, every rank's block when
				 * counts is NULL */
	double type_bytes;	/* bytes per element */
	bool commute;		/* the reduction operation commutes (every
				 * predefined MPI_Op does) */
	const int64_t *counts;	/* allgatherv: rank i's block (recvcounts),
				 * reduce_scatter: rank i's result block,
				 * [nprocs] elements each, every rank's
				 * argument; NULL: count each; the other
				 * operations ignore it */
};

/* Why a call has no schedule (negated returns of cp_coll_sched). */
#define CP_COLL_E_ARG	1	/* bad call: op, P < 2, root, count */
#define CP_COLL_E_ALG	2	/* algorithm not modelled here */
#define CP_COLL_E_BIG	3	/* P above CP_COLL_MAXP */
#define CP_COLL_E_RULES	4	/* a dynamic rules file decides */

/* cp_coll_op_name - "bcast", ...; NULL for a value not of the map.
 * Cannot fail. */
const char *cp_coll_op_name(int op);

/* cp_coll_alg_name - the name of algorithm alg of op ("binomial"), or
 * NULL when op has no such algorithm.  Cannot fail. */
const char *cp_coll_alg_name(int op, int alg);

/* cp_coll_alg_modelled - true when alg of op has a schedule here.
 * Cannot fail. */
bool cp_coll_alg_modelled(int op, int alg);

/*
 * cp_coll_fn - the MPI function mpi_name ("MPI_Ibcast") among those priced
 * as a collective here: its index, in the order Barrier, Ibarrier, Bcast,
 * Ibcast, Reduce, Ireduce, Allreduce, Iallreduce, Allgather, Iallgather,
 * Alltoall, Ialltoall, Gather, Igather, Scatter, Iscatter,
 * Reduce_scatter_block, Ireduce_scatter_block, Scan, Iscan, Exscan,
 * Iexscan, Allgatherv, Iallgatherv, Reduce_scatter, Ireduce_scatter (the
 * report lists them so),
 * with its operation in *op (may be NULL); -1 for another name or NULL.
 * Cannot fail.
 */
int cp_coll_fn(const char *mpi_name, enum cp_coll_op *op);

/* cp_coll_total - elements of all of c's blocks: the sum of c->counts
 * (count * nprocs without them); -1 for a negative count or a sum
 * beyond 2^62.  Cannot fail otherwise. */
int64_t cp_coll_total(const struct cp_coll_call *c);

/*
 * cp_coll_decide - the algorithm coll/tuned runs for c: the user's
 * forced one (mca, when use_dynamic is set and the op's algorithm is
 * not 0), else the fixed decision of coll_tuned_decision_fixed.c
 * (scan and exscan: the linear chain, 1, which coll/basic runs too;
 * allgatherv decides on its blocks' bytes over P, reduce_scatter on
 * all its blocks' bytes).
 * Returns the algorithm number >= 1, or -CP_COLL_E_ARG (c invalid),
 * -CP_COLL_E_RULES (a rules file, and no forced algorithm).
 * c: the call; mca: the overrides, NULL for none.
 */
int cp_coll_decide(const struct cp_coll_call *c, const struct cp_coll_mca *mca);

/*
 * Where a schedule goes.  Within a round, cp_coll_sched calls xfer for
 * the transfers grouped by sender (all of one sender's transfers one
 * after another) and then reduce for the local reductions grouped by
 * rank; round() closes each round (a round is a set of transfers that
 * run at once: what the algorithm lets start together).  Messages a
 * process sends to itself are left out.  scratch() names each temporary
 * buffer the algorithm mallocs, on the ranks that malloc it, as
 * coll_base_*.c sizes it (a nested collective's buffers too, as if they
 * lived as long as the call).
 */
struct cp_coll_sink {
	/* a message of bytes from src to dst (group ranks) */
	void (*xfer)(void *arg, int src, int dst, double bytes);
	/* rank reduces bytes into its buffer (an MPI_Op over them) */
	void (*reduce)(void *arg, int rank, double bytes);
	/* end of a round */
	void (*round)(void *arg);
	void *arg;
	/* rank mallocs bytes of scratch for the call (a temporary buffer
	 * of Open MPI's algorithm, freed before the call returns) and
	 * writes used of them from skip bytes on; handed out before the
	 * first round, in the order of the mallocs; may be NULL */
	void (*scratch)(void *arg, int rank, double bytes, double skip,
			double used);
	/* a message of bytes from src to dst with the same data as src's
	 * last message of the round (a broadcast's fan-out to its
	 * children); may be NULL: xfer */
	void (*xfer_same)(void *arg, int src, int dst, double bytes);
	/* whether a blocking send of bytes from src to dst returns before
	 * its receiver takes it (an eager message): then the sender's next
	 * message of a linear scatter, and the next sender's of a linear
	 * gather, joins its round; may be NULL: never */
	bool (*eager)(void *arg, int src, int dst, double bytes);
};

/*
 * cp_coll_sched - the schedule of c under algorithm alg (as chosen by
 * cp_coll_decide with the same mca), handed to sink.  Nested
 * collectives (an allreduce made of a reduce and a bcast) are decided
 * with mca too.  Returns the number of rounds >= 0, or -CP_COLL_E_ARG,
 * -CP_COLL_E_ALG (alg not modelled; nothing handed to sink),
 * -CP_COLL_E_BIG, -CP_COLL_E_RULES.  No allocation.
 * c: the call; alg: algorithm number; mca: overrides or NULL; sink:
 * callbacks.
 */
int cp_coll_sched(const struct cp_coll_call *c, int alg,
		  const struct cp_coll_mca *mca,
		  const struct cp_coll_sink *sink);

#endif
