/*
 * cp_replay.h - replay of a run's point-to-point pattern under PlogPT
 * (PlogPT paper, section III-D): every rank's calls as Isend, Irecv and
 * Wait operations, each with its enter, leave and finish times; the
 * transfers in flight share the edges of the binary tree fairly (eqs.
 * 6-7), and an Isend draws T_RTO when eq. 14 holds.  Blocking calls and
 * collectives are given as their Isend/Irecv/Wait sequence by the caller.
 *
 * Time starts at 0 on every rank, and a rank spends each op's before_s
 * (ours: the computation between calls of a recorded run) before it
 * enters the op; the cost of Isend and Irecv is charged to the Wait that
 * completes them; local copies (a rank to itself, or two ranks on one
 * leaf) finish at once.  Messages match in order per
 * (source, destination, tag), as MPI's non-overtaking rule.
 *
 * The RTO rule refers to the finish time it changes, so the replay runs
 * again with the Isends it flagged, adding those the new times flag (a
 * stall is never taken back: it delays the very burst that caused it),
 * until none is added (at most CP_REPLAY_MAX_PASSES passes).  The rule
 * is tested against the finish time without T_RTO.  Actions return 0 or
 * -CP_E* (analysis/cp_err.h).  No global state; allocates.
 */
#ifndef CP_REPLAY_H
#define CP_REPLAY_H

#include <stdbool.h>

#include "analysis/cp_model.h"

#define CP_REPLAY_MAX_PASSES	8

enum cp_replay_kind {
	CP_REPLAY_ISEND,
	CP_REPLAY_IRECV,
	CP_REPLAY_WAIT,
};

/* One operation of a rank; the replay fills the times. */
struct cp_replay_op {
	enum cp_replay_kind kind;
	int peer;		/* Isend: destination, Irecv: source rank */
	int tag;
	double bytes;		/* Isend, Irecv: message size m */
	int waits;		/* Wait: index, in its rank's list, of the
				 * Isend or Irecv it completes */
	double before_s;	/* time the rank spends before it enters the
				 * op: computation, or calls not replayed */
	/* out */
	double e_s, l_s, f_s;	/* enter, leave, finish (Isend, Irecv) */
	int height;		/* Isend: h of the transfer, 0 local */
	bool rto;		/* Isend: drew T_RTO */
};

/* The operations of one rank, in program order, and its leaf. */
struct cp_replay_rank {
	struct cp_replay_op *ops;
	int n;
	int leaf;		/* 0 .. 2^D - 1 */
};

/* What a replay found. */
struct cp_replay_result {
	double total_s;		/* max over ranks of the last leave time */
	int n_rto;		/* Isends that drew T_RTO */
	int passes;		/* replays run to settle the RTO set */
	bool settled;		/* the RTO set was stable at the end */
};

/*
 * cp_replay_run - replay the ranks under net; fills every op's times and
 * *res.  -CP_EINVAL for a bad peer, leaf, Wait index or size, or a g(m)
 * that cannot be evaluated; -CP_ENOPRED when a Wait can never complete
 * (a receive without its send: the times of what did complete are set,
 * the others NAN); -CP_ENOMEM.
 */
int cp_replay_run(const struct cp_plogpt_net *net,
		  struct cp_replay_rank *ranks, int nranks,
		  struct cp_replay_result *res);

#endif
