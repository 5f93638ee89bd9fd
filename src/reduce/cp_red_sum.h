/*
 * cp_red_sum.h - what a reduction of a run found (src/reduce/cp_red.h):
 * the summary that its scan and match steps fill, and that workers,
 * partitions and ranks merge, pack and send, and the caller stores
 * (db/) and reads back: coverage, mu histograms per model and group,
 * the worst rows and collective calls, the strided groups.  The records
 * the match step adds to it (struct cp_red_rec) are defined here too, so
 * that the summary depends on nothing of the steps that feed it.
 *
 * Not thread-safe per summary.  Actions return 0 or -CP_E*
 * (analysis/cp_err.h).  Plain libc.
 */
#ifndef CP_RED_SUM_H
#define CP_RED_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/cp_hist.h"
#include "analysis/cp_match.h"
#include "src/common/cp_row.h"
#include "src/common/cp_sum.h"

/* Worst-predicted rows kept per model. */
#define CP_RED_WORST	100

/* Bins per octave of a link's histograms, log2: 16, each 4.4% wide.
 * A job has a group per link and model, and most of what a reduction
 * holds was theirs (64 bins per octave: 147 of 322 MB at the peak of a
 * first report of 4,096 ranks in a ring); the other groups keep
 * CP_HIST_FINE. */
#define CP_RED_LINK_RES	4

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
				 * algorithm its row holds (0 not known);
				 * else CP_RED_ALG_NONE */
	uint8_t coll;		/* 1 collective, 0 message half */
};

/* mu of model, in group grp (CP_RED_G_*) at key. */
struct cp_red_acc {
	int32_t model;		/* CP_MODEL_*; CP_SUM_T_* in
				 * CP_RED_G_CTIME */
	int32_t grp;
	int64_t key;
	struct cp_hist h;	/* CP_RED_LINK_RES for links, else FINE */
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
/* cp_red_sum_take - the same, moving from's histograms where into has
 * none of their group (no copy: the two never hold one twice) and freeing
 * each of the others once added; `from` is then empty, as after
 * cp_red_sum_free, whatever the result.  -CP_ENOMEM may leave part of it
 * added. */
int cp_red_sum_take(struct cp_red_sum *into, struct cp_red_sum *from);

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

#endif
