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

#include "src/common/cp_row.h"
#include "src/lib/cp_time.h"

#define CP_API __attribute__((visibility("default")))
#define CP_COLD __attribute__((noinline, cold))
#define cp_likely(x) __builtin_expect(!!(x), 1)
#define cp_unlikely(x) __builtin_expect(!!(x), 0)

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
	float pred_ns[CP_NMODELS];	/* [CP_MODEL_*], ns; NAN none */
	float pred_lmw_ns;	/* log3P's l_mw term, ns; NAN none */
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

/* Peer and communicator translation (src/lib/cp_comm.c). */
struct cp_comm_info {
	uint32_t id;		/* job-wide id, equal on every member */
	int32_t size;		/* group size (remote group if inter) */
	int32_t me;		/* own rank in the (local) group */
	int32_t inter;		/* 1 for an intercommunicator */
	int32_t outdeg;		/* neighbours a topology sends to, else 0 */
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

/* Datatype layouts (src/lib/cp_layout.c). */
/* Index of the layout of committed type t (decoded once, cached until
 * MPI_Type_free); *size_out gets MPI_Type_size in bytes.  Cannot fail:
 * an undecodable type maps to the "unknown" layout index 0. */
uint32_t cp_layout_get(MPI_Datatype t, uint64_t *size_out);
/* Forget a datatype before it is freed. */
void cp_layout_drop(MPI_Datatype t);

/* What a wrapper knows about one finished call; filled on the stack and
 * handed to one cp_rec_* or cp_post_* function. */
struct cp_call {
	uint64_t t0, t1;	/* ticks around the real call */
	uintptr_t site;		/* return address into the application */
	MPI_Comm comm;
	MPI_Datatype type;
	int call;		/* CP_CALL_* */
	int flags;		/* CP_F_FORTRAN or 0 */
	int count;
	int peer;		/* rank in comm, MPI_PROC_NULL, MPI_ANY_SOURCE */
	int root;		/* rank in comm, or CP_PEER_NONE */
	int tag;		/* CP_TAG_NONE when the call has none */
};
#define CP_TAG_NONE INT32_MIN
/* INTEGERs in a Fortran status (MPI_STATUS_SIZE); MPI-4 names it. */
#ifdef MPI_F_STATUS_SIZE
#define CP_F_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define CP_F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif
#define CP_LAYOUT_NONE UINT32_MAX	/* the call has no datatype */

/* Per-process block of a collective (src/lib/cp_coll.c). */
struct cp_blk {
	uint64_t bytes;
	uint64_t count;
	uint32_t layout;
	uint16_t flags;		/* CP_F_INPLACE, CP_F_VARBLOCK, CP_F_ZERO */
};

/* Record a finished blocking call.  None can fail. */
void cp_rec_send(const struct cp_call *c);
void cp_rec_recv(const struct cp_call *c, const MPI_Status *st);
void cp_rec_probe(const struct cp_call *c, int found, const MPI_Status *st);
void cp_rec_coll(const struct cp_call *c, const struct cp_blk *b);
/* A nonblocking or persistent call posted request req; its row is
 * recorded when the request completes (cp_wait_post). */
void cp_post_send(const struct cp_call *c, MPI_Request req, int persist);
void cp_post_recv(const struct cp_call *c, MPI_Request req, int persist);
void cp_post_coll(const struct cp_call *c, const struct cp_blk *b,
		  MPI_Request req);

/* Collective blocks: one function per @block kind of mpi_calls.def. */
void cp_blk_none(struct cp_blk *b);
void cp_blk_bytes(struct cp_blk *b, int count, MPI_Datatype t);
void cp_blk_send(struct cp_blk *b, const void *sbuf, int scount,
		 MPI_Datatype st, int rcount, MPI_Datatype rt);
void cp_blk_reduce(struct cp_blk *b, const void *sbuf, int count,
		   MPI_Datatype t);
void cp_blk_scatter(struct cp_blk *b, int scount, MPI_Datatype st,
		    const void *rbuf, int rcount, MPI_Datatype rt, int root,
		    MPI_Comm comm);
void cp_blk_scatterv(struct cp_blk *b, const int *scounts, MPI_Datatype st,
		     const void *rbuf, int rcount, MPI_Datatype rt, int root,
		     MPI_Comm comm);
void cp_blk_sendv(struct cp_blk *b, const void *sbuf, int scount,
		  MPI_Datatype st, const int *rcounts, MPI_Datatype rt,
		  MPI_Comm comm);
void cp_blk_alltoallv(struct cp_blk *b, const void *sbuf, const int *scounts,
		      MPI_Datatype st, const int *rcounts, MPI_Datatype rt,
		      MPI_Comm comm);
void cp_blk_alltoallw(struct cp_blk *b, const void *sbuf, const int *scounts,
		      const MPI_Datatype *sts, const int *rcounts,
		      const MPI_Datatype *rts, MPI_Comm comm);
void cp_blk_redscat(struct cp_blk *b, const void *sbuf, const int *rcounts,
		    MPI_Datatype t, MPI_Comm comm);
void cp_blk_nbrv(struct cp_blk *b, const int *scounts, MPI_Datatype st,
		 MPI_Comm comm);
void cp_blk_nbrw(struct cp_blk *b, const int *scounts,
		 const MPI_Datatype *sts, MPI_Comm comm);

/* Matched probes: remember which communicator a message came from. */
void cp_msg_note(MPI_Message m, MPI_Comm comm);
MPI_Comm cp_msg_comm(MPI_Message m);

/* Requests (src/lib/cp_req.c). */
void cp_req_start(MPI_Request req, uint64_t now);
void cp_req_free(MPI_Request req, uint64_t now);
void cp_req_cancel(MPI_Request req);

/* Completion calls: cp_wait_pre snapshots the request handles (which MPI
 * overwrites) and substitutes a status array when the caller ignores
 * statuses; cp_wait_post records the rows of what completed. */
enum cp_done {
	CP_DONE_ONE, CP_DONE_ALL, CP_DONE_ANY, CP_DONE_SOME,
	CP_DONE_TEST, CP_DONE_TESTALL, CP_DONE_TESTANY, CP_DONE_TESTSOME,
	CP_DONE_NONE,
};
struct cp_wait {
	int call;		/* CP_CALL_* of the completion call */
	int flags;		/* CP_F_FORTRAN or 0 */
	MPI_Status st;		/* substituted single status */
	MPI_Request *reqs;	/* snapshot (per-thread scratch or one) */
	MPI_Request one;
	int n;			/* snapshot length, 0: nothing snapshotted */
};
void cp_wait_pre(struct cp_wait *w, const MPI_Request *reqs, int n,
		 MPI_Status **st, int many);
void cp_wait_post(struct cp_wait *w, enum cp_done kind, const int *index,
		  const int *flag, const int *outcount, const int *indices,
		  const MPI_Status *st, uint64_t t0, uint64_t t1,
		  uintptr_t site);
void cp_wait_pre_f(struct cp_wait *w, const MPI_Fint *reqs, int n,
		   MPI_Fint **st, int many);
void cp_wait_post_f(struct cp_wait *w, enum cp_done kind,
		    const MPI_Fint *index, const MPI_Fint *flag,
		    const MPI_Fint *outcount, const MPI_Fint *indices,
		    const MPI_Fint *st, uint64_t t0, uint64_t t1,
		    uintptr_t site);

/* Fortran support (src/lib/cp_fortran.c). */
/* Address of the real Fortran routine `name` (or `alt`), resolved once
 * behind us in the link order; never NULL (a stub that fails the call
 * with MPI_ERR_INTERN and warns, should the MPI library lack it). */
void *cp_f_real(const char *name, const char *alt);
/* MPI_IN_PLACE / MPI_BOTTOM for a Fortran sentinel, else buf. */
const void *cp_f_buf(const void *buf);
bool cp_f_status_ignored(const MPI_Fint *st);
bool cp_f_statuses_ignored(const MPI_Fint *st);
/* Fortran datatype array as C handles (per-thread scratch), NULL if the
 * communicator is too large for it. */
const MPI_Datatype *cp_f_types(const MPI_Fint *t, MPI_Comm comm);

/* Layout cache kept true across MPI_Type_commit. */
static inline void cp_layout_note(MPI_Datatype t)
{
	uint64_t size;

	(void)cp_layout_get(t, &size);
}

/* Start and end of profiling: called from pmpi/special.c. */
void cp_rt_init(void);
void cp_rt_finalize(void);
/* Flush synchronously before MPI_Abort. */
void cp_rt_abort(int errorcode);

#endif
