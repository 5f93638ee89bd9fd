/*
 * cp_coll.c - the per-process block of each collective (the @block kinds
 * of pmpi/mpi_calls.def) that must read the call's arrays or know the
 * caller's rank, and the communicator of matched-probe messages.  The
 * blocks that need neither are inline in src/lib/cp_coll.h.
 *
 * The block is what this rank contributes per peer: the send side, or
 * the receive side where the send side is MPI_IN_PLACE or ignored
 * (scatter at a non-root).  For v and w forms, whose blocks differ per
 * peer, it is this rank's total and the row is flagged CP_F_VARBLOCK.
 * Elements and type are stored raw; the flusher derives bytes and layout
 * (src/lib/cp_derive.h).  Only a w form, whose types differ per peer,
 * sums bytes here.
 */
#include "config.h"

#include "src/common/cp_row.h"
#include "src/lib/cp_coll.h"
#include "src/lib/cp_comm.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_pred_rt.h"
#include "src/lib/cp_vec.h"

static inline int my_rank(MPI_Comm comm)
{
	return cp_comm_get(comm)->me;
}

void cp_blk_scatter(struct cp_blk *b, MPI_Count scount, MPI_Datatype st,
		    const void *rbuf, MPI_Count rcount, MPI_Datatype rt,
		    int root, MPI_Comm comm)
{
	const struct cp_comm_info *ci = cp_comm_get(comm);

	if (root == MPI_ROOT || (root == ci->me && !ci->inter))
		cp_block_set(b, scount, st,
			    rbuf == MPI_IN_PLACE ? CP_F_INPLACE : 0);
	else
		cp_block_set(b, rcount, rt, 0);
}

void cp_blk_scatterv(struct cp_blk *b, struct cp_counts scounts,
		     MPI_Datatype st, const void *rbuf, MPI_Count rcount,
		     MPI_Datatype rt, int root, MPI_Comm comm)
{
	int me = my_rank(comm);

	if (root == me && rbuf == MPI_IN_PLACE && scounts.p)
		cp_block_set(b, cp_count_at(scounts, me), st,
			     CP_F_VARBLOCK | CP_F_INPLACE);
	else
		cp_block_set(b, rcount, rt, CP_F_VARBLOCK);
}

void cp_blk_sendv(struct cp_blk *b, const void *sbuf, MPI_Count scount,
		  MPI_Datatype st, struct cp_counts rcounts, MPI_Datatype rt,
		  MPI_Comm comm)
{
	int me;

	if (sbuf != MPI_IN_PLACE) {
		cp_block_set(b, scount, st, CP_F_VARBLOCK);
		return;
	}
	me = my_rank(comm);
	cp_block_set(b, rcounts.p && me >= 0 ? cp_count_at(rcounts, me) : 0,
		     rt, CP_F_VARBLOCK | CP_F_INPLACE);
}

/* The id of counts, every rank's block of comm, in the block's flags
 * (the flusher decides the call's algorithm from them, and tau-Lop and
 * the baselines price its schedule): only under Open MPI (the
 * algorithms are its); none on an inter-communicator. */
static void blk_vec(struct cp_blk *b, struct cp_counts counts, MPI_Comm comm)
{
#ifdef OPEN_MPI
	const struct cp_comm_info *ci;
	int64_t v[CP_COLL_MAXP];
	int i;

	if (!cp_pred_colls || !counts.p)
		return;
	ci = cp_comm_get(comm);
	if (ci->inter || ci->size < 1 || ci->size > CP_COLL_MAXP)
		return;
	if (!counts.wide) {
		b->flags |= cp_vec_put_int(counts.p, ci->size)
			    << CP_BLK_VEC_SHIFT;
		return;
	}
	for (i = 0; i < ci->size; i++)
		v[i] = (int64_t)cp_count_at(counts, i);
	b->flags |= cp_vec_put(v, ci->size) << CP_BLK_VEC_SHIFT;
#else
	(void)b;
	(void)counts;
	(void)comm;
#endif
}

void cp_blk_allgatherv(struct cp_blk *b, const void *sbuf, MPI_Count scount,
		       MPI_Datatype st, struct cp_counts rcounts,
		       MPI_Datatype rt, MPI_Comm comm)
{
	cp_blk_sendv(b, sbuf, scount, st, rcounts, rt, comm);
	blk_vec(b, rcounts, comm);
}

/* Total of counts[0..n-1] elements of t. */
static void blk_sum(struct cp_blk *b, struct cp_counts counts, int n,
		    MPI_Datatype t, uint32_t flags)
{
	uint64_t sum = 0;

	for (int i = 0; counts.p && i < n; i++) {
		MPI_Count c = cp_count_at(counts, i);

		sum += c > 0 ? (uint64_t)c : 0;
	}
	b->type = t;
	b->n = sum;
	b->flags = flags;
}

void cp_blk_alltoallv(struct cp_blk *b, const void *sbuf,
		      struct cp_counts scounts, MPI_Datatype st,
		      struct cp_counts rcounts, MPI_Datatype rt, MPI_Comm comm)
{
	int n = cp_comm_get(comm)->size;

	if (sbuf == MPI_IN_PLACE)
		blk_sum(b, rcounts, n, rt, CP_F_VARBLOCK | CP_F_INPLACE);
	else
		blk_sum(b, scounts, n, st, CP_F_VARBLOCK);
}

/* Sum of counts[i] elements of types[i], i < n, in bytes: one layout
 * per peer, none overall. */
static void blk_wsum(struct cp_blk *b, struct cp_counts counts,
		     const MPI_Datatype *types, int n, uint32_t flags)
{
	uint64_t size, bytes = 0;

	for (int i = 0; counts.p && types && i < n; i++) {
		MPI_Count c = cp_count_at(counts, i);

		if (c <= 0)
			continue;
		size = 0;
		(void)cp_layout_get(types[i], &size);
		bytes += (uint64_t)c * size;
	}
	b->type = MPI_DATATYPE_NULL;
	b->n = bytes;
	b->flags = flags | CP_BLK_BYTES;
}

void cp_blk_alltoallw(struct cp_blk *b, const void *sbuf,
		      struct cp_counts scounts, const MPI_Datatype *sts,
		      struct cp_counts rcounts, const MPI_Datatype *rts,
		      MPI_Comm comm)
{
	int n = cp_comm_get(comm)->size;

	if (sbuf == MPI_IN_PLACE)
		blk_wsum(b, rcounts, rts, n, CP_F_VARBLOCK | CP_F_INPLACE);
	else
		blk_wsum(b, scounts, sts, n, CP_F_VARBLOCK);
}

#ifdef OPEN_MPI
__thread struct cp_op_last cp_op_last
	__attribute__((tls_model("initial-exec")));
uint32_t cp_op_gen = 1;		/* never the 0 of a thread's first call */

uint32_t cp_op_flags_ask(MPI_Op op)
{
	uint32_t gen = __atomic_load_n(&cp_op_gen, __ATOMIC_RELAXED);
	int commute = 1;

	if (!cp_pred_colls || op == MPI_OP_NULL ||
	    PMPI_Op_commutative(op, &commute) != MPI_SUCCESS)
		return 0;	/* not cached: asked again */
	cp_op_last.op = op;
	cp_op_last.flags = commute ? 0 : CP_F_NONCOMMUTE;
	cp_op_last.gen = gen;
	return cp_op_last.flags;
}

void cp_op_drop(MPI_Op op)
{
	(void)op;
	__atomic_fetch_add(&cp_op_gen, 1, __ATOMIC_RELAXED);
}
#endif

void cp_blk_redscat(struct cp_blk *b, const void *sbuf,
		    struct cp_counts rcounts, MPI_Datatype t, MPI_Op op,
		    MPI_Comm comm)
{
	int me = my_rank(comm);

	cp_block_set(b, rcounts.p && me >= 0 ? cp_count_at(rcounts, me) : 0, t,
		    CP_F_VARBLOCK | (sbuf == MPI_IN_PLACE ? CP_F_INPLACE : 0) |
		    cp_op_flags(op));
	blk_vec(b, rcounts, comm);
}

void cp_blk_nbrv(struct cp_blk *b, struct cp_counts scounts, MPI_Datatype st,
		 MPI_Comm comm)
{
	blk_sum(b, scounts, cp_comm_get(comm)->outdeg, st, CP_F_VARBLOCK);
}

void cp_blk_nbrw(struct cp_blk *b, struct cp_counts scounts,
		 const MPI_Datatype *sts, MPI_Comm comm)
{
	blk_wsum(b, scounts, sts, cp_comm_get(comm)->outdeg, CP_F_VARBLOCK);
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
