/*
 * cli_coll.c - the report's collective sections (src/cli/cli_views.h),
 * from the reduction of the run: accuracy per operation, size class and
 * algorithm (the algorithm of Open MPI's coll/tuned that the library
 * decided for each call and priced, as its rows hold it), with the calls'
 * median t_transfer and entry skew t_wait; and the worst-predicted
 * collective calls.  A collective whose ranks arrived further apart than
 * the collective then took is flagged: a model of the transfer cannot
 * predict waiting for a late rank, and the matching measures from the
 * last arrival on.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_coll.h"
#include "analysis/cp_hist.h"
#include "src/cli/cli.h"
#include "src/cli/cli_views.h"
#include "src/common/cp_row.h"
#include "src/reduce/cp_red.h"

/* The histograms of one (function, size class, algorithm) group. */
struct cgroup {
	int64_t key;		/* CP_RED_COLL_KEY */
	int fn;			/* cp_coll_fn of its op */
	enum cp_coll_op op;
	const char *name;	/* its MPI function */
	const struct cp_hist *mu[CP_NMODELS];	/* NULL none */
	const struct cp_hist *t[2];	/* t_transfer, t_wait (ns + 1) */
};

/* The name of op id op, NULL unknown. */
static const char *op_name(char *const *ops, size_t nops, int32_t op)
{
	return op >= 0 && (size_t)op < nops ? ops[op] : NULL;
}

/* The group of key in v[0..*n), added when new (v holds room). */
static struct cgroup *group_of(struct cgroup *v, size_t *n, int64_t key)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (v[i].key == key)
			return &v[i];
	memset(&v[*n], 0, sizeof(v[*n]));
	v[*n].key = key;
	return &v[(*n)++];
}

static int by_group(const void *pa, const void *pb)
{
	const struct cgroup *a = pa, *b = pb;
	int32_t ca = CP_RED_COLL_CLS(a->key), cb = CP_RED_COLL_CLS(b->key);
	int aa = CP_RED_COLL_ALG(a->key), ab = CP_RED_COLL_ALG(b->key);

	if (a->fn != b->fn)
		return a->fn - b->fn;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	return aa - ab;
}

const char *cp_cli_alg(const char *fn, int alg)
{
	enum cp_coll_op op;

	if (alg <= 0 || cp_coll_fn(fn, &op) < 0)
		return NULL;
	return cp_coll_alg_name(op, alg);
}

static const char *alg_label(const char *fn, int alg, char *buf, size_t len)
{
	const char *a = cp_cli_alg(fn, alg);
	enum cp_coll_op op;

	if (!a && !alg)	/* the row holds none (src/lib/cp_pred_rt.h) */
		snprintf(buf, len, "(not known)");
	else if (!a)
		snprintf(buf, len, "?");
	else if (cp_coll_fn(fn, &op) >= 0 && !cp_coll_alg_modelled(op, alg))
		snprintf(buf, len, "%s (not modelled)", a);
	else
		snprintf(buf, len, "%s", a);
	return buf;
}

/* The median of h, NAN when h is empty; less off when h holds a time
 * plus 1. */
static double hist_median(const struct cp_hist *h, double off)
{
	static const double half = 0.5;
	double q;

	if (!h || !h->n || cp_hist_quantiles(h, &half, 1, &q))
		return NAN;
	return q - off;
}

const char *const cp_cli_coll_cols[CP_CLI_COLL_NCOLS] = {
	"op", "size", "algorithm", "model", "rows", "mu_bar", "median",
	"t_transfer", "t_wait", "best", "note" };
const char *const cp_cli_coll_heads[CP_CLI_COLL_NCOLS] = {
	"op", "size", "algorithm", "model", "rows", "mu_bar", "median",
	"t_transfer", "t_wait", "best", "" };

/* The lines of group g: its models, best mean first marked. */
static void group_lines(struct cp_cli_tab *t, const struct cgroup *g)
{
	double mean[CP_NMODELS], med_t, med_w;
	char cls[48], alg[96];
	int k, best = -1, first = 1;

	for (k = 0; k < CP_NMODELS; k++) {
		const struct cp_hist *h = g->mu[k];

		mean[k] = h && h->n ? h->sum / (double)h->n : NAN;
		if (h && h->n && (best < 0 || mean[k] < mean[best]))
			best = k;
	}
	med_t = hist_median(g->t[0], 1);
	med_w = hist_median(g->t[1], 1);
	cp_row_size_label(CP_RED_COLL_CLS(g->key), cls, sizeof(cls));
	alg_label(g->name, CP_RED_COLL_ALG(g->key), alg, sizeof(alg));
	for (k = 0; k < CP_NMODELS; k++) {
		if (!g->mu[k] || !g->mu[k]->n)
			continue;
		cp_cli_tab_row(t);
		cp_cli_put_str(t, 0, g->name);
		cp_cli_put_str(t, 1, cls);
		cp_cli_put_str(t, 2, alg);
		if (!first) {	/* text: the group once, its models under */
			cp_cli_put_hide(t, 0);
			cp_cli_put_hide(t, 1);
			cp_cli_put_hide(t, 2);
		}
		cp_cli_put_str(t, 3, cp_model_name(k));
		cp_cli_put_int(t, 4, (int64_t)g->mu[k]->n);
		cp_cli_put_num(t, 5, mean[k], "%.3f");
		cp_cli_put_num(t, 6, hist_median(g->mu[k], 0), "%.3f");
		cp_cli_put_time(t, 7, med_t);
		cp_cli_put_time(t, 8, med_w);
		cp_cli_put_bool(t, 9, k == best, "*");
		cp_cli_put_str(t, 10, first && med_w > med_t ? "skew" : "");
		first = 0;
	}
}

/* Put histogram a of the reduction into its group of v (room for every
 * collective histogram), or leave it when it is of no such group. */
static void group_add(struct cgroup *v, size_t *n, const struct cp_red_acc *a,
		      char *const *ops, size_t nops)
{
	struct cgroup *g;
	enum cp_coll_op op;
	int fn;

	if (a->model < 0 || (a->grp != CP_RED_G_COLL &&
			     a->grp != CP_RED_G_CTIME))
		return;
	fn = cp_coll_fn(op_name(ops, nops, CP_RED_COLL_OP(a->key)), &op);
	if (fn < 0)
		return;
	g = group_of(v, n, a->key);
	g->fn = fn;
	g->op = op;
	g->name = ops[CP_RED_COLL_OP(a->key)];
	if (a->grp == CP_RED_G_COLL && a->model < CP_NMODELS)
		g->mu[a->model] = &a->h;
	else if (a->model == CP_SUM_T_TRANSFER)
		g->t[0] = &a->h;
	else if (a->model == CP_SUM_T_WAIT)
		g->t[1] = &a->h;
}

const char *const cp_cli_cworst_cols[CP_CLI_CWORST_NCOLS] = {
	"rank", "op", "bytes", "algorithm", "t_transfer", "t_wait",
	"pred_taulop", "mu_taulop", "note" };
const char *const cp_cli_cworst_heads[CP_CLI_CWORST_NCOLS] = {
	"rank", "op", "bytes", "algorithm", "t_transfer", "t_wait",
	"tau-Lop", "mu", "" };

/* The top worst collective calls, kept worst first, each call once. */
static void worst_lines(struct cp_cli_tab *t, const struct cp_red_sum *s,
			char *const *ops, size_t nops, size_t top)
{
	const struct cp_sum_worst *w;
	const char *name;
	enum cp_coll_op op;
	char alg[96];
	size_t i;

	for (i = 0; i < s->ncworst && i < top; i++) {
		w = &s->cworst[i];
		name = op_name(ops, nops, w->op);
		if (cp_coll_fn(name, &op) < 0)
			continue;
		cp_cli_tab_row(t);
		cp_cli_put_int(t, 0, w->rank);
		cp_cli_put_str(t, 1, name);
		cp_cli_put_int(t, 2, (int64_t)w->bytes);
		cp_cli_put_str(t, 3, alg_label(name, w->alg, alg, sizeof(alg)));
		cp_cli_put_time(t, 4, (double)w->t_transfer_ns);
		cp_cli_put_time(t, 5, w->t_wait_ns < 0 ? NAN :
				(double)w->t_wait_ns);
		cp_cli_put_time(t, 6, w->pred_ns);
		cp_cli_put_num(t, 7, w->mu, "%.3f");
		cp_cli_put_str(t, 8, w->t_wait_ns > w->t_transfer_ns ?
			       "skew" : "");
	}
}

int cp_cli_coll_tabs(const struct cp_red_sum *s, char *const *ops,
		     size_t nops, size_t top, struct cp_cli_tab *acc,
		     struct cp_cli_tab *worst)
{
	struct cgroup *v;
	size_t i, n = 0, cap = 1;

	for (i = 0; s->acc && i <= s->maskacc; i++)
		if (s->acc[i].model >= 0 && (s->acc[i].grp == CP_RED_G_COLL ||
					     s->acc[i].grp == CP_RED_G_CTIME))
			cap++;
	v = malloc(cap * sizeof(*v));
	if (!v)
		return 1;
	for (i = 0; s->acc && i <= s->maskacc; i++)
		group_add(v, &n, &s->acc[i], ops, nops);
	if (n)
		qsort(v, n, sizeof(*v), by_group);
	for (i = 0; i < n; i++)
		group_lines(acc, &v[i]);
	free(v);
	cp_cli_tab_note(acc, "matched collective calls; algorithm: the one "
			"the library decided for Open MPI and priced; mu over "
			"every rank's row of a call; t_transfer, t_wait: "
			"medians; skew: the ranks arrived further apart "
			"(t_wait) than the call then took, time spent "
			"waiting for a late rank, which no model of the "
			"transfer predicts");
	worst_lines(worst, s, ops, nops, top);
	cp_cli_tab_note(worst, "by tau-Lop's mu, each call once; skew: "
			"t_wait > t_transfer");
	return 0;
}
