/*
 * cp_event.h - one call as the flusher derives it from a raw record
 * (src/lib/cp_derive.h): world ranks, bytes, layout, flags, times in
 * ticks, and the predictions; then a row of the rank file.  Also how a
 * saved MPI_Status is read without calling MPI: the flusher makes no MPI
 * call.
 */
#ifndef CP_EVENT_H
#define CP_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>

#include "src/common/cp_row.h"

struct cp_comm_info;

/* struct cp_event.tag of a call that has no tag. */
#define CP_TAG_NONE INT32_MIN

/*
 * One call.  Times are in ticks of cp_ticks(); the flusher turns them
 * into nanoseconds on the job-wide clock when it stores the row.
 */
#define CP_QUIET_NONE	UINT64_MAX

struct cp_event {
	uint64_t t0;		/* ticks at entry (at post for requests) */
	uint64_t dur;		/* ticks: call duration, or post..completion */
	uint64_t incall;	/* ticks inside the completing call, else 0 */
	uint64_t bytes;		/* transferred bytes (count * type size) */
	uint64_t count;		/* elements, as passed (or as received) */
	uint64_t quiet;		/* p2p: ticks its thread spent outside MPI
				 * before it (src/lib/cp_tau.h);
				 * CP_QUIET_NONE unknown */
	uintptr_t site;		/* return address into the application */
	int32_t peer;		/* world rank or CP_PEER_* */
	int32_t root;		/* world rank or CP_PEER_NONE */
	int32_t tag;		/* tag, or MPI_ANY_TAG resolved from status */
	int32_t comm_size;	/* size of the communicator (remote if inter) */
	uint32_t comm;		/* job-wide communicator id (cp_comm.h) */
	uint32_t layout;	/* index into the layout table (cp_layout.h) */
	uint16_t call;		/* CP_CALL_*, generated from mpi_calls.def */
	uint16_t flags;		/* CP_F_* (src/common/cp_row.h) */
	uint16_t pred_flags;	/* CP_PF_* (src/common/cp_row.h); 0: the
				 * pred fields below were not written */
	uint16_t tau;		/* p2p: messages of this thread in flight
				 * with this one, itself included */
	uint32_t tau_mark;	/* p2p request: messages started before
				 * its post (src/lib/cp_tau.h) */
	uint32_t vec;		/* collectives: id of every rank's block
				 * (src/lib/cp_vec.h), 0 none */
	int16_t alg;		/* collectives: coll/tuned's algorithm
				 * (analysis/cp_coll.h) the flusher
				 * decided, 0 not known */
	float pred_ns[CP_NMODELS];	/* [CP_MODEL_*], ns; NAN none */
	float pred_lmw_ns;	/* log3P's l_mw term, ns; NAN none */
};

/*
 * cp_status_bytes - the bytes a completed receive's status st says
 * arrived; false when it cannot say (the row keeps the posted bytes).
 * Reads the status words (Open MPI, MPICH) or asks MPI (any other), so
 * that the flusher need not call MPI.  Cannot fail.
 */
static inline bool cp_status_bytes(const MPI_Status *st, uint64_t *bytes)
{
#if defined(OPEN_MPI)
	*bytes = (uint64_t)st->_ucount;
	return true;
#elif defined(MPICH)
	*bytes = (uint64_t)(uint32_t)st->count_lo |
		 (uint64_t)((uint32_t)st->count_hi_and_cancelled >> 1) << 32;
	return true;
#else
	int n = 0;

	if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS ||
	    n == MPI_UNDEFINED || n < 0)
		return false;
	*bytes = (uint64_t)n;
	return true;
#endif
}

/* cp_status_cancelled - true when st says its request was cancelled.
 * Cannot fail. */
static inline bool cp_status_cancelled(const MPI_Status *st)
{
#if defined(OPEN_MPI)
	return st->_cancelled != 0;
#elif defined(MPICH)
	return st->count_hi_and_cancelled & 1;
#else
	int c = 0;

	return PMPI_Test_cancelled(st, &c) == MPI_SUCCESS && c;
#endif
}

/*
 * cp_event_status - fill a received row's bytes, source and tag from its
 * completion status st: type_bytes is the size of one element (0:
 * count stays unknown), ci the communicator (source to world rank).
 * Cannot fail: a status that cannot count keeps the posted bytes.
 */
void cp_event_status(struct cp_event *ev, const struct cp_comm_info *ci,
		     const MPI_Status *st, uint64_t type_bytes);

#endif
