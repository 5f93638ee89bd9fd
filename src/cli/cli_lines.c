/*
 * cli_lines.c - the callsite table that "commprof summary" and "commprof
 * report" both print: the aggregates per (callsite, function, op), so
 * that the two commands show the same numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/cp_db_read.h"
#include "src/cli/cli.h"
#include "src/common/cp_row.h"

/* Lines being collected from the aggregates. */
struct cp_cli_lines {
	struct cp_cli_sites *sites;
	struct cp_cli_line *v;
	size_t n, cap;
};

static int cp_cli_lines_add(void *arg, const struct cp_db_site_total *t)
{
	struct cp_cli_lines *s = arg;
	struct cp_cli_line *l;
	const char *site, *func;

	if (cp_cli_site_get(s->sites, t->mod_path, t->mod_base, t->site,
			    &site, &func))
		return 1;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		l = realloc(s->v, s->cap * sizeof(*l));
		if (!l)
			return 1;
		s->v = l;
	}
	l = &s->v[s->n++];
	l->site = site ? site : "(unknown)";
	l->func = func ? func : "";
	cp_row_op_name(l->op, sizeof(l->op), t->op_name, t->op);
	snprintf(l->cls, sizeof(l->cls), "%s",
		 t->op_class ? t->op_class : "other");
	l->count = t->count;
	l->bytes = t->bytes;
	l->time_ns = t->time_ns;
	return 0;
}

static int cp_cli_by_key(const void *pa, const void *pb)
{
	const struct cp_cli_line *a = pa, *b = pb;
	int c = strcmp(a->site, b->site);

	if (!c)
		c = strcmp(a->func, b->func);
	return c ? c : strcmp(a->op, b->op);
}

/* Most time first; ties by key so the output is deterministic. */
static int cp_cli_by_time(const void *pa, const void *pb)
{
	const struct cp_cli_line *a = pa, *b = pb;

	if (a->time_ns != b->time_ns)
		return a->time_ns > b->time_ns ? -1 : 1;
	return cp_cli_by_key(pa, pb);
}

size_t cp_cli_lines_merge(struct cp_cli_line *v, size_t n)
{
	size_t i, k = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cp_cli_by_key);
	for (i = 0; i < n; i++) {
		if (k && !cp_cli_by_key(&v[k - 1], &v[i])) {
			v[k - 1].count += v[i].count;
			v[k - 1].bytes += v[i].bytes;
			v[k - 1].time_ns += v[i].time_ns;
		} else {
			v[k++] = v[i];
		}
	}
	qsort(v, k, sizeof(*v), cp_cli_by_time);
	return k;
}

int cp_cli_lines_get(struct cp_db *db, struct cp_cli_sites *s,
		     struct cp_cli_line **v, size_t *n)
{
	struct cp_cli_lines l = { .sites = s };
	int ret;

	*v = NULL;
	*n = 0;
	ret = cp_db_each_site(db, cp_cli_lines_add, &l);
	if (ret) {
		free(l.v);
		return ret;
	}
	*n = cp_cli_lines_merge(l.v, l.n);
	*v = l.v;
	return 0;
}

double cp_cli_pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}
