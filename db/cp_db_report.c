/*
 * cp_db_report.c - the queries of "commprof report" (src/cli/cli_report.c):
 * prediction rows of a merge without its reduction, and rank meta
 * values.
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
	", c.layout, c.flags, c.t_measured_ns, o.class = 'coll', c.count,"
	" c.comm_size, c.comm, c.t_wait_ns, c.alg"
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
	i = 13 + 2 * CP_NMODELS;
	r->layout = (int32_t)cp_db_col(st, i, -1);
	r->flags = (uint32_t)cp_db_col(st, i + 1, 0);
	r->t_measured_ns = cp_db_col(st, i + 2, 0);
	r->coll = cp_db_col(st, i + 3, 0) != 0;
	r->count = cp_db_col(st, i + 4, 0);
	r->comm_size = (int32_t)cp_db_col(st, i + 5, -1);
	r->comm = (uint32_t)cp_db_col(st, i + 6, 0);
	r->t_wait_ns = cp_db_col(st, i + 7, -1);
	r->alg = (int32_t)cp_db_col(st, i + 8, 0);
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
