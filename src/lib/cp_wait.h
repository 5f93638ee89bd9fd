/*
 * cp_wait.h - the records of the calls around requests and handles that
 * the generated wrappers do not write inline (src/lib/cp_wait.c): the
 * completion calls of more than one request (and every Fortran one),
 * MPI_Start(all), MPI_Request_free, MPI_Cancel, and the retire record of
 * a datatype or communicator being freed.  They only write records into
 * the caller's ring (src/lib/cp_ring.h); what completed which post is the
 * flusher's to find (src/lib/cp_req.h).
 */
#ifndef CP_WAIT_H
#define CP_WAIT_H

#include <stdint.h>
#include <mpi.h>

struct cp_ring;

/* Completion calls: cp_wait_pre snapshots the request handles (which MPI
 * overwrites) and substitutes a status array when the caller ignores
 * statuses; cp_wait_post records what completed. */
enum cp_done {
	CP_DONE_ONE, CP_DONE_ALL, CP_DONE_ANY, CP_DONE_SOME,
	CP_DONE_TEST, CP_DONE_TESTALL, CP_DONE_TESTANY, CP_DONE_TESTSOME,
	CP_DONE_NONE,
};
struct cp_wait {
	int call;		/* CP_CALL_* of the completion call */
	int flags;		/* CP_RF_FORTRAN or 0 */
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
/* After it: one record per request that completed, by kind and the
 * call's outputs (index, flag, outcount, indices, st), then the
 * completion call's own record [t0, t1] at site, into r.  Cannot fail. */
void cp_wait_post(struct cp_ring *r, struct cp_wait *w, enum cp_done kind,
		  const int *index, const int *flag, const int *outcount,
		  const int *indices, const MPI_Status *st, uint64_t t0,
		  uint64_t t1, uintptr_t site);
/* The same for the Fortran bindings: INTEGER handles, indices from 1,
 * CP_F_STATUS_SIZE INTEGERs per status. */
void cp_wait_pre_f(struct cp_wait *w, const MPI_Fint *reqs, int n,
		   MPI_Fint **st, int many);
void cp_wait_post_f(struct cp_ring *r, struct cp_wait *w,
		    enum cp_done kind, const MPI_Fint *index,
		    const MPI_Fint *flag, const MPI_Fint *outcount,
		    const MPI_Fint *indices, const MPI_Fint *st, uint64_t t0,
		    uint64_t t1, uintptr_t site);

/* MPI_Start(all) started reqs[0..n-1] (C handles; _f: Fortran ones) in
 * [t0, t1].  Cannot fail. */
void cp_start_post(struct cp_ring *r, const MPI_Request *reqs, int n,
		   uint64_t t0, uint64_t t1, uintptr_t site, int call, int fl);
void cp_start_post_f(struct cp_ring *r, const MPI_Fint *reqs, int n,
		     uint64_t t0, uint64_t t1, uintptr_t site, int call,
		     int fl);

/* A record of kind (CP_RK_FREE: req; CP_RK_RETIRE: a handle) and flags
 * fl (CP_RF_*: CP_RF_CANCEL, CP_RF_COMM say which call it is) made now,
 * before the real call.  Cannot fail. */
void cp_note(struct cp_ring *r, unsigned kind, uintptr_t handle,
	     uintptr_t site, int call, int fl);

#endif
