/*
 * cp_coll.h - the per-process block of a collective, one function per
 * @block kind of pmpi/mpi_calls.def: each fills *b (struct cp_blk of
 * src/lib/cp_ring.h, in the call's record) from the call's arguments,
 * before the real call.  The kinds that only copy arguments are inline;
 * those that read the call's arrays or need the caller's rank are in
 * src/lib/cp_coll.c.  None can fail.  Also the communicator of
 * matched-probe messages.
 */
#ifndef CP_LIB_COLL_H
#define CP_LIB_COLL_H

#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>

#include "src/common/cp_row.h"
#include "src/lib/cp_ring.h"

/* count elements of t (an int or, from an MPI_X_c binding, a large
 * count), flags CP_F_*: the block of most collectives. */
static inline void cp_block_set(struct cp_blk *b, MPI_Count count,
				MPI_Datatype t, uint32_t flags)
{
	b->type = t;
	b->n = count > 0 ? (uint64_t)count : 0;
	b->flags = flags;
}

/* A count array as the call passed it: int (MPI_X) or MPI_Count (its
 * large-count binding MPI_X_c); cp_counts_of() tells them apart by type. */
struct cp_counts {
	const void *p;		/* NULL: no array */
	bool wide;		/* MPI_Count elements */
};
#define cp_counts_of(a) _Generic((a), \
	int *: (struct cp_counts){ (a), false }, \
	const int *: (struct cp_counts){ (a), false }, \
	MPI_Count *: (struct cp_counts){ (a), true }, \
	const MPI_Count *: (struct cp_counts){ (a), true })

static inline MPI_Count cp_count_at(struct cp_counts c, int i)
{
	return c.wide ? ((const MPI_Count *)c.p)[i] : ((const int *)c.p)[i];
}

/* No data (Barrier). */
static inline void cp_blk_none(struct cp_blk *b)
{
	b->type = MPI_DATATYPE_NULL;
	b->n = 0;
	b->flags = 0;
}

static inline void cp_blk_bytes(struct cp_blk *b, MPI_Count count,
				MPI_Datatype t)
{
	cp_block_set(b, count, t, 0);
}

/* The send side, or the receive side when the send buffer is in place. */
static inline void cp_blk_send(struct cp_blk *b, const void *sbuf,
			       MPI_Count scount, MPI_Datatype st,
			       MPI_Count rcount, MPI_Datatype rt)
{
	if (sbuf == MPI_IN_PLACE)
		cp_block_set(b, rcount, rt, CP_F_INPLACE);
	else
		cp_block_set(b, scount, st, 0);
}

/* CP_F_NONCOMMUTE when reduction op does not commute: Open MPI's
 * coll/tuned decides other algorithms for one (the flusher decides the
 * same); not asked under another MPI.  Each thread keeps its last op's
 * answer until any thread frees an op (cp_op_drop moves cp_op_gen on: a
 * freed handle may come back as another op). */
#ifdef OPEN_MPI
struct cp_op_last {
	MPI_Op op;
	uint32_t gen;		/* cp_op_gen when asked */
	uint32_t flags;		/* 0 or CP_F_NONCOMMUTE */
};
extern __thread struct cp_op_last cp_op_last
	__attribute__((tls_model("initial-exec")));
extern uint32_t cp_op_gen;
uint32_t cp_op_flags_ask(MPI_Op op);
void cp_op_drop(MPI_Op op);

static inline uint32_t cp_op_flags(MPI_Op op)
{
	if (cp_op_last.op == op &&
	    cp_op_last.gen == __atomic_load_n(&cp_op_gen, __ATOMIC_RELAXED))
		return cp_op_last.flags;
	return cp_op_flags_ask(op);
}
#else
static inline void cp_op_drop(MPI_Op op)
{
	(void)op;
}

static inline uint32_t cp_op_flags(MPI_Op op)
{
	(void)op;
	return 0;
}
#endif

static inline void cp_blk_reduce(struct cp_blk *b, const void *sbuf,
				 MPI_Count count, MPI_Datatype t, MPI_Op op)
{
	cp_block_set(b, count, t, (sbuf == MPI_IN_PLACE ? CP_F_INPLACE : 0) |
		     cp_op_flags(op));
}

void cp_blk_scatter(struct cp_blk *b, MPI_Count scount, MPI_Datatype st,
		    const void *rbuf, MPI_Count rcount, MPI_Datatype rt,
		    int root, MPI_Comm comm);
void cp_blk_scatterv(struct cp_blk *b, struct cp_counts scounts,
		     MPI_Datatype st, const void *rbuf, MPI_Count rcount,
		     MPI_Datatype rt, int root, MPI_Comm comm);
void cp_blk_sendv(struct cp_blk *b, const void *sbuf, MPI_Count scount,
		  MPI_Datatype st, struct cp_counts rcounts, MPI_Datatype rt,
		  MPI_Comm comm);
/* MPI_Allgatherv: as sendv, and every rank's block interned
 * (src/lib/cp_vec.h). */
void cp_blk_allgatherv(struct cp_blk *b, const void *sbuf, MPI_Count scount,
		       MPI_Datatype st, struct cp_counts rcounts,
		       MPI_Datatype rt, MPI_Comm comm);
void cp_blk_alltoallv(struct cp_blk *b, const void *sbuf,
		      struct cp_counts scounts, MPI_Datatype st,
		      struct cp_counts rcounts, MPI_Datatype rt, MPI_Comm comm);
void cp_blk_alltoallw(struct cp_blk *b, const void *sbuf,
		      struct cp_counts scounts, const MPI_Datatype *sts,
		      struct cp_counts rcounts, const MPI_Datatype *rts,
		      MPI_Comm comm);
void cp_blk_redscat(struct cp_blk *b, const void *sbuf,
		    struct cp_counts rcounts, MPI_Datatype t, MPI_Op op,
		    MPI_Comm comm);
void cp_blk_nbrv(struct cp_blk *b, struct cp_counts scounts, MPI_Datatype st,
		 MPI_Comm comm);
void cp_blk_nbrw(struct cp_blk *b, struct cp_counts scounts,
		 const MPI_Datatype *sts, MPI_Comm comm);

/* Matched probes: remember which communicator message m came from (after
 * MPI_Mprobe/Improbe), and get it back once (at MPI_Mrecv/Imrecv);
 * MPI_COMM_WORLD for a message this thread did not note.  Cannot fail. */
void cp_msg_note(MPI_Message m, MPI_Comm comm);
MPI_Comm cp_msg_comm(MPI_Message m);

#endif
