/*
 * cp_db_int.h - what the files of db/ share among themselves and nobody
 * else sees: the handle, the schema's section marks, and the helpers of
 * cp_db.c (both sides) and cp_db_read.c (the reader's).  Everything
 * outside db/ uses db/cp_db.h with db/cp_db_write.h (the library) or
 * db/cp_db_read.h (the CLI).
 */
#ifndef CP_DB_INT_H
#define CP_DB_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "db/cp_db.h"
#include "src/common/cp_sum.h"

enum {
	CP_ST_META,
	CP_ST_CALL,
	CP_ST_LAYOUT,
	CP_ST_AGG,
	CP_ST_AGG_DEL,
	CP_ST_MODULE,
	CP_ST_OP,
	CP_ST_BEGIN,
	CP_ST_COMMIT,
	CP_ST_ROLLBACK,
	CP_ST_CALLS,			/* CP_DB_CALLS_PER_INSERT calls rows */
	CP_ST_MAX
};

/* Statements of cp_db_sum_put (db/cp_db_sum.c), prepared on first use. */
enum {
	CP_SUM_ST_COUNT,
	CP_SUM_ST_COV,
	CP_SUM_ST_ACC,
	CP_SUM_ST_WORST,
	CP_SUM_ST_SG,
	CP_SUM_ST_CWORST,
	CP_SUM_ST_MAX
};

struct cp_db {
	sqlite3 *h;
	bool writer;			/* rank file: see cp_db_close */
	int wal_frames;			/* writer: frames in the write-ahead
					 * log after the last commit */
	sqlite3_stmt *st[CP_ST_MAX];	/* writer statements, or NULL */
	sqlite3_stmt *sum[CP_SUM_ST_MAX];	/* reduction records, or NULL */
	char *dir;			/* reader: the output directory of
					 * the rank files, or NULL */
	char err[256];
	char reserve[4200];		/* writer: path of the reserve file,
					 * "" once given back */
	bool reserve_half;		/* writer: half of it given back */
	struct cp_db_bound *bound;	/* writer: what the calls statements
					 * hold bound (cp_db_write.c) */
};

/* Sections of the embedded schema (db/schema.sql): a rank file is the
 * part before CP_DB_MARK_MERGED; a merge adds the rest; the reduction
 * of a job alone is the part from CP_DB_MARK_REDUCED to the indexes. */
#define CP_DB_MARK_MERGED "-- @merged\n"
#define CP_DB_MARK_REDUCED "-- @reduced\n"
#define CP_DB_MARK_INDEXES "-- @indexes\n"
#define CP_DB_STR2(x)	#x
#define CP_DB_STR(x)	CP_DB_STR2(x)

/* One meta row, in a rank file or a merge. */
#define CP_DB_META_SQL "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"

/* Per-model SQL, one item per model of CP_MODEL_MAP (src/common/cp_row.h),
 * each with a leading ", ": CP_MODEL_MAP(CP_DB_COL_PRED) is ", pred_lmo_ns,
 * pred_log3p_ns, ...".  The schema's columns come from the same map
 * (db/local.mk). */
#define CP_DB_COL_PRED(id, name)	", pred_" #name "_ns"
#define CP_DB_COL_CPRED(id, name)	", c.pred_" #name "_ns"
#define CP_DB_COL_CMU(id, name)		", c.mu_" #name
#define CP_DB_COL_SETMU(id, name)	", mu_" #name " = ?"
#define CP_DB_COL_ARG(id, name)		", ?"
#define CP_DB_COL_MUDEF(id, name)	", mu_" #name " REAL"
#define CP_DB_COL_MU(id, name)		", mu_" #name
#define CP_DB_COL_XMU(id, name)		", x.mu_" #name

/* Matches wait in a temporary table, keyed as the rows they name, until
 * cp_db_need_rows copies the rows in with them: one write of each row,
 * no UPDATE (cp_db_put_xfers). */
#define CP_DB_XFER_TABLE_SQL						\
	"CREATE TEMP TABLE IF NOT EXISTS xfer (rank INTEGER NOT NULL,"	\
	" seq INTEGER NOT NULL, t_transfer_ns INTEGER, t_wait_ns INTEGER,"\
	" late INTEGER, mate_rank INTEGER, mate_seq INTEGER,"		\
	" coll_inst INTEGER" CP_MODEL_MAP(CP_DB_COL_MUDEF)		\
	", PRIMARY KEY (rank, seq)) WITHOUT ROWID"

/* The match columns of calls, and of temp.xfer as x. */
#define CP_DB_XFER_COLS "t_transfer_ns, t_wait_ns, late, mate_rank,"	\
	" mate_seq, coll_inst" CP_MODEL_MAP(CP_DB_COL_MU)
#define CP_DB_XFER_XCOLS "x.t_transfer_ns, x.t_wait_ns, x.late,"	\
	" x.mate_rank, x.mate_seq, x.coll_inst" CP_MODEL_MAP(CP_DB_COL_XMU)

/* The module of a rank that holds an address: the one with the greatest
 * start at or below it, if the address is below its end. */
#define CP_DB_MODULE_JOIN(t)						\
	" LEFT JOIN modules m ON m.id = (SELECT id FROM modules"	\
	" WHERE rank = " t ".rank AND start_addr <= " t ".site"		\
	" ORDER BY start_addr DESC LIMIT 1) AND " t ".site < m.end_addr"

/* Time spent inside MPI (SQL) of aggs row a with ops row o: a nonblocking
 * or persistent operation's row spans post to completion, which overlaps
 * the application and is already in the completion call's own row. */
#define CP_DB_MPI_TIME(a, o) "CASE WHEN " o ".kind IN ('nonblocking'," \
	" 'persistent') THEN 0 ELSE " a ".time_ns END"

/* True (SQL) when ops row o is the receiving side of a point-to-point
 * message (MPI_Recv, MPI_Irecv, MPI_Mrecv, MPI_Imrecv, MPI_Recv_init):
 * the message's bytes are counted at its send.  A Sendrecv's aggregate
 * is its send half (the library leaves the receive half out). */
#define CP_DB_RECV_OP(o)						\
	"(" o ".class = 'p2p' AND " o ".name LIKE '%recv%'"		\
	" AND " o ".name NOT LIKE '%sendrecv%')"

/* Record "what: sqlite message" as db's error; returns -code.
 * db: handle; code: CP_DB_E*; what: what failed. */
int cp_db_fail(struct cp_db *db, int code, const char *what);

/* Record a printf-style message as the error of the last failed open
 * (cp_db_errmsg(NULL)); returns -code. */
int cp_db_open_fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Give back a rank file's reserve (cp_db_rank_unreserve); a handle
 * without one (a merge, or given back already) is left alone. */
void cp_db_unreserve(struct cp_db *db);

/* A zeroed handle, or NULL when out of memory. */
struct cp_db *cp_db_alloc(void);

/* Execute the part of the embedded schema between marks `from` (NULL:
 * the start) and `to` (NULL: the end).  Returns an SQLite code. */
int cp_db_exec_schema(sqlite3 *h, const char *from, const char *to);

/* Bind v to parameter i of st, or NULL when v is the sentinel `none`. */
void cp_db_bind_opt(sqlite3_stmt *st, int i, int64_t v, int64_t none);

/* Bind v to parameter i of st; NAN (not predicted) as NULL. */
void cp_db_bind_real(sqlite3_stmt *st, int i, double v);

/* Step a bound statement once and reset it; 0 or the SQLite code. */
int cp_db_step(sqlite3_stmt *st);

/* Reader (cp_db_merge.c): attach the file at path, read-only, as
 * schema `name`.  Returns an SQLite code. */
int cp_db_attach_as(sqlite3 *h, const char *path, const char *name);

/* Reader (cp_db_read.c): first column of the first row of sql as an
 * integer; dflt when there is no row; sets *rc to the SQLite result. */
int64_t cp_db_query_int(sqlite3 *h, const char *sql, int64_t dflt,
			int *rc);

/* Column i of st as an integer, or dflt when it is NULL (cp_db.c). */
int64_t cp_db_col(sqlite3_stmt *st, int i, int64_t dflt);

/* Column i of st as a double, or NAN when it is NULL (cp_db.c). */
double cp_db_real(sqlite3_stmt *st, int i);

/*
 * cp_db_scan_h - fn for every row of class p2p or coll of the calls of
 * connection h (db/cp_db_sum.c): the message halves, then the collective
 * rows in (rank, comm, t_start_ns, seq) order, as src/reduce/cp_red.h
 * reads them.  rank >= 0: h is a rank file of that rank; -1: a merge,
 * whose rank column tells.  fn returns 0 to go on or a negative value.
 * Returns 0, fn's value, or a (positive) SQLite code (SQLITE_CORRUPT:
 * the rows before the damage were given).
 */
int cp_db_scan_h(sqlite3 *h, int32_t rank,
		 int (*fn)(void *arg, const struct cp_sum_row *r), void *arg);

#endif
