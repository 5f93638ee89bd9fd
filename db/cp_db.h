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

#define CP_DB_SCHEMA_VERSION 2

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

#endif
