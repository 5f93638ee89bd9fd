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
 *    its home: a message half goes to home receiver % nhome, so that
 *    both halves of every message meet; a collective row goes to the
 *    home of its (communicator, instance), numbered here per rank as
 *    analysis/cp_match.h numbers them.
 * 2. Match (cp_red_match), per home, once it has every record sent to
 *    it: pairs and groups them by the rules of analysis/cp_match.h, with
 *    what is known of each rank (cp_red_rank_state), computes mu per
 *    model, and adds every result to the summary.
 * 3. Summaries of workers, partitions or ranks merge
 *    (cp_red_sum_merge), travel packed (cp_red_sum_pack) and are stored
 *    by the caller (db/).
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
#include "analysis/cp_hist.h"
#include "analysis/cp_match.h"
#include "src/common/cp_row.h"
#include "src/common/cp_sum.h"

/* Worst-predicted rows kept per model. */
#define CP_RED_WORST	100

/* Groups of the accuracy summary (struct cp_red_acc.grp). */
enum {
	CP_RED_G_ALL,		/* every compared row; key 0 */
	CP_RED_G_OP,		/* per MPI function; key: call id */
	CP_RED_G_CLS,		/* per size class; key: cp_row_size_class */
	CP_RED_G_LINK,		/* per pair of world ranks a < b of a
				 * point-to-point message; key a << 32 | b */
	CP_RED_G_COLL,		/* per collective priced here (call id,
				 * size class, algorithm): CP_RED_COLL_KEY */
	CP_RED_G_CTIME,		/* the times of the CP_RED_G_COLL group
				 * of the same key, model CP_SUM_T_* */
	CP_RED_NG
};

/* Key of a CP_RED_G_COLL group: call id, size class, algorithm (> 0, or
 * negative: unknown), and back. */
#define CP_RED_COLL_KEY(op, cls, alg)					\
	((int64_t)(op) << 40 | (int64_t)(cls) << 16 | (uint16_t)(alg))
#define CP_RED_COLL_OP(key)	((int32_t)((key) >> 40))
#define CP_RED_COLL_CLS(key)	((int32_t)((key) >> 16 & 0xffffff))
#define CP_RED_COLL_ALG(key)	((int16_t)((key) & 0xffff))

/* struct cp_red_rec.alg of a row that is no collective priced here. */
#define CP_RED_ALG_NONE	INT32_MIN

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

/* A message half or collective row on its way to its home. */
struct cp_red_rec {
	int64_t seq;
	int64_t post_ns, end_ns;
	int64_t inst;		/* collective: instance on comm; else -1 */
	uint64_t bytes, site;
	int32_t rank, op, peer, root, tag, comm_size;
	uint32_t comm, flags, pred_flags;
	float pred_ns[CP_NMODELS];	/* as the library computed them */
	int32_t alg;		/* collective of analysis/cp_coll.h: the
				 * algorithm Open MPI ran (cp_red_coll_alg);
				 * else CP_RED_ALG_NONE */
	uint8_t coll;		/* 1 collective, 0 message half */
};

/*
 * cp_red_coll_alg - the algorithm Open MPI's coll/tuned ran for a call of
 * MPI function op_name (cp_coll_decide under mca, reductions taken to
 * commute): > 0, negative when it cannot be known (no communicator size,
 * a rules file), CP_RED_ALG_NONE when op_name is no collective of
 * analysis/cp_coll.h.  comm_size: -1 unknown; count: elements; bytes:
 * count * type size.  Cannot fail.
 */
int32_t cp_red_coll_alg(const struct cp_coll_mca *mca, const char *op_name,
			int32_t comm_size, int64_t count, uint64_t bytes);

/* mu of model, in group grp (CP_RED_G_*) at key. */
struct cp_red_acc {
	int32_t model;		/* CP_MODEL_*; CP_SUM_T_* in
				 * CP_RED_G_CTIME */
	int32_t grp;
	int64_t key;
	struct cp_hist h;	/* CP_HIST_COARSE for links, else FINE */
};

/* What a reduction found.  Zero it (cp_red_sum_init) before use. */
struct cp_red_sum {
	struct cp_match_stats st;	/* rows given, matched, left, why */
	uint64_t p2p_skipped;	/* message rows that are not transfers */
	uint64_t calls_compared;	/* calls with some mu (a Sendrecv's
					 * receive half is not a call) */
	struct cp_sum_cov *cov;
	size_t ncov, capcov;
	struct cp_red_acc *acc;	/* hash table of mask + 1 slots; free
				 * slots have model -1 */
	size_t nacc, maskacc;
	struct cp_sum_worst worst[CP_NMODELS][CP_RED_WORST];
	size_t nworst[CP_NMODELS];	/* largest mu first, ties by (rank,
					 * seq) */
	struct cp_sum_worst cworst[CP_RED_WORST];	/* collective calls
					 * by tau-Lop's mu, each call (op, comm,
					 * t_transfer, t_wait) once: its worst
					 * row */
	size_t ncworst;
	struct cp_sum_sg *sg;	/* hash table, free slots have calls 0 */
	size_t nsg, masksg;
};

/*
 * cp_red_sum_each - fn for every record of s (src/common/cp_sum.h): its
 * counts (CP_SUM_COUNT: p2p_rows, p2p_matched, p2p_counts, p2p_groups,
 * p2p_negative, p2p_cut, p2p_hole, coll_rows, coll_matched,
 * coll_incomplete, coll_mixed, coll_hole, coll_insts, p2p_skipped,
 * calls_compared, as struct cp_match_stats and struct cp_red_sum name
 * them), coverage classes, histograms (packed; the bytes live until fn
 * returns), worst rows, strided groups, worst collective calls.  fn
 * returns 0 to go on.  Returns 0, fn's nonzero value, or -CP_ENOMEM.
 *
 * cp_red_sum_add_rec - add one such record to s (a stored summary read
 * back): 0, -CP_EINVAL (a record s cannot hold) or -CP_ENOMEM.
 */
int cp_red_sum_each(const struct cp_red_sum *s,
		    int (*fn)(void *arg, const struct cp_sum_rec *r),
		    void *arg);
int cp_red_sum_add_rec(struct cp_red_sum *s, const struct cp_sum_rec *r);

/* cp_red_sum_init - an empty summary.  Cannot fail. */
void cp_red_sum_init(struct cp_red_sum *s);
/* cp_red_sum_free - free what s holds; s is then empty.  Cannot fail. */
void cp_red_sum_free(struct cp_red_sum *s);
/* cp_red_sum_merge - add `from` to `into`.  -CP_ENOMEM may leave part
 * of it added. */
int cp_red_sum_merge(struct cp_red_sum *into, const struct cp_red_sum *from);

/*
 * cp_red_sum_pack - s as bytes (native byte order) into buf when len is
 * big enough; returns the bytes it takes, whatever len is.  Cannot fail.
 * cp_red_sum_unpack - merge the packed summary of len bytes at buf into
 * s: 0, -CP_EINVAL (not a packed summary) or -CP_ENOMEM.
 */
size_t cp_red_sum_pack(const struct cp_red_sum *s, void *buf, size_t len);
int cp_red_sum_unpack(struct cp_red_sum *s, const void *buf, size_t len);

/*
 * cp_red_add_result - add one compared row to s: its coverage, its mu of
 * each model into the groups, its place among the worst; a collective
 * priced here (r->alg not CP_RED_ALG_NONE) with a compared time also
 * into its CP_RED_G_COLL and CP_RED_G_CTIME groups and the worst
 * collective calls.  The reduction calls it for every record it
 * matched; a caller with rows matched before (a merged database) calls
 * it itself.  r: the row; t_transfer_ns: its compared time, -1 none;
 * t_wait_ns: its wait or entry skew, -1 none; mu: per model, NAN none.
 * Returns 0 or -CP_ENOMEM.
 */
int cp_red_add_result(struct cp_red_sum *s, const struct cp_red_rec *r,
		      int64_t t_transfer_ns, int64_t t_wait_ns,
		      const double *mu);

/* cp_red_add_strided - add row r to the strided groups of s when it is
 * one (see struct cp_sum_sg).  Returns 0 or -CP_ENOMEM. */
int cp_red_add_strided(struct cp_red_sum *s, const struct cp_sum_row *r);

/* A worker of step 1. */
struct cp_red {
	struct cp_red_sum *sum;	/* where counts of the scan go */
	uint32_t nhome;		/* homes (>= 1) */
	/* hand record r to home h; returns 0 or a negative code, which
	 * stops the scan and is returned */
	int (*emit)(void *arg, uint32_t h, const struct cp_red_rec *r);
	void *arg;
	/* the collective numbering of the rank being scanned */
	int32_t rank;		/* -1 before the first row */
	uint32_t comm;
	int64_t inst, post_ns, seq;
	struct cp_coll_mca mca;	/* the run's coll/tuned settings */
};

/* cp_red_init - a worker that counts into sum and hands records to emit
 * (arg its first argument), nhome >= 1.  Cannot fail. */
void cp_red_init(struct cp_red *x, struct cp_red_sum *sum, uint32_t nhome,
		 int (*emit)(void *arg, uint32_t h,
			     const struct cp_red_rec *r),
		 void *arg);

/* cp_red_set_mca - decide x's collectives under the settings of a rank
 * meta coll_mca (cp_coll_mca_format); NULL, empty or unreadable: Open
 * MPI's defaults.  cp_red_scan_row calls it with the coll_mca of each
 * rank's first row.  Cannot fail. */
void cp_red_set_mca(struct cp_red *x, const char *coll_mca);

/*
 * cp_red_scan_row - step 1 for one row.  The rows of a rank come
 * together (one rank after another), its collectives decided under the
 * coll_mca of its first row; among them the collective rows in
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

/* cp_red_home - the home of record r among nhome (>= 1).  Cannot fail. */
uint32_t cp_red_home(const struct cp_red_rec *r, uint32_t nhome);

#endif
