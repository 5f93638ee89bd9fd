/*
 * cp_match.h - matching after the run: which send a receive got, which
 * calls of the ranks form one collective operation, and the time the
 * models are compared with.
 *
 * Point to point: message halves are grouped by (communicator, sender,
 * receiver, tag); in a group the k-th send (by post time) pairs with the
 * k-th receive, as MPI's non-overtaking order guarantees once wildcards
 * are resolved (the rows hold the real source and tag).  Then
 *	t_transfer = recv end - max(send post, recv post)
 *	t_wait     = |send post - recv post|
 * so a receive posted early does not charge its wait to the network.
 *
 * Collectives: per (communicator, rank) the calls in post order; the k-th
 * call of every rank is instance k.  Then
 *	t_transfer = max(end) - max(post)	(last entry to last exit)
 *	t_wait     = max(post) - min(post)	(entry skew)
 *
 * Rows a rank did not keep: a rank whose rows stop at a row limit
 * (COMMPROF_MAX_ROWS) kept a prefix of its messages, so a group whose
 * counts differ because its sender or receiver was cut still pairs its
 * first min(sends, receives); a rank that lost rows in the middle (a full
 * buffer, or a library that sampled one row in N) spoils every group and
 * instance it takes part in.  Sampling by message identity
 * (src/common/cp_sample.h) keeps the same messages on both sides and
 * needs nothing here.
 *
 * Times are ns on one job-wide clock.  Arrays in, numbers out: no global
 * state, O(n log n), thread-safe.  Actions return 0 or -CP_E*
 * (analysis/cp_err.h).  Plain libc.
 */
#ifndef CP_MATCH_H
#define CP_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which side made the other wait (cp_match_out.late). */
#define CP_MATCH_LATE_NONE	0	/* posted at the same ns, or n/a */
#define CP_MATCH_LATE_SENDER	1	/* send posted after the receive */
#define CP_MATCH_LATE_RECEIVER	2	/* receive posted after the send */

/* Why a row has no t_transfer (cp_match_out.why). */
#define CP_MATCH_OK		0	/* matched */
#define CP_MATCH_COUNTS		1	/* p2p: its group has more sends than
					 * receives or the reverse */
#define CP_MATCH_NEGATIVE	2	/* p2p: transfer < 0 (clocks) */
#define CP_MATCH_INCOMPLETE	3	/* coll: instance lacks ranks' rows */
#define CP_MATCH_MIXED		4	/* coll: instance rows differ in op
					 * or comm_size, or one is broken */
#define CP_MATCH_CUT		5	/* p2p: its mate would come after a
					 * rank's row limit */
#define CP_MATCH_HOLE		6	/* a rank of its group or instance
					 * lost rows in the middle */

/* What is known of the ranks of a message (cp_match_msg.cut), bits. */
#define CP_MATCH_CUT_SEND	1	/* the sender's rows are a prefix */
#define CP_MATCH_CUT_RECV	2	/* the receiver's rows are a prefix */
#define CP_MATCH_CUT_HOLE	4	/* the sender or the receiver lost rows
					 * in the middle */

/* One message half. */
struct cp_match_msg {
	int32_t rank;		/* world rank that made the call */
	int32_t peer;		/* world rank of the other side: destination
				 * of a send, resolved source of a receive */
	int32_t tag;		/* tag (resolved for receives) */
	uint32_t comm;		/* job-wide communicator id */
	bool recv;		/* true: receive half, false: send half */
	int64_t post_ns;	/* post: call entry, or the nonblocking post */
	int64_t end_ns;		/* completion: post + t_measured */
	int64_t order;		/* tie break of equal posts on one rank
				 * (recording order, e.g. seq) */
	uint8_t cut;		/* CP_MATCH_CUT_* of its two ranks */
};

/* One rank's row of a collective operation. */
struct cp_match_coll {
	int32_t rank;		/* world rank that made the call */
	uint32_t comm;		/* job-wide communicator id */
	int32_t comm_size;	/* ranks in the communicator, -1 unknown */
	int32_t op;		/* call id: all rows of an instance agree */
	bool broken;		/* never completed or cancelled: keeps its
				 * place in the order, spoils its instance */
	bool hole;		/* its rank lost rows in the middle: its
				 * instance numbers cannot be trusted */
	int64_t post_ns;	/* entry (post of a nonblocking one) */
	int64_t end_ns;		/* exit (completion) */
	int64_t order;		/* tie break of equal posts on one rank */
};

/* What the matching found for one input row.  Both halves of a pair,
 * and every row of an instance, get the same times. */
struct cp_match_out {
	int64_t t_transfer_ns;	/* compared time; -1 unmatched */
	int64_t t_wait_ns;	/* wait, or entry skew; -1 unmatched */
	int32_t late;		/* CP_MATCH_LATE_* (p2p) */
	int32_t why;		/* CP_MATCH_OK or why unmatched */
	int64_t mate;		/* p2p: input index of the other half, -1 */
	int64_t inst;		/* coll: instance number on its comm, -1 */
};

/* Counts of one matching, in rows (a pair is two rows). */
struct cp_match_stats {
	size_t p2p_rows;	/* message halves given */
	size_t p2p_matched;	/* halves that got a t_transfer */
	size_t p2p_counts;	/* halves left: send/receive counts differ */
	size_t p2p_groups;	/* ... in this many groups */
	size_t p2p_negative;	/* halves left: negative transfer */
	size_t p2p_cut;		/* halves left: mate after a row limit */
	size_t p2p_hole;	/* halves left: a rank lost rows */
	size_t coll_rows;	/* collective rows given */
	size_t coll_matched;	/* rows that got a t_transfer */
	size_t coll_incomplete;	/* rows left: instance lacks rows */
	size_t coll_mixed;	/* rows left: op, size differ or broken */
	size_t coll_hole;	/* rows left: a rank lost rows */
	size_t coll_insts;	/* instances matched */
};

/*
 * cp_match_p2p - pair the n message halves m[] into out[0..n-1] and add
 * to the p2p_* counts of *st (zero it first).  A group whose send and
 * receive counts differ is left whole (a missing row would shift every
 * pair after it), unless the side with fewer rows was cut: then its
 * first rows pair and the other side's rest is CP_MATCH_CUT.  A group
 * with a half marked CP_MATCH_CUT_HOLE is left whole.  The halves of a
 * group must all be given in one call.  Returns 0, -CP_EINVAL (NULL with
 * n > 0) or -CP_ENOMEM (out unspecified).
 * m: halves; n: their count; out: n results; st: counts, accumulated.
 */
int cp_match_p2p(const struct cp_match_msg *m, size_t n,
		 struct cp_match_out *out, struct cp_match_stats *st);

/*
 * cp_match_colls - group the n collective rows c[] into instances, into
 * out[0..n-1], and add to the coll_* counts of *st: cp_match_coll_number
 * then cp_match_coll_insts.  Errors as cp_match_p2p.
 * c: rows; n: their count; out: n results; st: counts, accumulated.
 */
int cp_match_colls(const struct cp_match_coll *c, size_t n,
		   struct cp_match_out *out, struct cp_match_stats *st);

/*
 * cp_match_coll_number - the instance of each of the n rows c[] into
 * inst[i]: its place among the rows of its (comm, rank) in post order,
 * from 0.  Every row of a (comm, rank) must be given in one call; rows of
 * other ranks may be (a rank numbers its own).  Errors as cp_match_p2p.
 */
int cp_match_coll_number(const struct cp_match_coll *c, size_t n,
			 int64_t *inst);

/*
 * cp_match_coll_insts - group the n rows c[] of known instances inst[]
 * (cp_match_coll_number) into out[0..n-1], adding to the coll_* counts
 * of *st.  Every row of an instance must be given in one call.  An
 * instance is matched when it has comm_size rows (one per rank, by
 * construction), all of the same op and comm_size, none broken; one with
 * a hole row is CP_MATCH_HOLE.  Errors as cp_match_p2p.
 */
int cp_match_coll_insts(const struct cp_match_coll *c, const int64_t *inst,
			size_t n, struct cp_match_out *out,
			struct cp_match_stats *st);

#endif
