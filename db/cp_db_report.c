/*
 * cp_db_report.c - the queries of "commprof report" (src/cli/cli_report.c):
 * prediction rows, the strided sends log3P flags, and rank meta values.
 * Part of the reader (db/cp_db_read.h), which the profiling library
 * never links.
 */
#include <sqlite3.h>

#include "db/cp_db_int.h"
#include "db/cp_db_read.h"

int cp_db_each_rank_value(struct cp_db *db, const char *key,
			  int (*fn)(void *arg, const char *value,
				    int32_t nranks),
			  void *arg)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT coalesce(value, ''), count(*)"
			       " FROM rank_meta WHERE key = ? GROUP BY 1"
			       " ORDER BY 1", -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read meta");
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = fn(arg, (const char *)sqlite3_column_text(st, 0),
			 (int32_t)sqlite3_column_int(st, 1));
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read meta");
	sqlite3_finalize(st);
	return ret;
}

static const char cp_db_pred_sql[] =
	"SELECT c.rank, c.seq, c.op, o.name, c.bytes, c.peer, c.root,"
	" c.site, m.path, m.base_addr"
	CP_MODEL_MAP(CP_DB_COL_CPRED) ", c.pred_lmw_ns, c.pred_flags,"
	" c.t_transfer_ns"
	CP_MODEL_MAP(CP_DB_COL_CMU)
	" FROM calls c JOIN ops o ON o.id = c.op"
	CP_DB_MODULE_JOIN("c")
	" WHERE o.class IN ('p2p', 'coll') ORDER BY c.rank, c.seq";

static void cp_db_read_prow(sqlite3_stmt *st, struct cp_db_prow *r)
{
	int i;

	r->rank = (int32_t)cp_db_col(st, 0, -1);
	r->seq = cp_db_col(st, 1, -1);
	r->op = (int32_t)cp_db_col(st, 2, -1);
	r->op_name = (const char *)sqlite3_column_text(st, 3);
	r->bytes = (uint64_t)cp_db_col(st, 4, 0);
	r->peer = (int32_t)cp_db_col(st, 5, -1);
	r->root = (int32_t)cp_db_col(st, 6, -1);
	r->site = (uint64_t)cp_db_col(st, 7, 0);
	r->mod_path = (const char *)sqlite3_column_text(st, 8);
	r->mod_base = (uint64_t)cp_db_col(st, 9, 0);
	for (i = 0; i < CP_NMODELS; i++)
		r->pred_ns[i] = cp_db_real(st, 10 + i);
	r->pred_lmw_ns = cp_db_real(st, 10 + CP_NMODELS);
	r->pred_flags = (uint32_t)cp_db_col(st, 11 + CP_NMODELS, 0);
	r->t_transfer_ns = cp_db_col(st, 12 + CP_NMODELS, -1);
	for (i = 0; i < CP_NMODELS; i++)
		r->mu[i] = cp_db_real(st, 13 + CP_NMODELS + i);
}

int cp_db_each_pred_row(struct cp_db *db,
			int (*fn)(void *arg, const struct cp_db_prow *r),
			void *arg)
{
	struct cp_db_prow r;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, cp_db_pred_sql, -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		cp_db_read_prow(st, &r);
		ret = fn(arg, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	sqlite3_finalize(st);
	return ret;
}

/* Layouts of different ranks are the same when their shape is: group by
 * the layout's columns, not by its per-rank index. */
static const char cp_db_flagged_sql[] =
	"SELECT c.rank, c.site, m.path, m.base_addr, c.op, o.name, c.bytes,"
	" l.block_bytes, l.stride_bytes, l.nblocks, l.descr, count(*),"
	" total(c.pred_log3p_ns), count(c.pred_log3p_ns),"
	" total(c.pred_lmw_ns), count(c.pred_lmw_ns), sum(c.t_measured_ns)"
	" FROM calls c JOIN layouts l ON l.rank = c.rank AND l.idx = c.layout"
	" LEFT JOIN ops o ON o.id = c.op"
	CP_DB_MODULE_JOIN("c")
	" WHERE (c.pred_flags & ?1) != 0 AND (c.flags & ?2) = 0"
	" AND l.contiguous = 0"
	" GROUP BY c.rank, c.site, c.op, c.bytes, l.block_bytes,"
	" l.stride_bytes, l.nblocks, l.descr"
	" ORDER BY c.rank, c.site, c.op, c.bytes";

static void cp_db_read_flagged(sqlite3_stmt *st, struct cp_db_flagged *f)
{
	f->rank = (int32_t)cp_db_col(st, 0, -1);
	f->site = (uint64_t)cp_db_col(st, 1, 0);
	f->mod_path = (const char *)sqlite3_column_text(st, 2);
	f->mod_base = (uint64_t)cp_db_col(st, 3, 0);
	f->op = (int32_t)cp_db_col(st, 4, -1);
	f->op_name = (const char *)sqlite3_column_text(st, 5);
	f->bytes = (uint64_t)cp_db_col(st, 6, 0);
	f->block_bytes = cp_db_col(st, 7, -1);
	f->stride_bytes = cp_db_col(st, 8, -1);
	f->nblocks = cp_db_col(st, 9, -1);
	f->descr = (const char *)sqlite3_column_text(st, 10);
	f->calls = (uint64_t)cp_db_col(st, 11, 0);
	f->pred_log3p_ns = sqlite3_column_double(st, 12);
	f->n_log3p = (uint64_t)cp_db_col(st, 13, 0);
	f->pred_lmw_ns = sqlite3_column_double(st, 14);
	f->n_lmw = (uint64_t)cp_db_col(st, 15, 0);
	f->t_measured_ns = cp_db_col(st, 16, 0);
}

int cp_db_each_flagged_strided(struct cp_db *db, uint32_t mask,
			       uint32_t skip,
			       int (*fn)(void *arg,
					 const struct cp_db_flagged *f),
			       void *arg)
{
	struct cp_db_flagged f;
	sqlite3_stmt *st;
	int rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, cp_db_flagged_sql, -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	sqlite3_bind_int64(st, 1, mask);
	sqlite3_bind_int64(st, 2, skip);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		cp_db_read_flagged(st, &f);
		ret = fn(arg, &f);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	sqlite3_finalize(st);
	return ret;
}
