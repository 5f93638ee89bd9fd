/*
 * cp_db_merge.c - the reader's way in (db/cp_db_read.h): cp_db_open_dir
 * merges the rank files of an output directory into commprof.db, a rank
 * file that SQLite can only partly read contributing what it can, and
 * removes the reserves of ranks that died.  The merge takes every table
 * but calls at once (small: meta, ops, layouts, modules, aggregates) and
 * lets the caller reduce the run beside it; cp_db_need_rows copies the
 * call rows in when a command needs them.  The CLI links it; the
 * profiling library does not.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db/cp_db.h"
#include "db/cp_db_int.h"
#include "db/cp_db_read.h"

#define CP_DB_MERGED	"commprof.db"

/* How long a reader waits for a rank that is still writing its file: a
 * rank signalled by the launcher flushes after mpiexec has returned. */
#define CP_DB_BUSY_MS 10000

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

/* The tables a merge takes at once (the first) and the call rows, which
 * cp_db_need_rows copies in when a command needs them (the last). */
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
#define CP_DB_NSMALL	5	/* the tables above */
	{ "calls", "calls", "INSERT", true,
	  "seq, op, thread, peer, root, tag, comm_size, comm, layout, "
	  "flags, bytes, count, site, t_start_ns, t_measured_ns, "
	  "t_incall_ns" CP_MODEL_MAP(CP_DB_COL_PRED)
	  ", pred_lmw_ns, pred_flags, alg" },
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
		rc = sqlite3_busy_timeout(*src, CP_DB_BUSY_MS);
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

/* Every table of the rank file but calls; 1 if any failed or was only
 * partly read. */
static int cp_db_copy_all(sqlite3 *h, const char *path, int rank, bool safe,
			  char *msg, size_t len)
{
	size_t i;
	int bad = 0;

	for (i = 0; i < CP_DB_NSMALL; i++) {
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
		snprintf(msg, len, "schema version %lld, this commprof reads "
			 "%d: written by another version", (long long)v,
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

int cp_db_attach_as(sqlite3 *h, const char *path, const char *name)
{
	char *uri = cp_db_uri_ro(path), sql[64];
	sqlite3_stmt *st;
	int rc;

	if (!uri)
		return SQLITE_NOMEM;
	snprintf(sql, sizeof(sql), "ATTACH ?1 AS %s", name);
	rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
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
 * every later use of the merge repeats it (cp_db_replay_warnings); one
 * per file, the first.  Returns an SQLite code; *added (may be NULL):
 * whether this one was kept. */
static int cp_db_warnf(sqlite3 *h, const char *path, const char *what,
		       const char *then, bool *added)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(h, "INSERT INTO main.meta (key, value) "
				"SELECT 'warning.' || (SELECT count(*) FROM "
				"main.meta WHERE key LIKE 'warning.%'), "
				"printf('%s: %s; %s', ?1, ?2, ?3) WHERE NOT "
				"EXISTS (SELECT 1 FROM main.meta WHERE key LIKE "
				"'warning.%' AND substr(value, 1, length(?1) + "
				"2) = ?1 || ': ')", -1, &st, NULL);
	if (rc)
		return rc;
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, what, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, then, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (added)
		*added = rc == SQLITE_DONE && sqlite3_changes(h) > 0;
	return rc == SQLITE_DONE ? 0 : rc;
}

int cp_db_warn(struct cp_db *db, const char *path, const char *what)
{
	bool added = false;

	if (cp_db_warnf(db->h, path, what, "using the rows that could be "
			"read", &added))
		return cp_db_fail(db, CP_DB_EIO, "cannot keep a warning");
	return added;
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

/* The ranks merged so far: a set of world ranks, open addressing. */
struct cp_db_seen {
	int64_t *v;		/* rank + 1; 0 free */
	size_t mask;
	char why[600];		/* the first file skipped, and why */
};

/* Keep why the first skipped file was skipped: when every file is, the
 * user is told that rather than only "no readable rank files". */
static void cp_db_first_skip(struct cp_db_seen *s, const char *path,
			     const char *msg)
{
	const char *name = strrchr(path, '/');

	if (!s->why[0])
		snprintf(s->why, sizeof(s->why), "%.80s: %.500s",
			 name ? name + 1 : path, msg);
}

/* Add rank to s; false when it was there already.  s has room for
 * every rank file (cp_db_build_fill sizes it). */
static bool cp_db_seen_add(struct cp_db_seen *s, int rank)
{
	size_t i = ((uint64_t)rank * UINT64_C(0x9e3779b97f4a7c15) >> 20) &
		   s->mask;

	for (; s->v[i]; i = (i + 1) & s->mask)
		if (s->v[i] == (int64_t)rank + 1)
			return false;
	s->v[i] = (int64_t)rank + 1;
	return true;
}

/* After a rank file's tables: its row count and its name, so that the
 * reduction and cp_db_need_rows find it.  A count that cannot be read
 * (a damaged file) is left out. */
static int cp_db_merge_note(sqlite3 *h, const char *path, int rank,
			    bool bad)
{
	const char *name = strrchr(path, '/');
	sqlite3_stmt *st;
	int rc;

	/* a rank file only ever appends rows: the last rowid counts them
	 * without reading them (a damaged file counts what it kept) */
	cp_db_exec_fmt(h, "INSERT OR REPLACE INTO main.rank_meta (rank, key, "
		       "value) SELECT %d, 'rows_in_file', %s FROM r.calls",
		       rank, bad ? "count(*)" : "max(rowid)");
	rc = sqlite3_prepare_v2(h, "INSERT OR REPLACE INTO main.rank_files "
				"(rank, name) VALUES (?, ?)", -1, &st, NULL);
	if (rc)
		return rc;
	sqlite3_bind_int(st, 1, rank);
	sqlite3_bind_text(st, 2, name ? name + 1 : path, -1, SQLITE_STATIC);
	rc = cp_db_step(st);
	sqlite3_finalize(st);
	return rc;
}

/*
 * Merge rank file `path` into the open merged database h.  rank is the
 * rank its name tells; seen the ranks merged so far.  Returns 1 when rows
 * were merged, 0 when the file was skipped (with a warning kept by
 * cp_db_warnf), or a negative code when the merged database itself
 * failed.
 */
static int cp_db_merge_one(sqlite3 *h, const char *path, int rank,
			   struct cp_db_seen *seen)
{
	char msg[512] = "";
	int st, bad;

	if (cp_db_attach_as(h, path, "r")) {
		snprintf(msg, sizeof(msg), "%s", sqlite3_errmsg(h));
		cp_db_first_skip(seen, path, msg);
		return cp_db_warnf(h, path, msg, "skipped", NULL) ?
		       -CP_DB_EIO : 0;
	}
	st = cp_db_rank_meta(h, &rank, msg, sizeof(msg));
	if (st >= 0 && !cp_db_seen_add(seen, rank)) {
		snprintf(msg, sizeof(msg), "rank %d seen before", rank);
		st = -1;
	}
	if (st < 0) {
		sqlite3_exec(h, "DETACH r", NULL, NULL, NULL);
		cp_db_first_skip(seen, path, msg);
		return cp_db_warnf(h, path, msg, "skipped", NULL) ?
		       -CP_DB_EIO : 0;
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
	if (cp_db_merge_note(h, path, rank, bad) ||
	    sqlite3_exec(h, "DETACH r", NULL, NULL, NULL))
		return -CP_DB_EIO;
	if (bad) {
		char what[600];

		snprintf(what, sizeof(what), "damaged (%s)", msg);
		if (cp_db_warnf(h, path, what,
				"using the rows that could be read", NULL))
			return -CP_DB_EIO;
	}
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
		    !sqlite3_busy_timeout(*h, CP_DB_BUSY_MS) &&
		    !sqlite3_exec(*h, cp_db_merge_pragmas, NULL, NULL, NULL))
			return 0;
		sqlite3_close_v2(*h);
		unlink(tmp);
	}
	tmp[0] = '\0';
	if (sqlite3_open_v2("", h, fl, NULL) ||
	    sqlite3_busy_timeout(*h, CP_DB_BUSY_MS) ||
	    sqlite3_exec(*h, cp_db_merge_pragmas, NULL, NULL, NULL)) {
		sqlite3_close_v2(*h);
		return cp_db_open_fail(CP_DB_EIO, "cannot create a temporary "
				       "database");
	}
	return 0;
}

/* Every rank file's small tables into h; then indexes and the merge's
 * meta rows.  The call rows wait for cp_db_need_rows. */
static int cp_db_build_fill(sqlite3 *h, const char *dir,
			    const struct cp_db_scan *sc)
{
	struct cp_db_seen seen = { 0 };
	int i, n = 0, ret = 0;
	char path[4096];

	for (seen.mask = 15; seen.mask < 2 * (size_t)sc->n; )
		seen.mask = 2 * seen.mask + 1;
	seen.v = calloc(seen.mask + 1, sizeof(*seen.v));
	if (!seen.v)
		return cp_db_open_fail(CP_DB_ENOMEM, "out of memory");
	if (cp_db_exec_schema(h, CP_DB_MARK_MERGED, CP_DB_MARK_INDEXES))
		goto out_eio;
	for (i = 0; i < sc->n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sc->names[i]);
		ret = cp_db_merge_one(h, path, sc->ranks[i], &seen);
		if (ret < 0)
			goto out_eio;
		n += ret;
	}
	free(seen.v);
	if (!n && seen.why[0])
		return cp_db_open_fail(CP_DB_ENOENT, "no readable rank files "
				       "in %s (%s)", dir, seen.why);
	if (!n)
		return cp_db_open_fail(CP_DB_ENOENT,
				       "no readable rank files in %s", dir);
	if (cp_db_exec_schema(h, CP_DB_MARK_INDEXES, NULL) ||
	    cp_db_exec_fmt(h, "INSERT INTO meta (key, value) VALUES "
			   "('schema_version', '%d'), ('kind', 'merged'), "
			   "('ranks', '%d'), ('rank_files', '%d'), "
			   "('rows_merged', '0')",
			   CP_DB_SCHEMA_VERSION, n, sc->n))
		return cp_db_open_fail(CP_DB_EIO, "cannot merge %s: %s", dir,
				       sqlite3_errmsg(h));
	return 0;
out_eio:
	free(seen.v);
	return cp_db_open_fail(CP_DB_EIO, "cannot merge %s: %s", dir,
			       sqlite3_errmsg(h));
}

/* Let the caller complete a new merge (the reduction) before it is
 * published.  Its failures are its own to report: the merge stands
 * without them. */
static void cp_db_build_hook(sqlite3 *h, const char *dir,
			     void (*merged)(void *arg, struct cp_db *db),
			     void *arg)
{
	struct cp_db db = { .h = h, .dir = (char *)dir };
	int i;

	if (merged)
		merged(arg, &db);
	for (i = 0; i < CP_SUM_ST_MAX; i++)
		sqlite3_finalize(db.sum[i]);
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
		cp_db_build_hook(h, dir, merged, arg);
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
	db->dir = strdup(dir);
	if (!db->dir) {
		cp_db_close(db);
		return cp_db_open_fail(CP_DB_ENOMEM, "out of memory");
	}
	*out = db;
	return 0;
}

/* ---- the call rows, when a command needs them ---- */

/* db's connection, read-only since it was published, made writable. */
static int cp_db_writable(struct cp_db *db)
{
	char path[4200];
	sqlite3 *h;

	if (sqlite3_db_readonly(db->h, "main") != 1)
		return 0;
	snprintf(path, sizeof(path), "%s", sqlite3_db_filename(db->h,
							       "main"));
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) ||
	    sqlite3_exec(h, "PRAGMA synchronous=OFF; PRAGMA "
			 "writable_schema=ON", NULL, NULL, NULL)) {
		cp_db_open_fail(CP_DB_EIO, "cannot add the call rows to %s: "
				"%s", path, sqlite3_errmsg(h));
		sqlite3_close_v2(h);
		return -CP_DB_EIO;
	}
	sqlite3_close_v2(db->h);
	db->h = h;
	return 0;
}

/* The calls of attached rank file r with their matches (temp.xfer) in
 * one statement.  Returns an SQLite code. */
static int cp_db_rows_fast(sqlite3 *h, int rank)
{
	const char *cols = cp_db_copies[CP_DB_NSMALL].cols, *p;
	char ccols[1024] = "c.", sql[3072];
	size_t at = 2;

	/* "seq, op, ..." as "c.seq, c.op, ...": xfer has a seq too */
	for (p = cols; *p && at + 4 < sizeof(ccols); p++) {
		ccols[at++] = *p;
		if (*p == ' ') {
			ccols[at++] = 'c';
			ccols[at++] = '.';
		}
	}
	ccols[at] = '\0';
	snprintf(sql, sizeof(sql), "INSERT INTO main.calls (rank, %s, "
		 CP_DB_XFER_COLS ") SELECT %d, %s, " CP_DB_XFER_XCOLS
		 " FROM r.calls c LEFT JOIN temp.xfer x ON x.rank = %d AND "
		 "x.seq = c.seq", cols, rank, ccols, rank);
	return sqlite3_exec(h, sql, NULL, NULL, NULL);
}

/* The matches of rank's rows copied one by one (a damaged file). */
static int cp_db_rows_xfer(sqlite3 *h, int rank)
{
	return cp_db_exec_fmt(h, "UPDATE main.calls AS c SET (" CP_DB_XFER_COLS
			      ") = (SELECT " CP_DB_XFER_XCOLS " FROM "
			      "temp.xfer x WHERE x.rank = c.rank AND x.seq = "
			      "c.seq) WHERE c.rank = %d", rank);
}

/* The calls of rank file `path` into db, all of them or (a damaged file)
 * what can be read, with one warning kept and given to warn.  Returns 0
 * or -CP_DB_EIO. */
static int cp_db_rows_one(struct cp_db *db, const char *path, int rank,
			  void (*warn)(void *arg, const char *msg), void *arg)
{
	const struct cp_db_copy *c = &cp_db_copies[CP_DB_NSMALL];
	char msg[512] = "", what[600], line[5000];
	bool added = false;
	int bad;

	if (cp_db_attach_as(db->h, path, "r"))
		return 0;	/* a file gone since the merge: kept out */
	if (sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL))
		return -CP_DB_EIO;
	bad = cp_db_rows_fast(db->h, rank);
	if (bad)
		snprintf(msg, sizeof(msg), "%s", sqlite3_errmsg(db->h));
	if (bad || sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL)) {
		/* as cp_db_merge_one: start over, row by row */
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		msg[0] = '\0';
		if (sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL))
			return -CP_DB_EIO;
		cp_db_copy_table(db->h, path, c, rank, true, msg, sizeof(msg));
		if (cp_db_rows_xfer(db->h, rank) ||
		    sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL))
			return -CP_DB_EIO;
		bad = 1;
	}
	if (sqlite3_exec(db->h, "DETACH r", NULL, NULL, NULL))
		return -CP_DB_EIO;
	snprintf(what, sizeof(what), "damaged (%s)", msg);
	if (bad && cp_db_warnf(db->h, path, what, "using the rows that could "
			       "be read", &added))
		return -CP_DB_EIO;
	if (added && warn) {
		snprintf(line, sizeof(line), "%s: %s; using the rows that "
			 "could be read", path, what);
		warn(arg, line);
	}
	return 0;
}

/* The rank files of db's merge: names[] and ranks[] of sc, as
 * cp_db_scan_dir makes them.  Returns 0 or -CP_DB_EIO. */
static int cp_db_merged_files(struct cp_db *db, struct cp_db_scan *sc)
{
	sqlite3_stmt *st;
	int rc = SQLITE_ERROR, cap = 16;

	memset(sc, 0, sizeof(*sc));
	if (sqlite3_prepare_v2(db->h, "SELECT rank, name FROM rank_files "
			       "ORDER BY rank", -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read rank files");
	sc->names = malloc(cap * sizeof(*sc->names));
	sc->ranks = malloc(cap * sizeof(*sc->ranks));
	while (sc->names && sc->ranks &&
	       (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int *r = sc->n == cap ? realloc(sc->ranks, 2 * cap *
						 sizeof(*r)) : sc->ranks;

		if (!r)
			break;
		sc->ranks = r;
		sc->ranks[sc->n] = sqlite3_column_int(st, 0);
		cap = cp_db_scan_add(sc, (const char *)sqlite3_column_text(st,
									    1),
				     cap);
		if (cap < 0)
			break;
	}
	sqlite3_finalize(st);
	if (sc->names && sc->ranks && cap > 0 && rc == SQLITE_DONE)
		return 0;
	cp_db_scan_free(sc);
	return cp_db_fail(db, CP_DB_EIO, "cannot read rank files");
}

int cp_db_need_rows(struct cp_db *db,
		    void (*warn)(void *arg, const char *msg),
		    void (*merged)(void *arg, struct cp_db *db), void *arg)
{
	struct cp_db_scan sc;
	char v[16], path[4200];
	int i, ret = 0;

	if (cp_db_get_meta(db, "rows_merged", v, sizeof(v)) || strcmp(v, "0"))
		return 0;	/* its rows are in (or it never lost them) */
	if (!db->dir || cp_db_writable(db))
		return -CP_DB_EIO;
	/* the rows of an attempt that died on the way */
	if (sqlite3_exec(db->h, "DELETE FROM calls", NULL, NULL, NULL) ||
	    sqlite3_exec(db->h, CP_DB_XFER_TABLE_SQL, NULL, NULL, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot add the call rows");
	if (merged)
		merged(arg, db);	/* the matches, into temp.xfer */
	if (cp_db_merged_files(db, &sc))
		return -CP_DB_EIO;
	for (i = 0; !ret && i < sc.n; i++) {
		snprintf(path, sizeof(path), "%s/%s", db->dir, sc.names[i]);
		ret = cp_db_rows_one(db, path, sc.ranks[i], warn, arg);
	}
	cp_db_scan_free(&sc);
	if (!ret)
		ret = cp_db_put_meta(db, "rows_merged", "1");
	sqlite3_exec(db->h, "DROP TABLE temp.xfer", NULL, NULL, NULL);
	if (ret)
		return cp_db_fail(db, CP_DB_EIO, "cannot add the call rows");
	return 0;
}

/* ---- a directory, for a reduction made elsewhere (commprof-mpi) ---- */

int cp_db_each_rank_name(const char *dir,
			 int (*fn)(void *arg, const char *path, int32_t rank),
			 void *arg)
{
	struct cp_db_scan sc;
	char path[4200];
	int i, ret;

	ret = cp_db_scan_dir(dir, &sc);
	if (ret)
		return ret;
	for (i = 0; !ret && i < sc.n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sc.names[i]);
		ret = fn(arg, path, sc.ranks[i]);
	}
	cp_db_scan_free(&sc);
	return ret;
}

bool cp_db_dir_fresh(const char *dir)
{
	struct cp_db_scan sc;
	char final[4200];
	sqlite3 *h = NULL;
	bool fresh;

	if (cp_db_scan_dir(dir, &sc))
		return false;
	snprintf(final, sizeof(final), "%s/%s", dir, CP_DB_MERGED);
	fresh = cp_db_merged_fresh(final, &sc, &h);
	sqlite3_close_v2(h);
	cp_db_scan_free(&sc);
	return fresh;
}
