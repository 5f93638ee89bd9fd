/*
 * cli_coll.c - the report's collective sections (src/cli/cli_views.h):
 * accuracy per operation, size class and algorithm (the algorithm Open
 * MPI ran, decided from the call as the library did, under the run's
 * coll_mca settings), with the calls' median t_transfer and entry skew
 * t_wait; and the worst-predicted collective calls.  A collective whose
 * ranks arrived further apart than the collective then took is flagged:
 * a model of the transfer cannot predict waiting for a late rank, and
 * the matching measures from the last arrival on.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_coll.h"
#include "db/cp_db_read.h"
#include "src/cli/cli.h"
#include "src/cli/cli_views.h"
#include "src/common/cp_row.h"

/* MPI functions priced as a collective of analysis/cp_coll.h. */
static const struct {
	const char *name;
	enum cp_coll_op op;
} coll_fns[] = {
	{ "MPI_Barrier", CP_COLL_BARRIER }, { "MPI_Ibarrier", CP_COLL_BARRIER },
	{ "MPI_Bcast", CP_COLL_BCAST }, { "MPI_Ibcast", CP_COLL_BCAST },
	{ "MPI_Reduce", CP_COLL_REDUCE }, { "MPI_Ireduce", CP_COLL_REDUCE },
	{ "MPI_Allreduce", CP_COLL_ALLREDUCE },
	{ "MPI_Iallreduce", CP_COLL_ALLREDUCE },
	{ "MPI_Allgather", CP_COLL_ALLGATHER },
	{ "MPI_Iallgather", CP_COLL_ALLGATHER },
	{ "MPI_Alltoall", CP_COLL_ALLTOALL },
	{ "MPI_Ialltoall", CP_COLL_ALLTOALL },
	{ "MPI_Gather", CP_COLL_GATHER }, { "MPI_Igather", CP_COLL_GATHER },
	{ "MPI_Scatter", CP_COLL_SCATTER }, { "MPI_Iscatter", CP_COLL_SCATTER },
	{ "MPI_Reduce_scatter_block", CP_COLL_REDUCE_SCATTER_BLOCK },
	{ "MPI_Ireduce_scatter_block", CP_COLL_REDUCE_SCATTER_BLOCK },
};

#define NFN (sizeof(coll_fns) / sizeof(coll_fns[0]))

/* One compared collective row. */
struct crow {
	int fn;			/* index into coll_fns */
	int32_t cls;		/* size class of the block */
	int alg;		/* Open MPI algorithm, < 0 unknown */
	int32_t rank;
	uint32_t comm;
	uint64_t bytes;
	int64_t t_transfer_ns, t_wait_ns;
	double pred_ns[CP_NMODELS];
	double mu[CP_NMODELS];
};

struct coll_ctx {
	struct cp_coll_mca mca;
	struct crow *v;
	size_t n, cap;
	bool oom;
};

static int fn_of(const char *name)
{
	size_t i;

	for (i = 0; name && i < NFN; i++)
		if (!strcmp(coll_fns[i].name, name))
			return (int)i;
	return -1;
}

/* Stops the walk of the aggregates at a collective that has rows. */
static int coll_site(void *arg, const struct cp_db_site_total *s)
{
	(void)arg;
	return fn_of(s->op_name) >= 0 && s->rows > 0;
}

static int add_row(void *arg, const struct cp_db_row *r)
{
	struct coll_ctx *x = arg;
	struct cp_coll_call c = { 0 };
	struct crow *w;
	int fn = fn_of(r->op_name), k;

	if (fn < 0 || r->t_transfer_ns < 0)
		return 0;
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 256;
		struct crow *v = realloc(x->v, cap * sizeof(*v));

		if (!v) {
			x->oom = true;
			return 1;
		}
		x->v = v;
		x->cap = cap;
	}
	w = &x->v[x->n++];
	w->fn = fn;
	w->cls = cp_row_size_class(r->call.bytes);
	w->rank = r->rank;
	w->comm = r->call.comm_id;
	w->bytes = r->call.bytes;
	w->t_transfer_ns = r->t_transfer_ns;
	w->t_wait_ns = r->t_wait_ns;
	for (k = 0; k < CP_NMODELS; k++) {
		w->pred_ns[k] = r->call.pred_ns[k];
		w->mu[k] = r->mu[k];
	}
	c.op = coll_fns[fn].op;
	c.nprocs = r->call.comm_size;
	c.count = (int64_t)r->call.count;
	c.type_bytes = r->call.count ? (double)r->call.bytes /
		       (double)r->call.count : 0;
	c.commute = true;
	w->alg = c.nprocs >= 1 ? cp_coll_decide(&c, &x->mca) : -1;
	return 0;
}

static int by_group(const void *pa, const void *pb)
{
	const struct crow *a = pa, *b = pb;

	if (a->fn != b->fn)
		return a->fn - b->fn;
	if (a->cls != b->cls)
		return a->cls - b->cls;
	return a->alg - b->alg;
}

static int cmp_dbl(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Median of x[0..n) (sorted in place), NAN when n is 0. */
static double median(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(double), cmp_dbl);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static const char *alg_label(const struct crow *w, char *buf, size_t len)
{
	const char *a = w->alg > 0 ? cp_coll_alg_name(coll_fns[w->fn].op,
						      w->alg) : NULL;

	if (!a)
		snprintf(buf, len, "?");
	else if (!cp_coll_alg_modelled(coll_fns[w->fn].op, w->alg))
		snprintf(buf, len, "%s (not modelled)", a);
	else
		snprintf(buf, len, "%s", a);
	return buf;
}

const char *const cp_cli_coll_cols[CP_CLI_COLL_NCOLS] = {
	"op", "size", "algorithm", "model", "rows", "mu_bar", "median",
	"t_transfer", "t_wait", "best", "note" };
const char *const cp_cli_coll_heads[CP_CLI_COLL_NCOLS] = {
	"op", "size", "algorithm", "model", "rows", "mu_bar", "median",
	"t_transfer", "t_wait", "best", "" };

/* The lines of one group v[0..n) (same function, class, algorithm).
 * A group holds a row per rank and call, millions in a large run: its
 * scratch is on the heap.  Non-zero when out of memory. */
static int group_lines(struct cp_cli_tab *t, const struct crow *v,
		       size_t n)
{
	double *tt = malloc(3 * n * sizeof(*tt)), *tw = tt + n, *mu = tw + n;
	double mean[CP_NMODELS], med_t, med_w;
	size_t i, nw = 0, m[CP_NMODELS];
	char cls[48], alg[96];
	int k, best = -1, first = 1;
	bool skew;

	if (!tt)
		return 1;
	for (i = 0; i < n; i++) {
		tt[i] = (double)v[i].t_transfer_ns;
		if (v[i].t_wait_ns >= 0)
			tw[nw++] = (double)v[i].t_wait_ns;
	}
	med_t = median(tt, n);
	med_w = median(tw, nw);
	skew = med_w > med_t;
	for (k = 0; k < CP_NMODELS; k++) {
		double s = 0;

		for (i = 0, m[k] = 0; i < n; i++)
			if (!isnan(v[i].mu[k])) {
				s += v[i].mu[k];
				m[k]++;
			}
		mean[k] = m[k] ? s / (double)m[k] : NAN;
		if (m[k] && (best < 0 || mean[k] < mean[best]))
			best = k;
	}
	cp_row_size_label(v[0].cls, cls, sizeof(cls));
	for (k = 0; k < CP_NMODELS; k++) {
		size_t j = 0;

		if (!m[k])
			continue;
		for (i = 0; i < n; i++)
			if (!isnan(v[i].mu[k]))
				mu[j++] = v[i].mu[k];
		cp_cli_tab_row(t);
		cp_cli_put_str(t, 0, coll_fns[v[0].fn].name);
		cp_cli_put_str(t, 1, cls);
		cp_cli_put_str(t, 2, alg_label(&v[0], alg, sizeof(alg)));
		if (!first) {	/* text: the group once, its models under */
			cp_cli_put_hide(t, 0);
			cp_cli_put_hide(t, 1);
			cp_cli_put_hide(t, 2);
		}
		cp_cli_put_str(t, 3, cp_model_name(k));
		cp_cli_put_int(t, 4, (int64_t)m[k]);
		cp_cli_put_num(t, 5, mean[k], "%.3f");
		cp_cli_put_num(t, 6, median(mu, j), "%.3f");
		cp_cli_put_time(t, 7, med_t);
		cp_cli_put_time(t, 8, med_w);
		cp_cli_put_bool(t, 9, k == best, "*");
		cp_cli_put_str(t, 10, first && skew ? "skew" : "");
		first = 0;
	}
	free(tt);
	return 0;
}

const char *const cp_cli_cworst_cols[CP_CLI_CWORST_NCOLS] = {
	"rank", "op", "bytes", "algorithm", "t_transfer", "t_wait",
	"pred_taulop", "mu_taulop", "note" };
const char *const cp_cli_cworst_heads[CP_CLI_CWORST_NCOLS] = {
	"rank", "op", "bytes", "algorithm", "t_transfer", "t_wait",
	"tau-Lop", "mu", "" };

static int by_mu_tl(const void *pa, const void *pb)
{
	const struct crow *a = pa, *b = pb;
	double x = a->mu[CP_MODEL_TAULOP], y = b->mu[CP_MODEL_TAULOP];

	if (isnan(x) != isnan(y))
		return isnan(x) ? 1 : -1;
	if (x != y)
		return x < y ? 1 : -1;
	return a->rank - b->rank;
}

/* The same call instance: its rows share communicator, times. */
static bool same_call(const struct crow *a, const struct crow *b)
{
	return a->fn == b->fn && a->comm == b->comm &&
	       a->t_transfer_ns == b->t_transfer_ns &&
	       a->t_wait_ns == b->t_wait_ns;
}

static void worst_lines(struct cp_cli_tab *t, struct crow *v, size_t n,
			size_t top)
{
	size_t i, j, shown = 0;
	char alg[96];

	if (n)
		qsort(v, n, sizeof(*v), by_mu_tl);
	for (i = 0; i < n && shown < top; i++) {
		if (isnan(v[i].mu[CP_MODEL_TAULOP]))
			break;
		for (j = 0; j < i && !same_call(&v[j], &v[i]); j++)
			;
		if (j < i)
			continue;
		shown++;
		cp_cli_tab_row(t);
		cp_cli_put_int(t, 0, v[i].rank);
		cp_cli_put_str(t, 1, coll_fns[v[i].fn].name);
		cp_cli_put_int(t, 2, (int64_t)v[i].bytes);
		cp_cli_put_str(t, 3, alg_label(&v[i], alg, sizeof(alg)));
		cp_cli_put_time(t, 4, (double)v[i].t_transfer_ns);
		cp_cli_put_time(t, 5, v[i].t_wait_ns < 0 ? NAN :
				(double)v[i].t_wait_ns);
		cp_cli_put_time(t, 6, v[i].pred_ns[CP_MODEL_TAULOP]);
		cp_cli_put_num(t, 7, v[i].mu[CP_MODEL_TAULOP], "%.3f");
		cp_cli_put_str(t, 8, v[i].t_wait_ns > v[i].t_transfer_ns ?
			       "skew" : "");
	}
}

int cp_cli_coll_tabs(struct cp_db *db, size_t top, struct cp_cli_tab *acc,
		     struct cp_cli_tab *worst)
{
	struct coll_ctx x = { .v = NULL };
	char text[1024] = "";
	size_t i, j;
	int ret;

	if (cp_db_get_rank_meta(db, 0, "coll_mca", text, sizeof(text)) ||
	    cp_coll_mca_parse(text, &x.mca))
		cp_coll_mca_default(&x.mca);
	/* the rows of the collectives: a first report reads the
	 * aggregates only, so they are taken in when there are some */
	ret = cp_db_each_site(db, coll_site, NULL);
	if (ret < 0)
		return ret;
	if (ret > 0 && cp_cli_rows(db))
		return -CP_DB_EIO;	/* cp_cli_rows said why */
	ret = cp_db_each_call(db, add_row, &x);
	if (x.oom) {
		free(x.v);
		return 1;
	}
	if (ret) {
		free(x.v);
		return ret;
	}
	if (x.n)
		qsort(x.v, x.n, sizeof(*x.v), by_group);
	for (i = 0; i < x.n; i = j) {
		for (j = i + 1; j < x.n && !by_group(&x.v[i], &x.v[j]); j++)
			;
		if (group_lines(acc, &x.v[i], j - i)) {
			free(x.v);
			return 1;
		}
	}
	cp_cli_tab_note(acc, "matched collective calls; algorithm: the one "
			"Open MPI ran, decided as the library did; mu over "
			"every rank's row of a call; t_transfer, t_wait: "
			"medians; skew: the ranks arrived further apart "
			"(t_wait) than the call then took, time spent "
			"waiting for a late rank, which no model of the "
			"transfer predicts");
	worst_lines(worst, x.v, x.n, top);
	cp_cli_tab_note(worst, "by tau-Lop's mu, each call once; skew: "
			"t_wait > t_transfer");
	free(x.v);
	return 0;
}
