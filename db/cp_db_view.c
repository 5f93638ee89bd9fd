/*
 * cp_db_view.c - the queries behind the views of "commprof report
 * --format html" (src/cli/cli_html_report.c): per-rank totals, traffic
 * per pair of ranks, a sample of the measured-against-predicted rows and
 * the timeline.  Everything is aggregated here, in SQL, so that the page
 * gets a bounded amount of data whatever the size of the run.
 */
#include <sqlite3.h>

#include "db/cp_db.h"
#include "db/cp_db_int.h"
#include "db/cp_db_read.h"

/* The callback of a walk and its argument. */
struct cp_db_walk {
	union {
		int (*rank)(void *arg, const struct cp_db_rank_total *r);
		int (*pair)(void *arg, const struct cp_db_pair *p);
		int (*cmp)(void *arg, const struct cp_db_cmp *c);
		int (*tl)(void *arg, const struct cp_db_tl *t);
	} fn;
	void *arg;
};

/*
 * Run sql with integer parameters b[0..nb) and hand every result row to
 * row (which reads it and calls w's callback).  Returns 0, the callback's
 * nonzero value, or -CP_DB_EIO.
 */
static int cp_db_walk(struct cp_db *db, const char *sql, const int64_t *b,
		      int nb, int (*row)(sqlite3_stmt *st,
					 const struct cp_db_walk *w),
		      const struct cp_db_walk *w)
{
	sqlite3_stmt *st;
	int i, rc, ret = 0;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL))
		return cp_db_fail(db, CP_DB_EIO, "cannot read the run");
	for (i = 0; i < nb; i++)
		sqlite3_bind_int64(st, i + 1, b[i]);
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = row(st, w);
	if (!ret && rc != SQLITE_DONE)
		ret = cp_db_fail(db, CP_DB_EIO, "cannot read the run");
	sqlite3_finalize(st);
	return ret;
}

static const char cp_db_rank_sql[] =
	"SELECT m.rank,"
	" (SELECT CAST(value AS INTEGER) FROM rank_meta"
	"  WHERE rank = m.rank AND key = 'app_time_ns'),"
	" (SELECT CAST(value AS INTEGER) FROM rank_meta"
	"  WHERE rank = m.rank AND key = 'threads'),"
	" coalesce(a.t, 0), coalesce(a.c, 0), coalesce(a.b, 0)"
	" FROM (SELECT DISTINCT rank FROM rank_meta) m LEFT JOIN"
	" (SELECT a.rank, sum(" CP_DB_MPI_TIME("a", "o") ") t,"
	"  sum(a.count) c, sum(CASE WHEN " CP_DB_RECV_OP("o")
	"  THEN 0 ELSE a.bytes END) b"
	"  FROM aggs a LEFT JOIN ops o ON o.id = a.op GROUP BY a.rank) a"
	" ON a.rank = m.rank ORDER BY m.rank";

static int cp_db_rank_row(sqlite3_stmt *st, const struct cp_db_walk *w)
{
	struct cp_db_rank_total r;

	r.rank = (int32_t)cp_db_col(st, 0, -1);
	r.app_time_ns = cp_db_col(st, 1, -1);
	r.threads = (int32_t)cp_db_col(st, 2, 0);
	r.mpi_time_ns = cp_db_col(st, 3, 0);
	r.calls = (uint64_t)cp_db_col(st, 4, 0);
	r.bytes = (uint64_t)cp_db_col(st, 5, 0);
	return w->fn.rank(w->arg, &r);
}

int cp_db_each_rank_total(struct cp_db *db,
			  int (*fn)(void *arg,
				    const struct cp_db_rank_total *r),
			  void *arg)
{
	struct cp_db_walk w = { .fn.rank = fn, .arg = arg };

	return cp_db_walk(db, cp_db_rank_sql, NULL, 0, cp_db_rank_row, &w);
}

/* A send's aggregate names its receiver as peer, a receive's its sender;
 * bytes and messages count at the send, time at both ends. */
static const char cp_db_pair_sql[] =
	"SELECT CASE WHEN r THEN a.peer ELSE a.rank END s,"
	" CASE WHEN r THEN a.rank ELSE a.peer END d,"
	" sum(CASE WHEN r THEN 0 ELSE a.bytes END),"
	" sum(CASE WHEN r THEN 0 ELSE a.count END), sum(t), NULL"
	" FROM (SELECT a.rank, a.peer, a.bytes, a.count,"
	"  " CP_DB_RECV_OP("o") " r, " CP_DB_MPI_TIME("a", "o") " t"
	"  FROM aggs a JOIN ops o ON o.id = a.op"
	"  WHERE o.class = 'p2p' AND a.peer >= 0) a"
	" GROUP BY s, d ORDER BY s, d";

static const char cp_db_rooted_sql[] =
	"SELECT c.rank, c.root, sum(c.bytes), count(*),"
	" sum(c.t_measured_ns), o.name"
	" FROM calls c JOIN ops o ON o.id = c.op"
	" WHERE o.class = 'coll' AND c.root >= 0 AND c.root != c.rank"
	" GROUP BY c.rank, c.root, c.op ORDER BY c.rank, c.root, c.op";

static int cp_db_pair_row(sqlite3_stmt *st, const struct cp_db_walk *w)
{
	struct cp_db_pair p;

	p.src = (int32_t)cp_db_col(st, 0, -1);
	p.dst = (int32_t)cp_db_col(st, 1, -1);
	p.bytes = (uint64_t)cp_db_col(st, 2, 0);
	p.msgs = (uint64_t)cp_db_col(st, 3, 0);
	p.time_ns = cp_db_col(st, 4, 0);
	p.op_name = (const char *)sqlite3_column_text(st, 5);
	return w->fn.pair(w->arg, &p);
}

int cp_db_each_pair(struct cp_db *db,
		    int (*fn)(void *arg, const struct cp_db_pair *p),
		    void *arg)
{
	struct cp_db_walk w = { .fn.pair = fn, .arg = arg };

	return cp_db_walk(db, cp_db_pair_sql, NULL, 0, cp_db_pair_row, &w);
}

int cp_db_each_rooted(struct cp_db *db,
		      int (*fn)(void *arg, const struct cp_db_pair *p),
		      void *arg)
{
	struct cp_db_walk w = { .fn.pair = fn, .arg = arg };

	return cp_db_walk(db, cp_db_rooted_sql, NULL, 0, cp_db_pair_row, &w);
}

/* The rows of class p2p or coll with a t_transfer and some model's
 * prediction (the leading NULL keeps coalesce() at two arguments or
 * more, whatever the number of models). */
#define CP_DB_COMPARED							\
	" FROM calls c JOIN ops o ON o.id = c.op"			\
	" WHERE o.class IN ('p2p', 'coll') AND c.t_transfer_ns IS NOT NULL" \
	" AND coalesce(NULL" CP_MODEL_MAP(CP_DB_COL_CPRED) ") IS NOT NULL"

/* The one integer that sql yields into *v (0 without a row), through
 * the reader's cp_db_query_int.  Returns 0 or -CP_DB_EIO. */
static int cp_db_view_int(struct cp_db *db, const char *sql, int64_t *v)
{
	int rc;

	*v = cp_db_query_int(db->h, sql, 0, &rc);
	return rc ? cp_db_fail(db, CP_DB_EIO, "cannot read the run") : 0;
}

int cp_db_count_compared(struct cp_db *db, uint64_t *n)
{
	int64_t v;
	int ret = cp_db_view_int(db, "SELECT count(*)" CP_DB_COMPARED, &v);

	*n = (uint64_t)v;
	return ret;
}

/* Every step-th of the compared rows: rowid order is insertion order,
 * rank by rank, so the sample spreads over ranks and time. */
static const char cp_db_cmp_sql[] =
	"SELECT c.op, o.name, c.bytes, c.t_transfer_ns"
	CP_MODEL_MAP(CP_DB_COL_CPRED)
	" FROM (SELECT c.rowid r, row_number() OVER"
	" (ORDER BY c.rowid) - 1 k" CP_DB_COMPARED ") s"
	" JOIN calls c ON c.rowid = s.r JOIN ops o ON o.id = c.op"
	" WHERE s.k % ?1 = 0 ORDER BY c.rowid";

static int cp_db_cmp_row(sqlite3_stmt *st, const struct cp_db_walk *w)
{
	struct cp_db_cmp c;
	int i;

	c.op = (int32_t)cp_db_col(st, 0, -1);
	c.op_name = (const char *)sqlite3_column_text(st, 1);
	c.bytes = (uint64_t)cp_db_col(st, 2, 0);
	c.t_transfer_ns = cp_db_col(st, 3, -1);
	for (i = 0; i < CP_NMODELS; i++)
		c.pred_ns[i] = cp_db_real(st, 4 + i);
	return w->fn.cmp(w->arg, &c);
}

int cp_db_each_compared(struct cp_db *db, uint64_t step,
			int (*fn)(void *arg, const struct cp_db_cmp *c),
			void *arg)
{
	struct cp_db_walk w = { .fn.cmp = fn, .arg = arg };
	int64_t b = step ? (int64_t)step : 1;

	return cp_db_walk(db, cp_db_cmp_sql, &b, 1, cp_db_cmp_row, &w);
}

int cp_db_get_span(struct cp_db *db, int64_t *end_ns)
{
	return cp_db_view_int(db, "SELECT coalesce(max(t_start_ns +"
			      " t_measured_ns), 0) FROM calls", end_ns);
}

/* SQLite takes the bare columns of a max() aggregate from the row that
 * holds the maximum: the longest call of each (rank, bin). */
static const char cp_db_tl_sql[] =
	"SELECT c.rank, c.op, o.name, c.t_start_ns, max(c.t_measured_ns)"
	" FROM calls c JOIN ops o ON o.id = c.op"
	" WHERE c.rank % ?2 = 0 AND o.kind NOT IN ('nonblocking',"
	" 'persistent')"
	" GROUP BY c.rank, c.t_start_ns / ?1"
	" ORDER BY c.rank, c.t_start_ns / ?1";

static int cp_db_tl_row(sqlite3_stmt *st, const struct cp_db_walk *w)
{
	struct cp_db_tl t;

	t.rank = (int32_t)cp_db_col(st, 0, -1);
	t.op = (int32_t)cp_db_col(st, 1, -1);
	t.op_name = (const char *)sqlite3_column_text(st, 2);
	t.t_start_ns = cp_db_col(st, 3, 0);
	t.t_measured_ns = cp_db_col(st, 4, 0);
	return w->fn.tl(w->arg, &t);
}

int cp_db_each_tl(struct cp_db *db, int64_t bin_ns, int32_t rank_step,
		  int (*fn)(void *arg, const struct cp_db_tl *t), void *arg)
{
	struct cp_db_walk w = { .fn.tl = fn, .arg = arg };
	int64_t b[2] = { bin_ns > 0 ? bin_ns : 1,
			 rank_step > 0 ? rank_step : 1 };

	return cp_db_walk(db, cp_db_tl_sql, b, 2, cp_db_tl_row, &w);
}
