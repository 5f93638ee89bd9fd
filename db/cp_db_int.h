/*
 * cp_db_int.h - what the files of db/ share among themselves (cp_db.c,
 * cp_db_report.c) and nobody else sees: the handle and the column
 * helpers.  Everything outside db/ uses db/cp_db.h.
 */
#ifndef CP_DB_INT_H
#define CP_DB_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "db/cp_db.h"

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
	CP_ST_MAX
};

struct cp_db {
	sqlite3 *h;
	bool writer;			/* rank file: see cp_db_close */
	sqlite3_stmt *st[CP_ST_MAX];	/* writer statements, or NULL */
	char err[256];
	char reserve[4200];		/* writer: path of the reserve file,
					 * "" once given back */
};

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

/* Column i of st as an integer, or dflt when it is NULL. */
int64_t cp_db_col(sqlite3_stmt *st, int i, int64_t dflt);

/* Column i of st as a double, or NAN when it is NULL. */
double cp_db_real(sqlite3_stmt *st, int i);

#endif
