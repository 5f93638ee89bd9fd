/*
 * cp_db_write.h - the writer of db/ (db/cp_db_write.c): a rank file
 * rank-NNNNN.db, filled by the profiling library's flusher inside rank
 * NNNNN.  What both sides share (cp_db_put_meta, cp_db_close,
 * cp_db_errmsg, struct cp_db_call) is in db/cp_db.h.
 */
#ifndef CP_DB_WRITE_H
#define CP_DB_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/cp_db.h"

/* A datatype layout (index = position in the rank's layout table). */
struct cp_db_layout {
	int32_t index;
	int32_t contiguous;	/* 1 contiguous, 0 strided/irregular */
	int32_t irregular;	/* 1: no single block size and stride */
	int64_t size_bytes;	/* MPI_Type_size */
	int64_t extent_bytes;	/* MPI_Type_get_extent */
	int64_t block_bytes;	/* bytes per contiguous block, -1 unknown */
	int64_t stride_bytes;	/* distance between block starts, -1 n/a */
	int64_t nblocks;	/* blocks per element of the type */
	const char *desc;	/* e.g. "vector(16,1,128) of MPI_DOUBLE" */
};

/* Aggregate per (site, op, peer, size class, layout): complete even when
 * per-call rows are limited, sampled or dropped. */
struct cp_db_agg {
	uint64_t site;
	int32_t op;
	int32_t peer;
	int32_t size_class;	/* cp_row_size_class(bytes) */
	int32_t layout;
	uint64_t count;		/* calls */
	uint64_t bytes;		/* bytes summed */
	int64_t time_ns;	/* t_measured summed */
	int64_t min_ns, max_ns;
	uint64_t rows;		/* how many of these calls have a calls row */
};

/* A code module mapped in the rank (for resolving callsites later). */
struct cp_db_module {
	uint64_t base;		/* load address (dlpi_addr) */
	uint64_t start, end;	/* address range of its mapped segments */
	const char *path;
	const char *build_id;	/* hex, or NULL */
};

/* Open or create rank file `path` and its schema;
 * an existing file of the same job is overwritten.  Beside it, path
 * "-reserve" holds CP_DB_RESERVE_BYTES until cp_db_rank_unreserve() or
 * cp_db_close().  On failure nothing is left behind. */
#define CP_DB_RESERVE_BYTES	(64 * 1024)
int cp_db_rank_open(const char *path, struct cp_db **out);
/* Group the writes that follow, up to cp_db_commit(), into one
 * transaction: every commit rewrites the pages it touches, so forty
 * small ones take ten times the room of their data (the set-up of a rank
 * file: 420 KiB).  Groups nest.  cp_db_commit() rolls the group back on
 * failure.  Both return 0 or -CP_DB_E* (-CP_DB_EFULL: disk full). */
int cp_db_begin(struct cp_db *db);
int cp_db_commit(struct cp_db *db);
/* One transaction per batch; all or nothing.  -CP_DB_EFULL: the disk
 * is full, the batch is rolled back; a smaller one may still fit. */
int cp_db_put_calls(struct cp_db *db, const struct cp_db_call *c, size_t n);
/* Integer meta values keys[i] = vals[i], i < n, in one transaction (a
 * commit rewrites the pages it touches: one, not one per key). */
int cp_db_put_counts(struct cp_db *db, const char *const *keys,
		     const int64_t *vals, size_t n);
/* Move what the write-ahead log holds into the file and empty the log,
 * so that the rows have the room the set-up's log took.  Returns 0 or
 * -CP_DB_EIO. */
int cp_db_checkpoint(struct cp_db *db);
/* Frames (pages) the write-ahead log of a rank file holds since it was
 * last moved into the file: SQLite does not move it by itself.  Cannot
 * fail. */
int cp_db_wal_frames(const struct cp_db *db);
/* Move the log into the file when no reader holds it back (a
 * checkpoint that waits for nothing); best effort, cannot fail. */
void cp_db_wal_fold(struct cp_db *db);
int cp_db_put_layouts(struct cp_db *db, const struct cp_db_layout *l,
		      size_t n);
/* Replaces the rank's aggregates with these (all of them, each flush). */
int cp_db_put_aggs(struct cp_db *db, const struct cp_db_agg *a, size_t n);
int cp_db_put_modules(struct cp_db *db, const struct cp_db_module *m,
		      size_t n);
/* The ops table: id -> MPI function name, kind and class (see
 * schema.sql; kinds NULL: all "blocking"; classes NULL: all "other"). */
int cp_db_put_ops(struct cp_db *db, const char *const *names,
		  const char *const *kinds, const char *const *classes,
		  size_t n);
/* Give back the room cp_db_rank_open() reserved beside the rank file
 * (CP_DB_RESERVE_BYTES) so that the last aggregates and meta of a rank
 * whose disk is full still fit: half at the first call (the writes when
 * the disk filled up), the rest at the second (the last writes: freed
 * just before, another rank on the same disk has little time to take
 * it).  db: a rank file.  Cannot fail; a third call does nothing. */
void cp_db_rank_unreserve(struct cp_db *db);
/* False when the disk of a rank file has less than twice the reserve
 * free: ranks that share a disk then stop before they take the room
 * that another rank's unreserve gave back for its last writes. */
bool cp_db_rank_room(struct cp_db *db);

#endif
