/*
 * cli_summary.c - "commprof summary DIR [--top N]": an mpiP-like profile
 * from the aggregates (complete even when call rows were limited, sampled
 * or dropped): run totals, the callsites with the most MPI time, and
 * totals per class of call and per function.  Callsites of different ranks that resolve to the
 * same text are one callsite.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/cp_db_read.h"
#include "src/cli/cli.h"

struct cp_cli_summary {
	struct cp_cli_line *v;
	size_t n;
};

static void cp_cli_print_line(const struct cp_cli_line *l, int64_t mpi_ns)
{
	printf("%-18s %12" PRIu64 " %14" PRIu64 " %12.3f %7.2f %12.3f\n",
	       l->op, l->count, l->bytes, l->time_ns / 1e6,
	       cp_cli_pct(l->time_ns, mpi_ns),
	       l->count ? l->time_ns / 1e3 / l->count : 0.0);
}

/* MPI time is summed over a rank's threads, so its share is of app time
 * x threads (as mpiP's per-task MPI%, which never exceeds 100): say so
 * when a rank made MPI calls from more than one thread. */
static void cp_cli_print_threads(const struct cp_db_totals *t)
{
	if (t->threads_max <= 1)
		return;
	if (t->threads_min == t->threads_max)
		printf("threads:    %d per rank made MPI calls; MPI time is "
		       "summed over them\n", (int)t->threads_max);
	else
		printf("threads:    %d to %d per rank made MPI calls; MPI time "
		       "is summed over them\n", (int)t->threads_min,
		       (int)t->threads_max);
}

static void cp_cli_print_totals(const char *dir, const struct cp_db_totals *t)
{
	printf("commprof summary of %s\n", dir);
	printf("ranks:      %d\n", (int)t->ranks);
	if (t->app_time_ns >= 0)
		printf("app time:   %.6f s (summed over ranks)\n",
		       t->app_time_ns / 1e9);
	else
		printf("app time:   unknown\n");
	cp_cli_print_threads(t);
	printf("MPI time:   %.6f s", t->mpi_time_ns / 1e9);
	if (t->thread_time_ns > 0)
		printf(" (%.2f%% of app time%s)",
		       cp_cli_pct(t->mpi_time_ns, t->thread_time_ns),
		       t->threads_max > 1 ? " x threads" : "");
	printf("\ncalls:      %" PRIu64 "\n", t->calls);
	printf("bytes:      %" PRIu64 "\n", t->bytes);
	printf("call rows:  %" PRIu64 " stored, %" PRIu64 " dropped (buffer "
	       "full), %" PRIu64 " not kept (row limit or sampling), %" PRIu64
	       " lost (disk full); rows, not calls: a Sendrecv has two\n",
	       t->rows_stored, t->rows_dropped, t->rows_not_kept,
	       t->rows_lost_disk);
}

static void cp_cli_print_sites(const struct cp_cli_summary *s, size_t top,
			       int64_t mpi_ns)
{
	size_t i;

	printf("\nTop callsites by MPI time\n");
	printf("%-24s %-20s %-18s %12s %14s %12s %7s %12s\n", "site",
	       "function", "op", "calls", "bytes", "time(ms)", "%mpi",
	       "avg(us)");
	for (i = 0; i < s->n && i < top; i++) {
		printf("%-24s %-20s ", s->v[i].site, s->v[i].func);
		cp_cli_print_line(&s->v[i], mpi_ns);
	}
}

/* The lines summed by class (p2p, coll, rma, io, ...) from a copy of
 * them.  Returns 0, or 1 when out of memory. */
static int cp_cli_print_classes(const struct cp_cli_summary *s,
				int64_t mpi_ns)
{
	struct cp_cli_line *v = malloc((s->n ? s->n : 1) * sizeof(*v));
	size_t i, n;

	if (!v)
		return 1;
	for (i = 0; i < s->n; i++) {
		v[i] = s->v[i];
		v[i].site = v[i].func = "";
		snprintf(v[i].op, sizeof(v[i].op), "%s", v[i].cls);
	}
	n = cp_cli_lines_merge(v, s->n);
	printf("\nPer-class totals\n");
	printf("%-18s %12s %14s %12s %7s %12s\n", "class", "calls", "bytes",
	       "time(ms)", "%mpi", "avg(us)");
	for (i = 0; i < n; i++)
		cp_cli_print_line(&v[i], mpi_ns);
	free(v);
	return 0;
}

static void cp_cli_print_ops(struct cp_cli_summary *s, int64_t mpi_ns)
{
	size_t i, n;

	for (i = 0; i < s->n; i++)
		s->v[i].site = s->v[i].func = "";
	n = cp_cli_lines_merge(s->v, s->n);
	printf("\nPer-op totals\n");
	printf("%-18s %12s %14s %12s %7s %12s\n", "op", "calls", "bytes",
	       "time(ms)", "%mpi", "avg(us)");
	for (i = 0; i < n; i++)
		cp_cli_print_line(&s->v[i], mpi_ns);
}

/* Parse "DIR [--top N]"; returns 0 or CP_CLI_USAGE. */
static int cp_cli_summary_parse(int argc, char **argv, const char **dir,
				size_t *top)
{
	char *end;
	int i;

	*dir = NULL;
	*top = 20;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--top") && i + 1 < argc) {
			*top = strtoul(argv[++i], &end, 10);
			if (*end || !*argv[i] || argv[i][0] == '-') {
				cp_cli_err("summary: bad --top '%s'", argv[i]);
				return CP_CLI_USAGE;
			}
		} else if (argv[i][0] == '-' || *dir) {
			return cp_cli_bad_arg("summary", argv[i], " --top ");
		} else {
			*dir = argv[i];
		}
	}
	if (*dir)
		return 0;
	cp_cli_err("summary: missing DIR; try 'commprof --help'");
	return CP_CLI_USAGE;
}

int cp_cli_summary(int argc, char **argv)
{
	struct cp_cli_summary s = { 0 };
	struct cp_cli_sites *sites;
	struct cp_db_totals t;
	struct cp_db *db;
	const char *dir;
	int ret;
	size_t top;

	ret = cp_cli_summary_parse(argc, argv, &dir, &top);
	if (ret)
		return ret;
	if (cp_cli_open(&dir, &db))
		return CP_CLI_FAIL;
	ret = CP_CLI_FAIL;
	sites = cp_cli_sites_new(db);
	if (!sites) {
		cp_cli_err("out of memory");
		goto out_close;
	}
	ret = cp_db_get_totals(db, &t);
	if (!ret)
		ret = cp_cli_lines_get(db, sites, &s.v, &s.n);
	if (ret) {
		cp_cli_err("%s", ret < 0 ? cp_db_errmsg(db) : "out of memory");
		ret = CP_CLI_FAIL;
		goto out_close;
	}
	cp_cli_print_totals(dir, &t);
	cp_cli_print_sites(&s, top, t.mpi_time_ns);
	if (cp_cli_print_classes(&s, t.mpi_time_ns)) {
		cp_cli_err("out of memory");
		ret = CP_CLI_FAIL;
		goto out_close;
	}
	cp_cli_print_ops(&s, t.mpi_time_ns);
	ret = fflush(stdout) ? CP_CLI_FAIL : CP_CLI_OK;
	if (ret)
		cp_cli_err("cannot write standard output");
out_close:
	free(s.v);
	cp_cli_sites_free(sites);
	cp_db_close(db);
	return ret;
}
