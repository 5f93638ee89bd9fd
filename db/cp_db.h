/*
 * cp_db.h - all SQLite I/O of commprof: what its two sides share.
 * Nothing outside db/ includes sqlite3.h or writes SQL (../style.md).
 * The schema is db/schema.sql, versioned by CP_DB_SCHEMA_VERSION.
 *
 * Two kinds of file live in an output directory:
 *  - rank-NNNNN.db, written by the library inside rank NNNNN (the writer,
 *    db/cp_db_write.h; the library links nothing else of db/ but
 *    db/cp_db.c);
 *  - commprof.db, the merge of all rank files, made by the CLI on demand
 *    (the reader, db/cp_db_read.h), on which summary, export and report
 *    run.
 *
 * Every action returns 0 or a negative CP_DB_E* code; cp_db_errmsg() tells
 * what failed.  Nothing here prints.
 */
#ifndef CP_DB_H
#define CP_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/common/cp_row.h"
#include "src/common/cp_sum.h"

#define CP_DB_SCHEMA_VERSION 5

#define CP_DB_EIO	1	/* open, write or commit failed */
#define CP_DB_ESCHEMA	2	/* a file of another schema version */
#define CP_DB_ENOENT	3	/* no rank files in the directory */
#define CP_DB_ENOMEM	4
#define CP_DB_EFULL	5	/* disk (or quota) full: nothing written */

/* One finished call, as stored.  Fields that do not apply hold the
 * sentinel given; the writer stores those as SQL NULL. */
struct cp_db_call {
	int64_t seq;		/* per-rank order of recording, from 0 */
	int32_t op;		/* call id; names in the ops table */
	int32_t thread;		/* per-rank thread index, main thread 0 */
	int32_t peer;		/* world rank; -1 none (NULL), -2 PROC_NULL,
				 * -3 ANY_SOURCE unresolved */
	int32_t root;		/* world rank; -1 none (NULL) */
	int32_t tag;		/* INT32_MIN none (NULL) */
	int32_t comm_size;	/* -1 none (NULL) */
	uint32_t comm_id;	/* job-wide communicator id */
	int32_t layout;		/* index into layouts; -1 none (NULL) */
	uint32_t flags;		/* CP_F_* of src/common/cp_row.h */
	uint64_t bytes;		/* transferred bytes */
	uint64_t count;		/* elements */
	uint64_t site;		/* callsite address; sites table resolves it */
	int64_t t_start_ns;	/* job clock: ns since the job's first MPI_Init */
	int64_t t_measured_ns;	/* call duration, or post..completion */
	int64_t t_incall_ns;	/* ns inside the completing call, -1 none */
	/* predictions, ns, [CP_MODEL_*]; NAN: not predicted (NULL) */
	double pred_ns[CP_NMODELS];
	double pred_lmw_ns;	/* log3P's l_mw term, NAN none */
	uint32_t pred_flags;	/* CP_PF_* of src/common/cp_row.h */
	int32_t alg;		/* collective: coll/tuned's algorithm
				 * (analysis/cp_coll.h); 0 none (NULL) */
};

struct cp_db;

/* Key/value facts of a rank file (rank, size, host, pid, mpi_library,
 * start time...) or of a merge.  Returns 0 or -CP_DB_EIO. */
int cp_db_put_meta(struct cp_db *db, const char *key, const char *value);
/* Closes (a rank file: gives its reserve back and leaves one file); db
 * may be NULL.  Cannot fail. */
void cp_db_close(struct cp_db *db);
/* Last error text of db (or of the last failed open when db is NULL). */
const char *cp_db_errmsg(struct cp_db *db);

/*
 * The reduction of a run (src/reduce/cp_red.h) as records
 * (src/common/cp_sum.h) in the red_* tables of db/schema.sql: in
 * commprof.db (the CLI), or alone in commprof-reduced.db, which rank 0
 * of a job that reduced itself at MPI_Finalize writes (the library).
 */
#define CP_DB_REDUCED	"commprof-reduced.db"

/*
 * cp_db_sum_put - store record r in db's red_* tables (in the caller's
 * transaction, if any).  db: a struct cp_db of a merge or of a reduced
 * file, as void so that it serves as the callback of cp_red_sum_each.
 * Returns 0 or -CP_DB_EIO.
 */
int cp_db_sum_put(void *db, const struct cp_sum_rec *r);

/*
 * cp_db_sum_create - begin the reduced file `path` of a job: written
 * under a temporary name beside it (path, "." pid ".tmp"), in one
 * transaction, with meta schema_version and kind 'reduced'; the caller
 * adds meta and records, then cp_db_sum_publish.  Returns 0 and *out, or
 * -CP_DB_EIO (cp_db_errmsg(NULL) tells why; nothing left behind).
 *
 * cp_db_sum_publish - commit db, close it and rename it to `path` (the
 * path given to cp_db_sum_create), or remove it when keep is false or
 * anything fails.  db is freed either way.  Returns 0 or -CP_DB_EIO.
 */
int cp_db_sum_create(const char *path, struct cp_db **out);
int cp_db_sum_publish(struct cp_db *db, const char *path, bool keep);

#endif
