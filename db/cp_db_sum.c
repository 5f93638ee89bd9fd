/*
 * cp_db_sum.c - what the writer and the reader of db/ share about the
 * reduction of a run (db/cp_db.h): its records in the red_* tables, the
 * reduced file of a job (commprof-reduced.db), and the scan of a file's
 * message and collective rows (db/cp_db_int.h), which the library runs
 * on its own rank file at MPI_Finalize and the CLI on every rank file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/cp_db.h"
#include "db/cp_db_int.h"

static const char *const cp_db_sum_sql[CP_SUM_ST_MAX] = {
	[CP_SUM_ST_COUNT] = "INSERT OR REPLACE INTO red_count (key, value) "
		"VALUES (?, ?)",
	[CP_SUM_ST_COV] = "INSERT INTO red_cov (pred_flags, pred_mask, "
		"mu_mask, rows) VALUES (?, ?, ?, ?)",
	[CP_SUM_ST_ACC] = "INSERT INTO red_acc (model, grp, key, n, sum, "
		"bins) VALUES (?, ?, ?, ?, ?, ?)",
	[CP_SUM_ST_WORST] = "INSERT INTO red_worst (model, rank, seq, op, "
		"bytes, peer, root, site, t_transfer_ns, pred_ns, mu) VALUES "
		"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[CP_SUM_ST_SG] = "INSERT INTO red_strided (rank, site, op, bytes, "
		"layout, calls, pred_log3p_ns, n_log3p, pred_lmw_ns, n_lmw, "
		"t_measured_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[CP_SUM_ST_CWORST] = "INSERT INTO red_coll_worst (model, rank, seq, "
		"op, bytes, peer, root, site, t_transfer_ns, pred_ns, mu, "
		"t_wait_ns, comm, alg) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		"?, ?, ?, ?)",
};

/* The name of an acc record's model: a model's, or the time it holds. */
static const char *cp_db_acc_name(int32_t model)
{
	if (model == CP_SUM_T_TRANSFER)
		return "t_transfer";
	if (model == CP_SUM_T_WAIT)
		return "t_wait";
	return cp_model_name(model);
}

static void cp_db_bind_worst(sqlite3_stmt *st, const struct cp_sum_worst *w)
{
	sqlite3_bind_text(st, 1, cp_model_name(w->model), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, w->rank);
	sqlite3_bind_int64(st, 3, w->seq);
	sqlite3_bind_int(st, 4, w->op);
	sqlite3_bind_int64(st, 5, (int64_t)w->bytes);
	cp_db_bind_opt(st, 6, w->peer, -1);
	cp_db_bind_opt(st, 7, w->root, -1);
	sqlite3_bind_int64(st, 8, (int64_t)w->site);
	sqlite3_bind_int64(st, 9, w->t_transfer_ns);
	sqlite3_bind_double(st, 10, w->pred_ns);
	sqlite3_bind_double(st, 11, w->mu);
}

static void cp_db_bind_cworst(sqlite3_stmt *st, const struct cp_sum_worst *w)
{
	cp_db_bind_worst(st, w);
	cp_db_bind_opt(st, 12, w->t_wait_ns, -1);
	sqlite3_bind_int64(st, 13, w->comm);
	sqlite3_bind_int(st, 14, w->alg);
}

static void cp_db_bind_sg(sqlite3_stmt *st, const struct cp_sum_sg *g)
{
	sqlite3_bind_int(st, 1, g->rank);
	sqlite3_bind_int64(st, 2, (int64_t)g->site);
	sqlite3_bind_int(st, 3, g->op);
	sqlite3_bind_int64(st, 4, (int64_t)g->bytes);
	sqlite3_bind_int(st, 5, g->layout);
	sqlite3_bind_int64(st, 6, (int64_t)g->calls);
	sqlite3_bind_double(st, 7, g->log3p_ns);
	sqlite3_bind_int64(st, 8, (int64_t)g->log3p_n);
	sqlite3_bind_double(st, 9, g->lmw_ns);
	sqlite3_bind_int64(st, 10, (int64_t)g->lmw_n);
	sqlite3_bind_int64(st, 11, g->measured_ns);
}

/* Bind record r to st, the statement of its kind. */
static void cp_db_bind_rec(sqlite3_stmt *st, const struct cp_sum_rec *r)
{
	const struct cp_sum_acc *a = &r->u.acc;

	switch (r->kind) {
	case CP_SUM_COUNT:
		sqlite3_bind_text(st, 1, r->u.count.key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, r->u.count.value);
		break;
	case CP_SUM_COV:
		sqlite3_bind_int64(st, 1, r->u.cov.pred_flags);
		sqlite3_bind_int64(st, 2, r->u.cov.pred_mask);
		sqlite3_bind_int64(st, 3, r->u.cov.mu_mask);
		sqlite3_bind_int64(st, 4, (int64_t)r->u.cov.rows);
		break;
	case CP_SUM_ACC:
		sqlite3_bind_text(st, 1, cp_db_acc_name(a->model), -1,
				  SQLITE_STATIC);
		sqlite3_bind_int(st, 2, a->grp);
		sqlite3_bind_int64(st, 3, a->key);
		sqlite3_bind_int64(st, 4, (int64_t)a->n);
		sqlite3_bind_double(st, 5, a->sum);
		sqlite3_bind_blob64(st, 6, a->bins, a->len, SQLITE_STATIC);
		break;
	case CP_SUM_WORST:
		cp_db_bind_worst(st, &r->u.worst);
		break;
	case CP_SUM_SG:
		cp_db_bind_sg(st, &r->u.sg);
		break;
	case CP_SUM_CWORST:
		cp_db_bind_cworst(st, &r->u.worst);
		break;
	}
}

int cp_db_sum_put(void *arg, const struct cp_sum_rec *r)
{
	static const int st_of[] = {
		[CP_SUM_COUNT] = CP_SUM_ST_COUNT, [CP_SUM_COV] = CP_SUM_ST_COV,
		[CP_SUM_ACC] = CP_SUM_ST_ACC, [CP_SUM_WORST] = CP_SUM_ST_WORST,
		[CP_SUM_SG] = CP_SUM_ST_SG, [CP_SUM_CWORST] = CP_SUM_ST_CWORST,
	};
	struct cp_db *db = arg;
	sqlite3_stmt **st;

	if (r->kind < CP_SUM_COUNT || r->kind > CP_SUM_CWORST ||
	    (r->kind == CP_SUM_ACC && !cp_db_acc_name(r->u.acc.model)) ||
	    ((r->kind == CP_SUM_WORST || r->kind == CP_SUM_CWORST) &&
	     !cp_model_name(r->u.worst.model)))
		return cp_db_open_fail(CP_DB_EIO, "not a reduction record");
	st = &db->sum[st_of[r->kind]];
	if (!*st && sqlite3_prepare_v3(db->h, cp_db_sum_sql[st_of[r->kind]],
				       -1, SQLITE_PREPARE_PERSISTENT, st,
				       NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot write the reduction");
	cp_db_bind_rec(*st, r);
	if (cp_db_step(*st))
		return cp_db_fail(db, CP_DB_EIO, "cannot write the reduction");
	return 0;
}

/* ---- the reduced file of a job ---- */

static void cp_db_sum_tmp(const char *path, char *tmp, size_t len)
{
	snprintf(tmp, len, "%s.%ld.tmp", path, (long)getpid());
}

int cp_db_sum_create(const char *path, struct cp_db **out)
{
	struct cp_db *db = cp_db_alloc();
	char tmp[4200];

	*out = NULL;
	if (!db)
		return cp_db_open_fail(CP_DB_ENOMEM, "out of memory");
	cp_db_sum_tmp(path, tmp, sizeof(tmp));
	unlink(tmp);
	if (sqlite3_open_v2(tmp, &db->h, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) ||
	    sqlite3_exec(db->h, "PRAGMA journal_mode=MEMORY;"
			 "PRAGMA synchronous=OFF; BEGIN", NULL, NULL, NULL) ||
	    cp_db_exec_schema(db->h, CP_DB_MARK_REDUCED, CP_DB_MARK_INDEXES) ||
	    cp_db_put_meta(db, "schema_version",
			   CP_DB_STR(CP_DB_SCHEMA_VERSION)) ||
	    cp_db_put_meta(db, "kind", "reduced")) {
		cp_db_open_fail(CP_DB_EIO, "cannot write %s: %s", tmp,
				sqlite3_errmsg(db->h));
		cp_db_close(db);
		unlink(tmp);
		return -CP_DB_EIO;
	}
	*out = db;
	return 0;
}

int cp_db_sum_publish(struct cp_db *db, const char *path, bool keep)
{
	char tmp[4200];
	int ret = 0;

	cp_db_sum_tmp(path, tmp, sizeof(tmp));
	if (keep && sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL))
		ret = cp_db_open_fail(CP_DB_EIO, "cannot write %s: %s", tmp,
				      sqlite3_errmsg(db->h));
	cp_db_close(db);
	if (keep && !ret && rename(tmp, path))
		ret = cp_db_open_fail(CP_DB_EIO, "cannot rename %s", tmp);
	if (!keep || ret)
		unlink(tmp);
	return ret;
}

/* ---- the scan of message and collective rows ---- */

/* Columns of a scanned row; %s: its rank (a merge's column, or ?1).  No
 * join: a row's class comes from the ops table read once (a join costs
 * a lookup per row). */
#define CP_DB_SCAN_COLS							\
	"SELECT seq, t_start_ns, t_measured_ns, bytes, site, %s, op,"	\
	" peer, root, tag, comm_size, layout, comm, flags, pred_flags"	\
	CP_MODEL_MAP(CP_DB_COL_PRED) ", pred_lmw_ns, count, alg FROM calls"

/* Classes of the ops of a file, by id. */
struct cp_db_classes {
	uint8_t *cls;		/* 0 other, 1 p2p, 2 coll */
	char **name;		/* of each coll op, else NULL */
	int32_t n;
	char coll_ids[2048];	/* "1, 5, 9" */
};

static void cp_db_classes_free(struct cp_db_classes *c)
{
	int32_t i;

	for (i = 0; c->name && i < c->n; i++)
		free(c->name[i]);
	free(c->name);
	free(c->cls);
}

static int cp_db_scan_classes(sqlite3 *h, struct cp_db_classes *c)
{
	sqlite3_stmt *st;
	int64_t id;
	size_t at = 0;
	int rc;

	c->cls = NULL;
	c->name = NULL;
	c->n = 0;
	strcpy(c->coll_ids, "-1");
	rc = sqlite3_prepare_v2(h, "SELECT id, class, name FROM ops WHERE "
				"class IN ('p2p', 'coll') ORDER BY id DESC", -1,
				&st,
				NULL);
	while (!rc && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		rc = 0;
		id = sqlite3_column_int64(st, 0);
		if (id < 0 || id > 65535)
			continue;
		if (!c->cls) {		/* the largest id comes first */
			c->n = (int32_t)id + 1;
			c->cls = calloc((size_t)c->n, 1);
			c->name = calloc((size_t)c->n, sizeof(*c->name));
			if (!c->cls || !c->name)
				rc = SQLITE_NOMEM;
		}
		if (rc || id >= c->n)
			continue;	/* rc set: the loop ends */
		c->cls[id] = strcmp((const char *)sqlite3_column_text(st, 1),
				    "coll") ? 1 : 2;
		/* a damaged file may name an id twice: the last row counts */
		free(c->name[id]);
		c->name[id] = NULL;
		if (c->cls[id] == 2 && sqlite3_column_text(st, 2) &&
		    !(c->name[id] = strdup((const char *)
					   sqlite3_column_text(st, 2))))
			rc = SQLITE_NOMEM;
		if (c->cls[id] == 2 && at + 24 < sizeof(c->coll_ids))
			at += (size_t)snprintf(c->coll_ids + at,
					       sizeof(c->coll_ids) - at,
					       "%s%lld", at ? ", " : "",
					       (long long)id);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

/* Column i of st, declared NOT NULL: no type test. */
static int64_t cp_db_int(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

static void cp_db_scan_row(sqlite3_stmt *st, struct cp_sum_row *r)
{
	int k;

	r->seq = cp_db_int(st, 0);
	r->t_start_ns = cp_db_int(st, 1);
	r->t_measured_ns = cp_db_int(st, 2);
	r->bytes = (uint64_t)cp_db_int(st, 3);
	r->site = (uint64_t)cp_db_int(st, 4);
	r->rank = (int32_t)cp_db_col(st, 5, -1);
	r->op = (int32_t)cp_db_int(st, 6);
	r->peer = (int32_t)cp_db_col(st, 7, CP_PEER_NONE);
	r->root = (int32_t)cp_db_col(st, 8, CP_PEER_NONE);
	r->tag = (int32_t)cp_db_col(st, 9, INT32_MIN);
	r->comm_size = (int32_t)cp_db_col(st, 10, -1);
	r->layout = (int32_t)cp_db_col(st, 11, -1);
	r->comm = (uint32_t)cp_db_int(st, 12);
	r->flags = (uint32_t)cp_db_int(st, 13);
	r->pred_flags = (uint32_t)cp_db_int(st, 14);
	for (k = 0; k < CP_NMODELS; k++)
		r->pred_ns[k] = cp_db_real(st, 15 + k);
	r->pred_lmw_ns = cp_db_real(st, 15 + CP_NMODELS);
	r->count = cp_db_int(st, 16 + CP_NMODELS);
	r->alg = (int32_t)cp_db_col(st, 17 + CP_NMODELS, 0);
}

/* One pass of the scan: the rows of sql of class want (1 p2p, 2 coll).
 * Returns as cp_db_scan_h. */
static int cp_db_scan_pass(sqlite3 *h, const char *sql, int32_t rank,
			   const struct cp_db_classes *c, int want,
			   int (*fn)(void *arg, const struct cp_sum_row *r),
			   void *arg)
{
	struct cp_sum_row r;
	sqlite3_stmt *st;
	int rc, ret = 0;
	int64_t op;

	rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	if (rc)
		return rc;
	if (rank >= 0)
		sqlite3_bind_int(st, 1, rank);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		op = sqlite3_column_int64(st, 6);
		if (op < 0 || op >= c->n || c->cls[op] != want)
			continue;
		cp_db_scan_row(st, &r);
		r.coll = want == 2;
		r.op_name = c->name[op];
		ret = fn(arg, &r);
	}
	sqlite3_finalize(st);
	if (ret)
		return ret;
	return rc == SQLITE_DONE ? 0 : rc;
}

int cp_db_scan_h(sqlite3 *h, int32_t rank,
		 int (*fn)(void *arg, const struct cp_sum_row *r), void *arg)
{
	struct cp_db_classes c;
	char cols[1024], sql[4200];
	int ret;

	ret = cp_db_scan_classes(h, &c);
	if (ret || !c.cls) {
		cp_db_classes_free(&c);
		return ret;
	}
	snprintf(cols, sizeof(cols), CP_DB_SCAN_COLS,
		 rank >= 0 ? "?1" : "rank");
	ret = cp_db_scan_pass(h, cols, rank, &c, 1, fn, arg);
	/* a rank numbers its collective calls per communicator in post
	 * order (analysis/cp_match.h) */
	snprintf(sql, sizeof(sql), "%s WHERE op IN (%s) ORDER BY %s comm, "
		 "t_start_ns, seq", cols, c.coll_ids,
		 rank >= 0 ? "" : "rank,");
	if (!ret)
		ret = cp_db_scan_pass(h, sql, rank, &c, 2, fn, arg);
	cp_db_classes_free(&c);
	return ret;
}
