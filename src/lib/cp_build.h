/*
 * cp_build.h - the event builders: from what a wrapper saw of one call
 * to a recorded row (src/lib/cp_fill.c) and, for a collective, this
 * process's block of it (src/lib/cp_coll.c).  The generated wrappers
 * call these after the real MPI call returned; each runs on the hot
 * path: table lookups and arithmetic only.
 */
#ifndef CP_BUILD_H
#define CP_BUILD_H

#include <stdint.h>
#include <mpi.h>

#include "src/lib/cp_event.h"

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

/* Per-process block of a collective (src/lib/cp_coll.c). */
struct cp_blk {
	uint64_t bytes;		/* this rank's bytes per peer (or total) */
	uint64_t count;		/* elements */
	uint32_t layout;	/* layout index, or CP_LAYOUT_NONE */
	uint16_t flags;		/* CP_F_INPLACE, CP_F_VARBLOCK, CP_F_ZERO */
};

/* Record a finished blocking call.  None can fail. */
void cp_rec_send(const struct cp_call *c);
void cp_rec_recv(const struct cp_call *c, const MPI_Status *st);
void cp_rec_probe(const struct cp_call *c, int found, const MPI_Status *st);
void cp_rec_coll(const struct cp_call *c, const struct cp_blk *b);
/* A nonblocking or persistent call posted request req; its row is
 * recorded when the request completes (cp_wait_post, src/lib/cp_req.h).
 * None can fail. */
void cp_post_send(const struct cp_call *c, MPI_Request req, int persist);
void cp_post_recv(const struct cp_call *c, MPI_Request req, int persist);
void cp_post_coll(const struct cp_call *c, const struct cp_blk *b,
		  MPI_Request req);

/* Collective blocks: one function per @block kind of mpi_calls.def; each
 * fills *b from the call's arguments.  None can fail. */
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

/* Matched probes: remember which communicator message m came from (after
 * MPI_Mprobe/Improbe), and get it back once (at MPI_Mrecv/Imrecv);
 * MPI_COMM_WORLD for a message this thread did not note.  Cannot fail. */
void cp_msg_note(MPI_Message m, MPI_Comm comm);
MPI_Comm cp_msg_comm(MPI_Message m);

#endif
