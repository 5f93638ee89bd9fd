/*
 * cp_req.h - nonblocking and persistent requests between post and
 * completion (src/lib/cp_req.c).  A posted call's row waits here until
 * its request completes, possibly on another thread; the completion
 * calls (Wait, Test and their kin) record what completed.
 */
#ifndef CP_REQ_H
#define CP_REQ_H

#include <stdint.h>
#include <mpi.h>

struct cp_comm_info;
struct cp_event;

/* Set up the table of pending requests; once, before the first post.
 * Returns 0, or -ENOMEM (then the caller warns and records nothing). */
int cp_req_init(void);
/* Keep ev until request req completes; ci is the communicator's info
 * (needed to resolve a wildcard source).  A full table records the row
 * at once, flagged CP_F_NOTDONE.  Cannot fail. */
void cp_req_track(MPI_Request req, const struct cp_event *ev, int persist,
		  const struct cp_comm_info *ci);
/* A persistent request was started at tick now.  Cannot fail. */
void cp_req_start(MPI_Request req, uint64_t now);
/* Request req is freed at tick now: an active one's row is recorded,
 * flagged CP_F_NOTDONE.  Cannot fail. */
void cp_req_free(MPI_Request req, uint64_t now);
/* Request req is being cancelled: its row gets CP_F_CANCELLED. */
void cp_req_cancel(MPI_Request req);
/* At finalize: record every request still pending, flagged notdone. */
void cp_req_flush_pending(uint64_t now);

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
/* Before the completion call: snapshot reqs[0..n-1] into w; many: *st is
 * an array of statuses (else one), replaced by scratch when ignored.
 * Cannot fail: requests that find no room are not seen completing. */
void cp_wait_pre(struct cp_wait *w, const MPI_Request *reqs, int n,
		 MPI_Status **st, int many);
/* After it: record the rows of the tracked requests that completed, by
 * kind and the call's outputs (index, flag, outcount, indices, st), then
 * the completion call's own row [t0, t1] at site.  Cannot fail. */
void cp_wait_post(struct cp_wait *w, enum cp_done kind, const int *index,
		  const int *flag, const int *outcount, const int *indices,
		  const MPI_Status *st, uint64_t t0, uint64_t t1,
		  uintptr_t site);
/* The same for the Fortran bindings: INTEGER handles, indices from 1,
 * CP_F_STATUS_SIZE INTEGERs per status. */
void cp_wait_pre_f(struct cp_wait *w, const MPI_Fint *reqs, int n,
		   MPI_Fint **st, int many);
void cp_wait_post_f(struct cp_wait *w, enum cp_done kind,
		    const MPI_Fint *index, const MPI_Fint *flag,
		    const MPI_Fint *outcount, const MPI_Fint *indices,
		    const MPI_Fint *st, uint64_t t0, uint64_t t1,
		    uintptr_t site);

#endif
