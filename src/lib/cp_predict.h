/*
 * cp_predict.h - online predictions: every recorded call's time as each
 * calibrated model sees it (README "Predictions").
 *
 * At MPI_Init the library loads COMMPROF_PARAMS (cp_params.h) once and
 * cp_pred_build() turns it into flat tables for the job's world ranks.
 * cp_pred_eval() then prices one call from its size, layout and
 * world-rank peers: arithmetic and table lookups only (no allocation,
 * lock or system call), so that it may run on the hot path.
 *
 * What each model covers (anything else gets no prediction, NAN):
 *   point to point    LMO, log3P, Hockney, LogGP, PLogP (one message);
 *                     tau-Lop (one message among the tau this rank had
 *                     in flight with it); a message to oneself: log3P's
 *                     send-to-self only
 *   linear scatter    LMO (threshold S)
 *   linear gather     LMO (M1, M2; nothing between them)
 *   broadcast         log3P, tree form h = ceil(log2 P)
 *   a collective of analysis/cp_coll.h (barrier, bcast, reduce,
 *                     allreduce, allgather, alltoall, gather, scatter,
 *                     reduce_scatter_block; nonblocking ones as their
 *                     blocking form): tau-Lop, Hockney and LogGP over the
 *                     rounds of the algorithm Open MPI runs for it
 *
 * Plain libc and the formulas of analysis/cp_model.h: no MPI, so tests
 * run it without mpirun.
 */
#ifndef CP_PREDICT_H
#define CP_PREDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/cp_coll.h"
#include "src/common/cp_params.h"
#include "src/common/cp_row.h"

/* What a call is to the models. */
enum cp_pred_kind {
	CP_PK_NONE,		/* no model covers it */
	CP_PK_P2P,		/* one message src -> dst */
	CP_PK_BCAST,		/* broadcast from root to the group */
	CP_PK_SCATTER,		/* linear scatter from root */
	CP_PK_GATHER,		/* linear gather to root */
	CP_PK_COLL,		/* another collective (coll_op) */
};

/* One call, as cp_pred_eval needs it. */
struct cp_pred_in {
	enum cp_pred_kind kind;
	int32_t src, dst;	/* P2P: world ranks of sender and receiver */
	int32_t root;		/* collectives: world rank of the root */
	const int32_t *members;	/* collectives: world ranks of the group,
				 * NULL for 0..nmembers-1 */
	int32_t nmembers;	/* collectives: group size P */
	double bytes;		/* P2P: message; collectives: per process */
	double stride_bytes;	/* 0 contiguous; > 0 distance between
				 * blocks; < 0 irregular or unknown */
	double block_bytes;	/* bytes per block when strided */
	/* collectives: coll_op CP_COLL_* (analysis/cp_coll.h) or -1; the
	 * other kinds of collective set it too */
	int32_t coll_op;
	int32_t alg;		/* Open MPI's algorithm, 0: decided here */
	uint32_t flags;		/* the row's CP_F_* (CP_F_NONCOMMUTE read) */
	double count;		/* elements of the per-process block (bytes
				 * of it over count: the element size) */
	/* allgatherv, reduce_scatter: every rank's block in elements, by
	 * group rank (ncounts of them); NULL: unknown, not priced */
	const int64_t *counts;
	int32_t ncounts;
	int32_t tau;		/* P2P: transfers this rank had in flight
				 * with this one, itself included (>= 1) */
	double gap_s;		/* P2P: seconds its thread spent outside
				 * MPI before it (src/lib/cp_tau.h); NAN
				 * unknown */
	/* collectives: glibc's thresholds as this process's calls so far
	 * raised them, read and updated by tau-Lop (analysis/cp_taulop.h);
	 * NULL: each call priced as one of a run of identical calls */
	struct cp_taulop_hist *heap_hist;
};

/* Its predictions. */
struct cp_pred_out {
	double t_ns[CP_NMODELS];	/* [CP_MODEL_*]; NAN none */
	double lmw_ns;		/* log3P's l_mw term; NAN none */
	uint32_t flags;		/* CP_PF_* (src/common/cp_row.h) */
};

struct cp_pred;

/*
 * cp_pred_build - flat tables of p for a job of nranks world ranks on
 * hosts[r] (hosts may be NULL: not compared).  When the job's ranks or
 * hosts differ from the calibrated ones, LMO uses the averages of its
 * per-rank and per-link estimates for every rank and link (and says so
 * in note).  A model whose parameters failed or are missing is left out
 * and named in note, and so is a calibration that saw the host change
 * speed (assume unsteady).  note: one line (no newline), "" when all is as
 * calibrated; models: out, bit (1 << CP_MODEL_*) per usable model;
 * job_differs: out, true when that fallback was taken.
 * Returns 0 and *out (release with cp_pred_free), -ENOMEM, or -EINVAL
 * (nranks < 1).
 */
int cp_pred_build(const struct cp_params *p, int nranks,
		  const char *const *hosts, struct cp_pred **out,
		  unsigned *models, bool *job_differs, char *note,
		  size_t len);

/* Release m (NULL-safe).  Cannot fail. */
void cp_pred_free(struct cp_pred *m);

/*
 * cp_pred_set_coll - the Open MPI MCA settings the job's collectives run
 * under (what the user forced; cp_coll_mca_default() when nothing):
 * cp_pred_eval decides each collective's algorithm with them.  Until
 * set, Open MPI's defaults.  Not thread-safe against cp_pred_eval: set
 * before the first call is priced.  Cannot fail.
 */
void cp_pred_set_coll(struct cp_pred *m, const struct cp_coll_mca *mca);

/*
 * cp_pred_set_heap - the run's glibc malloc settings (analysis/cp_taulop.h),
 * with which tau-Lop prices the page faults of collectives' scratch
 * buffers.  Until set, glibc's defaults.  Set as cp_pred_set_coll.
 * Cannot fail.
 */
struct cp_taulop_heap;
void cp_pred_set_heap(struct cp_pred *m, const struct cp_taulop_heap *h);

/*
 * cp_pred_coll_alg - the algorithm of Open MPI's coll/tuned for the
 * collective of in (coll_op, nmembers, root, count, bytes, counts)
 * under mca, the one cp_pred_eval prices when in->alg is 0: > 0, or 0
 * when none can be decided (not a collective of analysis/cp_coll.h,
 * fewer than 2 ranks, a root outside the group, a v form without every
 * rank's block, a rules file).  Needs no tables.  Cannot fail.
 */
int cp_pred_coll_alg(const struct cp_coll_mca *mca,
		     const struct cp_pred_in *in);

/*
 * cp_pred_eval - price one call with every model.  Cannot fail: what a
 * model does not cover, or cannot price from in, is NAN.  No allocation,
 * lock or system call.  m: tables; in: the call; out: predictions.
 */
void cp_pred_eval(const struct cp_pred *m, const struct cp_pred_in *in,
		  struct cp_pred_out *out);

#endif
