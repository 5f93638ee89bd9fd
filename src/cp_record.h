/*
 * cp_record.h - the interface between the generated MPI wrappers (pmpi/)
 * and the core.  A wrapper times the call, fills a struct cp_event and
 * hands it to cp_record(); everything a row means is decided here and in
 * src/, never in pmpi/.
 *
 * Hot path rules (../style.md): no malloc, lock, stdio or syscall in any
 * inline below; the vDSO clock and rdtsc are fine.
 */
#ifndef CP_RECORD_H
#define CP_RECORD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>

#include "src/cp_time.h"

#define CP_API __attribute__((visibility("default")))
#define CP_COLD __attribute__((noinline, cold))
#define cp_likely(x) __builtin_expect(!!(x), 1)
#define cp_unlikely(x) __builtin_expect(!!(x), 0)

/* Special peer and root values, stored as they are in the database. */
#define CP_PEER_NONE	(-1)	/* the call has no peer */
#define CP_PEER_PROCNULL (-2)	/* MPI_PROC_NULL */
#define CP_PEER_ANY	(-3)	/* MPI_ANY_SOURCE, not (yet) resolved */

/* struct cp_event.flags */
#define CP_F_PROCNULL	0x0001	/* peer was MPI_PROC_NULL */
#define CP_F_INPLACE	0x0002	/* a buffer was MPI_IN_PLACE */
#define CP_F_ZERO	0x0004	/* count was zero */
#define CP_F_NONBLOCK	0x0008	/* row completed at request completion */
#define CP_F_PERSIST	0x0010	/* persistent request (Start) */
#define CP_F_FORTRAN	0x0020	/* called through a Fortran binding */
#define CP_F_NOTDONE	0x0040	/* request never completed before finalize */
#define CP_F_CANCELLED	0x0080	/* request was cancelled */
#define CP_F_ANYSRC	0x0100	/* posted with MPI_ANY_SOURCE */
#define CP_F_ANYTAG	0x0200	/* posted with MPI_ANY_TAG */
#define CP_F_RECV	0x0400	/* the row receives (bytes from status) */
#define CP_F_VARBLOCK	0x0800	/* v/w collective: bytes is this rank's total */
#define CP_F_INTER	0x1000	/* intercommunicator: peer/root in remote group */

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
	uint16_t flags;		/* CP_F_* */
	uint32_t seq;		/* per-thread sequence, for posting order */
};

/* Set while the profiler records: after our MPI_Init, before Finalize,
 * and cleared for good by cp_off() on any failure of ours. */
extern atomic_bool cp_active;

/* Thread-local "inside a commprof MPI call" guard: calls made by commprof
 * itself and nested wrapper calls are not recorded. */
extern __thread int cp_nested __attribute__((tls_model("initial-exec")));

/* True when a wrapper should record this call. */
static inline bool cp_should_record(void)
{
	return atomic_load_explicit(&cp_active, memory_order_relaxed) &&
	       !cp_nested;
}

/*
 * cp_record - queue one finished event on this thread's ring.  Cannot
 * fail: a full ring counts the event as dropped (still in the totals).
 */
void cp_record(const struct cp_event *ev);

/* Peer and communicator translation (src/cp_comm.c). */
struct cp_comm_info {
	uint32_t id;		/* job-wide id, equal on every member */
	int32_t size;		/* local group size (remote size if inter) */
	int32_t inter;		/* 1 for an intercommunicator */
	const int32_t *world;	/* group rank -> world rank, NULL = identity */
};

/* Look up (building on first sight, out of line) a communicator. Never
 * NULL: an unusable communicator maps to a placeholder with size -1. */
const struct cp_comm_info *cp_comm_get(MPI_Comm comm);
/* Forget a communicator (before MPI_Comm_free/disconnect). */
void cp_comm_drop(MPI_Comm comm);
/* Register a communicator just created (called after the creating call). */
void cp_comm_new(MPI_Comm comm);

static inline int32_t cp_world_rank(const struct cp_comm_info *ci, int r)
{
	if (r == MPI_PROC_NULL)
		return CP_PEER_PROCNULL;
	if (r == MPI_ANY_SOURCE)
		return CP_PEER_ANY;
	if (r < 0 || r >= ci->size)
		return CP_PEER_NONE;
	return ci->world ? ci->world[r] : r;
}

/* Datatype layouts (src/cp_layout.c). */
/* Index of the layout of committed type t (decoded once, cached until
 * MPI_Type_free); *size_out gets MPI_Type_size in bytes.  Cannot fail:
 * an undecodable type maps to the "unknown" layout index 0. */
uint32_t cp_layout_get(MPI_Datatype t, uint64_t *size_out);
/* Forget a datatype before it is freed. */
void cp_layout_drop(MPI_Datatype t);

/* Pending nonblocking and persistent requests (src/cp_req.c). */
/* A request was posted: keep ev until it completes. */
void cp_req_post(MPI_Request req, const struct cp_event *ev);
/* A persistent request was created: keep ev as its template. */
void cp_req_persist(MPI_Request req, const struct cp_event *ev);
/* MPI_Start on a persistent request. */
void cp_req_start(MPI_Request req, uint64_t now);
/* Request old_req completed inside a call that started at t_call with
 * status st (may be NULL); records its row. */
void cp_req_done(MPI_Request old_req, const MPI_Status *st, uint64_t t_call,
		 uint64_t now);
/* MPI_Request_free or completion of a persistent request's life. */
void cp_req_free(MPI_Request req);
/* True when req is one we track (cheap). */
bool cp_req_tracked(MPI_Request req);

/* Start and end of profiling: called from pmpi/special.c. */
void cp_rt_init(int fortran);
void cp_rt_finalize(void);
/* Flush synchronously before MPI_Abort. */
void cp_rt_abort(int errorcode);
/* Receive completion: bytes and source from a status. */
void cp_status_fill(struct cp_event *ev, const MPI_Status *st,
		    MPI_Datatype t, const struct cp_comm_info *ci);

#endif
