/*
 * cli_ranks.c - load balance in "commprof report": per rank, its MPI time
 * and share (mpiP's task statistics), and per callsite the least, mean and
 * most MPI time a rank spent there (mpiP's callsite statistics), so that
 * a rank that waits for the others shows.  From the aggregates, complete
 * even when call rows were limited.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/cp_db_read.h"
#include "src/cli/cli_views.h"

const char *const cp_cli_ranks_cols[CP_CLI_RANKS_NCOLS] = {
	"rank", "app_time", "mpi_time", "pct_app", "calls", "bytes_sent" };
const char *const cp_cli_ranks_heads[CP_CLI_RANKS_NCOLS] = {
	"rank", "app time", "MPI time", "%app", "calls", "bytes sent" };
const char *const cp_cli_rsite_cols[CP_CLI_RSITE_NCOLS] = {
	"site", "function", "op", "ranks", "min", "min_rank", "mean", "max",
	"max_rank", "max_over_mean" };
const char *const cp_cli_rsite_heads[CP_CLI_RSITE_NCOLS] = {
	"site", "function", "op", "ranks", "min", "rank", "mean", "max",
	"rank", "max/mean" };

static int cp_cli_rank_add(void *arg, const struct cp_db_rank_total *r)
{
	struct cp_cli_tab *t = arg;
	int64_t whole = r->app_time_ns;

	/* MPI time is summed over threads: a share of app time x threads */
	if (whole > 0 && r->threads > 1)
		whole *= r->threads;
	cp_cli_tab_row(t);
	cp_cli_put_int(t, 0, r->rank);
	cp_cli_put_time(t, 1, r->app_time_ns >= 0 ? (double)r->app_time_ns :
			NAN);
	cp_cli_put_time(t, 2, (double)r->mpi_time_ns);
	cp_cli_put_num(t, 3, whole > 0 ? cp_cli_pct(r->mpi_time_ns, whole) :
		       NAN, "%.2f");
	cp_cli_put_int(t, 4, (int64_t)r->calls);
	cp_cli_put_int(t, 5, (int64_t)r->bytes);
	return t->oom;
}

/* MPI time of one rank at one callsite. */
struct cp_cli_rs {
	const char *site, *func;	/* site cache */
	char op[64];
	int32_t rank;
	int64_t time_ns;
};

struct cp_cli_rss {
	struct cp_cli_sites *sites;
	struct cp_cli_rs *v;
	size_t n, cap;
};

static int cp_cli_rs_add(void *arg, const struct cp_db_site_total *t)
{
	struct cp_cli_rss *s = arg;
	struct cp_cli_rs *r;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		r = realloc(s->v, s->cap * sizeof(*r));
		if (!r)
			return 1;
		s->v = r;
	}
	r = &s->v[s->n];
	if (cp_cli_site_get(s->sites, t->mod_path, t->mod_base, t->site,
			    &r->site, &r->func))
		return 1;
	s->n++;
	r->site = r->site ? r->site : "(unknown)";
	r->func = r->func ? r->func : "";
	if (t->op_name)
		snprintf(r->op, sizeof(r->op), "%s", t->op_name);
	else
		snprintf(r->op, sizeof(r->op), "op%d", (int)t->op);
	r->rank = t->rank;
	r->time_ns = t->time_ns;
	return 0;
}

static int cp_cli_rs_key(const struct cp_cli_rs *a, const struct cp_cli_rs *b)
{
	int c = strcmp(a->site, b->site);

	if (!c)
		c = strcmp(a->func, b->func);
	return c ? c : strcmp(a->op, b->op);
}

static int cp_cli_rs_cmp(const void *pa, const void *pb)
{
	const struct cp_cli_rs *a = pa, *b = pb;
	int c = cp_cli_rs_key(a, b);

	return c ? c : (a->rank > b->rank) - (a->rank < b->rank);
}

/* One callsite over its ranks. */
struct cp_cli_rstat {
	const struct cp_cli_rs *first;	/* site, func, op */
	size_t ranks;
	int64_t sum_ns;
	const struct cp_cli_rs *min, *max;
};

static int cp_cli_rstat_cmp(const void *pa, const void *pb)
{
	const struct cp_cli_rstat *a = pa, *b = pb;

	if (a->sum_ns != b->sum_ns)
		return a->sum_ns > b->sum_ns ? -1 : 1;
	return cp_cli_rs_key(a->first, b->first);
}

/* Group v (sorted by key, then rank) into g; the entries of one rank at
 * one callsite text (several addresses) are summed in place.  Returns
 * the number of groups. */
static size_t cp_cli_rs_group(struct cp_cli_rs *v, size_t n,
			      struct cp_cli_rstat *g)
{
	size_t i, k = 0, ng = 0;

	for (i = 0; i < n; i++) {
		if (k && !cp_cli_rs_cmp(&v[k - 1], &v[i]))
			v[k - 1].time_ns += v[i].time_ns;
		else
			v[k++] = v[i];
	}
	for (i = 0; i < k; i++) {
		if (!ng || cp_cli_rs_key(g[ng - 1].first, &v[i])) {
			memset(&g[ng], 0, sizeof(g[ng]));
			g[ng].first = g[ng].min = g[ng].max = &v[i];
			ng++;
		}
		g[ng - 1].ranks++;
		g[ng - 1].sum_ns += v[i].time_ns;
		if (v[i].time_ns < g[ng - 1].min->time_ns)
			g[ng - 1].min = &v[i];
		if (v[i].time_ns > g[ng - 1].max->time_ns)
			g[ng - 1].max = &v[i];
	}
	return ng;
}

static void cp_cli_rstat_put(struct cp_cli_tab *t,
			     const struct cp_cli_rstat *g)
{
	double mean = (double)g->sum_ns / (double)g->ranks;

	cp_cli_tab_row(t);
	cp_cli_put_str(t, 0, g->first->site);
	cp_cli_put_str(t, 1, g->first->func);
	cp_cli_put_str(t, 2, g->first->op);
	cp_cli_put_int(t, 3, (int64_t)g->ranks);
	cp_cli_put_time(t, 4, (double)g->min->time_ns);
	cp_cli_put_int(t, 5, g->min->rank);
	cp_cli_put_time(t, 6, mean);
	cp_cli_put_time(t, 7, (double)g->max->time_ns);
	cp_cli_put_int(t, 8, g->max->rank);
	cp_cli_put_num(t, 9, mean > 0 ? (double)g->max->time_ns / mean : NAN,
		       "%.2f");
}

static int cp_cli_rsites(struct cp_db *db, struct cp_cli_sites *sites,
			 size_t top, struct cp_cli_tab *t)
{
	struct cp_cli_rss s = { .sites = sites };
	struct cp_cli_rstat *g = NULL;
	size_t i, ng = 0;
	int ret;

	ret = cp_db_each_site(db, cp_cli_rs_add, &s);
	if (!ret && s.n) {
		g = malloc(s.n * sizeof(*g));
		ret = g ? 0 : 1;
	}
	if (!ret && s.n) {
		qsort(s.v, s.n, sizeof(*s.v), cp_cli_rs_cmp);
		ng = cp_cli_rs_group(s.v, s.n, g);
		qsort(g, ng, sizeof(*g), cp_cli_rstat_cmp);
	}
	for (i = 0; !ret && i < ng && i < top; i++)
		cp_cli_rstat_put(t, &g[i]);
	if (!ret)
		cp_cli_tab_note(t, ng ? "the callsites with the most MPI time: "
				"a rank's MPI time there, least, mean and most "
				"over the ranks that called it; max/mean far "
				"above 1: the ranks are out of balance" :
				"no calls recorded");
	free(g);
	free(s.v);
	return ret ? ret : t->oom;
}

int cp_cli_ranks_tabs(struct cp_db *db, struct cp_cli_sites *s, size_t top,
		      struct cp_cli_tab *rk, struct cp_cli_tab *st)
{
	int ret;

	ret = cp_db_each_rank_total(db, cp_cli_rank_add, rk);
	if (ret)
		return ret;
	cp_cli_tab_note(rk, "MPI time per rank, summed over its threads; "
			"%app: of its app time (x threads when it made MPI "
			"calls from several)");
	return cp_cli_rsites(db, s, top, st);
}
