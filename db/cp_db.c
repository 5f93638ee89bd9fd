/*
 * cp_db.c - what the writer and the reader of db/ share (db/cp_db.h,
 * db/cp_db_int.h): error texts, binding and stepping statements, the
 * embedded schema, meta rows, and closing a handle.  The writer
 * (cp_db_write.c, linked into the profiling library) and the reader
 * (cp_db_merge.c, cp_db_read.c, cp_db_report.c: the CLI) build on it; it
 * calls neither.  The schema is db/schema.sql, embedded at build time as
 * cp_db_schema_sql.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/cp_db.h"
#include "db/cp_db_int.h"
#include "db/cp_schema_gen.h"

/* Error text of the last failed open (cp_db_errmsg(NULL)). */
static _Thread_local char cp_db_open_err[256];

const char *cp_db_errmsg(struct cp_db *db)
{
	return db ? db->err : cp_db_open_err;
}

int cp_db_fail(struct cp_db *db, int code, const char *what)
{
	snprintf(db->err, sizeof(db->err), "%s: %s", what,
		 sqlite3_errmsg(db->h));
	return -code;
}

int cp_db_open_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cp_db_open_err, sizeof(cp_db_open_err), fmt, ap);
	va_end(ap);
	return -code;
}

int cp_db_exec_schema(sqlite3 *h, const char *from, const char *to)
{
	const char *s = cp_db_schema_sql, *e;
	char *part;
	int rc;

	if (from)
		s = strstr(s, from);
	e = to ? strstr(s, to) : s + strlen(s);
	part = strndup(s, e - s);
	if (!part)
		return SQLITE_NOMEM;
	rc = sqlite3_exec(h, part, NULL, NULL, NULL);
	free(part);
	return rc;
}

void cp_db_bind_opt(sqlite3_stmt *st, int i, int64_t v, int64_t none)
{
	if (v == none)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

int cp_db_step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : rc;
}

void cp_db_bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

int64_t cp_db_col(sqlite3_stmt *st, int i, int64_t dflt)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return dflt;
	return sqlite3_column_int64(st, i);
}

double cp_db_real(sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NAN;
	return sqlite3_column_double(st, i);
}

struct cp_db *cp_db_alloc(void)
{
	return calloc(1, sizeof(struct cp_db));
}

int cp_db_put_meta(struct cp_db *db, const char *key, const char *value)
{
	sqlite3_stmt *st = db->st[CP_ST_META], *own = NULL;
	int rc;

	/* the merged file has no prepared writer statements */
	if (!st && sqlite3_prepare_v2(db->h, CP_DB_META_SQL, -1, &own, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot write meta");
	if (own)
		st = own;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_TRANSIENT);
	rc = cp_db_step(st);
	sqlite3_finalize(own);
	if (rc)
		return cp_db_fail(db, CP_DB_EIO, "cannot write meta");
	return 0;
}

void cp_db_unreserve(struct cp_db *db)
{
	if (!db->reserve[0])
		return;
	unlink(db->reserve);
	db->reserve[0] = '\0';
}

void cp_db_close(struct cp_db *db)
{
	int i;

	if (!db)
		return;
	for (i = 0; i < CP_ST_MAX; i++)
		sqlite3_finalize(db->st[i]);
	for (i = 0; i < CP_SUM_ST_MAX; i++)
		sqlite3_finalize(db->sum[i]);
	cp_db_unreserve(db);		/* room for the checkpoint below */
	if (db->h && db->writer)
		sqlite3_exec(db->h, "PRAGMA journal_mode=DELETE", NULL, NULL,
			     NULL);
	sqlite3_close_v2(db->h);
	free(db->bound);
	free(db->dir);
	free(db);
}
