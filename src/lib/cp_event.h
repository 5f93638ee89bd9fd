/*
 * cp_event.h - one recorded call as it travels from a wrapper through
 * the per-thread ring to the flusher (src/lib/cp_flush.h), and what the
 * event builders (src/lib/cp_build.h) and the request table
 * (src/lib/cp_req.h) both do to it: read a completion status.
 */
#ifndef CP_EVENT_H
#define CP_EVENT_H

#include <stdint.h>
#include <mpi.h>

#include "src/common/cp_row.h"
#include "src/lib/cp_comm.h"

/* struct cp_event.tag of a call that has no tag. */
#define CP_TAG_NONE INT32_MIN

/*
 * One recorded call.  Times are in ticks of cp_ticks(); the flusher turns
 * them into nanoseconds on the job-wide clock.
 */
struct cp_event {
	uint64_t t0;		/* ticks at entry (at post for requests) */
	uint64_t dur;		/* ticks: call duration, or post..completion */
	uint64_t incall;	/* ticks inside the completing call, else 0 */
	uint64_t bytes;		/* transferred bytes (count * type size) */
	uint64_t count;		/* elements, as passed (or as received) */
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
				 * its post (src/lib/cp_fill.c) */
	float pred_ns[CP_NMODELS];	/* [CP_MODEL_*], ns; NAN none */
	float pred_lmw_ns;	/* log3P's l_mw term, ns; NAN none */
};

/*
 * cp_event_status - fill a received row's bytes, source and tag from its
 * completion status st: type_bytes is the size of one element (0:
 * count stays unknown), ci the communicator (source to world rank).
 * Cannot fail: a status MPI cannot count keeps the posted bytes.
 */
static inline void cp_event_status(struct cp_event *ev,
				   const struct cp_comm_info *ci,
				   const MPI_Status *st, uint64_t type_bytes)
{
	int n = 0;

	if (st->MPI_SOURCE == MPI_PROC_NULL) {
		ev->bytes = 0;
		ev->count = 0;
		ev->peer = CP_PEER_PROCNULL;
		ev->flags |= CP_F_PROCNULL;
		return;
	}
	if (PMPI_Get_count(st, MPI_BYTE, &n) == MPI_SUCCESS &&
	    n != MPI_UNDEFINED && n >= 0) {
		ev->bytes = (uint64_t)n;
		ev->count = type_bytes ? (uint64_t)n / type_bytes : 0;
	}
	ev->flags &= (uint16_t)~CP_F_ZERO;
	if (ev->bytes == 0)
		ev->flags |= CP_F_ZERO;
	ev->peer = cp_world_rank(ci, st->MPI_SOURCE);
	ev->tag = st->MPI_TAG;
}

#endif
