/*
 * cp_db_write.c - the writer of db/cp_db_write.h: rank-NNNNN.db, which
 * the profiling library's flusher fills inside rank NNNNN.  The library
 * links this file and cp_db.c only, none of the reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/cp_db.h"
#include "db/cp_db_int.h"
#include "db/cp_db_write.h"

/* A calls row's columns, and the statement that inserts one. */
#define CP_DB_CALL_COLS	(19 + CP_NMODELS)
#define CP_DB_CALL_INTO "INSERT INTO calls (seq, op, thread, peer, root, " \
	"tag, comm_size, comm, layout, flags, bytes, count, site, " \
	"t_start_ns, t_measured_ns, t_incall_ns" \
	CP_MODEL_MAP(CP_DB_COL_PRED) ", pred_lmw_ns, pred_flags, alg) VALUES "
#define CP_DB_CALL_ROW "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?" \
	CP_MODEL_MAP(CP_DB_COL_ARG) ", ?, ?, ?)"
/* Rows one multi-row INSERT takes: a statement's set-up and end cost as
 * much as a row's insert, so a batch of 32 costs about a third less per
 * row (callgrind: 5950 instructions a row, against 8800 one at a time),
 * and 32 * CP_DB_CALL_COLS parameters stay below SQLite's oldest limit
 * of 999. */
#define CP_DB_CALLS_PER_INSERT 32

/*
 * What one parameter of a calls statement holds bound.  SQLite keeps a
 * statement's bindings across its resets, and a row's binding cost a
 * third of its insert (callgrind, 2200 instructions a row): a parameter
 * whose value is the one it holds (the same thread, communicator, call,
 * predictions missing as before) is not bound again.  Slots
 * [0, CP_DB_CALLS_PER_INSERT * CP_DB_CALL_COLS) are CP_ST_CALLS', the
 * last CP_DB_CALL_COLS CP_ST_CALL's.
 */
struct cp_db_bound {
	enum { CP_DB_B_UNSET, CP_DB_B_NULL, CP_DB_B_INT, CP_DB_B_REAL } kind;
	uint64_t v;		/* the integer, or the double's bits */
};
#define CP_DB_NBOUND ((CP_DB_CALLS_PER_INSERT + 1) * CP_DB_CALL_COLS)

/* The writer's statements, prepared once and reused for every flush. */
static const char *const cp_db_writer_sql[CP_ST_MAX] = {
	[CP_ST_META] = CP_DB_META_SQL,
	[CP_ST_CALL] = CP_DB_CALL_INTO CP_DB_CALL_ROW,
	[CP_ST_LAYOUT] = "INSERT OR REPLACE INTO layouts (idx, contiguous, "
		"irregular, size_bytes, extent_bytes, block_bytes, "
		"stride_bytes, nblocks, descr) VALUES "
		"(?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[CP_ST_AGG] = "INSERT INTO aggs (site, op, peer, size_class, layout, "
		"count, bytes, time_ns, min_ns, max_ns, rows) VALUES "
		"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[CP_ST_AGG_DEL] = "DELETE FROM aggs",
	[CP_ST_MODULE] = "INSERT OR REPLACE INTO modules (start_addr, "
		"end_addr, base_addr, path, build_id) VALUES (?, ?, ?, ?, ?)",
	[CP_ST_OP] = "INSERT OR REPLACE INTO ops (id, name, kind, class) "
		"VALUES (?, ?, ?, ?)",
	/* savepoints nest: a batch inside cp_db_begin() joins its group */
	[CP_ST_BEGIN] = "SAVEPOINT cp",
	[CP_ST_COMMIT] = "RELEASE cp",
	[CP_ST_ROLLBACK] = "ROLLBACK TO cp",
};

static void cp_db_unlink_files(const char *path)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal",
					   "-reserve" };
	char p[4096];
	size_t i;

	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, sfx[i]);
		unlink(p);
	}
}

/*
 * Allocate CP_DB_RESERVE_BYTES in path "-reserve".  When the disk fills
 * up, the rows that fit are stored and this room is given back for the
 * last aggregates and meta (how many rows were lost): without it those
 * would not fit either and the file would not say what it misses.
 */
static int cp_db_reserve(struct cp_db *db, const char *path)
{
	int fd, e;

	snprintf(db->reserve, sizeof(db->reserve), "%s-reserve", path);
	fd = open(db->reserve, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		e = errno;
		db->reserve[0] = '\0';
	} else {
		e = posix_fallocate(fd, 0, CP_DB_RESERVE_BYTES);
		close(fd);
	}
	if (!e)
		return 0;
	snprintf(db->err, sizeof(db->err), "cannot reserve %d bytes: %s",
		 CP_DB_RESERVE_BYTES, strerror(e));
	return e == ENOSPC || e == EDQUOT ? -CP_DB_EFULL : -CP_DB_EIO;
}

bool cp_db_rank_room(struct cp_db *db)
{
	char dir[sizeof(db->reserve)], *slash;
	struct statvfs sv;

	snprintf(dir, sizeof(dir), "%s", db->reserve);
	slash = strrchr(dir, '/');
	if (!db->reserve[0])
		return true;
	if (slash)
		*slash = '\0';
	if (statvfs(slash ? dir : ".", &sv))
		return true;
	return (uint64_t)sv.f_bavail * sv.f_frsize >= 2 * CP_DB_RESERVE_BYTES;
}

void cp_db_rank_unreserve(struct cp_db *db)
{
	if (db->reserve[0] && !db->reserve_half) {
		db->reserve_half = true;
		if (!truncate(db->reserve, CP_DB_RESERVE_BYTES / 2))
			return;
	}
	cp_db_unreserve(db);
}

/* The multi-row INSERT of CP_DB_CALLS_PER_INSERT calls rows.  Returns 0
 * or an SQLite error. */
static int cp_db_prepare_calls(struct cp_db *db)
{
	static const char into[] = CP_DB_CALL_INTO, row[] = CP_DB_CALL_ROW;
	size_t len = sizeof(into) + CP_DB_CALLS_PER_INSERT * sizeof(row);
	char *sql = malloc(len), *p;
	int rc;

	db->bound = calloc(CP_DB_NBOUND, sizeof(*db->bound));
	if (!sql || !db->bound) {
		free(sql);
		return SQLITE_NOMEM;
	}
	p = sql + snprintf(sql, len, "%s", into);
	for (int i = 0; i < CP_DB_CALLS_PER_INSERT; i++)
		p += snprintf(p, len - (size_t)(p - sql), "%s%s",
			      i ? "," : "", row);
	rc = sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT,
				&db->st[CP_ST_CALLS], NULL);
	free(sql);
	return rc;
}

/* After each commit: how long the log is (see cp_db_wal_fold). */
static int cp_db_wal_len(void *arg, sqlite3 *h, const char *name, int frames)
{
	(void)h;
	(void)name;
	((struct cp_db *)arg)->wal_frames = frames;
	return SQLITE_OK;
}

/*
 * WAL with synchronous=NORMAL: a commit is one append to the -wal file,
 * and a committed batch survives SIGKILL right after the commit (only a
 * power loss may lose the last batches).  cp_db_close() turns the file
 * back into DELETE mode, so that a cleanly finished rank file is one file.
 * The log is moved into the file when the writer says (cp_db_wal_fold),
 * not by SQLite every 1000 pages: that copy and its two fsyncs, in the
 * middle of a burst of rows, held the flusher up to 16 ms at a time.
 */
int cp_db_rank_open(const char *path, struct cp_db **out)
{
	struct cp_db *db = cp_db_alloc();
	int i, ret;

	*out = NULL;
	if (!db)
		return cp_db_open_fail(CP_DB_ENOMEM, "out of memory");
	db->writer = true;
	cp_db_unlink_files(path);
	ret = cp_db_reserve(db, path);
	if (ret)
		goto out_close;
	if (sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL)) {
		ret = cp_db_fail(db, CP_DB_EIO, path);
		goto out_close;
	}
	sqlite3_wal_hook(db->h, cp_db_wal_len, db);
	if (sqlite3_exec(db->h, "PRAGMA journal_mode=WAL;"
			 "PRAGMA synchronous=NORMAL;", NULL, NULL, NULL) ||
	    sqlite3_exec(db->h, "SAVEPOINT cp", NULL, NULL, NULL) ||
	    cp_db_exec_schema(db->h, NULL, CP_DB_MARK_MERGED)) {
		ret = cp_db_fail(db, CP_DB_EIO, "cannot create schema");
		goto out_close;
	}
	for (i = 0; i < CP_ST_MAX; i++) {
		if (i == CP_ST_CALLS ? cp_db_prepare_calls(db) :
		    sqlite3_prepare_v3(db->h, cp_db_writer_sql[i], -1,
				       SQLITE_PREPARE_PERSISTENT, &db->st[i],
				       NULL)) {
			ret = cp_db_fail(db, CP_DB_EIO, "cannot prepare");
			goto out_close;
		}
	}
	if (cp_db_put_meta(db, "schema_version",
			   CP_DB_STR(CP_DB_SCHEMA_VERSION)) ||
	    cp_db_put_meta(db, "kind", "rank") ||
	    cp_db_step(db->st[CP_ST_COMMIT])) {
		ret = cp_db_fail(db, CP_DB_EIO, "cannot create schema");
		goto out_close;
	}
	*out = db;
	return 0;
out_close:
	(void)cp_db_open_fail(-ret, "%s", db->err);
	cp_db_close(db);
	/* a file without its schema is of no use; a -shm cut short by a
	 * full disk would only mislead the next reader */
	cp_db_unlink_files(path);
	return ret;
}

/* Parameter i (from 1) of st, slot b: NULL, unless it holds it. */
static void cp_db_put_null(sqlite3_stmt *st, struct cp_db_bound *b, int i)
{
	if (b->kind == CP_DB_B_NULL)
		return;
	b->kind = sqlite3_bind_null(st, i) ? CP_DB_B_UNSET : CP_DB_B_NULL;
}

/* Integer v, unless the parameter holds it. */
static void cp_db_put_int(sqlite3_stmt *st, struct cp_db_bound *b, int i,
			  int64_t v)
{
	if (b->kind == CP_DB_B_INT && b->v == (uint64_t)v)
		return;
	b->kind = sqlite3_bind_int64(st, i, v) ? CP_DB_B_UNSET : CP_DB_B_INT;
	b->v = (uint64_t)v;
}

/* cp_db_put_int, or NULL when v is none. */
static void cp_db_put_opt(sqlite3_stmt *st, struct cp_db_bound *b, int i,
			  int64_t v, int64_t none)
{
	if (v == none)
		cp_db_put_null(st, b, i);
	else
		cp_db_put_int(st, b, i, v);
}

/* Double v, unless the parameter holds it; NULL when v is NaN. */
static void cp_db_put_real(sqlite3_stmt *st, struct cp_db_bound *b, int i,
			   double v)
{
	uint64_t bits;

	if (isnan(v)) {
		cp_db_put_null(st, b, i);
		return;
	}
	memcpy(&bits, &v, sizeof(bits));
	if (b->kind == CP_DB_B_REAL && b->v == bits)
		return;
	b->kind = sqlite3_bind_double(st, i, v) ? CP_DB_B_UNSET :
		  CP_DB_B_REAL;
	b->v = bits;
}

/* Bind row c to parameters o + 1 .. o + CP_DB_CALL_COLS of st, whose
 * slots are b[o ..] (see struct cp_db_bound). */
static void cp_db_bind_call(sqlite3_stmt *st, struct cp_db_bound *b, int o,
			    const struct cp_db_call *c)
{
	int i;

	b += o;
	cp_db_put_int(st, &b[0], o + 1, c->seq);
	cp_db_put_int(st, &b[1], o + 2, c->op);
	cp_db_put_int(st, &b[2], o + 3, c->thread);
	cp_db_put_opt(st, &b[3], o + 4, c->peer, -1);
	cp_db_put_opt(st, &b[4], o + 5, c->root, -1);
	cp_db_put_opt(st, &b[5], o + 6, c->tag, INT32_MIN);
	cp_db_put_opt(st, &b[6], o + 7, c->comm_size, -1);
	cp_db_put_int(st, &b[7], o + 8, c->comm_id);
	cp_db_put_opt(st, &b[8], o + 9, c->layout, -1);
	cp_db_put_int(st, &b[9], o + 10, c->flags);
	cp_db_put_int(st, &b[10], o + 11, (int64_t)c->bytes);
	cp_db_put_int(st, &b[11], o + 12, (int64_t)c->count);
	cp_db_put_int(st, &b[12], o + 13, (int64_t)c->site);
	cp_db_put_int(st, &b[13], o + 14, c->t_start_ns);
	cp_db_put_int(st, &b[14], o + 15, c->t_measured_ns);
	cp_db_put_opt(st, &b[15], o + 16, c->t_incall_ns, -1);
	for (i = 0; i < CP_NMODELS; i++)
		cp_db_put_real(st, &b[16 + i], o + 17 + i, c->pred_ns[i]);
	cp_db_put_real(st, &b[16 + CP_NMODELS], o + 17 + CP_NMODELS,
		       c->pred_lmw_ns);
	cp_db_put_int(st, &b[17 + CP_NMODELS], o + 18 + CP_NMODELS,
		      c->pred_flags);
	cp_db_put_opt(st, &b[18 + CP_NMODELS], o + 19 + CP_NMODELS, c->alg,
		      0);
}

/* Run st, keeping its bindings (the calls statements bind only what
 * changed: struct cp_db_bound).  0 or SQLite's code. */
static int cp_db_run(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

/* Run BEGIN; the caller's rows; COMMIT, or ROLLBACK on any failure
 * (each fails harmlessly when SQLite rolled back already).  Returns 0,
 * -CP_DB_EFULL (SQLITE_FULL: the disk) or -CP_DB_EIO. */
static int cp_db_end_batch(struct cp_db *db, int rc, const char *what)
{
	int code;

	if (!rc)
		rc = cp_db_step(db->st[CP_ST_COMMIT]);
	if (!rc)
		return 0;
	code = (rc & 0xff) == SQLITE_FULL ? CP_DB_EFULL : CP_DB_EIO;
	cp_db_fail(db, code, what);
	cp_db_step(db->st[CP_ST_ROLLBACK]);
	cp_db_step(db->st[CP_ST_COMMIT]);	/* pops the savepoint */
	return -code;
}

int cp_db_begin(struct cp_db *db)
{
	if (cp_db_step(db->st[CP_ST_BEGIN]))
		return cp_db_fail(db, CP_DB_EIO, "cannot begin");
	return 0;
}

int cp_db_commit(struct cp_db *db)
{
	return cp_db_end_batch(db, 0, "cannot commit");
}

int cp_db_put_calls(struct cp_db *db, const struct cp_db_call *c, size_t n)
{
	sqlite3_stmt *many = db->st[CP_ST_CALLS], *one = db->st[CP_ST_CALL];
	size_t i = 0;
	int rc;

	rc = cp_db_step(db->st[CP_ST_BEGIN]);
	for (; !rc && i + CP_DB_CALLS_PER_INSERT <= n;
	     i += CP_DB_CALLS_PER_INSERT) {
		for (int j = 0; j < CP_DB_CALLS_PER_INSERT; j++)
			cp_db_bind_call(many, db->bound, j * CP_DB_CALL_COLS,
					&c[i + j]);
		rc = cp_db_run(many);
	}
	for (; !rc && i < n; i++) {
		cp_db_bind_call(one, db->bound + CP_DB_CALLS_PER_INSERT *
				CP_DB_CALL_COLS, 0, &c[i]);
		rc = cp_db_run(one);
	}
	return cp_db_end_batch(db, rc, "cannot write calls");
}

int cp_db_put_counts(struct cp_db *db, const char *const *keys,
		     const int64_t *vals, size_t n)
{
	sqlite3_stmt *st = db->st[CP_ST_META];
	char v[32];
	size_t i;
	int rc;

	rc = cp_db_step(db->st[CP_ST_BEGIN]);
	for (i = 0; !rc && i < n; i++) {
		snprintf(v, sizeof(v), "%lld", (long long)vals[i]);
		sqlite3_bind_text(st, 1, keys[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, v, -1, SQLITE_TRANSIENT);
		rc = cp_db_step(st);
	}
	return cp_db_end_batch(db, rc, "cannot write meta");
}

int cp_db_checkpoint(struct cp_db *db)
{
	if (sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_TRUNCATE,
				      NULL, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot checkpoint");
	return 0;
}

int cp_db_wal_frames(const struct cp_db *db)
{
	return db->wal_frames;
}

void cp_db_wal_fold(struct cp_db *db)
{
	if (sqlite3_wal_checkpoint_v2(db->h, NULL, SQLITE_CHECKPOINT_PASSIVE,
				      NULL, NULL) == SQLITE_OK)
		db->wal_frames = 0;
}

int cp_db_put_layouts(struct cp_db *db, const struct cp_db_layout *l,
		      size_t n)
{
	sqlite3_stmt *st = db->st[CP_ST_LAYOUT];
	size_t i;
	int rc;

	rc = cp_db_step(db->st[CP_ST_BEGIN]);
	for (i = 0; !rc && i < n; i++) {
		sqlite3_bind_int(st, 1, l[i].index);
		sqlite3_bind_int(st, 2, l[i].contiguous);
		sqlite3_bind_int(st, 3, l[i].irregular);
		sqlite3_bind_int64(st, 4, l[i].size_bytes);
		sqlite3_bind_int64(st, 5, l[i].extent_bytes);
		cp_db_bind_opt(st, 6, l[i].block_bytes, -1);
		cp_db_bind_opt(st, 7, l[i].stride_bytes, -1);
		sqlite3_bind_int64(st, 8, l[i].nblocks);
		if (l[i].desc)
			sqlite3_bind_text(st, 9, l[i].desc, -1,
					  SQLITE_TRANSIENT);
		rc = cp_db_step(st);
	}
	return cp_db_end_batch(db, rc, "cannot write layouts");
}

int cp_db_put_aggs(struct cp_db *db, const struct cp_db_agg *a, size_t n)
{
	sqlite3_stmt *st = db->st[CP_ST_AGG];
	size_t i;
	int rc;

	rc = cp_db_step(db->st[CP_ST_BEGIN]);
	if (!rc)
		rc = cp_db_step(db->st[CP_ST_AGG_DEL]);
	for (i = 0; !rc && i < n; i++) {
		sqlite3_bind_int64(st, 1, (int64_t)a[i].site);
		sqlite3_bind_int(st, 2, a[i].op);
		cp_db_bind_opt(st, 3, a[i].peer, -1);
		sqlite3_bind_int(st, 4, a[i].size_class);
		cp_db_bind_opt(st, 5, a[i].layout, -1);
		sqlite3_bind_int64(st, 6, (int64_t)a[i].count);
		sqlite3_bind_int64(st, 7, (int64_t)a[i].bytes);
		sqlite3_bind_int64(st, 8, a[i].time_ns);
		sqlite3_bind_int64(st, 9, a[i].min_ns);
		sqlite3_bind_int64(st, 10, a[i].max_ns);
		sqlite3_bind_int64(st, 11, (int64_t)a[i].rows);
		rc = cp_db_step(st);
	}
	return cp_db_end_batch(db, rc, "cannot write aggregates");
}

int cp_db_put_modules(struct cp_db *db, const struct cp_db_module *m,
		      size_t n)
{
	sqlite3_stmt *st = db->st[CP_ST_MODULE];
	size_t i;
	int rc;

	rc = cp_db_step(db->st[CP_ST_BEGIN]);
	for (i = 0; !rc && i < n; i++) {
		sqlite3_bind_int64(st, 1, (int64_t)m[i].start);
		sqlite3_bind_int64(st, 2, (int64_t)m[i].end);
		sqlite3_bind_int64(st, 3, (int64_t)m[i].base);
		sqlite3_bind_text(st, 4, m[i].path ? m[i].path : "", -1,
				  SQLITE_TRANSIENT);
		if (m[i].build_id)
			sqlite3_bind_text(st, 5, m[i].build_id, -1,
					  SQLITE_TRANSIENT);
		rc = cp_db_step(st);
	}
	return cp_db_end_batch(db, rc, "cannot write modules");
}

int cp_db_put_ops(struct cp_db *db, const char *const *names,
		  const char *const *kinds, const char *const *classes,
		  size_t n)
{
	sqlite3_stmt *st = db->st[CP_ST_OP];
	size_t i;
	int rc;

	rc = cp_db_step(db->st[CP_ST_BEGIN]);
	for (i = 0; !rc && i < n; i++) {
		if (!names[i])
			continue;
		sqlite3_bind_int64(st, 1, (int64_t)i);
		sqlite3_bind_text(st, 2, names[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, kinds ? kinds[i] : "blocking", -1,
				  SQLITE_STATIC);
		sqlite3_bind_text(st, 4, classes ? classes[i] : "other", -1,
				  SQLITE_STATIC);
		rc = cp_db_step(st);
	}
	return cp_db_end_batch(db, rc, "cannot write ops");
}

int cp_db_rank_scan(struct cp_db *db, int32_t rank,
		    int (*fn)(void *arg, const struct cp_sum_row *r),
		    void *arg)
{
	int rc = cp_db_scan_h(db->h, rank, fn, arg);

	if (rc > 0)		/* SQLite's; fn's are negative */
		return cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	return rc;
}

int64_t cp_db_rank_meta_int(struct cp_db *db, const char *key, int64_t dflt)
{
	sqlite3_stmt *st;
	int64_t v = dflt;

	if (sqlite3_prepare_v2(db->h, "SELECT value FROM meta WHERE key = ?",
			       -1, &st, NULL))
		return dflt;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

void cp_db_rank_dir(struct cp_db *db, char *buf, size_t len)
{
	const char *path = sqlite3_db_filename(db->h, "main");
	const char *slash = path ? strrchr(path, '/') : NULL;

	if (!slash)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
}
