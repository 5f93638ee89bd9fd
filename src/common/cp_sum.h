/*
 * cp_sum.h - what the reduction of a run (src/reduce/cp_red.h) reads and
 * what it leaves, as plain records: the one place where the reduction,
 * which knows no SQLite, and db/, which knows nothing of the reduction,
 * agree.  A rank file gives rows (struct cp_sum_row); a reduction is
 * stored and read back as a stream of records (struct cp_sum_rec), in
 * the tables red_* of db/schema.sql.  Plain C, no functions.
 */
#ifndef CP_SUM_H
#define CP_SUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/common/cp_row.h"

/* A row of class p2p or coll, as a rank file holds it. */
struct cp_sum_row {
	int64_t seq;		/* per-rank recording order */
	int64_t t_start_ns;	/* post, job clock */
	int64_t t_measured_ns;	/* post to completion */
	int64_t count;		/* elements */
	uint64_t bytes;
	uint64_t site;		/* return address in its rank */
	int32_t rank;		/* world rank that made the call */
	int32_t op;		/* call id */
	int32_t peer, root;	/* world ranks or CP_PEER_* */
	int32_t tag;		/* INT32_MIN none */
	int32_t comm_size;	/* -1 unknown */
	int32_t layout;		/* layout index of its rank, -1 none */
	uint32_t comm;		/* job-wide communicator id */
	uint32_t flags;		/* CP_F_* */
	uint32_t pred_flags;	/* CP_PF_* */
	int32_t alg;		/* collective: the algorithm the library
				 * decided (analysis/cp_coll.h), 0 not
				 * known */
	bool coll;		/* class coll; else p2p */
	const char *op_name;	/* "MPI_Bcast"; NULL unknown; lives until
				 * the row's callback returns */
	double pred_ns[CP_NMODELS];	/* NAN none */
	double pred_lmw_ns;	/* NAN none */
};

/* Kinds of struct cp_sum_rec. */
enum {
	CP_SUM_COUNT,		/* a named count (match results) */
	CP_SUM_COV,		/* rows of one coverage class */
	CP_SUM_ACC,		/* one histogram of mu */
	CP_SUM_WORST,		/* one of a model's worst rows */
	CP_SUM_SG,		/* one group of strided sends */
	CP_SUM_CWORST		/* one of the worst collective calls by
				 * tau-Lop's mu (u.worst) */
};

/* What an acc record of the collective times (CP_RED_G_CTIME of
 * src/reduce/cp_red.h) holds in place of a model: its values are those
 * times in ns, plus 1 (a histogram holds values >= 1). */
#define CP_SUM_T_TRANSFER	CP_NMODELS	/* t_transfer_ns */
#define CP_SUM_T_WAIT		(CP_NMODELS + 1)	/* t_wait_ns */

/* A named count, e.g. "p2p_matched" (src/reduce/cp_red_sum.c names
 * them). */
struct cp_sum_count {
	const char *key;
	int64_t value;
};

/* Rows of one (pred_flags, models that predicted, models compared). */
struct cp_sum_cov {
	uint32_t pred_flags;	/* CP_PF_* of the rows */
	uint32_t pred_mask;	/* bit k: model k predicted */
	uint32_t mu_mask;	/* bit k: model k has a mu */
	uint32_t pad;		/* 0: the record has no stray bytes */
	uint64_t rows;
};

/* mu of a model in one group: its histogram, packed (analysis/cp_hist.h). */
struct cp_sum_acc {
	int32_t model;		/* CP_MODEL_*, or CP_SUM_T_* */
	int32_t grp;		/* CP_RED_G_* of src/reduce/cp_red.h */
	int64_t key;		/* of the group: op, size class, link */
	uint64_t n;		/* values, as in the histogram */
	double sum;		/* their sum */
	const void *bins;	/* the packed histogram */
	size_t len;		/* its bytes */
};

/* One of the worst-predicted rows of a model. */
struct cp_sum_worst {
	double mu;
	double pred_ns;
	int64_t t_transfer_ns;
	int64_t seq;
	uint64_t bytes, site;
	int32_t rank, op;
	int32_t peer, root;	/* as struct cp_sum_row */
	int32_t model;		/* CP_MODEL_* */
	int32_t pad;		/* 0 */
	/* of a collective call (CP_SUM_CWORST), else 0 */
	int64_t t_wait_ns;	/* entry skew, -1 none */
	uint32_t comm;		/* job-wide communicator id */
	int32_t alg;		/* Open MPI's algorithm, < 0 unknown */
};

/* Sends of one (rank, site, op, bytes, layout) whose log3P l_mw is its
 * largest term (CP_PF_L3_LMW_LARGEST), receives left out: each message
 * once. */
struct cp_sum_sg {
	int32_t rank, op, layout;
	int32_t pad;		/* 0 */
	uint64_t site, bytes;
	uint64_t calls;		/* rows */
	double log3p_ns;	/* pred_log3p_ns summed over log3p_n rows */
	uint64_t log3p_n;
	double lmw_ns;		/* pred_lmw_ns summed over lmw_n rows */
	uint64_t lmw_n;
	int64_t measured_ns;	/* t_measured_ns summed */
};

/* One record of a stored reduction. */
struct cp_sum_rec {
	int kind;		/* CP_SUM_* */
	union {
		struct cp_sum_count count;
		struct cp_sum_cov cov;
		struct cp_sum_acc acc;
		struct cp_sum_worst worst;
		struct cp_sum_sg sg;
	} u;
};

#endif
