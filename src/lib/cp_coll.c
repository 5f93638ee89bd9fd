/*
 * cp_coll.c - the per-process block of each collective (the @block kinds
 * of pmpi/mpi_calls.def) and the communicator of matched-probe messages.
 *
 * bytes is what this rank contributes per peer: the send side, or the
 * receive side where the send side is MPI_IN_PLACE or ignored (scatter at
 * a non-root).  For v and w forms, whose blocks differ per peer, bytes is
 * this rank's total and the row is flagged CP_F_VARBLOCK.
 */
#include "config.h"

#include "src/common/cp_row.h"
#include "src/lib/cp_build.h"
#include "src/lib/cp_comm.h"
#include "src/lib/cp_layout.h"

static inline void blk_type(struct cp_blk *b, int count, MPI_Datatype t)
{
	uint64_t size = 0;

	b->layout = cp_layout_get(t, &size);
	b->count = count > 0 ? (uint64_t)count : 0;
	b->bytes = b->count * size;
	if (!b->bytes)
		b->flags |= CP_F_ZERO;
}

static inline int my_rank(MPI_Comm comm)
{
	return cp_comm_get(comm)->me;
}

void cp_blk_none(struct cp_blk *b)
{
	*b = (struct cp_blk){ .layout = CP_LAYOUT_NONE };
}

void cp_blk_bytes(struct cp_blk *b, int count, MPI_Datatype t)
{
	*b = (struct cp_blk){ 0 };
	blk_type(b, count, t);
}

void cp_blk_send(struct cp_blk *b, const void *sbuf, int scount,
		 MPI_Datatype st, int rcount, MPI_Datatype rt)
{
	*b = (struct cp_blk){ 0 };
	if (sbuf == MPI_IN_PLACE) {
		b->flags = CP_F_INPLACE;
		blk_type(b, rcount, rt);
	} else {
		blk_type(b, scount, st);
	}
}

void cp_blk_reduce(struct cp_blk *b, const void *sbuf, int count,
		   MPI_Datatype t)
{
	*b = (struct cp_blk){ .flags = sbuf == MPI_IN_PLACE ? CP_F_INPLACE : 0 };
	blk_type(b, count, t);
}

void cp_blk_scatter(struct cp_blk *b, int scount, MPI_Datatype st,
		    const void *rbuf, int rcount, MPI_Datatype rt, int root,
		    MPI_Comm comm)
{
	const struct cp_comm_info *ci = cp_comm_get(comm);

	*b = (struct cp_blk){ 0 };
	if (root == MPI_ROOT || (root == ci->me && !ci->inter)) {
		if (rbuf == MPI_IN_PLACE)
			b->flags = CP_F_INPLACE;
		blk_type(b, scount, st);
	} else {
		blk_type(b, rcount, rt);
	}
}

void cp_blk_scatterv(struct cp_blk *b, const int *scounts, MPI_Datatype st,
		     const void *rbuf, int rcount, MPI_Datatype rt, int root,
		     MPI_Comm comm)
{
	int me = my_rank(comm);

	*b = (struct cp_blk){ .flags = CP_F_VARBLOCK };
	if (root == me && rbuf == MPI_IN_PLACE && scounts) {
		b->flags |= CP_F_INPLACE;
		blk_type(b, scounts[me], st);
	} else {
		blk_type(b, rcount, rt);
	}
}

void cp_blk_sendv(struct cp_blk *b, const void *sbuf, int scount,
		  MPI_Datatype st, const int *rcounts, MPI_Datatype rt,
		  MPI_Comm comm)
{
	int me = my_rank(comm);

	*b = (struct cp_blk){ .flags = CP_F_VARBLOCK };
	if (sbuf == MPI_IN_PLACE) {
		b->flags |= CP_F_INPLACE;
		blk_type(b, rcounts && me >= 0 ? rcounts[me] : 0, rt);
	} else {
		blk_type(b, scount, st);
	}
}

/* Total of counts[0..n-1] elements of t. */
static void blk_sum(struct cp_blk *b, const int *counts, int n,
		    MPI_Datatype t)
{
	uint64_t size = 0;

	b->layout = cp_layout_get(t, &size);
	for (int i = 0; counts && i < n; i++)
		b->count += counts[i] > 0 ? (uint64_t)counts[i] : 0;
	b->bytes = b->count * size;
	if (!b->bytes)
		b->flags |= CP_F_ZERO;
}

void cp_blk_alltoallv(struct cp_blk *b, const void *sbuf, const int *scounts,
		      MPI_Datatype st, const int *rcounts, MPI_Datatype rt,
		      MPI_Comm comm)
{
	int n = cp_comm_get(comm)->size;

	*b = (struct cp_blk){ .flags = CP_F_VARBLOCK };
	if (sbuf == MPI_IN_PLACE) {
		b->flags |= CP_F_INPLACE;
		blk_sum(b, rcounts, n, rt);
	} else {
		blk_sum(b, scounts, n, st);
	}
}

/* Sum of counts[i] elements of types[i], i < n. */
static void blk_wsum(struct cp_blk *b, const int *counts,
		     const MPI_Datatype *types, int n)
{
	uint64_t size;

	b->layout = CP_LAYOUT_NONE;	/* one layout per peer: none overall */
	for (int i = 0; counts && types && i < n; i++) {
		if (counts[i] <= 0)
			continue;
		size = 0;
		(void)cp_layout_get(types[i], &size);
		b->count += (uint64_t)counts[i];
		b->bytes += (uint64_t)counts[i] * size;
	}
	if (!b->bytes)
		b->flags |= CP_F_ZERO;
}

void cp_blk_alltoallw(struct cp_blk *b, const void *sbuf, const int *scounts,
		      const MPI_Datatype *sts, const int *rcounts,
		      const MPI_Datatype *rts, MPI_Comm comm)
{
	int n = cp_comm_get(comm)->size;

	*b = (struct cp_blk){ .flags = CP_F_VARBLOCK };
	if (sbuf == MPI_IN_PLACE) {
		b->flags |= CP_F_INPLACE;
		blk_wsum(b, rcounts, rts, n);
	} else {
		blk_wsum(b, scounts, sts, n);
	}
}

void cp_blk_redscat(struct cp_blk *b, const void *sbuf, const int *rcounts,
		    MPI_Datatype t, MPI_Comm comm)
{
	int me = my_rank(comm);

	*b = (struct cp_blk){ .flags = CP_F_VARBLOCK |
			      (sbuf == MPI_IN_PLACE ? CP_F_INPLACE : 0) };
	blk_type(b, rcounts && me >= 0 ? rcounts[me] : 0, t);
}

void cp_blk_nbrv(struct cp_blk *b, const int *scounts, MPI_Datatype st,
		 MPI_Comm comm)
{
	*b = (struct cp_blk){ .flags = CP_F_VARBLOCK };
	blk_sum(b, scounts, cp_comm_get(comm)->outdeg, st);
}

void cp_blk_nbrw(struct cp_blk *b, const int *scounts,
		 const MPI_Datatype *sts, MPI_Comm comm)
{
	*b = (struct cp_blk){ .flags = CP_F_VARBLOCK };
	blk_wsum(b, scounts, sts, cp_comm_get(comm)->outdeg);
}

/*
 * Matched probes: MPI_Mrecv gets a message handle, not a communicator.
 * The few messages probed and not yet received are remembered per
 * thread (a message is received by the thread that probed it in every
 * program we know; another thread's message maps to world).
 */
#define NMSG 16
static __thread struct {
	MPI_Message m;
	MPI_Comm comm;
} msgs[NMSG];
static __thread unsigned msg_next;

void cp_msg_note(MPI_Message m, MPI_Comm comm)
{
	if (m == MPI_MESSAGE_NULL || m == MPI_MESSAGE_NO_PROC)
		return;
	msgs[msg_next % NMSG].m = m;
	msgs[msg_next % NMSG].comm = comm;
	msg_next++;
}

MPI_Comm cp_msg_comm(MPI_Message m)
{
	for (int i = 0; i < NMSG; i++)
		if (msgs[i].m == m && m != MPI_MESSAGE_NULL) {
			msgs[i].m = MPI_MESSAGE_NULL;
			return msgs[i].comm;
		}
	return MPI_COMM_WORLD;
}
