/*
 * cli_report.c - "commprof report DIR [--format
 * text|markdown|json|csv|html] [--top N] [--wide] [-o FILE]": what the
 * predictions of a run say; html: one page of charts
 * (src/cli/cli_html.c).
 *   0. header: run totals, the parameter file, the models that
 *      predicted (or one sentence why none did), what the matching found;
 *   1. model accuracy: mu_bar, median and 90th percentile of mu per model,
 *      overall, per MPI function and per size class, the best model of
 *      each group marked; 2. rows each model predicted; 3. why not;
 *   4. where time goes: the callsite table of "commprof summary";
 *   5., 6. load balance: per rank, and callsites across ranks
 *      (src/cli/cli_ranks.c);
 *   7. strided sends whose log3P l_mw term is the largest
 *      (CP_PF_L3_LMW_LARGEST), with the savings the log3P paper quotes;
 *   8. the N rows each model predicted worst.
 * Text lines end by column 120 unless --wide (cli_rtab.c).
 * Size classes are those of the aggregates (cp_row_size_class): class
 * k >= 1, 2^(k-1) <= bytes < 2^k, is labelled "lo-hi" (hi excluded),
 * class 0 holds 0 bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_hist.h"
#include "analysis/cp_model.h"
#include "db/cp_db_read.h"
#include "src/cli/cli.h"
#include "src/cli/cli_views.h"
#include "src/common/cp_row.h"
#include "src/reduce/cp_red.h"

#define CP_REP_NCLS	65	/* size classes: 0 and 1..64 */
#define CP_REP_MAXOP	65536	/* op ids named: CP_CALL_* are far fewer */

/* Why a model has no prediction for a row, or what to know about one it
 * has (cp_rep_why). */
enum {
	CP_REP_R_OFF,		/* not evaluated */
	CP_REP_R_UNUSED,	/* model not usable from the parameters */
	CP_REP_R_ESCAL,		/* LMO gather between M1 and M2 */
	CP_REP_R_FAILED,	/* LMO: a parameter it needs failed */
	CP_REP_R_BLOCK,		/* log3P: blocks wider than measured */
	CP_REP_R_SELF,		/* message to oneself */
	CP_REP_R_NOLEAF,	/* PlogPT: not between two leaves */
	CP_REP_R_UNCOVERED,	/* operation the model does not cover */
	CP_REP_R_AVERAGED,	/* predicted from averaged LMO parameters */
	CP_REP_R_EXTRAP,	/* predicted outside the measured table */
	CP_REP_R_UNMATCHED,	/* predicted, but no t_transfer: no mu */
	CP_REP_NR
};

static const char *const cp_rep_reason[CP_REP_NR] = {
	"not predicted: predictions were not evaluated (no parameters)",
	"not predicted: model not usable from the parameter file",
	"not predicted: gather in LMO's M1..M2 (escalation region)",
	"not predicted: an LMO estimate it needs failed (calibration)",
	"not predicted: blocks wider than the element log3P measured",
	"not predicted: message to oneself (only log3P covers it)",
	"not predicted: not between two hosts of PlogPT's calibrated tree",
	"not predicted: operation the model does not cover",
	"predicted from averaged LMO parameters (ranks or hosts differ)",
	"predicted by extrapolation outside the measured table",
	"predicted, not compared: row not matched (no t_transfer)",
};

/* One of the worst-predicted rows of a model. */
struct cp_rep_worst {
	int32_t rank;
	const char *site;	/* site cache; NULL none */
	const char *func;	/* site cache; NULL unknown */
	int32_t op;
	uint64_t bytes;
	int32_t peer, root;	/* as cp_db_call */
	int64_t t_transfer_ns;
	double pred_ns;
	double mu;
};

/* mu statistics of one group of rows. */
struct cp_rep_stat {
	uint64_t n;
	double mean, med, p90;
};

/* mu statistics of one link (pair of world ranks) for one model. */
struct cp_rep_lstat {
	int64_t link;		/* world ranks a < b: a << 32 | b */
	struct cp_rep_stat st;
};

struct cp_rep_model {
	uint64_t predicted;		/* rows with a prediction */
	uint64_t why[CP_REP_NR];	/* rows per reason */
	uint64_t n;			/* compared rows */
	struct cp_rep_worst *worst;	/* largest mu first */
	size_t nworst;
	struct cp_rep_stat all;
	struct cp_rep_stat cls[CP_REP_NCLS];
	struct cp_rep_stat *op;		/* [nops] */
	struct cp_rep_lstat *lk;	/* [nlk] ascending link */
	size_t nlk, caplk;
};

/* Values of one rank meta key over the ranks. */
struct cp_rep_meta {
	char text[1024];	/* "v" or "v1 (N ranks); v2 (M ranks)" */
	int32_t ranks;		/* ranks that have the key */
	int nvalues;		/* distinct values */
	char first[512];	/* the first value */
};

struct cp_rep {
	struct cp_db *db;
	struct cp_cli_sites *sites;
	size_t top;
	struct cp_db_totals tot;
	uint64_t rows;			/* rows of class p2p or coll */
	uint64_t rows_pred;		/* with any prediction */
	bool model_on[CP_NMODELS];	/* in some rank's pred_models */
	struct cp_rep_meta params, models, note;
	char **ops;			/* [nops] op names by id, or NULL */
	size_t nops;
	struct cp_rep_model m[CP_NMODELS];
	struct cp_red_sum sum;		/* the reduction of the run */
	bool all_links;			/* json, csv: every link group */
	bool oom;
};

/* ---- collecting ---- */

static int cp_rep_meta_add(void *arg, const char *value, int32_t nranks)
{
	struct cp_rep_meta *m = arg;
	size_t l = strlen(m->text);

	if (!m->nvalues++)
		snprintf(m->first, sizeof(m->first), "%s", value);
	snprintf(m->text + l, sizeof(m->text) - l, "%s%s (%d rank%s)",
		 l ? "; " : "", value, (int)nranks, nranks == 1 ? "" : "s");
	m->ranks += nranks;
	return 0;
}

/* Values of rank meta key into *m: the bare value when every rank has
 * the same.  Returns 0 or -CP_DB_EIO. */
static int cp_rep_meta_get(struct cp_rep *r, const char *key,
			   struct cp_rep_meta *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	ret = cp_db_each_rank_value(r->db, key, cp_rep_meta_add, m);
	if (!ret && m->nvalues == 1 && m->ranks == r->tot.ranks)
		snprintf(m->text, sizeof(m->text), "%s", m->first);
	return ret;
}

/* Remember the name of op id (ids are small: CP_CALL_*). */
static int cp_rep_op_name(struct cp_rep *r, int32_t op, const char *name)
{
	char buf[32], **v;
	size_t n;

	/* a larger id is a damaged file's: left without a name rather
	 * than sizing the per-op arrays (one a model) by it */
	if (op < 0 || op >= CP_REP_MAXOP)
		return 0;
	if ((size_t)op >= r->nops) {
		n = (size_t)op + 1;
		v = realloc(r->ops, n * sizeof(*v));
		if (!v)
			return -1;
		memset(v + r->nops, 0, (n - r->nops) * sizeof(*v));
		r->ops = v;
		r->nops = n;
	}
	if (r->ops[op])
		return 0;
	r->ops[op] = strdup(cp_row_op_name(buf, sizeof(buf), name, op));
	return r->ops[op] ? 0 : -1;
}

/* Why model k has no prediction for a row flagged f. */
static int cp_rep_why(const struct cp_rep *r, int k, uint32_t f)
{
	if (!(f & CP_PF_ON))
		return CP_REP_R_OFF;
	if (r->models.ranks && !r->model_on[k])
		return CP_REP_R_UNUSED;
	if (k == CP_MODEL_LMO && (f & CP_PF_LMO_ESCAL))
		return CP_REP_R_ESCAL;
	if (k == CP_MODEL_LMO && (f & CP_PF_LMO_FAILED))
		return CP_REP_R_FAILED;
	if (k == CP_MODEL_LOG3P && (f & CP_PF_L3_BLOCK))
		return CP_REP_R_BLOCK;
	if (k != CP_MODEL_LOG3P && (f & CP_PF_SELF))
		return CP_REP_R_SELF;
	if (k == CP_MODEL_PLOGPT && (f & CP_PF_PT_NOLEAF))
		return CP_REP_R_NOLEAF;
	return CP_REP_R_UNCOVERED;
}

/* What to know about model k's prediction of a row flagged f, or -1. */
static int cp_rep_caveat(int k, uint32_t f)
{
	if (k == CP_MODEL_LMO && (f & CP_PF_AVERAGED))
		return CP_REP_R_AVERAGED;
	if (k == CP_MODEL_LOG3P &&
	    (f & (CP_PF_L3_EXTRAP_SIZE | CP_PF_L3_EXTRAP_STRIDE)))
		return CP_REP_R_EXTRAP;
	if (k == CP_MODEL_PLOGP && (f & CP_PF_PLOGP_EXTRAP))
		return CP_REP_R_EXTRAP;
	if (k == CP_MODEL_PLOGPT && (f & CP_PF_PT_EXTRAP))
		return CP_REP_R_EXTRAP;
	return -1;
}

/* ---- the reduction of the run ---- */

static int cp_rep_op_cb(void *arg, int32_t id, const char *name)
{
	return cp_rep_op_name(arg, id, name) ? 1 : 0;
}

/* 1 out of memory, 2 a record this commprof cannot read (so said, not
 * as memory). */
static int cp_rep_add_rec(void *arg, const struct cp_sum_rec *rec)
{
	struct cp_rep *r = arg;
	int ret = cp_red_sum_add_rec(&r->sum, rec);

	return ret == -CP_EINVAL ? 2 : ret ? 1 : 0;
}

/* A row of a merge that holds its rows and their mu but not its
 * reduction (one of an older commprof, or written by hand): into the
 * summary as the reduction adds its results. */
static int cp_rep_derive(void *arg, const struct cp_db_prow *p)
{
	struct cp_rep *r = arg;
	struct cp_sum_row row;
	struct cp_red_rec rec;
	int k;

	if (p->op < 0)
		return 0;
	if (cp_rep_op_name(r, p->op, p->op_name))
		return 1;
	memset(&row, 0, sizeof(row));
	memset(&rec, 0, sizeof(rec));
	row.rank = rec.rank = p->rank;
	row.seq = rec.seq = p->seq;
	row.op = rec.op = p->op;
	row.peer = rec.peer = p->peer;
	row.root = rec.root = p->root;
	row.bytes = rec.bytes = p->bytes;
	row.site = rec.site = p->site;
	row.flags = rec.flags = p->flags;
	row.pred_flags = rec.pred_flags = p->pred_flags;
	row.coll = p->coll;
	rec.coll = p->coll;
	row.layout = p->layout;
	row.t_measured_ns = p->t_measured_ns;
	row.pred_lmw_ns = p->pred_lmw_ns;
	rec.comm = p->comm;
	rec.alg = p->coll ? p->alg : CP_RED_ALG_NONE;
	for (k = 0; k < CP_NMODELS; k++) {
		row.pred_ns[k] = p->pred_ns[k];
		rec.pred_ns[k] = (float)p->pred_ns[k];
	}
	return cp_red_add_strided(&r->sum, &row) ||
	       cp_red_add_result(&r->sum, &rec, p->t_transfer_ns,
				 p->t_wait_ns, p->mu);
}

/* Rows, predictions, reasons per model from the coverage classes. */
static void cp_rep_cover(struct cp_rep *r)
{
	const struct cp_sum_cov *c;
	struct cp_rep_model *m;
	size_t i;
	int k, cav;

	for (i = 0; i < r->sum.ncov; i++) {
		c = &r->sum.cov[i];
		r->rows += c->rows;
		r->rows_pred += c->pred_mask ? c->rows : 0;
		for (k = 0; k < CP_NMODELS; k++) {
			m = &r->m[k];
			if (!(c->pred_mask & 1u << k)) {
				m->why[cp_rep_why(r, k, c->pred_flags)] +=
					c->rows;
				continue;
			}
			m->predicted += c->rows;
			cav = cp_rep_caveat(k, c->pred_flags);
			if (cav >= 0)
				m->why[cav] += c->rows;
			if (c->mu_mask & 1u << k)
				m->n += c->rows;
			else
				m->why[CP_REP_R_UNMATCHED] += c->rows;
		}
	}
}

static int cp_rep_by_link(const void *pa, const void *pb)
{
	const struct cp_rep_lstat *a = pa, *b = pb;

	return (a->link > b->link) - (a->link < b->link);
}

/* Statistics of one histogram of the reduction (a group CP_RED_G_ALL to
 * CP_RED_G_LINK) into the group it summarizes.  Returns 0 or -1 (out of
 * memory, or a bad histogram). */
static int cp_rep_acc_one(struct cp_rep *r, const struct cp_red_acc *a)
{
	static const double p[] = { 0.5, 0.9 };
	struct cp_rep_model *m = &r->m[a->model];
	struct cp_rep_stat st = { .n = a->h.n };
	struct cp_rep_lstat *l;
	double q[2];

	if (!a->h.n || cp_hist_quantiles(&a->h, p, 2, q))
		return -1;
	st.mean = a->h.sum / (double)a->h.n;
	st.med = q[0];
	st.p90 = q[1];
	if (a->grp == CP_RED_G_ALL)
		m->all = st;
	else if (a->grp == CP_RED_G_OP && a->key >= 0 &&
		 (size_t)a->key < r->nops)
		m->op[a->key] = st;
	else if (a->grp == CP_RED_G_CLS && a->key >= 0 &&
		 a->key < CP_REP_NCLS)
		m->cls[a->key] = st;
	if (a->grp != CP_RED_G_LINK)
		return 0;
	if (m->nlk == m->caplk) {
		m->caplk = m->caplk ? 2 * m->caplk : 16;
		l = realloc(m->lk, m->caplk * sizeof(*l));
		if (!l)
			return -1;
		m->lk = l;
	}
	m->lk[m->nlk].link = a->key;
	m->lk[m->nlk++].st = st;
	return 0;
}

/* mu statistics of every model and group, from the histograms. */
static int cp_rep_accs(struct cp_rep *r)
{
	const struct cp_red_acc *a;
	size_t i;
	int k;

	for (i = 0; r->sum.acc && i <= r->sum.maskacc; i++) {
		a = &r->sum.acc[i];
		if (a->model >= 0 && a->grp == CP_RED_G_OP &&
		    cp_rep_op_name(r, (int32_t)a->key, NULL))
			return -1;
	}
	for (k = 0; k < CP_NMODELS; k++) {
		r->m[k].op = calloc(r->nops ? r->nops : 1,
				    sizeof(*r->m[k].op));
		if (!r->m[k].op)
			return -1;
	}
	/* the collective groups (whose CP_RED_G_CTIME holds times, not a
	 * model) are sections 9 and 10 */
	for (i = 0; r->sum.acc && i <= r->sum.maskacc; i++)
		if (r->sum.acc[i].model >= 0 &&
		    r->sum.acc[i].grp <= CP_RED_G_LINK &&
		    cp_rep_acc_one(r, &r->sum.acc[i]))
			return -1;
	for (k = 0; k < CP_NMODELS; k++)
		if (r->m[k].nlk)
			qsort(r->m[k].lk, r->m[k].nlk, sizeof(*r->m[k].lk),
			      cp_rep_by_link);
	return 0;
}

/* The site text of address site in rank (through the site cache). */
static int cp_rep_site(struct cp_rep *r, int32_t rank, uint64_t site,
		       const char **text, const char **func)
{
	char path[4096];
	uint64_t base = 0;
	int ret = cp_db_site_module(r->db, rank, site, path, sizeof(path),
				    &base);

	if (ret && ret != -CP_DB_ENOENT)
		return ret;
	return cp_cli_site_get(r->sites, ret ? NULL : path, base, site, text,
			       func) ? 1 : 0;
}

/* The --top worst rows of each model, their callsites resolved. */
static int cp_rep_worsts(struct cp_rep *r)
{
	const struct cp_sum_worst *v;
	struct cp_rep_worst *w;
	size_t i;
	int k, ret;

	for (k = 0; k < CP_NMODELS; k++) {
		r->m[k].nworst = r->sum.nworst[k] < r->top ?
				 r->sum.nworst[k] : r->top;
		r->m[k].worst = calloc(r->m[k].nworst + 1, sizeof(*w));
		if (!r->m[k].worst)
			return 1;
		for (i = 0; i < r->m[k].nworst; i++) {
			v = &r->sum.worst[k][i];
			w = &r->m[k].worst[i];
			w->rank = v->rank;
			w->op = v->op;
			w->bytes = v->bytes;
			w->peer = v->peer;
			w->root = v->root;
			w->t_transfer_ns = v->t_transfer_ns;
			w->pred_ns = v->pred_ns;
			w->mu = v->mu;
			ret = cp_rep_site(r, v->rank, v->site, &w->site,
					  &w->func);
			if (ret)
				return ret;
			if (cp_rep_op_name(r, v->op, NULL))
				return 1;
		}
	}
	return 0;
}

/* ---- labels ---- */

static const char *cp_rep_op(const struct cp_rep *r, int32_t op)
{
	return op >= 0 && (size_t)op < r->nops && r->ops[op] ? r->ops[op] :
	       "?";
}

/* A peer or root cell: world rank, a sentinel name, or none. */
static void cp_rep_put_peer(struct cp_cli_tab *t, size_t col, int32_t peer)
{
	if (peer == CP_PEER_PROCNULL)
		cp_cli_put_str(t, col, "MPI_PROC_NULL");
	else if (peer == CP_PEER_ANY)
		cp_cli_put_str(t, col, "MPI_ANY_SOURCE");
	else if (peer >= 0)
		cp_cli_put_int(t, col, peer);
	else
		cp_cli_put_num(t, col, NAN, "%g");
}

/* ---- 0. header ---- */

static const char *const cp_rep_kv_cols[] = { "key", "value" };

static void cp_rep_kv(struct cp_cli_tab *t, const char *key,
		      const char *label)
{
	cp_cli_tab_row(t);
	cp_cli_put_str2(t, 0, label, key);
}

static void cp_rep_kv_int(struct cp_cli_tab *t, const char *key,
			  const char *label, int64_t v)
{
	cp_rep_kv(t, key, label);
	cp_cli_put_int(t, 1, v);
}

static void cp_rep_kv_str(struct cp_cli_tab *t, const char *key,
			  const char *label, const char *txt, const char *raw)
{
	cp_rep_kv(t, key, label);
	cp_cli_put_str2(t, 1, txt, raw);
}

/* Why no row carries a prediction: one sentence. */
static void cp_rep_why_none(const struct cp_rep *r, char *buf, size_t len)
{
	const char *why;

	if (r->note.nvalues && r->note.first[0])
		why = r->note.text;
	else if (!r->params.ranks)
		why = "COMMPROF_PARAMS was not set when the run was recorded";
	else if (!r->models.ranks)
		why = "the library that recorded the run wrote no predictions";
	else if (!r->rows)
		why = "the run has no message or collective rows";
	else
		why = "no message or collective row is covered by a model";
	snprintf(buf, len, "no predictions were made: %s", why);
}

static void cp_rep_head_run(struct cp_cli_tab *t, const struct cp_rep *r,
			    const char *dir)
{
	const struct cp_db_totals *o = &r->tot;
	cp_rep_kv_str(t, "directory", "directory", dir, dir);
	cp_rep_kv_int(t, "ranks", "ranks", o->ranks);
	cp_rep_kv(t, "app_time", "app time (summed over ranks)");
	cp_cli_put_time(t, 1, o->app_time_ns >= 0 ? (double)o->app_time_ns :
			NAN);
	cp_rep_kv(t, "mpi_time", "MPI time");
	cp_cli_put_time(t, 1, (double)o->mpi_time_ns);
	cp_rep_kv_int(t, "threads_max", "threads making MPI calls, most "
		      "per rank", o->threads_max);
	cp_rep_kv_int(t, "threads_min", "threads making MPI calls, fewest "
		      "per rank", o->threads_min);
	/* MPI time is summed over threads: its share is of app time x
	 * threads, at most 100% (cli_summary.c) */
	cp_rep_kv(t, "thread_time", "app time x threads (summed over ranks)");
	cp_cli_put_time(t, 1, o->thread_time_ns >= 0 ?
			(double)o->thread_time_ns : NAN);
	cp_rep_kv(t, "mpi_share_pct", o->threads_max > 1 ?
		  "MPI share of app time x threads" : "MPI share of app time");
	cp_cli_put_num(t, 1, o->thread_time_ns > 0 ?
		       cp_cli_pct(o->mpi_time_ns, o->thread_time_ns) : NAN,
		       "%.2f %%");
	cp_rep_kv_int(t, "calls", "calls", (int64_t)o->calls);
	cp_rep_kv_int(t, "bytes", "bytes", (int64_t)o->bytes);
	cp_rep_kv_int(t, "rows_stored", "call rows stored",
		      (int64_t)o->rows_stored);
	cp_rep_kv_int(t, "rows_dropped", "call rows dropped (buffer full)",
		      (int64_t)o->rows_dropped);
	cp_rep_kv_int(t, "rows_not_kept", "call rows not kept (limit, "
		      "sampling)", (int64_t)o->rows_not_kept);
	cp_rep_kv_int(t, "rows_lost_disk", "call rows lost (disk full)",
		      (int64_t)o->rows_lost_disk);
}

static void cp_rep_head_pred(struct cp_cli_tab *t, const struct cp_rep *r)
{
	char buf[1200];

	cp_rep_kv_str(t, "params", "parameter file", r->params.ranks ?
		      r->params.text : "none (COMMPROF_PARAMS not set)",
		      r->params.ranks ? r->params.text : NULL);
	cp_rep_kv_str(t, "pred_models", "models that predicted",
		      r->models.ranks && r->models.text[0] ? r->models.text :
		      "none", r->models.ranks ? r->models.text : NULL);
	cp_rep_kv_int(t, "rows", "message and collective rows",
		      (int64_t)r->rows);
	cp_rep_kv_int(t, "rows_predicted", "rows with a prediction",
		      (int64_t)r->rows_pred);
	if (!r->rows_pred)
		cp_rep_why_none(r, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%s", r->note.text);
	cp_rep_kv_str(t, "pred_note", "predictions", buf[0] ? buf : "as "
		      "calibrated", buf[0] ? buf : NULL);
}

/* How the run was reduced (meta reduced of db/schema.sql). */
static void cp_rep_head_reduced(struct cp_cli_tab *t, struct cp_rep *r,
				const char *how)
{
	char ranks[32] = "?", txt[128];

	if (!strcmp(how, "job")) {
		snprintf(txt, sizeof(txt), "inside the job, at MPI_Finalize");
	} else if (!strcmp(how, "commprof-mpi")) {
		cp_db_get_meta(r->db, "reduce_ranks", ranks, sizeof(ranks));
		snprintf(txt, sizeof(txt), "after the run, by commprof on %s "
			 "MPI ranks", ranks);
	} else {
		snprintf(txt, sizeof(txt), "after the run, by commprof");
	}
	cp_rep_kv_str(t, "reduced", "reduced", txt, how);
}

static void cp_rep_head_match(struct cp_cli_tab *t, struct cp_rep *r)
{
	static const char *const keys[] = {
		"match_p2p_rows", "match_p2p_left", "match_coll_rows",
		"match_coll_left" };
	static const char *const labels[] = {
		"message rows matched", "message rows left unmatched",
		"collective rows matched", "collective rows left unmatched" };
	char buf[512];
	size_t i;
	bool on;

	on = !cp_db_get_meta(r->db, "matched", buf, sizeof(buf)) &&
	     !strcmp(buf, "1");
	cp_rep_kv_str(t, "matched", "matching", on ? "done" :
		      "not run: no t_transfer, no mu", on ? "yes" : "no");
	for (i = 0; on && i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (cp_db_get_meta(r->db, keys[i], buf, sizeof(buf)))
			continue;
		cp_rep_kv_int(t, keys[i], labels[i], strtoll(buf, NULL, 10));
	}
	if (!cp_db_get_meta(r->db, "match_note", buf, sizeof(buf)))
		cp_rep_kv_str(t, "match_note", "matching note", buf, buf);
	if (!cp_db_get_meta(r->db, "reduced", buf, sizeof(buf)))
		cp_rep_head_reduced(t, r, buf);
	if (!cp_db_get_meta(r->db, "reduce_note", buf, sizeof(buf)))
		cp_rep_kv_str(t, "reduce_note", "not reduced inside the job",
			      buf, buf);
	cp_rep_kv_int(t, "calls_xfer", "message and collective calls",
		      (int64_t)r->tot.calls_xfer);
	cp_rep_kv_int(t, "calls_compared", "calls compared (a mu of some "
		      "model)", (int64_t)r->sum.calls_compared);
	cp_rep_kv(t, "compared_pct", "share of the calls the accuracy "
		  "covers");
	cp_cli_put_num(t, 1, r->tot.calls_xfer ?
		       cp_cli_pct((int64_t)r->sum.calls_compared,
				  (int64_t)r->tot.calls_xfer) : NAN, "%.2f %%");
}

/* ---- 1. model accuracy ---- */

static const char *const cp_rep_acc_cols[] = {
	"group", "key", "model", "rows", "mu_bar", "median", "p90", "best" };
static const char *const cp_rep_acc_heads[] = {
	"group", "", "model", "rows", "mu_bar", "median", "p90", "best" };

static const struct cp_rep_stat cp_rep_none;

/* Statistics of model m on link (none: n == 0). */
static const struct cp_rep_stat *cp_rep_lk_stat(const struct cp_rep_model *m,
						int64_t link)
{
	size_t lo = 0, hi = m->nlk, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (m->lk[mid].link < link)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nlk && m->lk[lo].link == link ? &m->lk[lo].st :
	       &cp_rep_none;
}

/* Rows of one group: every model with compared rows, the lowest mu_bar
 * marked.  kind: 0 all, 1 op idx, 2 size class idx, 3 link idx. */
static void cp_rep_acc_group(struct cp_cli_tab *t, const struct cp_rep *r,
			     const char *group, const char *key, int kind,
			     int64_t idx)
{
	const struct cp_rep_stat *s[CP_NMODELS];
	int k, best = -1;
	bool first = true;

	for (k = 0; k < CP_NMODELS; k++) {
		s[k] = kind == 0 ? &r->m[k].all : kind == 1 ?
		       &r->m[k].op[idx] : kind == 2 ? &r->m[k].cls[idx] :
		       cp_rep_lk_stat(&r->m[k], idx);
		if (s[k]->n && (best < 0 || s[k]->mean < s[best]->mean))
			best = k;
	}
	for (k = 0; best >= 0 && k < CP_NMODELS; k++) {
		if (!s[k]->n)
			continue;
		cp_cli_tab_row(t);
		cp_cli_put_str(t, 0, group);
		cp_cli_put_str(t, 1, key);
		if (!first) {
			cp_cli_put_hide(t, 0);
			cp_cli_put_hide(t, 1);
		}
		first = false;
		cp_cli_put_str(t, 2, cp_model_name(k));
		cp_cli_put_int(t, 3, (int64_t)s[k]->n);
		cp_cli_put_num(t, 4, s[k]->mean, "%.3f");
		cp_cli_put_num(t, 5, s[k]->med, "%.3f");
		cp_cli_put_num(t, 6, s[k]->p90, "%.3f");
		cp_cli_put_bool(t, 7, k == best, "*");
	}
}

static const struct cp_rep *cp_rep_sort_ctx;

static int cp_rep_by_name(const void *pa, const void *pb)
{
	const size_t *a = pa, *b = pb;

	return strcmp(cp_rep_op(cp_rep_sort_ctx, (int32_t)*a),
		      cp_rep_op(cp_rep_sort_ctx, (int32_t)*b));
}

static int cp_rep_cmp_i64(const void *pa, const void *pb)
{
	const int64_t *a = pa, *b = pb;

	return (*a > *b) - (*a < *b);
}

/* Links shown in the text formats; json and csv show all. */
#define CP_REP_MAX_LINKS	66

/* One group per link (pair of world ranks) when messages went over more
 * than one: heterogeneous links are what LMO is for. */
static void cp_rep_acc_links(struct cp_cli_tab *t, const struct cp_rep *r)
{
	size_t n = 0, u = 0, i;
	int64_t *v;
	char key[32], note[512];
	int k;

	for (k = 0; k < CP_NMODELS; k++)
		n += r->m[k].nlk;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v) {
		t->oom = true;
		return;
	}
	for (k = 0, n = 0; k < CP_NMODELS; k++)
		for (i = 0; i < r->m[k].nlk; i++)
			v[n++] = r->m[k].lk[i].link;
	qsort(v, n, sizeof(*v), cp_rep_cmp_i64);
	for (i = 0; i < n; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	if (u > CP_REP_MAX_LINKS && !r->all_links) {
		snprintf(note, sizeof(note), "%s; mu per link (%zu pairs of "
			 "ranks) in --format csv or json", t->note ? t->note :
			 "", u);
		cp_cli_tab_note(t, note);
	} else if (u > 1) {
		for (i = 0; i < u; i++) {
			snprintf(key, sizeof(key), "%d-%d",
				 (int)(v[i] >> 32), (int)(v[i] & 0xffffffff));
			cp_rep_acc_group(t, r, "link", key, 3, v[i]);
		}
	}
	free(v);
}

static void cp_rep_accuracy(struct cp_cli_tab *t, const struct cp_rep *r)
{
	char label[64];
	size_t i, *ix;
	int k;
	bool any = false;

	for (k = 0; k < CP_NMODELS; k++)
		any |= r->m[k].n > 0;
	if (!r->rows_pred) {
		cp_cli_tab_note(t, "no predictions (see the header)");
		return;
	}
	if (!any) {
		cp_cli_tab_note(t, "no predicted row has a t_transfer to "
				"compare with (matching not run or nothing "
				"matched): no mu");
		return;
	}
	cp_cli_tab_note(t, "mu = max(t_transfer, pred) / min(t_transfer, "
			"pred) over the matched rows; * lowest mu_bar of the "
			"group; size classes lo-hi exclude hi; link a-b: "
			"messages between world ranks a and b");
	cp_rep_acc_group(t, r, "all", "all", 0, 0);
	ix = malloc((r->nops ? r->nops : 1) * sizeof(*ix));
	if (!ix) {
		t->oom = true;
		return;
	}
	for (i = 0; i < r->nops; i++)
		ix[i] = i;
	cp_rep_sort_ctx = r;
	qsort(ix, r->nops, sizeof(*ix), cp_rep_by_name);
	for (i = 0; i < r->nops; i++)
		if (r->ops[ix[i]])
			cp_rep_acc_group(t, r, "op", r->ops[ix[i]], 1, ix[i]);
	free(ix);
	for (i = 0; i < CP_REP_NCLS; i++) {
		cp_row_size_label((int32_t)i, label, sizeof(label));
		cp_rep_acc_group(t, r, "size", label, 2, (int64_t)i);
	}
	cp_rep_acc_links(t, r);
}

static const char *const cp_rep_cov_cols[] = {
	"model", "rows", "predicted", "compared", "not_predicted" };
static const char *const cp_rep_cov_heads[] = {
	"model", "rows", "predicted", "compared (mu)", "not predicted" };
static const char *const cp_rep_why_cols[] = { "model", "reason", "rows" };

static void cp_rep_coverage(struct cp_cli_tab *t, struct cp_cli_tab *w,
			    const struct cp_rep *r)
{
	int k, i;

	for (k = 0; k < CP_NMODELS; k++) {
		cp_cli_tab_row(t);
		cp_cli_put_str(t, 0, cp_model_name(k));
		cp_cli_put_int(t, 1, (int64_t)r->rows);
		cp_cli_put_int(t, 2, (int64_t)r->m[k].predicted);
		cp_cli_put_int(t, 3, (int64_t)r->m[k].n);
		cp_cli_put_int(t, 4, (int64_t)(r->rows - r->m[k].predicted));
		for (i = 0; i < CP_REP_NR; i++) {
			if (!r->m[k].why[i])
				continue;
			cp_cli_tab_row(w);
			cp_cli_put_str(w, 0, cp_model_name(k));
			cp_cli_put_str(w, 1, cp_rep_reason[i]);
			cp_cli_put_int(w, 2, (int64_t)r->m[k].why[i]);
		}
	}
	if (!r->rows)
		cp_cli_tab_note(t, "no message or collective rows");
}

/* ---- 2. where time goes ---- */

static const char *const cp_rep_site_cols[] = {
	"site", "function", "op", "calls", "bytes", "time", "pct_mpi",
	"avg", "class" };
static const char *const cp_rep_site_heads[] = {
	"site", "function", "op", "calls", "bytes", "time", "%mpi", "avg",
	"class" };

/* Returns 0, -CP_DB_EIO or 1 out of memory. */
static int cp_rep_sites(struct cp_cli_tab *t, struct cp_rep *r)
{
	struct cp_cli_line *v;
	size_t i, n;
	int ret;

	ret = cp_cli_lines_get(r->db, r->sites, &v, &n);
	if (ret)
		return ret;
	for (i = 0; i < n && i < r->top; i++) {
		cp_cli_tab_row(t);
		cp_cli_put_str(t, 0, v[i].site);
		cp_cli_put_str(t, 1, v[i].func);
		cp_cli_put_str(t, 2, v[i].op);
		cp_cli_put_int(t, 3, (int64_t)v[i].count);
		cp_cli_put_int(t, 4, (int64_t)v[i].bytes);
		cp_cli_put_time(t, 5, (double)v[i].time_ns);
		cp_cli_put_num(t, 6, cp_cli_pct(v[i].time_ns,
						r->tot.mpi_time_ns), "%.2f");
		cp_cli_put_time(t, 7, v[i].count ? (double)v[i].time_ns /
				(double)v[i].count : NAN);
		cp_cli_put_str(t, 8, v[i].cls);
	}
	if (!n)
		cp_cli_tab_note(t, "no calls recorded");
	else if (n > r->top)
		cp_cli_tab_note(t, "the callsites with the most measured MPI "
				"time (--top N; commprof summary shows the "
				"same)");
	free(v);
	return 0;
}

/* ---- 4. worst-predicted calls ---- */

static const char *const cp_rep_worst_cols[] = {
	"model", "rank", "site", "function", "op", "bytes", "peer",
	"t_transfer", "pred", "mu" };
static const char *const cp_rep_worst_heads[] = {
	"model", "rank", "site", "function", "op", "bytes", "peer",
	"t_transfer", "predicted", "mu" };

static void cp_rep_worst(struct cp_cli_tab *t, const struct cp_rep *r)
{
	const struct cp_rep_worst *w;
	size_t i;
	int k;

	for (k = 0; k < CP_NMODELS; k++) {
		for (i = 0; i < r->m[k].nworst; i++) {
			w = &r->m[k].worst[i];
			cp_cli_tab_row(t);
			cp_cli_put_str(t, 0, cp_model_name(k));
			if (i)
				cp_cli_put_hide(t, 0);
			cp_cli_put_int(t, 1, w->rank);
			cp_cli_put_str(t, 2, w->site ? w->site : "(unknown)");
			cp_cli_put_str(t, 3, w->func ? w->func : "");
			cp_cli_put_str(t, 4, cp_rep_op(r, w->op));
			cp_cli_put_int(t, 5, (int64_t)w->bytes);
			cp_rep_put_peer(t, 6, w->peer != CP_PEER_NONE ?
					w->peer : w->root);
			cp_cli_put_time(t, 7, (double)w->t_transfer_ns);
			cp_cli_put_time(t, 8, w->pred_ns);
			cp_cli_put_num(t, 9, w->mu, "%.3f");
		}
	}
	if (!r->rows_pred)
		cp_cli_tab_note(t, "no predictions (see the header)");
	else if (!t->nrows)
		cp_cli_tab_note(t, "no predicted row was compared (no mu)");
	else
		cp_cli_tab_note(t, "per model, the rows of largest mu; peer "
				"of a collective: its root");
}

/* ---- 3. middleware-dominated strided sends ---- */

/* Rows of one (rank, site, op, bytes, layout) flagged by log3P, summed.
 * Strings live until the group is added (cp_rep_sg_add). */
struct cp_rep_flagged {
	int32_t rank;
	uint64_t site;		/* return address in that rank */
	const char *mod_path;	/* module that holds site, or NULL */
	uint64_t mod_base;
	int32_t op;
	const char *op_name;	/* NULL if unknown */
	uint64_t bytes;		/* per call */
	int64_t block_bytes;	/* of the layout, -1 unknown */
	int64_t stride_bytes;	/* -1 n/a */
	int64_t nblocks;
	const char *descr;	/* layout description, or NULL */
	uint64_t calls;		/* rows */
	double pred_log3p_ns;	/* pred_log3p_ns summed over n_log3p rows */
	uint64_t n_log3p;
	double pred_lmw_ns;	/* pred_lmw_ns summed over n_lmw rows */
	uint64_t n_lmw;
	int64_t t_measured_ns;	/* t_measured_ns summed over the rows */
};

/* Flagged rows of one (callsite, op, bytes, layout), ranks merged. */
struct cp_rep_sg {
	const char *site, *func;	/* site cache */
	char op[64];
	uint64_t bytes;
	int64_t block_bytes, stride_bytes, nblocks;
	char *descr;			/* owned; "" none */
	uint64_t calls;
	double t_sum_ns;		/* pred_log3p_ns summed */
	uint64_t t_n;			/* rows that have one */
	double lmw_sum_ns;		/* pred_lmw_ns summed */
	uint64_t lmw_n;
	int64_t meas_sum_ns;		/* t_measured_ns summed */
};

struct cp_rep_sgs {
	struct cp_rep *r;
	struct cp_rep_sg *v;
	size_t n, cap;
};

static int cp_rep_sg_add(void *arg, const struct cp_rep_flagged *f)
{
	struct cp_rep_sgs *s = arg;
	struct cp_rep_sg *g;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		g = realloc(s->v, s->cap * sizeof(*g));
		if (!g)
			return 1;
		s->v = g;
	}
	g = &s->v[s->n];
	memset(g, 0, sizeof(*g));
	if (cp_cli_site_get(s->r->sites, f->mod_path, f->mod_base, f->site,
			    &g->site, &g->func))
		return 1;
	g->descr = strdup(f->descr ? f->descr : "");
	if (!g->descr)
		return 1;
	s->n++;
	g->site = g->site ? g->site : "(unknown)";
	g->func = g->func ? g->func : "";
	cp_row_op_name(g->op, sizeof(g->op), f->op_name, f->op);
	g->bytes = f->bytes;
	g->block_bytes = f->block_bytes;
	g->stride_bytes = f->stride_bytes;
	g->nblocks = f->nblocks;
	g->calls = f->calls;
	g->t_sum_ns = f->pred_log3p_ns;
	g->t_n = f->n_log3p;
	g->lmw_sum_ns = f->pred_lmw_ns;
	g->lmw_n = f->n_lmw;
	g->meas_sum_ns = f->t_measured_ns;
	return 0;
}

static int cp_rep_cmp64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

static int cp_rep_sg_key(const void *pa, const void *pb)
{
	const struct cp_rep_sg *a = pa, *b = pb;
	int c = strcmp(a->site, b->site);

	if (!c)
		c = strcmp(a->func, b->func);
	if (!c)
		c = strcmp(a->op, b->op);
	if (!c)
		c = (a->bytes > b->bytes) - (a->bytes < b->bytes);
	if (!c)
		c = cp_rep_cmp64(a->block_bytes, b->block_bytes);
	if (!c)
		c = cp_rep_cmp64(a->stride_bytes, b->stride_bytes);
	if (!c)
		c = cp_rep_cmp64(a->nblocks, b->nblocks);
	return c ? c : strcmp(a->descr, b->descr);
}

static double cp_rep_sg_lmw_total(const struct cp_rep_sg *g)
{
	return g->lmw_n ? g->lmw_sum_ns / (double)g->lmw_n * (double)g->calls
			: 0.0;
}

/* Largest l_mw in total first; ties by key. */
static int cp_rep_sg_cost(const void *pa, const void *pb)
{
	double a = cp_rep_sg_lmw_total(pa), b = cp_rep_sg_lmw_total(pb);

	if (a != b)
		return a > b ? -1 : 1;
	return cp_rep_sg_key(pa, pb);
}

/* Merge the groups of equal key (same callsite text in several ranks);
 * returns the new length. */
static size_t cp_rep_sg_merge(struct cp_rep_sg *v, size_t n)
{
	size_t i, k = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cp_rep_sg_key);
	for (i = 0; i < n; i++) {
		if (k && !cp_rep_sg_key(&v[k - 1], &v[i])) {
			v[k - 1].calls += v[i].calls;
			v[k - 1].t_sum_ns += v[i].t_sum_ns;
			v[k - 1].t_n += v[i].t_n;
			v[k - 1].lmw_sum_ns += v[i].lmw_sum_ns;
			v[k - 1].lmw_n += v[i].lmw_n;
			v[k - 1].meas_sum_ns += v[i].meas_sum_ns;
			free(v[i].descr);
		} else {
			v[k++] = v[i];
		}
	}
	qsort(v, k, sizeof(*v), cp_rep_sg_cost);
	return k;
}

static const char *const cp_rep_sg_cols[] = {
	"site", "function", "op", "bytes", "block_bytes", "stride_bytes",
	"layout", "calls", "measured", "pred_log3p", "pred_lmw", "fix",
	"saving", "saving_lo", "saving_hi", "saving_total" };
static const char *const cp_rep_sg_heads[] = {
	"site", "function", "op", "bytes", "block", "stride", "layout",
	"calls", "measured/call", "log3P/call", "l_mw/call", "fix",
	"saving/call", "low", "high", "total" };

#define CP_REP_SG_FIX	11	/* first column of a fix */

/* One fix of group g: saving per call (lo..hi range, NAN none). */
static void cp_rep_sg_fix(struct cp_cli_tab *t, const struct cp_rep_sg *g,
			  const char *fix, double ns, double lo_ns,
			  double hi_ns)
{
	size_t j;

	cp_cli_tab_row(t);
	cp_cli_put_str(t, 0, g->site);
	cp_cli_put_str(t, 1, g->func);
	cp_cli_put_str(t, 2, g->op);
	cp_cli_put_int(t, 3, (int64_t)g->bytes);
	if (g->block_bytes >= 0)
		cp_cli_put_int(t, 4, g->block_bytes);
	else
		cp_cli_put_num(t, 4, NAN, "%g");
	if (g->stride_bytes >= 0)
		cp_cli_put_int(t, 5, g->stride_bytes);
	else
		cp_cli_put_num(t, 5, NAN, "%g");
	cp_cli_put_str(t, 6, g->descr[0] ? g->descr : NULL);
	cp_cli_put_int(t, 7, (int64_t)g->calls);
	cp_cli_put_time(t, 8, g->calls ? (double)g->meas_sum_ns /
			(double)g->calls : NAN);
	cp_cli_put_time(t, 9, g->t_n ? g->t_sum_ns / (double)g->t_n : NAN);
	cp_cli_put_time(t, 10, g->lmw_n ? g->lmw_sum_ns / (double)g->lmw_n :
			NAN);
	if (strcmp(fix, "contiguous layout"))
		for (j = 0; j < CP_REP_SG_FIX; j++)
			cp_cli_put_hide(t, j);
	cp_cli_put_str(t, CP_REP_SG_FIX, fix);
	cp_cli_put_time(t, CP_REP_SG_FIX + 1, ns);
	cp_cli_put_time(t, CP_REP_SG_FIX + 2, lo_ns);
	cp_cli_put_time(t, CP_REP_SG_FIX + 3, hi_ns);
	cp_cli_put_time(t, CP_REP_SG_FIX + 4, ns * (double)g->calls);
}

/* Savings of g: a contiguous layout saves l_mw (log3P has no l_mw for
 * contiguous data); packing by hand and blocked packing are fractions of
 * T that the log3P paper measured (cp_log3p_pack_saving). */
static void cp_rep_sg_rows(struct cp_cli_tab *t, const struct cp_rep_sg *g)
{
	struct cp_log3p_pred p = { .t_s = NAN };
	struct cp_log3p_saving sv;

	if (g->t_n)
		p.t_s = g->t_sum_ns / (double)g->t_n;
	cp_log3p_pack_saving(&p, &sv);
	cp_rep_sg_fix(t, g, "contiguous layout", g->lmw_n ? g->lmw_sum_ns /
		      (double)g->lmw_n : NAN, NAN, NAN);
	cp_rep_sg_fix(t, g, "manual packing", sv.manual_s, sv.manual_lo_s,
		      sv.manual_hi_s);
	cp_rep_sg_fix(t, g, "blocked packing", sv.blocked_s, NAN, NAN);
}

/* The reduction's groups of strided sends (each message once, by its
 * send: the receive row has the same bytes, layout and prediction) whose
 * layout is not contiguous, into s.  Returns 0, -CP_DB_EIO or 1 out of
 * memory. */
static int cp_rep_sg_each(struct cp_rep *r, struct cp_rep_sgs *s)
{
	const struct cp_sum_sg *g;
	struct cp_db_layout_info l;
	struct cp_rep_flagged f;
	char path[4096];
	size_t i;
	int ret = 0, mod;

	for (i = 0; !ret && r->sum.sg && i <= r->sum.masksg; i++) {
		g = &r->sum.sg[i];
		if (!g->calls)
			continue;
		ret = cp_db_layout_info(r->db, g->rank, g->layout, &l);
		if (ret == -CP_DB_ENOENT || (!ret && l.contiguous)) {
			ret = 0;
			continue;
		}
		memset(&f, 0, sizeof(f));
		mod = ret ? ret : cp_db_site_module(r->db, g->rank, g->site,
						    path, sizeof(path),
						    &f.mod_base);
		if (mod && mod != -CP_DB_ENOENT)
			return mod;
		f.rank = g->rank;
		f.site = g->site;
		f.mod_path = mod ? NULL : path;
		f.op = g->op;
		f.op_name = g->op >= 0 && (size_t)g->op < r->nops ?
			    r->ops[g->op] : NULL;
		f.bytes = g->bytes;
		f.block_bytes = l.block_bytes;
		f.stride_bytes = l.stride_bytes;
		f.nblocks = l.nblocks;
		f.descr = l.descr[0] ? l.descr : NULL;
		f.calls = g->calls;
		f.pred_log3p_ns = g->log3p_ns;
		f.n_log3p = g->log3p_n;
		f.pred_lmw_ns = g->lmw_ns;
		f.n_lmw = g->lmw_n;
		f.t_measured_ns = g->measured_ns;
		ret = cp_rep_sg_add(s, &f);
	}
	return ret;
}

/* Returns 0, -CP_DB_EIO or 1 out of memory. */
static int cp_rep_strided(struct cp_cli_tab *t, struct cp_rep *r)
{
	struct cp_rep_sgs s = { .r = r };
	char note[512];
	size_t i;
	int ret;

	if (!r->rows_pred) {
		cp_cli_tab_note(t, "no predictions (see the header)");
		return 0;
	}
	ret = cp_rep_sg_each(r, &s);
	if (!ret) {
		s.n = cp_rep_sg_merge(s.v, s.n);
		for (i = 0; i < s.n; i++)
			cp_rep_sg_rows(t, &s.v[i]);
	}
	if (!ret && !s.n)
		cp_cli_tab_note(t, "none: no strided row has l_mw as log3P's "
				"largest term");
	else if (!ret)
		snprintf(note, sizeof(note), "rows where l_mw is log3P's "
			 "largest term (contiguous layouts never are), each "
			 "message by its send; savings are estimates: a "
			 "contiguous layout saves l_mw, packing by hand "
			 "~%.0f%% of T (%.0f-%.0f%%), blocked packing %.1f%% "
			 "of T, as measured by Cameron, Ge and Sun, \"lognP "
			 "and log3P\", IEEE Trans. Computers 2007, 4.3.2 and "
			 "4.3.4",
			 100 * CP_LOG3P_PACK_MEAN, 100 * CP_LOG3P_PACK_LO,
			 100 * CP_LOG3P_PACK_HI, 100 * CP_LOG3P_PACK_BLOCKED);
	if (!ret && s.n)
		cp_cli_tab_note(t, note);
	for (i = 0; i < s.n; i++)
		free(s.v[i].descr);
	free(s.v);
	return ret;
}

/* ---- command ---- */

/* Parsed command line of report. */
struct cp_rep_args {
	const char *dir, *out, *format;
	size_t top;
	bool wide;		/* text: no 120-column limit */
	bool html;		/* --format html: the page of cli_html.c */
};

static int cp_rep_parse(int argc, char **argv, struct cp_rep_args *a)
{
	char *end;
	int i;

	a->dir = a->out = NULL;
	a->format = "text";
	a->top = 10;
	a->wide = false;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--wide")) {
			a->wide = true;
		} else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			a->format = argv[++i];
		} else if (!strncmp(argv[i], "--format=", 9)) {
			a->format = argv[i] + 9;
		} else if ((!strcmp(argv[i], "-o") ||
			    !strcmp(argv[i], "--output")) && i + 1 < argc) {
			a->out = argv[++i];
		} else if (!strcmp(argv[i], "--top") && i + 1 < argc) {
			a->top = strtoul(argv[++i], &end, 10);
			if (*end || !*argv[i] || argv[i][0] == '-') {
				cp_cli_err("report: bad --top '%s'", argv[i]);
				return CP_CLI_USAGE;
			}
		} else if (argv[i][0] == '-' || a->dir) {
			return cp_cli_bad_arg("report", argv[i],
					      " --format -o --output --top ");
		} else {
			a->dir = argv[i];
		}
	}
	if (!a->dir) {
		cp_cli_err("report: missing DIR; try 'commprof --help'");
		return CP_CLI_USAGE;
	}
	return 0;
}

static int cp_rep_fmt(const char *s, enum cp_cli_fmt *f)
{
	if (!strcmp(s, "html"))		/* tables built as for json */
		*f = CP_CLI_FMT_JSON;
	else if (!strcmp(s, "text"))
		*f = CP_CLI_FMT_TEXT;
	else if (!strcmp(s, "markdown") || !strcmp(s, "md"))
		*f = CP_CLI_FMT_MD;
	else if (!strcmp(s, "json"))
		*f = CP_CLI_FMT_JSON;
	else if (!strcmp(s, "csv"))
		*f = CP_CLI_FMT_CSV;
	else
		return -1;
	return 0;
}

/* The predictions of the run into r.  Returns 0, -CP_DB_EIO, 1 out of
 * memory or 2 a record of the reduction not readable. */
static int cp_rep_collect(struct cp_rep *r)
{
	const char *s;
	int k, ret;

	ret = cp_db_get_totals(r->db, &r->tot);
	if (!ret)
		ret = cp_rep_meta_get(r, "params", &r->params);
	if (!ret)
		ret = cp_rep_meta_get(r, "pred_models", &r->models);
	if (!ret)
		ret = cp_rep_meta_get(r, "pred_note", &r->note);
	if (ret)
		return ret;
	for (k = 0; k < CP_NMODELS; k++) {
		s = strstr(r->models.text, cp_model_name(k));
		/* "log3p" holds no other model's name, nor the reverse */
		r->model_on[k] = s != NULL;
	}
	ret = cp_db_each_op(r->db, cp_rep_op_cb, r);
	/* the reduction of the run, or (a merge without one) its rows */
	if (!ret && cp_db_has_sum(r->db)) {
		ret = cp_db_each_sum(r->db, cp_rep_add_rec, r);
	} else if (!ret) {
		ret = cp_db_each_pred_row(r->db, cp_rep_derive, r);
	}
	if (ret)
		return ret;
	cp_rep_cover(r);
	if (cp_rep_accs(r))
		return 1;
	return cp_rep_worsts(r);
}

static void cp_rep_free(struct cp_rep *r)
{
	size_t i;
	int k;

	cp_red_sum_free(&r->sum);
	for (k = 0; k < CP_NMODELS; k++) {
		free(r->m[k].worst);
		free(r->m[k].op);
		free(r->m[k].lk);
	}
	for (i = 0; i < r->nops; i++)
		free(r->ops[i]);
	free(r->ops);
	cp_cli_sites_free(r->sites);
}

enum {
	CP_REP_T_HEAD, CP_REP_T_ACC, CP_REP_T_COV, CP_REP_T_WHY,
	CP_REP_T_SITES, CP_REP_T_RANKS, CP_REP_T_RSITES, CP_REP_T_STRIDED,
	CP_REP_T_WORST, CP_REP_T_COLL, CP_REP_T_CWORST, CP_REP_NT
};

#define CP_REP_N(a)	(sizeof(a) / sizeof((a)[0]))

static void cp_rep_tabs_init(struct cp_cli_tab *t, const char *title)
{
	cp_cli_tab_init(&t[CP_REP_T_HEAD], "header", title, 2,
			cp_rep_kv_cols, cp_rep_kv_cols, true);
	cp_cli_tab_init(&t[CP_REP_T_ACC], "accuracy",
			"1. Model accuracy: mu per model", 8,
			cp_rep_acc_cols, cp_rep_acc_heads, false);
	cp_cli_tab_init(&t[CP_REP_T_COV], "coverage",
			"2. Rows each model predicted", 5, cp_rep_cov_cols,
			cp_rep_cov_heads, false);
	cp_cli_tab_init(&t[CP_REP_T_WHY], "coverage_reasons",
			"3. Why rows were not predicted, and caveats", 3,
			cp_rep_why_cols, cp_rep_why_cols, false);
	cp_cli_tab_init(&t[CP_REP_T_SITES], "sites",
			"4. Where time goes: callsites by MPI time",
			CP_REP_N(cp_rep_site_cols), cp_rep_site_cols,
			cp_rep_site_heads, false);
	cp_cli_tab_init(&t[CP_REP_T_RANKS], "ranks",
			"5. Per rank: MPI time and share", CP_CLI_RANKS_NCOLS,
			cp_cli_ranks_cols, cp_cli_ranks_heads, false);
	cp_cli_tab_init(&t[CP_REP_T_RSITES], "site_ranks",
			"6. Callsites across ranks: MPI time per rank",
			CP_CLI_RSITE_NCOLS, cp_cli_rsite_cols,
			cp_cli_rsite_heads, false);
	cp_cli_tab_init(&t[CP_REP_T_STRIDED], "strided",
			"7. Middleware-dominated strided sends",
			CP_REP_N(cp_rep_sg_cols), cp_rep_sg_cols,
			cp_rep_sg_heads, false);
	cp_cli_tab_init(&t[CP_REP_T_WORST], "worst",
			"8. Worst-predicted calls", CP_REP_N(cp_rep_worst_cols),
			cp_rep_worst_cols, cp_rep_worst_heads, false);
	cp_cli_tab_init(&t[CP_REP_T_COLL], "collectives",
			"9. Collectives: accuracy per operation, size and "
			"algorithm", CP_CLI_COLL_NCOLS, cp_cli_coll_cols,
			cp_cli_coll_heads, false);
	cp_cli_tab_init(&t[CP_REP_T_CWORST], "coll_worst",
			"10. Worst-predicted collective calls",
			CP_CLI_CWORST_NCOLS, cp_cli_cworst_cols,
			cp_cli_cworst_heads, false);
}

/* Fill every table.  Returns 0, -CP_DB_EIO or 1 out of memory. */
static int cp_rep_build(struct cp_rep *r, struct cp_cli_tab *t,
			const char *dir)
{
	int i, ret;

	cp_rep_head_run(&t[CP_REP_T_HEAD], r, dir);
	cp_rep_head_pred(&t[CP_REP_T_HEAD], r);
	cp_rep_head_match(&t[CP_REP_T_HEAD], r);
	cp_rep_accuracy(&t[CP_REP_T_ACC], r);
	cp_rep_coverage(&t[CP_REP_T_COV], &t[CP_REP_T_WHY], r);
	ret = cp_rep_sites(&t[CP_REP_T_SITES], r);
	if (!ret)
		ret = cp_cli_ranks_tabs(r->db, r->sites, r->top,
					&t[CP_REP_T_RANKS],
					&t[CP_REP_T_RSITES]);
	if (!ret)
		ret = cp_rep_strided(&t[CP_REP_T_STRIDED], r);
	cp_rep_worst(&t[CP_REP_T_WORST], r);
	if (!ret)
		ret = cp_cli_coll_tabs(&r->sum, r->ops, r->nops, r->top,
				       &t[CP_REP_T_COLL], &t[CP_REP_T_CWORST]);
	for (i = 0; !ret && i < CP_REP_NT; i++)
		if (t[i].oom)
			ret = 1;
	return ret;
}

#define CP_REP_WIDTH	120	/* text lines, unless --wide */
#define CP_REP_EWRITE	3	/* f failed; said when it is closed */

/* The page of --format html: the tables t and the charts' data.
 * Returns 0, CP_CLI_FAIL after saying why, or CP_REP_EWRITE. */
static int cp_rep_html(struct cp_rep *r, const struct cp_cli_tab *t,
		       FILE *f, const char *title)
{
	struct cp_cli_html_run run = {
		.db = r->db, .t = t, .n = CP_REP_NT,
		.params = r->params.nvalues == 1 &&
			  r->params.ranks == r->tot.ranks ?
			  r->params.first : NULL,
	};
	int ret = cp_cli_html_page(f, title, "report", cp_cli_html_report,
				   &run);

	return ret < 0 ? CP_REP_EWRITE : ret;
}

/* Build and print to f.  Returns 0, CP_CLI_FAIL after saying why, or
 * CP_REP_EWRITE. */
static int cp_rep_run(struct cp_rep *r, const struct cp_rep_args *a,
		      enum cp_cli_fmt fmt, FILE *f)
{
	struct cp_cli_tab t[CP_REP_NT];
	char title[4200];
	int i, ret;

	snprintf(title, sizeof(title), "commprof report of %s", a->dir);
	cp_rep_tabs_init(t, title);
	ret = cp_rep_collect(r);
	if (!ret)
		ret = cp_rep_build(r, t, a->dir);
	if (ret) {
		cp_cli_err("%s", ret < 0 ? cp_db_errmsg(r->db) : ret == 2 ?
			   "the run's reduction (red_* tables of commprof.db) "
			   "holds a record this commprof cannot read" :
			   "out of memory");
		ret = CP_CLI_FAIL;
	} else if (a->html) {
		ret = cp_rep_html(r, t, f, title);
	} else if (cp_cli_tabs_print(f, fmt, t, CP_REP_NT,
				     a->wide ? 0 : CP_REP_WIDTH)) {
		ret = CP_REP_EWRITE;	/* reported when f is closed */
	}
	for (i = 0; i < CP_REP_NT; i++)
		cp_cli_tab_free(&t[i]);
	return ret;
}

int cp_cli_report(int argc, char **argv)
{
	struct cp_rep r = { 0 };
	struct cp_rep_args a;
	enum cp_cli_fmt fmt;
	FILE *f;
	int ret;

	ret = cp_rep_parse(argc, argv, &a);
	if (ret)
		return ret;
	if (cp_rep_fmt(a.format, &fmt)) {
		cp_cli_err("report: unknown format '%s'; use text, markdown, "
			   "json, csv or html", a.format);
		return CP_CLI_USAGE;
	}
	if (cp_cli_open(&a.dir, &r.db))
		return CP_CLI_FAIL;
	a.html = !strcmp(a.format, "html");
	r.top = a.top;
	r.all_links = fmt == CP_CLI_FMT_JSON || fmt == CP_CLI_FMT_CSV;
	r.sites = cp_cli_sites_new(r.db);
	ret = CP_CLI_FAIL;
	if (!r.sites) {
		cp_cli_err("out of memory");
		goto out_free;
	}
	if (a.html && !cp_cli_html_lib())
		goto out_free;		/* said before an output file is made */
	if (a.html && cp_cli_rows(r.db))	/* the views show rows */
		goto out_free;
	f = cp_cli_out_open(a.out);
	if (!f)
		goto out_free;
	ret = cp_rep_run(&r, &a, fmt, f);
	if (cp_cli_out_close(f, a.out, ret != CP_REP_EWRITE,
			     ret == CP_CLI_FAIL))
		ret = CP_CLI_FAIL;
out_free:
	cp_rep_free(&r);
	cp_db_close(r.db);
	return ret;
}
