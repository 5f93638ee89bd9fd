/*
 * cp_red.h - the reduction of a run: from the message and collective
 * rows of every rank to what the report prints of them (which model is
 * accurate where, what each model covered, the worst predictions, the
 * strided sends worth packing), in memory bounded by one rank's rows and
 * one home's share, never by the whole run.  One code for the three
 * places that run it: the profiling library at MPI_Finalize (every rank
 * its own rows), "commprof" on one machine (threads and partitions),
 * and "mpirun -np K commprof report" (K ranks, each a share of the rank
 * files); only the transport of the records differs.
 *
 * 1. Scan (cp_red_scan_row), per rank file, one rank at a time per
 *    struct cp_red: every row of class p2p or coll.  Rows that are not
 *    transfers (MPI_PROC_NULL, never completed, cancelled, no resolved
 *    peer) are counted at once; strided sends flagged by log3P are
 *    grouped; the others become records (struct cp_red_rec), each with
 *    its home: a message half goes to home receiver % nhome (or, by
 *    link, min(sender, receiver) % nhome), so that both halves of every
 *    message meet; a collective row goes to the
 *    home of its (communicator, instance), numbered here per rank as
 *    analysis/cp_match.h numbers them.
 * 2. Match (cp_red_match), per home, once it has every record sent to
 *    it: pairs and groups them by the rules of analysis/cp_match.h, with
 *    what is known of each rank (cp_red_rank_state), computes mu per
 *    model, and adds every result to the summary.
 * 3. Summaries of workers, partitions or ranks merge
 *    (cp_red_sum_merge, src/reduce/cp_red_sum.h), travel packed
 *    (cp_red_sum_pack) and are stored by the caller (db/).
 *
 * Not thread-safe per object: one struct cp_red and one summary per
 * thread.  Actions return 0 or -CP_E* (analysis/cp_err.h).  Plain libc;
 * the MPI transport is src/reduce/cp_red_mpi.h.
 */
#ifndef CP_RED_H
#define CP_RED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/cp_coll.h"
#include "src/common/cp_sum.h"
#include "src/reduce/cp_red_sum.h"

/* What is known of a rank's rows (cp_red_rank_state), bits. */
#define CP_RED_S_CUT	1	/* a row limit cut them: a prefix */
#define CP_RED_S_HOLE	2	/* rows lost in the middle */

/*
 * cp_red_rank_state - a rank's CP_RED_S_* from its meta counts
 * (db/schema.sql): dropped rows (a full buffer) make a hole; rows left
 * out by a row limit (capped) a prefix; rows left out by sampling a
 * hole unless the rank sampled by identity (src/common/cp_sample.h).  A
 * file of a library that did not count capped rows (capped < 0) counts
 * every row not kept as capped when it did not sample (sample <= 1), as
 * sampled otherwise.  Cannot fail.
 */
uint8_t cp_red_rank_state(int64_t dropped, int64_t not_kept, int64_t capped,
			  int64_t sample, bool by_identity);

/* A worker of step 1. */
struct cp_red {
	struct cp_red_sum *sum;	/* where counts of the scan go */
	uint32_t nhome;		/* homes (>= 1) */
	/* hand record r to home h; returns 0 or a negative code, which
	 * stops the scan and is returned */
	int (*emit)(void *arg, uint32_t h, const struct cp_red_rec *r);
	void *arg;
	/* a message's home: its receiver's (false, as cp_red_init sets
	 * it: the receive halves need not travel, ranks of an MPI
	 * reduction), or its link's lower rank (true: both directions of a
	 * link in one home and their link histograms in one summary,
	 * commprof's partitions) */
	bool by_link;
	/* the collective numbering of the rank being scanned */
	int32_t rank;		/* -1 before the first row */
	uint32_t comm;
	int64_t inst, post_ns, seq;
};

/* cp_red_init - a worker that counts into sum and hands records to emit
 * (arg its first argument), nhome >= 1.  Cannot fail. */
void cp_red_init(struct cp_red *x, struct cp_red_sum *sum, uint32_t nhome,
		 int (*emit)(void *arg, uint32_t h,
			     const struct cp_red_rec *r),
		 void *arg);

/*
 * cp_red_scan_row - step 1 for one row.  The rows of a rank come
 * together (one rank after another); among them the collective rows in
 * (comm, t_start_ns, seq) order, the message halves in any order.
 * Returns 0, -CP_EINVAL (collective rows out of that order), -CP_ENOMEM,
 * or emit's error.
 */
int cp_red_scan_row(struct cp_red *x, const struct cp_sum_row *r);

/*
 * cp_red_match - step 2 on every record of one home, r[0..n): pair and
 * group them, the halves of each message by the state[] of their two
 * ranks (CP_RED_S_*, indexed by world rank; ranks at or past nstate
 * count as 0), and add each result to s.  each (may be
 * NULL) gets every record with its result, its mate (NULL none) and mu
 * per model (NAN none), for callers that store per-row results; a
 * nonzero return stops the match and is returned.  Returns 0,
 * -CP_ENOMEM, or each's value.
 */
int cp_red_match(struct cp_red_sum *s, const struct cp_red_rec *r, size_t n,
		 const uint8_t *state, int32_t nstate,
		 int (*each)(void *arg, const struct cp_red_rec *r,
			     const struct cp_red_rec *mate,
			     const struct cp_match_out *o, const double *mu),
		 void *arg);

/* cp_red_home - the home of record r among nhome (>= 1), by_link as
 * struct cp_red's.  Cannot fail. */
uint32_t cp_red_home(const struct cp_red_rec *r, uint32_t nhome,
		     bool by_link);

#endif
