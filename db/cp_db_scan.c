/*
 * cp_db_scan.c - the reader's side of the reduction of a run
 * (db/cp_db_read.h): the rank files of a merge and what is known of
 * their rows, the scan of one rank file, the reduction's records read
 * back, the reduced file of a job taken in, and the few lookups the
 * report makes for what the records name (ops, callsites' modules,
 * layouts).  The CLI links it; the profiling library does not.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db/cp_db.h"
#include "db/cp_db_int.h"
#include "db/cp_db_read.h"

int cp_db_scan_file(const char *path, int32_t rank,
		    int (*fn)(void *arg, const struct cp_sum_row *r),
		    void *arg)
{
	sqlite3 *h = NULL;
	int rc;

	rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (!rc)
		rc = cp_db_scan_h(h, rank, fn, arg);
	if (rc > 0)		/* SQLite's; fn's are negative */
		rc = cp_db_open_fail(CP_DB_EIO, "%s: %s", path,
				     h ? sqlite3_errmsg(h) : "out of memory");
	sqlite3_close_v2(h);
	return rc;
}

/* Rank meta value of key as an integer, dflt when absent. */
static int64_t cp_db_rmeta(sqlite3_stmt *st, int i, int64_t dflt)
{
	return cp_db_col(st, i, dflt);
}

static const char cp_db_files_sql[] =
	"SELECT f.rank, ?1 || '/' || f.name,"
	" (SELECT value FROM rank_meta WHERE rank = f.rank"
	"  AND key = 'rows_dropped'),"
	" (SELECT value FROM rank_meta WHERE rank = f.rank"
	"  AND key = 'rows_not_kept'),"
	" (SELECT value FROM rank_meta WHERE rank = f.rank"
	"  AND key = 'rows_capped'),"
	" (SELECT value FROM rank_meta WHERE rank = f.rank"
	"  AND key = 'sample'),"
	" (SELECT value = 'identity' FROM rank_meta WHERE rank = f.rank"
	"  AND key = 'sample_by'),"
	" (SELECT value FROM rank_meta WHERE rank = f.rank"
	"  AND key = 'rows_in_file'),"
	" (SELECT value FROM rank_meta WHERE rank = f.rank"
	"  AND key = 'finished')"
	" FROM rank_files f ORDER BY f.rank";

int cp_db_each_rank_file(struct cp_db *db,
			 int (*fn)(void *arg, const struct cp_db_rank_file *f),
			 void *arg)
{
	struct cp_db_rank_file f;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (!db->dir)
		return 0;	/* a merge without its rank files */
	if (sqlite3_prepare_v2(db->h, cp_db_files_sql, -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read rank files");
	sqlite3_bind_text(st, 1, db->dir, -1, SQLITE_STATIC);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		f.rank = (int32_t)cp_db_col(st, 0, -1);
		f.path = (const char *)sqlite3_column_text(st, 1);
		f.dropped = cp_db_rmeta(st, 2, 0);
		f.not_kept = cp_db_rmeta(st, 3, 0);
		f.capped = cp_db_rmeta(st, 4, -1);
		f.sample = cp_db_rmeta(st, 5, 1);
		f.by_identity = cp_db_rmeta(st, 6, 0) != 0;
		f.rows = cp_db_rmeta(st, 7, 0);
		f.finished = cp_db_rmeta(st, 8, -1);
		if (f.path)
			ret = fn(arg, &f);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read rank files");
	sqlite3_finalize(st);
	return ret;
}

bool cp_db_has_sum(struct cp_db *db)
{
	int rc;

	return cp_db_query_int(db->h, "SELECT count(*) FROM meta WHERE key "
			       "= 'reduced'", 0, &rc) > 0 && !rc;
}

/* True when schema (main, j) of h has table name.  A reduction written
 * before red_coll_worst has none: no worst collective calls to show. */
static bool cp_db_has_table(sqlite3 *h, const char *schema,
			    const char *name)
{
	char sql[160];
	int rc;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s.sqlite_master "
		 "WHERE type = 'table' AND name = '%s'", schema, name);
	return cp_db_query_int(h, sql, 0, &rc) > 0 && !rc;
}

/* ---- reading the records back ---- */

static int cp_db_model_of(const char *name)
{
	int k;

	for (k = 0; name && k < CP_NMODELS; k++)
		if (!strcmp(cp_model_name(k), name))
			return k;
	return -1;
}

/* An acc record's model by name: a model, or the time it holds. */
static int cp_db_acc_of(const char *name)
{
	if (name && !strcmp(name, "t_transfer"))
		return CP_SUM_T_TRANSFER;
	if (name && !strcmp(name, "t_wait"))
		return CP_SUM_T_WAIT;
	return cp_db_model_of(name);
}

/* One query's rows as records of kind; see cp_db_each_sum. */
static int cp_db_sum_rows(struct cp_db *db, const char *sql, int kind,
			  int (*fn)(void *arg, const struct cp_sum_rec *r),
			  void *arg)
{
	struct cp_sum_rec r;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read the reduction");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&r, 0, sizeof(r));
		r.kind = kind;
		switch (kind) {
		case CP_SUM_COUNT:
			r.u.count.key = (const char *)sqlite3_column_text(st,
									  0);
			r.u.count.value = cp_db_col(st, 1, 0);
			break;
		case CP_SUM_COV:
			r.u.cov.pred_flags = (uint32_t)cp_db_col(st, 0, 0);
			r.u.cov.pred_mask = (uint32_t)cp_db_col(st, 1, 0);
			r.u.cov.mu_mask = (uint32_t)cp_db_col(st, 2, 0);
			r.u.cov.rows = (uint64_t)cp_db_col(st, 3, 0);
			break;
		case CP_SUM_ACC:
			r.u.acc.model = cp_db_acc_of((const char *)
				sqlite3_column_text(st, 0));
			r.u.acc.grp = (int32_t)cp_db_col(st, 1, -1);
			r.u.acc.key = cp_db_col(st, 2, 0);
			r.u.acc.n = (uint64_t)cp_db_col(st, 3, 0);
			r.u.acc.sum = sqlite3_column_double(st, 4);
			r.u.acc.bins = sqlite3_column_blob(st, 5);
			r.u.acc.len = (size_t)sqlite3_column_bytes(st, 5);
			break;
		case CP_SUM_WORST:
		case CP_SUM_CWORST:
			r.u.worst.model = cp_db_model_of((const char *)
				sqlite3_column_text(st, 0));
			r.u.worst.rank = (int32_t)cp_db_col(st, 1, -1);
			r.u.worst.seq = cp_db_col(st, 2, -1);
			r.u.worst.op = (int32_t)cp_db_col(st, 3, -1);
			r.u.worst.bytes = (uint64_t)cp_db_col(st, 4, 0);
			r.u.worst.peer = (int32_t)cp_db_col(st, 5,
							    CP_PEER_NONE);
			r.u.worst.root = (int32_t)cp_db_col(st, 6,
							    CP_PEER_NONE);
			r.u.worst.site = (uint64_t)cp_db_col(st, 7, 0);
			r.u.worst.t_transfer_ns = cp_db_col(st, 8, -1);
			r.u.worst.pred_ns = sqlite3_column_double(st, 9);
			r.u.worst.mu = sqlite3_column_double(st, 10);
			if (kind == CP_SUM_WORST)
				break;
			r.u.worst.t_wait_ns = cp_db_col(st, 11, -1);
			r.u.worst.comm = (uint32_t)cp_db_col(st, 12, 0);
			r.u.worst.alg = (int32_t)cp_db_col(st, 13, -1);
			break;
		default:
			r.u.sg.rank = (int32_t)cp_db_col(st, 0, -1);
			r.u.sg.site = (uint64_t)cp_db_col(st, 1, 0);
			r.u.sg.op = (int32_t)cp_db_col(st, 2, -1);
			r.u.sg.bytes = (uint64_t)cp_db_col(st, 3, 0);
			r.u.sg.layout = (int32_t)cp_db_col(st, 4, -1);
			r.u.sg.calls = (uint64_t)cp_db_col(st, 5, 0);
			r.u.sg.log3p_ns = sqlite3_column_double(st, 6);
			r.u.sg.log3p_n = (uint64_t)cp_db_col(st, 7, 0);
			r.u.sg.lmw_ns = sqlite3_column_double(st, 8);
			r.u.sg.lmw_n = (uint64_t)cp_db_col(st, 9, 0);
			r.u.sg.measured_ns = cp_db_col(st, 10, 0);
			break;
		}
		ret = fn(arg, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read the reduction");
	sqlite3_finalize(st);
	return ret;
}

int cp_db_each_sum(struct cp_db *db,
		   int (*fn)(void *arg, const struct cp_sum_rec *r),
		   void *arg)
{
	static const struct {
		int kind;
		const char *sql;
	} q[] = {
		{ CP_SUM_COUNT, "SELECT key, value FROM red_count" },
		{ CP_SUM_COV, "SELECT pred_flags, pred_mask, mu_mask, rows "
		  "FROM red_cov" },
		{ CP_SUM_ACC, "SELECT model, grp, key, n, sum, bins FROM "
		  "red_acc" },
		{ CP_SUM_WORST, "SELECT model, rank, seq, op, bytes, peer, "
		  "root, site, t_transfer_ns, pred_ns, mu FROM red_worst" },
		{ CP_SUM_SG, "SELECT rank, site, op, bytes, layout, calls, "
		  "pred_log3p_ns, n_log3p, pred_lmw_ns, n_lmw, t_measured_ns "
		  "FROM red_strided" },
		{ CP_SUM_CWORST, "SELECT model, rank, seq, op, bytes, peer, "
		  "root, site, t_transfer_ns, pred_ns, mu, t_wait_ns, comm, "
		  "alg FROM red_coll_worst" },
	};
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < sizeof(q) / sizeof(q[0]); i++)
		if (q[i].kind != CP_SUM_CWORST ||
		    cp_db_has_table(db->h, "main", "red_coll_worst"))
			ret = cp_db_sum_rows(db, q[i].sql, q[i].kind, fn, arg);
	return ret;
}

/* ---- the reduced file of a job ---- */

/* True when the reduced file attached as "j" is of the run merged in
 * main: the same job clock origin as rank 0's file and as many ranks. */
static bool cp_db_sum_same_run(sqlite3 *h)
{
	int r1, r2, r3;
	int64_t ranks, mine, epoch;

	ranks = cp_db_query_int(h, "SELECT value FROM j.meta WHERE key = "
				"'ranks' AND (SELECT value FROM j.meta WHERE "
				"key = 'kind') = 'reduced'", -1, &r1);
	mine = cp_db_query_int(h, "SELECT count(*) FROM main.rank_files",
			       0, &r2);
	epoch = cp_db_query_int(h, "SELECT (SELECT value FROM j.meta WHERE "
				"key = 'epoch_ns') = (SELECT value FROM "
				"main.rank_meta WHERE key = 'epoch_ns' ORDER BY "
				"rank LIMIT 1)", 0, &r3);
	return !r1 && !r2 && !r3 && ranks == mine && epoch == 1;
}

int cp_db_sum_import(struct cp_db *db, const char *path, bool *used)
{
	static const char *const tables[] = { "red_count", "red_cov",
					      "red_acc", "red_worst",
					      "red_coll_worst",
					      "red_strided" };
	char sql[256];
	size_t i;
	int rc;

	*used = false;
	if (cp_db_attach_as(db->h, path, "j"))
		return 0;	/* no file, or not readable: not ours */
	if (!cp_db_sum_same_run(db->h)) {
		sqlite3_exec(db->h, "DETACH j", NULL, NULL, NULL);
		return 0;
	}
	rc = sqlite3_exec(db->h, "SAVEPOINT imp", NULL, NULL, NULL);
	for (i = 0; !rc && i < sizeof(tables) / sizeof(tables[0]); i++) {
		if (!strcmp(tables[i], "red_coll_worst") &&
		    !cp_db_has_table(db->h, "j", tables[i]))
			continue;
		snprintf(sql, sizeof(sql), "INSERT INTO main.%s SELECT * FROM "
			 "j.%s", tables[i], tables[i]);
		rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
	}
	if (!rc)
		rc = sqlite3_exec(db->h, "INSERT OR REPLACE INTO main.meta "
				  "(key, value) SELECT key, value FROM j.meta "
				  "WHERE key IN ('reduce_ms', 'reduced_by', "
				  "'reduce_ranks')", NULL, NULL, NULL);
	if (!rc)
		rc = sqlite3_exec(db->h, "RELEASE imp", NULL, NULL, NULL);
	if (rc)
		sqlite3_exec(db->h, "ROLLBACK TO imp; RELEASE imp", NULL,
			     NULL, NULL);
	else
		*used = true;
	if (rc)
		cp_db_fail(db, CP_DB_EIO, "cannot read the job's reduction");
	sqlite3_exec(db->h, "DETACH j", NULL, NULL, NULL);
	return rc ? -CP_DB_EIO : 0;
}

/* ---- lookups for the report ---- */

int cp_db_each_op(struct cp_db *db,
		  int (*fn)(void *arg, int32_t id, const char *name),
		  void *arg)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT id, name FROM ops ORDER BY id",
			       -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read ops");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = fn(arg, (int32_t)cp_db_col(st, 0, -1),
			 (const char *)sqlite3_column_text(st, 1));
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read ops");
	sqlite3_finalize(st);
	return ret;
}

int cp_db_site_module(struct cp_db *db, int32_t rank, uint64_t site,
		      char *path, size_t len, uint64_t *base)
{
	sqlite3_stmt *st;
	int rc, ret = -CP_DB_ENOENT;

	if (sqlite3_prepare_v2(db->h, "SELECT path, base_addr FROM modules "
			       "WHERE rank = ?1 AND start_addr <= ?2 AND ?2 < "
			       "end_addr ORDER BY start_addr DESC LIMIT 1", -1,
			       &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read modules");
	sqlite3_bind_int(st, 1, rank);
	sqlite3_bind_int64(st, 2, (int64_t)site);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(path, len, "%s", sqlite3_column_text(st, 0));
		*base = (uint64_t)cp_db_col(st, 1, 0);
		ret = 0;
	} else if (rc != SQLITE_DONE) {
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read modules");
	}
	sqlite3_finalize(st);
	return ret;
}

int cp_db_layout_info(struct cp_db *db, int32_t rank, int32_t idx,
		      struct cp_db_layout_info *l)
{
	sqlite3_stmt *st;
	int rc, ret = -CP_DB_ENOENT;

	if (sqlite3_prepare_v2(db->h, "SELECT contiguous, block_bytes, "
			       "stride_bytes, nblocks, descr FROM layouts "
			       "WHERE rank = ? AND idx = ?", -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read layouts");
	sqlite3_bind_int(st, 1, rank);
	sqlite3_bind_int(st, 2, idx);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		l->contiguous = (int32_t)cp_db_col(st, 0, 1);
		l->block_bytes = cp_db_col(st, 1, -1);
		l->stride_bytes = cp_db_col(st, 2, -1);
		l->nblocks = cp_db_col(st, 3, -1);
		snprintf(l->descr, sizeof(l->descr), "%s",
			 sqlite3_column_type(st, 4) == SQLITE_NULL ? "" :
			 (const char *)sqlite3_column_text(st, 4));
		ret = 0;
	} else if (rc != SQLITE_DONE) {
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read layouts");
	}
	sqlite3_finalize(st);
	return ret;
}

int cp_db_rank_file_meta(const char *path, struct cp_db_rank_file *f,
			 int64_t *epoch_ns)
{
	static const char *const keys[] = {
		"rank", "rows_dropped", "rows_not_kept", "rows_capped",
		"sample", "finished", "epoch_ns", "sample_by",
	};
	int64_t v[7] = { -1, 0, 0, -1, 1, -1, 0 };
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	size_t i;
	int rc;

	rc = sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (!rc)
		rc = sqlite3_prepare_v2(h, "SELECT value FROM meta WHERE key "
					"= ?", -1, &st, NULL);
	memset(f, 0, sizeof(*f));
	for (i = 0; !rc && i < sizeof(keys) / sizeof(keys[0]); i++) {
		sqlite3_bind_text(st, 1, keys[i], -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW && i == 7)
			f->by_identity = !strcmp((const char *)
				sqlite3_column_text(st, 0), "identity");
		else if (rc == SQLITE_ROW)
			v[i] = cp_db_col(st, 0, v[i]);
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : rc;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc)
		cp_db_open_fail(CP_DB_EIO, "%s: %s", path, sqlite3_errmsg(h));
	sqlite3_close_v2(h);
	f->rank = v[0] >= 0 && v[0] <= INT32_MAX ? (int32_t)v[0] : -1;
	f->path = path;
	f->dropped = v[1];
	f->not_kept = v[2];
	f->capped = v[3];
	f->sample = v[4];
	f->finished = v[5];
	*epoch_ns = v[6];
	return rc ? -CP_DB_EIO : 0;
}
