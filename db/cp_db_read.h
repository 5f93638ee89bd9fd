/*
 * cp_db_read.h - the reader of db/ (db/cp_db_merge.c, db/cp_db_read.c,
 * db/cp_db_report.c): the merge of an output directory and its queries,
 * for the CLI.  The profiling library never links it.  What both sides
 * share is in db/cp_db.h.
 */
#ifndef CP_DB_READ_H
#define CP_DB_READ_H

#include <stddef.h>
#include <stdint.h>

#include "db/cp_db.h"

/* The CLI never sees SQL: it opens an output directory and walks rows
 * through callbacks. */

/*
 * cp_db_open_dir - open the merged database of output directory `dir`,
 * (re)building dir/commprof.db from the rank-*.db files when it is
 * missing, older than one of them, or of another schema (a directory
 * that holds only commprof.db is read as it is).  The merge is
 * written to a temporary name and renamed; when dir is not writable it is
 * built in a temporary file that disappears at cp_db_close().  A rank file
 * that SQLite can only partly read contributes the rows it could read and
 * one call of warn (may be NULL) with a line of text naming the file (no
 * "commprof: " prefix, no newline).  A merge just built is handed to
 * merged (may be NULL) before it is published, so that the caller may
 * complete it (cp_db_put_xfers, cp_db_put_meta); that handle is valid
 * only during the call.  A rank-NNNNN.db-reserve left beside a rank file
 * by a rank that died is removed when the rank ran on this host and its
 * pid is gone; a reserve of another host's rank is left (nothing here
 * tells whether it still runs).  Returns 0 and *out, or -CP_DB_ENOENT
 * (no such directory, or no readable rank file in it), -CP_DB_EIO,
 * -CP_DB_ENOMEM; cp_db_errmsg(NULL) then tells what failed.
 */
int cp_db_open_dir(const char *dir,
		   void (*warn)(void *arg, const char *msg),
		   void (*merged)(void *arg, struct cp_db *db), void *arg,
		   struct cp_db **out);

/* One call row of the merged database, joined with its op name, layout
 * and module.  Strings live until the callback returns. */
struct cp_db_row {
	int32_t rank;		/* world rank that made the call */
	const char *op_name;	/* MPI function name, NULL if unknown */
	struct cp_db_call call;	/* NULL columns back to their sentinels */
	int32_t contiguous;	/* of the layout: 1, 0, or -1 no layout */
	int64_t block_bytes;	/* -1 unknown */
	int64_t stride_bytes;	/* -1 n/a */
	int64_t nblocks;	/* -1 no layout */
	const char *mod_path;	/* module that holds call.site, or NULL */
	uint64_t mod_base;	/* its load bias */
	int64_t t_transfer_ns;	/* compared time (schema.sql), -1 none */
	int64_t t_wait_ns;	/* wait or entry skew, -1 none */
	int32_t late;		/* 1 sender late, 2 receiver late, 0 */
	double mu[CP_NMODELS];	/* proportional error, NAN none */
	const char *layout_descr; /* the layout's description, or NULL */
};

/*
 * cp_db_each_call - call fn for every call row in (rank, seq) order; fn
 * returns 0 to go on, anything else stops the walk and is returned.
 * Returns 0, fn's nonzero value, or -CP_DB_EIO.
 */
int cp_db_each_call(struct cp_db *db,
		    int (*fn)(void *arg, const struct cp_db_row *r),
		    void *arg);

/* Aggregates of one (rank, site, op), summed over peer, size class and
 * layout. */
struct cp_db_site_total {
	int32_t rank;
	int32_t op;
	const char *op_name;	/* NULL if unknown */
	uint64_t site;		/* return address in that rank */
	const char *mod_path;	/* module that holds site, or NULL */
	uint64_t mod_base;
	uint64_t count;		/* calls */
	uint64_t bytes;		/* bytes summed */
	int64_t time_ns;	/* t_measured summed */
	int64_t min_ns, max_ns;
	uint64_t rows;		/* calls that have a call row */
};

/* cp_db_each_site - call fn for every (rank, site, op) of the aggregates,
 * in (rank, site, op) order, as cp_db_each_call does for rows.  Returns 0,
 * fn's nonzero value, or -CP_DB_EIO. */
int cp_db_each_site(struct cp_db *db,
		    int (*fn)(void *arg, const struct cp_db_site_total *s),
		    void *arg);

/* Whole-run totals, from the aggregates and the meta rows. */
struct cp_db_totals {
	int32_t ranks;		/* rank files merged */
	int64_t app_time_ns;	/* meta app_time_ns summed over ranks,
				 * -1 unless every rank has it */
	int64_t mpi_time_ns;	/* t_measured summed over all calls */
	uint64_t calls;		/* calls recorded in the aggregates */
	/* bytes summed, each message once: by its send (the receives of
	 * point-to-point messages add nothing); a collective adds each
	 * process's bytes */
	uint64_t bytes;
	uint64_t rows_kept;	/* calls that got a row (aggs.rows summed) */
	uint64_t rows_stored;	/* rows present in calls (after damage) */
	uint64_t rows_dropped;	/* meta rows_dropped summed (ring full) */
	/* rows, like rows_stored (a Sendrecv makes two), summed over ranks:
	 * meta rows_not_kept (limit, sampling), rows_lost_disk (disk full) */
	uint64_t rows_not_kept;
	uint64_t rows_lost_disk;
	/* meta threads (threads of a rank that made MPI calls; a rank with
	 * 0 counts as 1) over the ranks that have it; 0: no rank has it */
	int32_t threads_min, threads_max;
	/* app_time_ns x threads, summed over ranks (a rank without the key
	 * counts once): mpi_time_ns is summed over threads, so this is the
	 * whole it is a share of, and the share is at most 100%; -1 as
	 * app_time_ns */
	int64_t thread_time_ns;
};

/* cp_db_get_totals - fill *t.  Returns 0 or -CP_DB_EIO. */
int cp_db_get_totals(struct cp_db *db, struct cp_db_totals *t);

/* Value of key in the merged meta table (or a rank's rank_meta) into
 * buf (len bytes, truncated).  Returns 0, -CP_DB_ENOENT when absent, or
 * -CP_DB_EIO. */
int cp_db_get_meta(struct cp_db *db, const char *key, char *buf,
		   size_t len);
int cp_db_get_rank_meta(struct cp_db *db, int32_t rank, const char *key,
			char *buf, size_t len);
/* The GNU build id (hex) that module path had in the run, into buf (len
 * bytes).  Returns 0, -CP_DB_ENOENT when the run did not record one, or
 * -CP_DB_EIO. */
int cp_db_get_build_id(struct cp_db *db, const char *path, char *buf,
		       size_t len);

/*
 * Reader: what "commprof report" (src/cli/cli_report.c, db/cp_db_report.c)
 * needs beyond rows and sites.
 */

/* cp_db_each_rank_value - fn(arg, value, nranks) for every distinct value
 * of rank meta key, in value order; nranks: how many ranks have it.
 * Ranks without the key are not reported.  As cp_db_each_call: returns
 * 0, fn's nonzero value, or -CP_DB_EIO. */
int cp_db_each_rank_value(struct cp_db *db, const char *key,
			  int (*fn)(void *arg, const char *value,
				    int32_t nranks),
			  void *arg);

/* A row of class 'p2p' or 'coll' with its predictions and their
 * errors.  Strings live until the callback returns. */
struct cp_db_prow {
	int32_t rank;		/* world rank that made the call */
	int64_t seq;
	int32_t op;		/* ops.id */
	const char *op_name;	/* NULL if unknown */
	uint64_t bytes;
	int32_t peer;		/* as cp_db_call */
	int32_t root;		/* as cp_db_call */
	uint64_t site;		/* return address in that rank */
	const char *mod_path;	/* module that holds site, or NULL */
	uint64_t mod_base;	/* its load bias */
	double pred_ns[CP_NMODELS];	/* NAN none */
	double pred_lmw_ns;	/* NAN none */
	uint32_t pred_flags;	/* CP_PF_* */
	int64_t t_transfer_ns;	/* compared time, -1 none */
	double mu[CP_NMODELS];	/* NAN none */
};

/* cp_db_each_pred_row - fn for every row of class 'p2p' or 'coll', in
 * (rank, seq) order; as cp_db_each_call. */
int cp_db_each_pred_row(struct cp_db *db,
			int (*fn)(void *arg, const struct cp_db_prow *r),
			void *arg);

/* Rows of one (rank, site, op, bytes, layout) that carry a pred_flags
 * bit, summed.  Strings live until the callback returns. */
struct cp_db_flagged {
	int32_t rank;
	uint64_t site;		/* return address in that rank */
	const char *mod_path;	/* module that holds site, or NULL */
	uint64_t mod_base;
	int32_t op;
	const char *op_name;	/* NULL if unknown */
	uint64_t bytes;		/* per call */
	int64_t block_bytes;	/* of the layout, -1 unknown */
	int64_t stride_bytes;	/* -1 n/a */
	int64_t nblocks;
	const char *descr;	/* layout description, or NULL */
	uint64_t calls;		/* rows */
	double pred_log3p_ns;	/* pred_log3p_ns summed over rows that have
				 * one */
	uint64_t n_log3p;	/* those rows */
	double pred_lmw_ns;	/* pred_lmw_ns summed likewise */
	uint64_t n_lmw;
	int64_t t_measured_ns;	/* t_measured_ns summed over the rows */
};

/* cp_db_each_flagged_strided - fn for every group of rows whose
 * pred_flags has a bit of mask, whose flags have no bit of skip and whose
 * layout is not contiguous (rows without a layout are left out), in
 * (rank, site, op, bytes) order; as cp_db_each_call.  mask: CP_PF_* bits;
 * skip: CP_F_* bits (both of src/common/cp_row.h), e.g. CP_F_RECV to list
 * each message by its send. */
int cp_db_each_flagged_strided(struct cp_db *db, uint32_t mask,
			       uint32_t skip,
			       int (*fn)(void *arg,
					 const struct cp_db_flagged *f),
			       void *arg);

/* A message half or collective row, as the matching needs it. */
struct cp_db_mrow {
	int32_t rank;		/* world rank that made the call */
	int64_t seq;
	int32_t coll;		/* 1 collective, 0 message half */
	int32_t op;
	uint32_t flags;		/* CP_F_* */
	int32_t peer;		/* as cp_db_call */
	int32_t tag;		/* INT32_MIN none */
	uint32_t comm_id;
	int32_t comm_size;	/* -1 unknown */
	int64_t t_start_ns;	/* post (job clock) */
	int64_t t_measured_ns;	/* post to completion */
	double pred_ns[CP_NMODELS];	/* NAN none */
};

/* cp_db_each_match_row - fn for every row of class 'p2p' or 'coll', in
 * (rank, seq) order; as cp_db_each_call. */
int cp_db_each_match_row(struct cp_db *db,
			 int (*fn)(void *arg, const struct cp_db_mrow *r),
			 void *arg);

/* What the matching found for one row. */
struct cp_db_xfer {
	int32_t rank;		/* the row: rank and seq */
	int64_t seq;
	int64_t t_transfer_ns;	/* compared time (schema.sql) */
	int64_t t_wait_ns;	/* wait, or entry skew of a collective */
	int32_t late;		/* 1 sender, 2 receiver, 0 none */
	int32_t mate_rank;	/* matched row, -1 none (collectives) */
	int64_t mate_seq;	/* -1 none */
	int64_t coll_inst;	/* collective instance, -1 none */
	double mu[CP_NMODELS];	/* NAN: no prediction */
};

/* Store matches into the rows they name, in one transaction.  Returns 0
 * or -CP_DB_EIO (nothing stored). */
int cp_db_put_xfers(struct cp_db *db, const struct cp_db_xfer *x, size_t n);

/*
 * Reader: what the views of "commprof report --format html" need
 * (db/cp_db_view.c).  Each walk is as cp_db_each_call: fn returns 0 to go
 * on, anything else stops the walk and is returned; a walk returns 0,
 * fn's nonzero value, or -CP_DB_EIO.
 */

/* One rank: its MPI time and share (mpiP's task statistics). */
struct cp_db_rank_total {
	int32_t rank;		/* world rank */
	int64_t app_time_ns;	/* meta app_time_ns, -1 none */
	int32_t threads;	/* meta threads, 0 none */
	int64_t mpi_time_ns;	/* as cp_db_totals, this rank's */
	uint64_t calls;
	uint64_t bytes;		/* sent, as cp_db_totals */
};

/* cp_db_each_rank_total - fn for every rank of the merge, in rank
 * order, from the aggregates and the rank meta. */
int cp_db_each_rank_total(struct cp_db *db,
			  int (*fn)(void *arg,
				    const struct cp_db_rank_total *r),
			  void *arg);

/* Traffic from one world rank to another. */
struct cp_db_pair {
	int32_t src, dst;	/* sender, receiver (world ranks) */
	uint64_t bytes;		/* sent, each message once */
	uint64_t msgs;		/* sends (messages) */
	int64_t time_ns;	/* MPI time of the sends and their receives */
	const char *op_name;	/* rooted collectives: the operation */
};

/* cp_db_each_pair - fn for every (sender, receiver) of the point-to-point
 * aggregates (complete even when rows were limited), in (src, dst)
 * order; op_name NULL. */
int cp_db_each_pair(struct cp_db *db,
		    int (*fn)(void *arg, const struct cp_db_pair *p),
		    void *arg);

/* cp_db_each_rooted - fn for every (rank, root, operation) of the rows of
 * rooted collectives whose rank is not the root, with src the rank and
 * dst the root (the caller knows which way the data went); bytes, msgs
 * and time_ns of the rank's rows (rows, so limited as they are). */
int cp_db_each_rooted(struct cp_db *db,
		      int (*fn)(void *arg, const struct cp_db_pair *p),
		      void *arg);

/* A matched row with its predictions: measured against predicted. */
struct cp_db_cmp {
	int32_t op;		/* ops.id */
	const char *op_name;	/* NULL if unknown */
	uint64_t bytes;
	int64_t t_transfer_ns;	/* compared time */
	double pred_ns[CP_NMODELS];	/* NAN none */
};

/* cp_db_count_compared - rows of class p2p or coll that have a
 * t_transfer and some prediction into *n.  Returns 0 or -CP_DB_EIO. */
int cp_db_count_compared(struct cp_db *db, uint64_t *n);

/* cp_db_each_compared - fn for one in every step (>= 1) of those rows,
 * the same rows on every call, in rowid order. */
int cp_db_each_compared(struct cp_db *db, uint64_t step,
			int (*fn)(void *arg, const struct cp_db_cmp *c),
			void *arg);

/* cp_db_get_span - the job clock at the end of the last call row into
 * *end_ns (0 without rows).  Returns 0 or -CP_DB_EIO. */
int cp_db_get_span(struct cp_db *db, int64_t *end_ns);

/* One call on the timeline: the longest of its rank's calls that began
 * in its time bin. */
struct cp_db_tl {
	int32_t rank;
	int32_t op;
	const char *op_name;	/* NULL if unknown */
	int64_t t_start_ns;	/* job clock */
	int64_t t_measured_ns;
};

/* cp_db_each_tl - fn for the longest call in MPI (not a nonblocking or
 * persistent row, whose span is not MPI time) of every bin_ns-wide time
 * bin of every rank r with r % rank_step == 0, in (rank, bin) order.
 * bin_ns, rank_step >= 1. */
int cp_db_each_tl(struct cp_db *db, int64_t bin_ns, int32_t rank_step,
		  int (*fn)(void *arg, const struct cp_db_tl *t), void *arg);

#endif
