/*
 * cp_db_read.c - the reader's queries of db/cp_db_read.h on a merged
 * database: call rows, callsite totals, whole-run totals, meta, and the
 * rows and results of the matching (src/cli/cli_match.c).  The report's
 * own queries are in cp_db_report.c.  The CLI links it; the profiling
 * library does not.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "db/cp_db.h"
#include "db/cp_db_int.h"
#include "db/cp_db_read.h"

int64_t cp_db_query_int(sqlite3 *h, const char *sql, int64_t dflt,
			       int *rc)
{
	sqlite3_stmt *st;
	int64_t v = dflt;

	*rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	if (*rc)
		return dflt;
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	if (*rc == SQLITE_ROW || *rc == SQLITE_DONE)
		*rc = 0;
	sqlite3_finalize(st);
	return v;
}

static const char cp_db_calls_sql[] =
	"SELECT c.rank, o.name, c.seq, c.op, c.thread, c.peer, c.root,"
	" c.tag, c.comm_size, c.comm, c.layout, c.flags, c.bytes, c.count,"
	" c.site, c.t_start_ns, c.t_measured_ns, c.t_incall_ns,"
	" l.contiguous, l.block_bytes, l.stride_bytes, l.nblocks,"
	" m.path, m.base_addr"
	CP_MODEL_MAP(CP_DB_COL_CPRED) ", c.pred_lmw_ns, c.pred_flags,"
	" c.t_transfer_ns, c.t_wait_ns, c.late"
	CP_MODEL_MAP(CP_DB_COL_CMU) ", l.descr, c.alg"
	" FROM calls c LEFT JOIN ops o ON o.id = c.op"
	" LEFT JOIN layouts l ON l.rank = c.rank AND l.idx = c.layout"
	CP_DB_MODULE_JOIN("c")
	" ORDER BY c.rank, c.seq";

static void cp_db_read_row(sqlite3_stmt *st, struct cp_db_row *r)
{
	struct cp_db_call *c = &r->call;
	int i;

	r->rank = (int32_t)cp_db_col(st, 0, -1);
	r->op_name = (const char *)sqlite3_column_text(st, 1);
	c->seq = cp_db_col(st, 2, -1);
	c->op = (int32_t)cp_db_col(st, 3, -1);
	c->thread = (int32_t)cp_db_col(st, 4, 0);
	c->peer = (int32_t)cp_db_col(st, 5, -1);
	c->root = (int32_t)cp_db_col(st, 6, -1);
	c->tag = (int32_t)cp_db_col(st, 7, INT32_MIN);
	c->comm_size = (int32_t)cp_db_col(st, 8, -1);
	c->comm_id = (uint32_t)cp_db_col(st, 9, 0);
	c->layout = (int32_t)cp_db_col(st, 10, -1);
	c->flags = (uint32_t)cp_db_col(st, 11, 0);
	c->bytes = (uint64_t)cp_db_col(st, 12, 0);
	c->count = (uint64_t)cp_db_col(st, 13, 0);
	c->site = (uint64_t)cp_db_col(st, 14, 0);
	c->t_start_ns = cp_db_col(st, 15, 0);
	c->t_measured_ns = cp_db_col(st, 16, 0);
	c->t_incall_ns = cp_db_col(st, 17, -1);
	r->contiguous = (int32_t)cp_db_col(st, 18, -1);
	r->block_bytes = cp_db_col(st, 19, -1);
	r->stride_bytes = cp_db_col(st, 20, -1);
	r->nblocks = cp_db_col(st, 21, -1);
	r->mod_path = (const char *)sqlite3_column_text(st, 22);
	r->mod_base = (uint64_t)cp_db_col(st, 23, 0);
	for (i = 0; i < CP_NMODELS; i++)
		c->pred_ns[i] = cp_db_real(st, 24 + i);
	c->pred_lmw_ns = cp_db_real(st, 24 + CP_NMODELS);
	c->pred_flags = (uint32_t)cp_db_col(st, 25 + CP_NMODELS, 0);
	r->t_transfer_ns = cp_db_col(st, 26 + CP_NMODELS, -1);
	r->t_wait_ns = cp_db_col(st, 27 + CP_NMODELS, -1);
	r->late = (int32_t)cp_db_col(st, 28 + CP_NMODELS, 0);
	for (i = 0; i < CP_NMODELS; i++)
		r->mu[i] = cp_db_real(st, 29 + CP_NMODELS + i);
	r->layout_descr = (const char *)sqlite3_column_text(st,
							     29 + 2 * CP_NMODELS);
	c->alg = (int32_t)cp_db_col(st, 30 + 2 * CP_NMODELS, 0);
}

int cp_db_each_call(struct cp_db *db,
		    int (*fn)(void *arg, const struct cp_db_row *r),
		    void *arg)
{
	struct cp_db_row r;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, cp_db_calls_sql, -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		cp_db_read_row(st, &r);
		ret = fn(arg, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	sqlite3_finalize(st);
	return ret;
}

static const char cp_db_sites_sql[] =
	"SELECT a.rank, a.op, o.name, a.site, m.path, m.base_addr,"
	" sum(a.count), sum(a.bytes), sum(" CP_DB_MPI_TIME("a", "o") "),"
	" min(a.min_ns), max(a.max_ns), sum(a.rows), o.class"
	" FROM aggs a LEFT JOIN ops o ON o.id = a.op"
	CP_DB_MODULE_JOIN("a")
	" GROUP BY a.rank, a.site, a.op ORDER BY a.rank, a.site, a.op";

int cp_db_each_site(struct cp_db *db,
		    int (*fn)(void *arg, const struct cp_db_site_total *s),
		    void *arg)
{
	struct cp_db_site_total s;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, cp_db_sites_sql, -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read aggregates");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		s.rank = (int32_t)cp_db_col(st, 0, -1);
		s.op = (int32_t)cp_db_col(st, 1, -1);
		s.op_name = (const char *)sqlite3_column_text(st, 2);
		s.site = (uint64_t)cp_db_col(st, 3, 0);
		s.mod_path = (const char *)sqlite3_column_text(st, 4);
		s.mod_base = (uint64_t)cp_db_col(st, 5, 0);
		s.count = (uint64_t)cp_db_col(st, 6, 0);
		s.bytes = (uint64_t)cp_db_col(st, 7, 0);
		s.time_ns = cp_db_col(st, 8, 0);
		s.min_ns = cp_db_col(st, 9, 0);
		s.max_ns = cp_db_col(st, 10, 0);
		s.rows = (uint64_t)cp_db_col(st, 11, 0);
		s.op_class = (const char *)sqlite3_column_text(st, 12);
		ret = fn(arg, &s);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read aggregates");
	sqlite3_finalize(st);
	return ret;
}

/* The threads fields of *t (cp_db_totals).  Returns 0 or an SQLite
 * code. */
static int cp_db_get_threads(struct cp_db *db, struct cp_db_totals *t)
{
	int r1, r2, r3;

	t->threads_min = (int32_t)cp_db_query_int(db->h, "SELECT min(max("
		"CAST(value AS INTEGER), 1)) FROM rank_meta WHERE key = "
		"'threads'", 0, &r1);
	t->threads_max = (int32_t)cp_db_query_int(db->h, "SELECT max(max("
		"CAST(value AS INTEGER), 1)) FROM rank_meta WHERE key = "
		"'threads'", 0, &r2);
	t->thread_time_ns = cp_db_query_int(db->h, "SELECT coalesce(sum("
		"CAST(a.value AS INTEGER) * max(coalesce(CAST(n.value AS "
		"INTEGER), 1), 1)), 0) FROM rank_meta a LEFT JOIN rank_meta "
		"n ON n.rank = a.rank AND n.key = 'threads' WHERE a.key = "
		"'app_time_ns'", 0, &r3);
	return r1 ? r1 : r2 ? r2 : r3;
}

int cp_db_get_totals(struct cp_db *db, struct cp_db_totals *t)
{
	sqlite3_stmt *st;
	int rc, r2, r3, r4;
	int64_t napp;

	memset(t, 0, sizeof(*t));
	rc = sqlite3_prepare_v2(db->h, "SELECT coalesce(sum(a.count), 0),"
				" coalesce(sum(CASE WHEN " CP_DB_RECV_OP("o")
				" THEN 0 ELSE a.bytes END), 0),"
				" coalesce(sum(" CP_DB_MPI_TIME("a", "o") "), 0),"
				" coalesce(sum(a.rows), 0) FROM aggs a"
				" LEFT JOIN ops o ON o.id = a.op", -1, &st,
				NULL);
	if (!rc && sqlite3_step(st) == SQLITE_ROW) {
		t->calls = (uint64_t)sqlite3_column_int64(st, 0);
		t->bytes = (uint64_t)sqlite3_column_int64(st, 1);
		t->mpi_time_ns = sqlite3_column_int64(st, 2);
		t->rows_kept = (uint64_t)sqlite3_column_int64(st, 3);
	} else {
		rc = rc ? rc : SQLITE_ERROR;
	}
	sqlite3_finalize(st);
	t->ranks = (int32_t)cp_db_query_int(db->h, "SELECT value FROM meta "
					    "WHERE key = 'ranks'", 0, &r2);
	/* a merge whose call rows wait in the rank files counted them */
	t->rows_stored = (uint64_t)cp_db_query_int(db->h, "SELECT CASE WHEN "
		"(SELECT value FROM meta WHERE key = 'rows_merged') = '0' "
		"THEN (SELECT coalesce(sum(CAST(value AS INTEGER)), 0) FROM "
		"rank_meta WHERE key = 'rows_in_file') ELSE (SELECT count(*) "
		"FROM calls) END", 0, &r3);
	if (!r3)
		t->calls_xfer = (uint64_t)cp_db_query_int(db->h, "SELECT "
			"coalesce(sum(a.count), 0) FROM aggs a JOIN ops o ON "
			"o.id = a.op WHERE o.class IN ('p2p', 'coll')", 0, &r3);
	t->rows_dropped = (uint64_t)cp_db_query_int(db->h,
		"SELECT coalesce(sum(CAST(value AS INTEGER)), 0) FROM "
		"rank_meta WHERE key = 'rows_dropped'", 0, &r4);
	t->rows_not_kept = (uint64_t)cp_db_query_int(db->h,
		"SELECT coalesce(sum(CAST(value AS INTEGER)), 0) FROM "
		"rank_meta WHERE key = 'rows_not_kept'", 0, &r3);
	t->rows_lost_disk = (uint64_t)cp_db_query_int(db->h,
		"SELECT coalesce(sum(CAST(value AS INTEGER)), 0) FROM "
		"rank_meta WHERE key = 'rows_lost_disk'", 0, &r4);
	napp = cp_db_query_int(db->h, "SELECT count(*) FROM rank_meta "
			       "WHERE key = 'app_time_ns'", 0, &r2);
	t->app_time_ns = cp_db_query_int(db->h, "SELECT coalesce(sum(CAST("
					 "value AS INTEGER)), 0) FROM "
					 "rank_meta WHERE key = "
					 "'app_time_ns'", 0, &r2);
	if (napp != t->ranks)
		t->app_time_ns = -1;
	if (rc || r2 || r3 || r4 || cp_db_get_threads(db, t))
		return cp_db_fail(db, CP_DB_EIO, "cannot read totals");
	if (napp != t->ranks)
		t->thread_time_ns = -1;
	return 0;
}

/* ---- reader: matching (src/cli/cli_match.c) ---- */

static const char cp_db_match_sql[] =
	"SELECT c.rank, c.seq, o.class = 'coll', c.op, c.flags, c.peer,"
	" c.tag, c.comm, c.comm_size, c.t_start_ns, c.t_measured_ns"
	CP_MODEL_MAP(CP_DB_COL_CPRED)
	" FROM calls c JOIN ops o ON o.id = c.op"
	" WHERE o.class IN ('p2p', 'coll') ORDER BY c.rank, c.seq";

int cp_db_each_match_row(struct cp_db *db,
			 int (*fn)(void *arg, const struct cp_db_mrow *r),
			 void *arg)
{
	struct cp_db_mrow r;
	sqlite3_stmt *st;
	int i, rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, cp_db_match_sql, -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.rank = (int32_t)cp_db_col(st, 0, -1);
		r.seq = cp_db_col(st, 1, -1);
		r.coll = (int32_t)cp_db_col(st, 2, 0);
		r.op = (int32_t)cp_db_col(st, 3, -1);
		r.flags = (uint32_t)cp_db_col(st, 4, 0);
		r.peer = (int32_t)cp_db_col(st, 5, -1);
		r.tag = (int32_t)cp_db_col(st, 6, INT32_MIN);
		r.comm_id = (uint32_t)cp_db_col(st, 7, 0);
		r.comm_size = (int32_t)cp_db_col(st, 8, -1);
		r.t_start_ns = cp_db_col(st, 9, 0);
		r.t_measured_ns = cp_db_col(st, 10, 0);
		for (i = 0; i < CP_NMODELS; i++)
			r.pred_ns[i] = cp_db_real(st, 11 + i);
		ret = fn(arg, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	sqlite3_finalize(st);
	return ret;
}

static const char cp_db_xfer_sql[] =
	"INSERT OR REPLACE INTO temp.xfer VALUES (?, ?, ?, ?, ?, ?, ?, ?"
	CP_MODEL_MAP(CP_DB_COL_ARG) ")";

int cp_db_put_xfers(struct cp_db *db, const struct cp_db_xfer *x, size_t n)
{
	sqlite3_stmt *st = NULL;
	size_t k;
	int i, rc;

	if (sqlite3_exec(db->h, CP_DB_XFER_TABLE_SQL, NULL, NULL, NULL) ||
	    sqlite3_exec(db->h, "SAVEPOINT xf", NULL, NULL, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot write matches");
	rc = sqlite3_prepare_v2(db->h, cp_db_xfer_sql, -1, &st, NULL);
	for (k = 0; !rc && k < n; k++) {
		sqlite3_bind_int(st, 1, x[k].rank);
		sqlite3_bind_int64(st, 2, x[k].seq);
		sqlite3_bind_int64(st, 3, x[k].t_transfer_ns);
		sqlite3_bind_int64(st, 4, x[k].t_wait_ns);
		cp_db_bind_opt(st, 5, x[k].late, 0);
		cp_db_bind_opt(st, 6, x[k].mate_rank, -1);
		cp_db_bind_opt(st, 7, x[k].mate_seq, -1);
		cp_db_bind_opt(st, 8, x[k].coll_inst, -1);
		for (i = 0; i < CP_NMODELS; i++)
			cp_db_bind_real(st, 9 + i, x[k].mu[i]);
		rc = cp_db_step(st);
	}
	sqlite3_finalize(st);
	if (!rc && !sqlite3_exec(db->h, "RELEASE xf", NULL, NULL, NULL))
		return 0;
	sqlite3_exec(db->h, "ROLLBACK TO xf; RELEASE xf", NULL, NULL, NULL);
	return cp_db_fail(db, CP_DB_EIO, "cannot write matches");
}

/* The text of the first column of st's first row into buf. */
static int cp_db_meta_text(struct cp_db *db, sqlite3_stmt *st, char *buf,
			   size_t len)
{
	int rc = sqlite3_step(st), ret = -CP_DB_ENOENT;

	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		snprintf(buf, len, "%s", sqlite3_column_text(st, 0));
		ret = 0;
	} else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read meta");
	}
	sqlite3_finalize(st);
	return ret;
}

int cp_db_get_meta(struct cp_db *db, const char *key, char *buf,
		   size_t len)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->h, "SELECT value FROM meta WHERE key = ?",
			       -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read meta");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	return cp_db_meta_text(db, st, buf, len);
}

int cp_db_get_build_id(struct cp_db *db, const char *path, char *buf,
		       size_t len)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->h, "SELECT build_id FROM modules WHERE "
			       "path = ? AND build_id IS NOT NULL LIMIT 1",
			       -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read modules");
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	return cp_db_meta_text(db, st, buf, len);
}

int cp_db_get_rank_meta(struct cp_db *db, int32_t rank, const char *key,
			char *buf, size_t len)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->h, "SELECT value FROM rank_meta WHERE "
			       "rank = ? AND key = ?", -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read meta");
	sqlite3_bind_int(st, 1, rank);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	return cp_db_meta_text(db, st, buf, len);
}
