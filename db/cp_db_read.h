/*
 * cp_db_read.h - the reader of db/ (db/cp_db_merge.c, db/cp_db_read.c,
 * db/cp_db_report.c): the merge of an output directory and its queries,
 * for the CLI.  The profiling library never links it.  What both sides
 * share is in db/cp_db.h.
 */
#ifndef CP_DB_READ_H
#define CP_DB_READ_H

#include <stdbool.h>
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

/*
 * cp_db_need_rows - make sure the merge holds every call row: a merge
 * made by cp_db_open_dir takes the small tables of each rank file at
 * once and leaves the call rows there until a command needs them
 * (export, the HTML report).  Copies them in (the merged file is made
 * writable for that), a damaged rank file contributing what can be read
 * with one call of warn (may be NULL, as cp_db_open_dir's), then hands
 * db to merged (may be NULL) to complete the rows (cp_db_put_xfers).
 * Does nothing for a merge that has its rows.  Returns 0 or -CP_DB_EIO
 * (cp_db_errmsg(db) or, when the file cannot be written,
 * cp_db_errmsg(NULL) tells why).
 */
int cp_db_need_rows(struct cp_db *db,
		    void (*warn)(void *arg, const char *msg),
		    void (*merged)(void *arg, struct cp_db *db), void *arg);

/*
 * The reduction of the run (db/cp_db_scan.c; src/reduce/cp_red.h does
 * it, src/common/cp_sum.h says what it reads and leaves).
 */

/* A rank file of the merge and what its meta tells of its rows. */
struct cp_db_rank_file {
	int32_t rank;		/* world rank */
	const char *path;	/* the output directory's file */
	int64_t dropped;	/* meta rows_dropped, 0 absent */
	int64_t not_kept;	/* meta rows_not_kept, 0 absent */
	int64_t capped;		/* meta rows_capped, -1 absent */
	int64_t sample;		/* meta sample, 1 absent */
	bool by_identity;	/* meta sample_by is 'identity' */
	int64_t rows;		/* call rows in the file */
	int64_t finished;	/* meta finished: 1 after MPI_Finalize, -1
				 * absent */
};

/* cp_db_each_rank_file - fn for every rank file of the merge, in rank
 * order (none for a merge opened without its rank files); as
 * cp_db_each_call. */
int cp_db_each_rank_file(struct cp_db *db,
			 int (*fn)(void *arg, const struct cp_db_rank_file *f),
			 void *arg);

/*
 * cp_db_scan_file - fn for every message and collective row of rank file
 * `path` of world rank `rank` (on a connection of its own: threads may
 * scan files at once): the message halves, then the collective rows in
 * (comm, t_start_ns, seq) order.  fn returns 0 or a negative value that
 * stops the scan.  Returns 0, fn's value, or -CP_DB_EIO
 * (cp_db_errmsg(NULL) in the calling thread tells why; a damaged file
 * gave the rows before the damage).
 */
int cp_db_scan_file(const char *path, int32_t rank,
		    int (*fn)(void *arg, const struct cp_sum_row *r),
		    void *arg);

/* cp_db_warn - keep "<path>: <what>; using the rows that could be read"
 * among the merge's warnings, unless one about path is there.  Returns
 * 1 when kept, 0 when one was there, or -CP_DB_EIO. */
int cp_db_warn(struct cp_db *db, const char *path, const char *what);

/* cp_db_has_sum - true when the merge holds the reduction of its run
 * (meta reduced).  Cannot fail (false on error). */
bool cp_db_has_sum(struct cp_db *db);

/* cp_db_each_sum - fn for every record of the merge's reduction
 * (src/common/cp_sum.h); the bytes of a histogram live until fn
 * returns.  As cp_db_each_call. */
int cp_db_each_sum(struct cp_db *db,
		   int (*fn)(void *arg, const struct cp_sum_rec *r),
		   void *arg);

/*
 * cp_db_sum_import - take the reduction of reduced file `path`
 * (CP_DB_REDUCED, written by the job at MPI_Finalize) into the merge,
 * when it is of this run: the same job clock origin (meta epoch_ns) as
 * the rank files and as many ranks.  *used tells whether it was.
 * Returns 0 (a missing or other run's file: *used false) or -CP_DB_EIO.
 */
int cp_db_sum_import(struct cp_db *db, const char *path, bool *used);

/*
 * For a reduction made away from the merge (commprof-mpi, each rank a
 * share of the rank files):
 * cp_db_each_rank_name - fn(arg, path, rank) for every rank-NNNNN.db of
 * dir, in name order, rank the number its name tells; as cp_db_each_call,
 * and -CP_DB_ENOENT or -CP_DB_ENOMEM when dir cannot be read.
 * cp_db_dir_fresh - true when dir/commprof.db is there and newer than
 * every rank file (cp_db_open_dir would take it as it is).
 * cp_db_rank_file_meta - what the meta of rank file path says of its
 * rows into *f (rank -1 unknown; path as given) and its job clock origin
 * into *epoch_ns (0 unknown).  Returns 0 or -CP_DB_EIO
 * (cp_db_errmsg(NULL)).
 */
int cp_db_each_rank_name(const char *dir,
			 int (*fn)(void *arg, const char *path, int32_t rank),
			 void *arg);
bool cp_db_dir_fresh(const char *dir);
int cp_db_rank_file_meta(const char *path, struct cp_db_rank_file *f,
			 int64_t *epoch_ns);

/* cp_db_each_op - fn(arg, id, name) for every row of ops, in id order;
 * as cp_db_each_call. */
int cp_db_each_op(struct cp_db *db,
		  int (*fn)(void *arg, int32_t id, const char *name),
		  void *arg);

/* cp_db_site_module - the module of rank that holds address site: its
 * path into path (len bytes) and its load bias into *base.  Returns 0,
 * -CP_DB_ENOENT (no module holds it) or -CP_DB_EIO. */
int cp_db_site_module(struct cp_db *db, int32_t rank, uint64_t site,
		      char *path, size_t len, uint64_t *base);

/* A layout of a rank, as the report shows it. */
struct cp_db_layout_info {
	int32_t contiguous;	/* 1, 0 */
	int64_t block_bytes;	/* -1 unknown */
	int64_t stride_bytes;	/* -1 n/a */
	int64_t nblocks;
	char descr[256];	/* "" none */
};

/* cp_db_layout_info - layout idx of rank into *l.  Returns 0,
 * -CP_DB_ENOENT or -CP_DB_EIO. */
int cp_db_layout_info(struct cp_db *db, int32_t rank, int32_t idx,
		      struct cp_db_layout_info *l);

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
	const char *op_class;	/* ops.class ('p2p', 'rma', ...); NULL if
				 * unknown */
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
	/* calls of class p2p or coll in the aggregates: what the models
	 * are compared on */
	uint64_t calls_xfer;
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
	int32_t layout;		/* layout index of its rank, -1 none */
	uint32_t flags;		/* CP_F_* */
	int64_t t_measured_ns;
	bool coll;		/* class coll; else p2p */
	int64_t count;		/* elements */
	int32_t comm_size;	/* -1 unknown */
	uint32_t comm;		/* job-wide communicator id */
	int64_t t_wait_ns;	/* wait or entry skew, -1 none */
	int32_t alg;		/* collective: the algorithm the library
				 * decided (analysis/cp_coll.h), 0 not
				 * known */
};

/* cp_db_each_pred_row - fn for every row of class 'p2p' or 'coll', in
 * (rank, seq) order; as cp_db_each_call.  A merge that holds its
 * reduction (cp_db_has_sum) may not hold its rows (cp_db_need_rows). */
int cp_db_each_pred_row(struct cp_db *db,
			int (*fn)(void *arg, const struct cp_db_prow *r),
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

/* Keep matches for the rows they name, which cp_db_need_rows copies in
 * with them (the merged hook it calls gives them), in one transaction;
 * a later match of the same row replaces it.  Returns 0 or -CP_DB_EIO
 * (nothing kept). */
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
