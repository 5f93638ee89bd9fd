/*
 * cp_req.h - nonblocking and persistent requests between post and
 * completion, matched in the flusher (src/lib/cp_req.c), by handle and
 * order: the wrappers only record the post (with the request made), each
 * Start, each completed request (snapshotted before the completion call
 * overwrote it, with its status words), each cancel and free.
 *
 * MPI hands a request's handle out again once it completed, so one
 * handle names a sequence of requests; the record of a completion at
 * tick t belongs to the newest post of that handle made before t.  A
 * completion may be read before its post when they were made on two
 * threads (the flusher drains the rings one after the other): it waits
 * for its post one whole drain, then is given up (the post found its
 * ring full).  Everything here is the flusher's: no lock.
 */
#ifndef CP_REQ_H
#define CP_REQ_H

#include <stdint.h>
#include <mpi.h>

#include "src/lib/cp_event.h"

struct cp_comm_info;
struct cp_tau;

/* A row the matcher completed: the call and its communicator (for the
 * predictions); with has_half, also the receive half of an Isendrecv
 * (completed by the same request, on the same communicator). */
struct cp_req_row {
	struct cp_event ev;
	const struct cp_comm_info *ci;
	struct cp_event half;
	int has_half;
};

/*
 * cp_req_post - request req was posted (ev: the posted call as
 * cp_derive() gave it, from a record made at tick made; ci, type_bytes:
 * its other outputs); persist: a persistent request, which starts
 * inactive.  cycle: the flusher's drain number.  Returns 1 and *out when
 * a completion read before it completes it now, else 0.  Cannot fail:
 * out of memory, the request is not tracked.
 */
int cp_req_post(MPI_Request req, uint64_t made, const struct cp_event *ev,
		const struct cp_comm_info *ci, uint64_t type_bytes,
		int persist, struct cp_req_row *out);

/*
 * cp_req_post_half - the receive half (ev, flagged CP_F_HALF; ci,
 * type_bytes as for cp_req_post) of the Isendrecv whose send was posted
 * as req at the same tick made: its row completes with that request's.
 * Without such a post (its completion was read first, on another
 * thread, and completed it), the half is posted as a request of its own,
 * as cp_req_post does, returning what that returns.  Cannot fail.
 */
int cp_req_post_half(MPI_Request req, uint64_t made,
		     const struct cp_event *ev, const struct cp_comm_info *ci,
		     uint64_t type_bytes, struct cp_req_row *out);

/* cp_req_start - persistent request req started at tick t by the thread
 * whose messages tau counts (src/lib/cp_tau.h).  Cannot fail. */
void cp_req_start(MPI_Request req, uint64_t t, struct cp_tau *tau);

/*
 * cp_req_done - request req completed in a call [t0, t1] with status st
 * (NULL: none).  Returns 1 and *out when it completes a tracked
 * request's row; 0 for an inactive persistent request or an unknown
 * handle (kept for one drain, cycle, in case its post comes late).
 */
int cp_req_done(MPI_Request req, const MPI_Status *st, uint64_t t0,
		uint64_t t1, uint64_t cycle, struct cp_req_row *out);

/* cp_req_cancel - MPI_Cancel of req at tick t: its row is flagged
 * CP_F_CANCELLED.  Cannot fail. */
void cp_req_cancel(MPI_Request req, uint64_t t);

/* cp_req_free - MPI_Request_free of req at tick t.  Returns 1 and *out,
 * flagged CP_F_NOTDONE, when the request was active (its completion
 * unseen), else 0. */
int cp_req_free(MPI_Request req, uint64_t t, struct cp_req_row *out);

/* cp_req_age - give up the completions that met no post and were read
 * in a drain before cycle, a drain that read every ring to its head (so
 * every post made before them has been read).  Cannot fail. */
void cp_req_age(uint64_t cycle);

/* cp_req_pending - at the end: one request still active, as a row
 * flagged CP_F_NOTDONE that lasts until tick now, removed; 0 when none
 * is left.  Then every request is forgotten. */
int cp_req_pending(uint64_t now, struct cp_req_row *out);

#endif
