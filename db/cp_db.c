/*
 * cp_db.c - all SQLite I/O of commprof: the writer that the library's
 * flusher thread uses to fill rank-NNNNN.db, and the reader that merges
 * the rank files of an output directory into commprof.db for the CLI.
 * The schema is db/schema.sql, embedded at build time as cp_db_schema_sql.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/cp_db.h"
#include "db/cp_db_int.h"
#include "db/cp_schema_gen.h"

#define CP_DB_MERGED	"commprof.db"
#define CP_DB_STR2(x)	#x
#define CP_DB_STR(x)	CP_DB_STR2(x)
#define CP_DB_MARK_MERGED "-- @merged\n"
#define CP_DB_MARK_INDEXES "-- @indexes\n"

/* The writer's statements, prepared once and reused for every flush. */
static const char *const cp_db_writer_sql[CP_ST_MAX] = {
	[CP_ST_META] = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
	[CP_ST_CALL] = "INSERT INTO calls (seq, op, thread, peer, root, tag, "
		"comm_size, comm, layout, flags, bytes, count, site, "
		"t_start_ns, t_measured_ns, t_incall_ns, pred_lmo_ns, "
		"pred_log3p_ns, pred_hockney_ns, pred_loggp_ns, "
		"pred_plogp_ns, pred_lmw_ns, pred_flags) VALUES "
		"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		"?, ?, ?, ?, ?, ?, ?)",
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

/* Record a printf-style message as the open error; returns -code. */
static int __attribute__((format(printf, 2, 3)))
cp_db_open_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cp_db_open_err, sizeof(cp_db_open_err), fmt, ap);
	va_end(ap);
	return -code;
}

/* Execute the part of the embedded schema between marks `from` (NULL: the
 * start) and `to` (NULL: the end). */
static int cp_db_exec_schema(sqlite3 *h, const char *from, const char *to)
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

/* Bind v, or NULL when v is the sentinel `none`. */
static void cp_db_bind_opt(sqlite3_stmt *st, int i, int64_t v, int64_t none)
{
	if (v == none)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

/* Step a bound writer statement once and reset it. */
static int cp_db_step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : rc;
}

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

static struct cp_db *cp_db_alloc(void)
{
	return calloc(1, sizeof(struct cp_db));
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
	if (!db->reserve[0])
		return;
	unlink(db->reserve);
	db->reserve[0] = '\0';
}

/*
 * WAL with synchronous=NORMAL: a commit is one append to the -wal file,
 * and a committed batch survives SIGKILL right after the commit (only a
 * power loss may lose the last batches).  cp_db_close() turns the file
 * back into DELETE mode, so that a cleanly finished rank file is one file.
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
	if (sqlite3_exec(db->h, "PRAGMA journal_mode=WAL;"
			 "PRAGMA synchronous=NORMAL;", NULL, NULL, NULL) ||
	    sqlite3_exec(db->h, "SAVEPOINT cp", NULL, NULL, NULL) ||
	    cp_db_exec_schema(db->h, NULL, CP_DB_MARK_MERGED)) {
		ret = cp_db_fail(db, CP_DB_EIO, "cannot create schema");
		goto out_close;
	}
	for (i = 0; i < CP_ST_MAX; i++) {
		if (sqlite3_prepare_v3(db->h, cp_db_writer_sql[i], -1,
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
	snprintf(cp_db_open_err, sizeof(cp_db_open_err), "%s", db->err);
	cp_db_close(db);
	/* a file without its schema is of no use; a -shm cut short by a
	 * full disk would only mislead the next reader */
	cp_db_unlink_files(path);
	return ret;
}

int cp_db_put_meta(struct cp_db *db, const char *key, const char *value)
{
	sqlite3_stmt *st = db->st[CP_ST_META], *own = NULL;
	int rc;

	/* the merged file has no prepared writer statements */
	if (!st && sqlite3_prepare_v2(db->h, cp_db_writer_sql[CP_ST_META], -1,
				      &own, NULL))
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

/* A prediction: NAN (not predicted) is stored as NULL. */
static void cp_db_bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

static void cp_db_bind_call(sqlite3_stmt *st, const struct cp_db_call *c)
{
	int i;

	sqlite3_bind_int64(st, 1, c->seq);
	sqlite3_bind_int(st, 2, c->op);
	sqlite3_bind_int(st, 3, c->thread);
	cp_db_bind_opt(st, 4, c->peer, -1);
	cp_db_bind_opt(st, 5, c->root, -1);
	cp_db_bind_opt(st, 6, c->tag, INT32_MIN);
	cp_db_bind_opt(st, 7, c->comm_size, -1);
	sqlite3_bind_int64(st, 8, c->comm_id);
	cp_db_bind_opt(st, 9, c->layout, -1);
	sqlite3_bind_int64(st, 10, c->flags);
	sqlite3_bind_int64(st, 11, (int64_t)c->bytes);
	sqlite3_bind_int64(st, 12, (int64_t)c->count);
	sqlite3_bind_int64(st, 13, (int64_t)c->site);
	sqlite3_bind_int64(st, 14, c->t_start_ns);
	sqlite3_bind_int64(st, 15, c->t_measured_ns);
	cp_db_bind_opt(st, 16, c->t_incall_ns, -1);
	for (i = 0; i < CP_DB_NMODELS; i++)
		cp_db_bind_real(st, 17 + i, c->pred_ns[i]);
	cp_db_bind_real(st, 17 + CP_DB_NMODELS, c->pred_lmw_ns);
	sqlite3_bind_int64(st, 18 + CP_DB_NMODELS, c->pred_flags);
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
	sqlite3_stmt *st = db->st[CP_ST_CALL];
	size_t i;
	int rc;

	rc = cp_db_step(db->st[CP_ST_BEGIN]);
	for (i = 0; !rc && i < n; i++) {
		cp_db_bind_call(st, &c[i]);
		rc = cp_db_step(st);
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

void cp_db_close(struct cp_db *db)
{
	int i;

	if (!db)
		return;
	for (i = 0; i < CP_ST_MAX; i++)
		sqlite3_finalize(db->st[i]);
	cp_db_rank_unreserve(db);	/* room for the checkpoint below */
	if (db->h && db->writer)
		sqlite3_exec(db->h, "PRAGMA journal_mode=DELETE", NULL, NULL,
			     NULL);
	sqlite3_close_v2(db->h);
	free(db);
}

/* ---- reader: merging an output directory ---- */

/* The rank files found in a directory. */
struct cp_db_scan {
	char **names;			/* "rank-00003.db", sorted */
	int *ranks;			/* rank number of each file name */
	int n;
	struct timespec newest;		/* latest mtime of a file or its WAL */
};

/* How one table of a rank file is copied into the merged file. */
struct cp_db_copy {
	const char *src, *dst;
	const char *verb;		/* INSERT or a conflict variant */
	bool ranked;			/* dst has a leading rank column */
	const char *cols;
};

static const struct cp_db_copy cp_db_copies[] = {
	{ "meta", "rank_meta", "INSERT OR REPLACE", true, "key, value" },
	{ "ops", "ops", "INSERT OR IGNORE", false, "id, name, kind, class" },
	{ "layouts", "layouts", "INSERT OR REPLACE", true,
	  "idx, contiguous, irregular, size_bytes, extent_bytes, "
	  "block_bytes, stride_bytes, nblocks, descr" },
	{ "modules", "modules", "INSERT", true,
	  "start_addr, end_addr, base_addr, path, build_id" },
	{ "aggs", "aggs", "INSERT", true,
	  "site, op, peer, size_class, layout, count, bytes, time_ns, "
	  "min_ns, max_ns, rows" },
	{ "calls", "calls", "INSERT", true,
	  "seq, op, thread, peer, root, tag, comm_size, comm, layout, "
	  "flags, bytes, count, site, t_start_ns, t_measured_ns, "
	  "t_incall_ns, pred_lmo_ns, pred_log3p_ns, pred_hockney_ns, "
	  "pred_loggp_ns, pred_plogp_ns, pred_lmw_ns, pred_flags" },
};

static void cp_db_scan_free(struct cp_db_scan *sc)
{
	int i;

	for (i = 0; i < sc->n; i++)
		free(sc->names[i]);
	free(sc->names);
	free(sc->ranks);
}

/* Rank number of a "rank-<digits>.db" name, or -1. */
static int cp_db_rank_of_name(const char *name)
{
	const char *p = name + 5;
	long r = 0;

	if (strncmp(name, "rank-", 5) || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p) && r < 100000000; p++)
		r = r * 10 + (*p - '0');
	return strcmp(p, ".db") ? -1 : (int)r;
}

static int cp_db_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cp_db_newer(struct timespec *acc, const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return;
	if (st.st_mtim.tv_sec > acc->tv_sec ||
	    (st.st_mtim.tv_sec == acc->tv_sec &&
	     st.st_mtim.tv_nsec > acc->tv_nsec))
		*acc = st.st_mtim;
}

/* Append name to sc->names of cap entries; returns the new cap, or -1. */
static int cp_db_scan_add(struct cp_db_scan *sc, const char *name, int cap)
{
	if (sc->n == cap) {
		char **nn = realloc(sc->names, 2 * cap * sizeof(*nn));

		if (!nn)
			return -1;
		sc->names = nn;
		cap *= 2;
	}
	sc->names[sc->n] = strdup(name);
	if (!sc->names[sc->n])
		return -1;
	sc->n++;
	return cap;
}

/* errno text with a lowercase first letter, as our messages are. */
static const char *cp_db_strerror(int e, char *buf, size_t len)
{
	snprintf(buf, len, "%s", strerror(e));
	buf[0] = tolower((unsigned char)buf[0]);
	return buf;
}

static int cp_db_scan_dir(const char *dir, struct cp_db_scan *sc)
{
	char path[4096], eb[128];
	struct dirent *de;
	int i, cap = 16;
	DIR *d;

	memset(sc, 0, sizeof(*sc));
	d = opendir(dir);
	if (!d)
		return cp_db_open_fail(CP_DB_ENOENT, "cannot open %s: %s", dir,
				       cp_db_strerror(errno, eb, sizeof(eb)));
	sc->names = malloc(cap * sizeof(*sc->names));
	while (sc->names && (de = readdir(d))) {
		if (cp_db_rank_of_name(de->d_name) < 0)
			continue;
		cap = cp_db_scan_add(sc, de->d_name, cap);
		if (cap < 0)
			break;
	}
	closedir(d);
	sc->ranks = malloc((sc->n + 1) * sizeof(*sc->ranks));
	if (!sc->names || cap < 0 || !sc->ranks) {
		cp_db_scan_free(sc);
		return cp_db_open_fail(CP_DB_ENOMEM, "out of memory");
	}
	qsort(sc->names, sc->n, sizeof(*sc->names), cp_db_cmp_names);
	for (i = 0; i < sc->n; i++) {
		sc->ranks[i] = cp_db_rank_of_name(sc->names[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, sc->names[i]);
		cp_db_newer(&sc->newest, path);
		strncat(path, "-wal", sizeof(path) - strlen(path) - 1);
		cp_db_newer(&sc->newest, path);
	}
	return 0;
}

/* First column of the first row of sql as an integer; dflt when there is
 * no row; sets *rc to the SQLite result. */
static int64_t cp_db_query_int(sqlite3 *h, const char *sql, int64_t dflt,
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

/* An existing merged file is used when it is newer than every rank file
 * and was made from the same number of them with this schema, or when it
 * is all that is left (the rank files were removed or not copied). */
static bool cp_db_merged_fresh(const char *path, const struct cp_db_scan *sc,
			       sqlite3 **out)
{
	struct stat st;
	sqlite3 *h;
	int rc;

	if (stat(path, &st))
		return false;
	if (sc->n && (st.st_mtim.tv_sec < sc->newest.tv_sec ||
		      (st.st_mtim.tv_sec == sc->newest.tv_sec &&
		       st.st_mtim.tv_nsec <= sc->newest.tv_nsec)))
		return false;
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL))
		goto out_close;
	if (cp_db_query_int(h, "SELECT value FROM meta WHERE key = "
			    "'schema_version' AND (SELECT value FROM meta "
			    "WHERE key = 'kind') = 'merged'", 0, &rc) !=
	    CP_DB_SCHEMA_VERSION || rc)
		goto out_close;
	if (sc->n && (cp_db_query_int(h, "SELECT value FROM meta WHERE key "
				      "= 'rank_files'", -1, &rc) != sc->n ||
		      rc))
		goto out_close;
	*out = h;
	return true;
out_close:
	sqlite3_close_v2(h);
	return false;
}

/* "file:<path, percent-encoded>?mode=ro" for ATTACH. */
static char *cp_db_uri_ro(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char *u = malloc(3 * strlen(path) + 32), *p;

	if (!u)
		return NULL;
	p = u + sprintf(u, "file:");
	for (; *path; path++) {
		unsigned char c = *path;

		if (isalnum(c) || strchr("/._-~", c)) {
			*p++ = c;
			continue;
		}
		*p++ = '%';
		*p++ = hex[c >> 4];
		*p++ = hex[c & 15];
	}
	strcpy(p, "?mode=ro");
	return u;
}

static int cp_db_exec_fmt(sqlite3 *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int cp_db_exec_fmt(sqlite3 *h, const char *fmt, ...)
{
	char sql[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	return sqlite3_exec(h, sql, NULL, NULL, NULL);
}

static char *cp_db_uri_ro(const char *path);

/* A read-only connection of its own to a damaged rank file: a corrupt
 * page met through ATTACH can fail the COMMIT of the whole merge. */
static int cp_db_open_src(const char *path, sqlite3 **src)
{
	char *uri = cp_db_uri_ro(path);
	int rc;

	*src = NULL;
	if (!uri)
		return SQLITE_NOMEM;
	rc = sqlite3_open_v2(uri, src, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
			     NULL);
	free(uri);
	if (!rc)
		rc = sqlite3_exec(*src, "PRAGMA writable_schema=ON", NULL, NULL,
				  NULL);
	return rc;
}

/* Row by row from rank file path, keeping every row read before the
 * first error.  Returns 0 or the SQLite error that stopped it. */
static int cp_db_copy_rows(sqlite3 *h, const char *path,
			   const struct cp_db_copy *c, int rank, char *msg,
			   size_t len)
{
	sqlite3_stmt *sel = NULL, *ins = NULL;
	char sql[1024], qs[128] = "?";
	int i, n, rc, k0 = c->ranked ? 2 : 1;
	const char *p;
	sqlite3 *src;

	for (n = 1, p = c->cols; *p; p++)
		n += *p == ',';
	for (i = 1; i < n + c->ranked; i++)
		strcat(qs, ", ?");
	snprintf(sql, sizeof(sql), "SELECT %s FROM %s", c->cols, c->src);
	rc = cp_db_open_src(path, &src);
	if (!rc)
		rc = sqlite3_prepare_v2(src, sql, -1, &sel, NULL);
	snprintf(sql, sizeof(sql), "%s INTO main.%s (%s%s) VALUES (%s)",
		 c->verb, c->dst, c->ranked ? "rank, " : "", c->cols, qs);
	if (!rc)
		rc = sqlite3_prepare_v2(h, sql, -1, &ins, NULL);
	while (!rc && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
		if (c->ranked)
			sqlite3_bind_int(ins, 1, rank);
		for (i = 0; i < n; i++)
			sqlite3_bind_value(ins, k0 + i,
					   sqlite3_column_value(sel, i));
		rc = sqlite3_step(ins);
		sqlite3_reset(ins);
		rc = rc == SQLITE_DONE ? 0 : rc;
	}
	/* A page cut in the middle reads as rows of NULLs, which the NOT
	 * NULL constraints refuse: name that for what it is. */
	if (rc == SQLITE_CONSTRAINT && !msg[0])
		snprintf(msg, len, "malformed row in table %s", c->src);
	else if (rc != SQLITE_DONE && !msg[0])
		snprintf(msg, len, "%s", sqlite3_errmsg(sel ? src : h));
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	sqlite3_close_v2(src);
	return rc == SQLITE_DONE ? 0 : rc;
}

/*
 * Copy one table of rank file path.  Fast: INSERT ... SELECT from the
 * attached "r", all or nothing; returns 0, or 1 when it failed (the file
 * is damaged: the caller starts over in safe mode).  Safe: row by row
 * through a connection of its own, keeping what SQLite can read; returns
 * 0, or 1 after copying only part of the table (the error text in msg).
 */
static int cp_db_copy_table(sqlite3 *h, const char *path,
			    const struct cp_db_copy *c, int rank, bool safe,
			    char *msg, size_t len)
{
	char pre[32] = "";
	int rc;

	if (c->ranked)
		snprintf(pre, sizeof(pre), "%d, ", rank);
	if (safe)
		rc = cp_db_copy_rows(h, path, c, rank, msg, len);
	else
		rc = cp_db_exec_fmt(h, "%s INTO main.%s (%s%s) SELECT %s%s "
				    "FROM r.%s", c->verb, c->dst,
				    c->ranked ? "rank, " : "", c->cols, pre,
				    c->cols, c->src);
	if (rc && !msg[0])
		snprintf(msg, len, "%s", sqlite3_errmsg(h));
	return rc ? 1 : 0;
}

/* Every table of the rank file; 1 if any failed or was only partly
 * read. */
static int cp_db_copy_all(sqlite3 *h, const char *path, int rank, bool safe,
			  char *msg, size_t len)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(cp_db_copies) / sizeof(cp_db_copies[0]); i++) {
		bad |= cp_db_copy_table(h, path, &cp_db_copies[i], rank, safe,
					msg, len);
		if (bad && !safe)
			break;
	}
	return bad;
}

/* Rank number from the file's meta, else from its name.  Returns 0, 1 if
 * the file is damaged (meta unreadable: msg set), -1 to skip the file. */
static int cp_db_rank_meta(sqlite3 *h, int *rank, char *msg, size_t len)
{
	int64_t v;
	int rc;

	v = cp_db_query_int(h, "SELECT value FROM r.meta WHERE key = "
			    "'schema_version'", CP_DB_SCHEMA_VERSION, &rc);
	if (rc == SQLITE_CORRUPT) {
		snprintf(msg, len, "%s", sqlite3_errmsg(h));
		return 1;
	}
	if (rc) {
		snprintf(msg, len, "not a commprof rank file (%s)",
			 sqlite3_errmsg(h));
		return -1;
	}
	if (v != CP_DB_SCHEMA_VERSION) {
		snprintf(msg, len, "schema version %lld, not %d", (long long)v,
			 CP_DB_SCHEMA_VERSION);
		return -1;
	}
	v = cp_db_query_int(h, "SELECT value FROM r.meta WHERE key = 'rank'",
			    *rank, &rc);
	if (rc) {
		snprintf(msg, len, "%s", sqlite3_errmsg(h));
		return 1;
	}
	if (v >= 0 && v <= INT32_MAX)
		*rank = (int)v;
	return 0;
}

static int cp_db_attach(sqlite3 *h, const char *path)
{
	char *uri = cp_db_uri_ro(path);
	sqlite3_stmt *st;
	int rc;

	if (!uri)
		return SQLITE_NOMEM;
	rc = sqlite3_prepare_v2(h, "ATTACH ?1 AS r", -1, &st, NULL);
	if (!rc) {
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 0 : rc;
		sqlite3_finalize(st);
	}
	free(uri);
	return rc;
}

/* Keep a warning about rank file `path` in the merged meta table, so that
 * every later use of the merge repeats it (cp_db_replay_warnings). */
static int cp_db_warnf(sqlite3 *h, const char *path, const char *what,
		       const char *then)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(h, "INSERT INTO main.meta (key, value) "
				"VALUES ('warning.' || (SELECT count(*) FROM "
				"main.meta WHERE key LIKE 'warning.%'), "
				"printf('%s: %s; %s', ?1, ?2, ?3))", -1, &st,
				NULL);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, what, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, then, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

static void cp_db_replay_warnings(sqlite3 *h,
				  void (*warn)(void *, const char *),
				  void *arg)
{
	sqlite3_stmt *st;

	if (!warn || sqlite3_prepare_v2(h, "SELECT value FROM meta WHERE key "
					"LIKE 'warning.%' ORDER BY rowid", -1,
					&st, NULL))
		return;
	while (sqlite3_step(st) == SQLITE_ROW)
		warn(arg, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/*
 * Merge rank file `path` into the open merged database h.  rank is the
 * rank its name tells; seen[] (n entries) the ranks merged so far.
 * Returns 1 when rows were merged, 0 when the file was skipped (with a
 * warning kept by cp_db_warnf),
 * or a negative code when the merged database itself failed.
 */
static int cp_db_merge_one(sqlite3 *h, const char *path, int rank,
			   const int *seen, int n, int *merged_rank)
{
	char msg[512] = "";
	int i, st, bad;

	if (cp_db_attach(h, path)) {
		snprintf(msg, sizeof(msg), "%s", sqlite3_errmsg(h));
		return cp_db_warnf(h, path, msg, "skipped") ? -CP_DB_EIO : 0;
	}
	st = cp_db_rank_meta(h, &rank, msg, sizeof(msg));
	for (i = 0; st >= 0 && i < n; i++) {
		if (seen[i] == rank) {
			snprintf(msg, sizeof(msg), "rank %d seen before", rank);
			st = -1;
		}
	}
	if (st < 0) {
		sqlite3_exec(h, "DETACH r", NULL, NULL, NULL);
		return cp_db_warnf(h, path, msg, "skipped") ? -CP_DB_EIO : 0;
	}
	if (sqlite3_exec(h, "BEGIN", NULL, NULL, NULL))
		return -CP_DB_EIO;
	bad = cp_db_copy_all(h, path, rank, false, msg, sizeof(msg));
	if (!bad && !sqlite3_exec(h, "COMMIT", NULL, NULL, NULL)) {
		bad = st;
	} else {
		/* A damaged file: forget what the fast copy did (a corrupt
		 * page read through ATTACH may fail the COMMIT as well) and
		 * take row by row whatever can be read. */
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
		msg[0] = '\0';
		if (sqlite3_exec(h, "BEGIN", NULL, NULL, NULL))
			return -CP_DB_EIO;
		cp_db_copy_all(h, path, rank, true, msg, sizeof(msg));
		if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL))
			return -CP_DB_EIO;
		bad = 1;
	}
	if (sqlite3_exec(h, "DETACH r", NULL, NULL, NULL))
		return -CP_DB_EIO;
	if (bad) {
		char what[600];

		snprintf(what, sizeof(what), "damaged (%s)", msg);
		if (cp_db_warnf(h, path, what,
				"using the rows that could be read"))
			return -CP_DB_EIO;
	}
	*merged_rank = rank;
	return 1;
}

/*
 * The merge connection.  journal_mode=MEMORY: the file is renamed into
 * place only when complete, yet ROLLBACK TO must work for cp_db_copy_table.
 * writable_schema=ON: a truncated rank file claims more pages than it has,
 * which SQLite refuses at the first read unless the schema is writable;
 * with it, SQLite reads the pages that are there.  We never write a
 * schema table, we only create ours.
 */
static const char cp_db_merge_pragmas[] =
	"PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF;"
	"PRAGMA writable_schema=ON";

/* Open the file the merge is built in: tmp inside dir when dir is
 * writable, else an anonymous temporary database of SQLite (in $TMPDIR,
 * deleted at close; *tmp is then emptied). */
static int cp_db_build_open(const char *dir, char *tmp, sqlite3 **h)
{
	int fl = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
		 SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;

	if (!access(dir, W_OK)) {
		unlink(tmp);
		if (!sqlite3_open_v2(tmp, h, fl, NULL) &&
		    !sqlite3_exec(*h, cp_db_merge_pragmas, NULL, NULL, NULL))
			return 0;
		sqlite3_close_v2(*h);
		unlink(tmp);
	}
	tmp[0] = '\0';
	if (sqlite3_open_v2("", h, fl, NULL) ||
	    sqlite3_exec(*h, cp_db_merge_pragmas, NULL, NULL, NULL)) {
		sqlite3_close_v2(*h);
		return cp_db_open_fail(CP_DB_EIO, "cannot create a temporary "
				       "database");
	}
	return 0;
}

/* Every rank file into h; then indexes and the merge's meta rows. */
static int cp_db_build_fill(sqlite3 *h, const char *dir,
			    const struct cp_db_scan *sc)
{
	int i, n = 0, ret = 0;
	char path[4096];

	if (cp_db_exec_schema(h, CP_DB_MARK_MERGED, CP_DB_MARK_INDEXES))
		goto out_eio;
	/* sc->ranks[0..n) becomes the ranks merged so far: n <= i, so it
	 * only overwrites name ranks already used. */
	for (i = 0; i < sc->n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sc->names[i]);
		ret = cp_db_merge_one(h, path, sc->ranks[i], sc->ranks, n,
				      &sc->ranks[n]);
		if (ret < 0)
			goto out_eio;
		n += ret;
	}
	if (!n)
		return cp_db_open_fail(CP_DB_ENOENT,
				       "no readable rank files in %s", dir);
	if (cp_db_exec_schema(h, CP_DB_MARK_INDEXES, NULL) ||
	    cp_db_exec_fmt(h, "INSERT INTO meta (key, value) VALUES "
			   "('schema_version', '%d'), ('kind', 'merged'), "
			   "('ranks', '%d'), ('rank_files', '%d')",
			   CP_DB_SCHEMA_VERSION, n, sc->n))
		goto out_eio;
	return 0;
out_eio:
	return cp_db_open_fail(CP_DB_EIO, "cannot merge %s: %s", dir,
			       sqlite3_errmsg(h));
}

/* Let the caller complete a new merge (matching) before it is published.
 * Its failures are its own to report: the merge stands without them. */
static void cp_db_build_hook(sqlite3 *h,
			     void (*merged)(void *arg, struct cp_db *db),
			     void *arg)
{
	struct cp_db db = { .h = h };

	if (merged)
		merged(arg, &db);
}

static int cp_db_build(const char *dir, const char *final,
		       struct cp_db_scan *sc,
		       void (*merged)(void *arg, struct cp_db *db), void *arg,
		       sqlite3 **out)
{
	char tmp[4096];
	sqlite3 *h;
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/.commprof.db.%ld.tmp", dir,
		 (long)getpid());
	ret = cp_db_build_open(dir, tmp, &h);
	if (ret)
		return ret;
	ret = cp_db_build_fill(h, dir, sc);
	if (!ret)
		cp_db_build_hook(h, merged, arg);
	if (ret || !tmp[0]) {
		if (ret)
			sqlite3_close_v2(h);
		if (tmp[0])
			unlink(tmp);
		*out = ret ? NULL : h;
		return ret;
	}
	sqlite3_close_v2(h);
	if (rename(tmp, final)) {
		unlink(tmp);
		return cp_db_open_fail(CP_DB_EIO, "cannot rename %s: %s", tmp,
				       strerror(errno));
	}
	if (sqlite3_open_v2(final, out, SQLITE_OPEN_READONLY, NULL)) {
		ret = cp_db_open_fail(CP_DB_EIO, "cannot open %s: %s", final,
				      sqlite3_errmsg(*out));
		sqlite3_close_v2(*out);
	}
	return ret;
}

/* True when process pid of this host has ended: no such process, or a
 * zombie not reaped yet (mpirun may return before its ranks are). */
static bool cp_db_pid_gone(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	if (kill(pid, 0))
		return errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strrchr(buf, ')');	/* "pid (comm) S ...": comm may hold ") " */
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

/* True when the writer of rank file `path` is known to be gone: its meta
 * names this host and a pid that no longer exists.  Another host's pid
 * tells nothing here, and unreadable meta nothing at all: false. */
static bool cp_db_writer_gone(const char *path)
{
	char mine[256] = "", *uri = cp_db_uri_ro(path);
	const unsigned char *host;
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	int64_t pid;
	bool gone = false;

	if (!uri || sqlite3_open_v2(uri, &h, SQLITE_OPEN_READONLY |
				    SQLITE_OPEN_URI, NULL) ||
	    sqlite3_prepare_v2(h, "SELECT (SELECT value FROM meta WHERE key "
			       "= 'host'), (SELECT value FROM meta WHERE key "
			       "= 'pid')", -1, &st, NULL) ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto out_close;
	host = sqlite3_column_text(st, 0);
	pid = sqlite3_column_int64(st, 1);
	gethostname(mine, sizeof(mine) - 1);
	gone = host && pid > 0 && pid <= INT32_MAX &&
	       !strcmp((const char *)host, mine) &&
	       cp_db_pid_gone((pid_t)pid);
out_close:
	sqlite3_finalize(st);
	sqlite3_close_v2(h);
	free(uri);
	return gone;
}

/*
 * A rank killed by a signal or MPI_Abort never reaches cp_db_close(), so
 * its CP_DB_RESERVE_BYTES file stays beside its rank file.  Remove those
 * whose writer is gone (cp_db_writer_gone); a rank that still runs needs
 * its reserve for a full disk.  Best effort: a read-only dir keeps them.
 */
static void cp_db_drop_stale_reserves(const char *dir,
				      const struct cp_db_scan *sc)
{
	char path[4096], res[4200];
	int i;

	for (i = 0; i < sc->n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sc->names[i]);
		snprintf(res, sizeof(res), "%s-reserve", path);
		if (!access(res, F_OK) && cp_db_writer_gone(path))
			unlink(res);
	}
}

int cp_db_open_dir(const char *dir,
		   void (*warn)(void *arg, const char *msg),
		   void (*merged)(void *arg, struct cp_db *db), void *arg,
		   struct cp_db **out)
{
	struct cp_db_scan sc;
	char final[4096];
	struct cp_db *db;
	sqlite3 *h;
	int ret;

	*out = NULL;
	ret = cp_db_scan_dir(dir, &sc);
	if (ret)
		return ret;
	cp_db_drop_stale_reserves(dir, &sc);
	snprintf(final, sizeof(final), "%s/%s", dir, CP_DB_MERGED);
	if (cp_db_merged_fresh(final, &sc, &h))
		ret = 0;
	else if (!sc.n)
		ret = cp_db_open_fail(CP_DB_ENOENT, "no rank files in %s", dir);
	else
		ret = cp_db_build(dir, final, &sc, merged, arg, &h);
	cp_db_scan_free(&sc);
	if (ret)
		return ret;
	cp_db_replay_warnings(h, warn, arg);
	db = cp_db_alloc();
	if (!db) {
		sqlite3_close_v2(h);
		return cp_db_open_fail(CP_DB_ENOMEM, "out of memory");
	}
	db->h = h;
	*out = db;
	return 0;
}

/* ---- reader: queries ---- */

static const char cp_db_calls_sql[] =
	"SELECT c.rank, o.name, c.seq, c.op, c.thread, c.peer, c.root,"
	" c.tag, c.comm_size, c.comm, c.layout, c.flags, c.bytes, c.count,"
	" c.site, c.t_start_ns, c.t_measured_ns, c.t_incall_ns,"
	" l.contiguous, l.block_bytes, l.stride_bytes, l.nblocks,"
	" m.path, m.base_addr,"
	" c.pred_lmo_ns, c.pred_log3p_ns, c.pred_hockney_ns,"
	" c.pred_loggp_ns, c.pred_plogp_ns, c.pred_lmw_ns, c.pred_flags,"
	" c.t_transfer_ns, c.t_wait_ns, c.late,"
	" c.mu_lmo, c.mu_log3p, c.mu_hockney, c.mu_loggp, c.mu_plogp"
	" FROM calls c LEFT JOIN ops o ON o.id = c.op"
	" LEFT JOIN layouts l ON l.rank = c.rank AND l.idx = c.layout"
	CP_DB_MODULE_JOIN("c")
	" ORDER BY c.rank, c.seq";

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
	for (i = 0; i < CP_DB_NMODELS; i++)
		c->pred_ns[i] = cp_db_real(st, 24 + i);
	c->pred_lmw_ns = cp_db_real(st, 24 + CP_DB_NMODELS);
	c->pred_flags = (uint32_t)cp_db_col(st, 25 + CP_DB_NMODELS, 0);
	r->t_transfer_ns = cp_db_col(st, 26 + CP_DB_NMODELS, -1);
	r->t_wait_ns = cp_db_col(st, 27 + CP_DB_NMODELS, -1);
	r->late = (int32_t)cp_db_col(st, 28 + CP_DB_NMODELS, 0);
	for (i = 0; i < CP_DB_NMODELS; i++)
		r->mu[i] = cp_db_real(st, 29 + CP_DB_NMODELS + i);
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
	" min(a.min_ns), max(a.max_ns), sum(a.rows)"
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
	t->rows_stored = (uint64_t)cp_db_query_int(db->h, "SELECT count(*) "
						   "FROM calls", 0, &r3);
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
	" c.tag, c.comm, c.comm_size, c.t_start_ns, c.t_measured_ns,"
	" c.pred_lmo_ns, c.pred_log3p_ns, c.pred_hockney_ns,"
	" c.pred_loggp_ns, c.pred_plogp_ns"
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
		for (i = 0; i < CP_DB_NMODELS; i++)
			r.pred_ns[i] = cp_db_real(st, 11 + i);
		ret = fn(arg, &r);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read calls");
	sqlite3_finalize(st);
	return ret;
}

static const char cp_db_xfer_sql[] =
	"UPDATE calls SET t_transfer_ns = ?, t_wait_ns = ?, late = ?,"
	" mate_rank = ?, mate_seq = ?, coll_inst = ?, mu_lmo = ?,"
	" mu_log3p = ?, mu_hockney = ?, mu_loggp = ?, mu_plogp = ?"
	" WHERE rank = ? AND seq = ?";

int cp_db_put_xfers(struct cp_db *db, const struct cp_db_xfer *x, size_t n)
{
	sqlite3_stmt *st;
	size_t k;
	int i, rc;

	if (sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot write matches");
	rc = sqlite3_prepare_v2(db->h, cp_db_xfer_sql, -1, &st, NULL);
	for (k = 0; !rc && k < n; k++) {
		sqlite3_bind_int64(st, 1, x[k].t_transfer_ns);
		sqlite3_bind_int64(st, 2, x[k].t_wait_ns);
		cp_db_bind_opt(st, 3, x[k].late, 0);
		cp_db_bind_opt(st, 4, x[k].mate_rank, -1);
		cp_db_bind_opt(st, 5, x[k].mate_seq, -1);
		cp_db_bind_opt(st, 6, x[k].coll_inst, -1);
		for (i = 0; i < CP_DB_NMODELS; i++)
			cp_db_bind_real(st, 7 + i, x[k].mu[i]);
		sqlite3_bind_int(st, 7 + CP_DB_NMODELS, x[k].rank);
		sqlite3_bind_int64(st, 8 + CP_DB_NMODELS, x[k].seq);
		rc = cp_db_step(st);
	}
	sqlite3_finalize(st);
	if (!rc && !sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL))
		return 0;
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
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
