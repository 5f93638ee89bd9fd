/*
 * cp_red_sum.c - the summary of a reduction (src/reduce/cp_red.h): rows
 * per coverage class, mu histograms per model and group, the worst rows
 * per model, the strided send groups; adding a result, merging, packing.
 *
 * The groups live in open-addressing tables.  A compared row touches up
 * to four groups of each model, and rows come to a home grouped by
 * channel, so each (model, group) remembers the slot it used last and
 * tries it first.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "src/reduce/cp_red_sum.h"

void cp_red_sum_init(struct cp_red_sum *s)
{
	memset(s, 0, sizeof(*s));
}

void cp_red_sum_free(struct cp_red_sum *s)
{
	size_t i;

	for (i = 0; s->acc && i <= s->maskacc; i++)
		if (s->acc[i].model >= 0)
			cp_hist_free(&s->acc[i].h);
	free(s->acc);
	free(s->cov);
	free(s->sg);
	cp_red_sum_init(s);
}

/* ---- coverage ---- */

static int cp_red_cov_add(struct cp_red_sum *s, const struct cp_sum_cov *c)
{
	struct cp_sum_cov *v;
	size_t i;

	for (i = 0; i < s->ncov; i++) {
		v = &s->cov[i];
		if (v->pred_flags == c->pred_flags &&
		    v->pred_mask == c->pred_mask && v->mu_mask == c->mu_mask) {
			v->rows += c->rows;
			/* the classes are few; keep the busy ones in front */
			if (i) {
				struct cp_sum_cov t = s->cov[i - 1];

				s->cov[i - 1] = *v;
				*v = t;
			}
			return 0;
		}
	}
	if (s->ncov == s->capcov) {
		size_t cap = s->capcov ? 2 * s->capcov : 16;

		v = realloc(s->cov, cap * sizeof(*v));
		if (!v)
			return -CP_ENOMEM;
		s->cov = v;
		s->capcov = cap;
	}
	s->cov[s->ncov++] = *c;
	return 0;
}

/* ---- accuracy groups ---- */

static uint64_t cp_red_mix(uint64_t x)
{
	x ^= x >> 31;
	x *= UINT64_C(0x9e3779b97f4a7c15);
	return x ^ (x >> 29);
}

static size_t cp_red_acc_home(const struct cp_red_sum *s, int32_t model,
			      int32_t grp, int64_t key)
{
	return cp_red_mix((uint64_t)key * 31 + (uint64_t)(model * 8 + grp)) &
	       s->maskacc;
}

/* Slot of (model, grp, key): where it is, or the free slot for it. */
static struct cp_red_acc *cp_red_acc_slot(struct cp_red_sum *s,
					  int32_t model, int32_t grp,
					  int64_t key)
{
	size_t i = cp_red_acc_home(s, model, grp, key);
	struct cp_red_acc *a;

	for (;; i = (i + 1) & s->maskacc) {
		a = &s->acc[i];
		if (a->model < 0 || (a->model == model && a->grp == grp &&
				     a->key == key))
			return a;
	}
}

static int cp_red_acc_grow(struct cp_red_sum *s)
{
	struct cp_red_sum n = { .maskacc = s->maskacc ? 2 * s->maskacc + 1 :
					   63 };
	size_t i;

	n.acc = malloc((n.maskacc + 1) * sizeof(*n.acc));
	if (!n.acc)
		return -CP_ENOMEM;
	for (i = 0; i <= n.maskacc; i++)
		n.acc[i].model = -1;
	for (i = 0; s->acc && i <= s->maskacc; i++)
		if (s->acc[i].model >= 0)
			*cp_red_acc_slot(&n, s->acc[i].model, s->acc[i].grp,
					 s->acc[i].key) = s->acc[i];
	free(s->acc);
	s->acc = n.acc;
	s->maskacc = n.maskacc;
	return 0;
}

/* The histogram of (model, grp, key), made empty when new; NULL when out
 * of memory. */
static struct cp_hist *cp_red_acc_get(struct cp_red_sum *s, int32_t model,
				      int32_t grp, int64_t key)
{
	struct cp_red_acc *a = s->acc ? cp_red_acc_slot(s, model, grp, key) :
				NULL;

	if (a && a->model >= 0)
		return &a->h;
	if (!s->acc || 2 * (s->nacc + 1) > s->maskacc + 1) {
		if (cp_red_acc_grow(s))
			return NULL;
		a = cp_red_acc_slot(s, model, grp, key);
	}
	a->model = model;
	a->grp = grp;
	a->key = key;
	cp_hist_init(&a->h, grp == CP_RED_G_LINK ? CP_RED_LINK_RES :
		     CP_HIST_FINE);
	s->nacc++;
	return &a->h;
}

/* ---- worst rows ---- */

/* True when a is worse predicted than b: larger mu, then the earlier
 * row (rank, seq) first, as the report lists them. */
static bool cp_red_worse(const struct cp_sum_worst *a,
			 const struct cp_sum_worst *b)
{
	if (a->mu != b->mu)
		return a->mu > b->mu;
	if (a->rank != b->rank)
		return a->rank < b->rank;
	return a->seq < b->seq;
}

/* Put w in its place among the *n (at most CP_RED_WORST) of v. */
static void cp_red_worst_put(struct cp_sum_worst *v, size_t *n,
			     const struct cp_sum_worst *w)
{
	size_t i;

	if (*n == CP_RED_WORST && !cp_red_worse(w, &v[CP_RED_WORST - 1]))
		return;
	i = *n < CP_RED_WORST ? (*n)++ : CP_RED_WORST - 1;
	while (i > 0 && cp_red_worse(w, &v[i - 1])) {
		v[i] = v[i - 1];
		i--;
	}
	v[i] = *w;
}

static void cp_red_worst_add(struct cp_red_sum *s, int k,
			     const struct cp_sum_worst *w)
{
	cp_red_worst_put(s->worst[k], &s->nworst[k], w);
}

/* The same collective call: every rank's row of an instance has its
 * communicator and times. */
static bool cp_red_same_call(const struct cp_sum_worst *a,
			     const struct cp_sum_worst *b)
{
	return a->op == b->op && a->comm == b->comm &&
	       a->t_transfer_ns == b->t_transfer_ns &&
	       a->t_wait_ns == b->t_wait_ns;
}

/* A collective row among the worst calls, each call once by its worst
 * row.  A call left out once stays out: the list then holds
 * CP_RED_WORST calls each worse than any row of it. */
static void cp_red_cworst_add(struct cp_red_sum *s,
			      const struct cp_sum_worst *w)
{
	size_t i;

	for (i = 0; i < s->ncworst; i++)
		if (cp_red_same_call(&s->cworst[i], w))
			break;
	if (i < s->ncworst) {
		if (!cp_red_worse(w, &s->cworst[i]))
			return;
		memmove(&s->cworst[i], &s->cworst[i + 1],
			(s->ncworst - i - 1) * sizeof(*s->cworst));
		s->ncworst--;
	}
	cp_red_worst_put(s->cworst, &s->ncworst, w);
}

/* ---- adding a result ---- */

/* Link of a point-to-point row: world ranks a < b as a << 32 | b, or -1. */
static int64_t cp_red_link(const struct cp_red_rec *r)
{
	int32_t a = r->rank, b = r->peer;

	if (r->coll || r->root >= 0 || b < 0 || a == b)
		return -1;
	if (a > b) {
		a = b;
		b = r->rank;
	}
	return (int64_t)a << 32 | b;
}

/* Key of r's CP_RED_G_COLL group, -1 none. */
static int64_t cp_red_coll_key(const struct cp_red_rec *r,
			       int64_t t_transfer_ns)
{
	if (r->alg == CP_RED_ALG_NONE || t_transfer_ns < 0)
		return -1;
	return CP_RED_COLL_KEY(r->op, cp_row_size_class(r->bytes), r->alg);
}

static int cp_red_acc_add(struct cp_red_sum *s, int k,
			  const struct cp_red_rec *r, int64_t t_transfer_ns,
			  double mu)
{
	int64_t key[CP_RED_G_CTIME] = { 0, r->op,
					cp_row_size_class(r->bytes),
					cp_red_link(r),
					cp_red_coll_key(r, t_transfer_ns) };
	struct cp_hist *h;
	int g;

	for (g = 0; g < CP_RED_G_CTIME; g++) {
		if (key[g] < 0)
			continue;
		h = cp_red_acc_get(s, k, g, key[g]);
		if (!h || cp_hist_add(h, mu) == -CP_ENOMEM)
			return -CP_ENOMEM;
	}
	return 0;
}

/* The times of a collective row into its CP_RED_G_CTIME group. */
static int cp_red_ctime_add(struct cp_red_sum *s, int64_t key,
			    int64_t t_transfer_ns, int64_t t_wait_ns)
{
	struct cp_hist *h;

	h = cp_red_acc_get(s, CP_SUM_T_TRANSFER, CP_RED_G_CTIME, key);
	if (!h || cp_hist_add(h, (double)t_transfer_ns + 1) == -CP_ENOMEM)
		return -CP_ENOMEM;
	if (t_wait_ns < 0)
		return 0;
	h = cp_red_acc_get(s, CP_SUM_T_WAIT, CP_RED_G_CTIME, key);
	if (!h || cp_hist_add(h, (double)t_wait_ns + 1) == -CP_ENOMEM)
		return -CP_ENOMEM;
	return 0;
}

int cp_red_add_result(struct cp_red_sum *s, const struct cp_red_rec *r,
		      int64_t t_transfer_ns, int64_t t_wait_ns,
		      const double *mu)
{
	int64_t ckey = cp_red_coll_key(r, t_transfer_ns);
	struct cp_sum_cov c;
	struct cp_sum_worst w;
	int k, ret;

	memset(&c, 0, sizeof(c));	/* packed as it is: no stray bytes */
	c.pred_flags = r->pred_flags;
	c.rows = 1;
	for (k = 0; k < CP_NMODELS; k++) {
		if (!isnan(r->pred_ns[k]))
			c.pred_mask |= 1u << k;
		if (isfinite(mu[k]) && mu[k] >= 1)
			c.mu_mask |= 1u << k;
	}
	ret = cp_red_cov_add(s, &c);
	if (!ret && ckey >= 0)
		ret = cp_red_ctime_add(s, ckey, t_transfer_ns, t_wait_ns);
	if (ret || !c.mu_mask)
		return ret;
	if (!(r->flags & CP_F_HALF))
		s->calls_compared++;
	memset(&w, 0, sizeof(w));
	w.t_transfer_ns = t_transfer_ns;
	w.seq = r->seq;
	w.bytes = r->bytes;
	w.site = r->site;
	w.rank = r->rank;
	w.op = r->op;
	w.peer = r->peer;
	w.root = r->root;
	for (k = 0; k < CP_NMODELS; k++) {
		if (!(c.mu_mask & 1u << k))
			continue;
		if (cp_red_acc_add(s, k, r, t_transfer_ns, mu[k]))
			return -CP_ENOMEM;
		w.mu = mu[k];
		w.pred_ns = r->pred_ns[k];
		w.model = k;
		cp_red_worst_add(s, k, &w);
	}
	if (ckey >= 0 && (c.mu_mask & 1u << CP_MODEL_TAULOP)) {
		w.mu = mu[CP_MODEL_TAULOP];
		w.pred_ns = r->pred_ns[CP_MODEL_TAULOP];
		w.model = CP_MODEL_TAULOP;
		w.t_wait_ns = t_wait_ns;
		w.comm = r->comm;
		w.alg = r->alg;
		cp_red_cworst_add(s, &w);
	}
	return 0;
}

/* ---- strided groups ---- */

static bool cp_red_sg_same(const struct cp_sum_sg *a,
			   const struct cp_sum_sg *b)
{
	return a->rank == b->rank && a->site == b->site && a->op == b->op &&
	       a->bytes == b->bytes && a->layout == b->layout;
}

static struct cp_sum_sg *cp_red_sg_slot(struct cp_sum_sg *v, size_t mask,
					const struct cp_sum_sg *k)
{
	size_t i = cp_red_mix(k->site ^ cp_red_mix(k->bytes ^
			      ((uint64_t)(uint32_t)k->rank << 32 |
			       (uint32_t)(k->op * 65599 + k->layout)))) &
		   mask;

	while (v[i].calls && !cp_red_sg_same(&v[i], k))
		i = (i + 1) & mask;
	return &v[i];
}

static int cp_red_sg_grow(struct cp_red_sum *s)
{
	size_t mask = s->masksg ? 2 * s->masksg + 1 : 15, i;
	struct cp_sum_sg *v = calloc(mask + 1, sizeof(*v));

	if (!v)
		return -CP_ENOMEM;
	for (i = 0; s->sg && i <= s->masksg; i++)
		if (s->sg[i].calls)
			*cp_red_sg_slot(v, mask, &s->sg[i]) = s->sg[i];
	free(s->sg);
	s->sg = v;
	s->masksg = mask;
	return 0;
}

/* Add group g (calls > 0) to s's group of the same key. */
static int cp_red_sg_put(struct cp_red_sum *s, const struct cp_sum_sg *g)
{
	struct cp_sum_sg *v;

	if ((!s->sg || 2 * (s->nsg + 1) > s->masksg + 1) && cp_red_sg_grow(s))
		return -CP_ENOMEM;
	v = cp_red_sg_slot(s->sg, s->masksg, g);
	if (!v->calls) {
		*v = *g;
		s->nsg++;
		return 0;
	}
	v->calls += g->calls;
	v->log3p_ns += g->log3p_ns;
	v->log3p_n += g->log3p_n;
	v->lmw_ns += g->lmw_ns;
	v->lmw_n += g->lmw_n;
	v->measured_ns += g->measured_ns;
	return 0;
}

int cp_red_add_strided(struct cp_red_sum *s, const struct cp_sum_row *r)
{
	struct cp_sum_sg g;
	double t = r->pred_ns[CP_MODEL_LOG3P];

	if (!(r->pred_flags & CP_PF_L3_LMW_LARGEST) ||
	    (r->flags & CP_F_RECV) || r->layout < 0)
		return 0;
	memset(&g, 0, sizeof(g));
	g.rank = r->rank;
	g.op = r->op;
	g.layout = r->layout;
	g.site = r->site;
	g.bytes = r->bytes;
	g.calls = 1;
	g.log3p_ns = isnan(t) ? 0 : t;
	g.log3p_n = !isnan(t);
	g.lmw_ns = isnan(r->pred_lmw_ns) ? 0 : r->pred_lmw_ns;
	g.lmw_n = !isnan(r->pred_lmw_ns);
	g.measured_ns = r->t_measured_ns;
	return cp_red_sg_put(s, &g);
}

/* ---- merging ---- */

static void cp_red_st_add(struct cp_match_stats *a,
			  const struct cp_match_stats *b)
{
	size_t *x = (size_t *)a;
	const size_t *y = (const size_t *)b;
	size_t i;

	/* every field is a size_t count */
	for (i = 0; i < sizeof(*a) / sizeof(size_t); i++)
		x[i] += y[i];
}

/* What cp_red_sum_merge and cp_red_sum_take add alike: all but the
 * histograms. */
static int cp_red_sum_merge_rest(struct cp_red_sum *into,
				 const struct cp_red_sum *from)
{
	size_t i;
	int k;

	cp_red_st_add(&into->st, &from->st);
	into->p2p_skipped += from->p2p_skipped;
	into->calls_compared += from->calls_compared;
	for (i = 0; i < from->ncov; i++)
		if (cp_red_cov_add(into, &from->cov[i]))
			return -CP_ENOMEM;
	for (k = 0; k < CP_NMODELS; k++)
		for (i = 0; i < from->nworst[k]; i++)
			cp_red_worst_add(into, k, &from->worst[k][i]);
	for (i = 0; i < from->ncworst; i++)
		cp_red_cworst_add(into, &from->cworst[i]);
	for (i = 0; from->sg && i <= from->masksg; i++)
		if (from->sg[i].calls && cp_red_sg_put(into, &from->sg[i]))
			return -CP_ENOMEM;
	return 0;
}

int cp_red_sum_merge(struct cp_red_sum *into, const struct cp_red_sum *from)
{
	struct cp_hist *h;
	size_t i;

	for (i = 0; from->acc && i <= from->maskacc; i++) {
		const struct cp_red_acc *a = &from->acc[i];

		if (a->model < 0)
			continue;
		h = cp_red_acc_get(into, a->model, a->grp, a->key);
		if (!h || cp_hist_merge(h, &a->h))
			return -CP_ENOMEM;
	}
	return cp_red_sum_merge_rest(into, from);
}

int cp_red_sum_take(struct cp_red_sum *into, struct cp_red_sum *from)
{
	struct cp_hist *h;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && from->acc && i <= from->maskacc; i++) {
		struct cp_red_acc *a = &from->acc[i];

		if (a->model < 0)
			continue;
		h = cp_red_acc_get(into, a->model, a->grp, a->key);
		if (!h) {
			ret = -CP_ENOMEM;
		} else if (!h->mask && h->res == a->h.res) {
			/* new in into (or empty, nothing allocated): the
			 * bins move */
			*h = a->h;
			cp_hist_init(&a->h, h->res);
		} else if (cp_hist_merge(h, &a->h)) {
			ret = -CP_ENOMEM;
		} else {
			cp_hist_free(&a->h);
		}
	}
	if (!ret)
		ret = cp_red_sum_merge_rest(into, from);
	cp_red_sum_free(from);
	return ret;
}

/* ---- packing ---- */

#define CP_RED_MAGIC	0x32524350u	/* "PCR2" */

/* The packed form, in native byte order for the ranks of one job:
 * magic, st, p2p_skipped, calls_compared, then ncov and the coverage
 * entries, nacc and per group model, grp, key, the packed histogram's
 * length and bytes, per model nworst and its rows, nsg and the groups,
 * ncworst and its rows. */
struct cp_red_out {
	unsigned char *p;	/* next byte; NULL: only count */
	size_t at, len;
};

static void cp_red_put(struct cp_red_out *o, const void *v, size_t n)
{
	if (n && o->p && o->at + n <= o->len)
		memcpy(o->p + o->at, v, n);
	o->at += n;
}

static void cp_red_put_u64(struct cp_red_out *o, uint64_t v)
{
	cp_red_put(o, &v, sizeof(v));
}

static void cp_red_put_hist(struct cp_red_out *o, const struct cp_hist *h)
{
	size_t n = cp_hist_pack(h, NULL, 0);

	cp_red_put_u64(o, n);
	if (n && o->p && o->at + n <= o->len)
		cp_hist_pack(h, o->p + o->at, n);
	o->at += n;
}

/* Write s to o (or only count its bytes). */
static void cp_red_sum_put(const struct cp_red_sum *s, struct cp_red_out *o)
{
	uint32_t magic = CP_RED_MAGIC;
	size_t i;
	int k;

	cp_red_put(o, &magic, sizeof(magic));
	cp_red_put(o, &s->st, sizeof(s->st));
	cp_red_put_u64(o, s->p2p_skipped);
	cp_red_put_u64(o, s->calls_compared);
	cp_red_put_u64(o, s->ncov);
	cp_red_put(o, s->cov, s->ncov * sizeof(*s->cov));
	cp_red_put_u64(o, s->nacc);
	for (i = 0; s->acc && i <= s->maskacc; i++) {
		const struct cp_red_acc *a = &s->acc[i];

		if (a->model < 0)
			continue;
		cp_red_put(o, &a->model, sizeof(a->model));
		cp_red_put(o, &a->grp, sizeof(a->grp));
		cp_red_put(o, &a->key, sizeof(a->key));
		cp_red_put_hist(o, &a->h);
	}
	for (k = 0; k < CP_NMODELS; k++) {
		cp_red_put_u64(o, s->nworst[k]);
		cp_red_put(o, s->worst[k], s->nworst[k] * sizeof(**s->worst));
	}
	cp_red_put_u64(o, s->nsg);
	for (i = 0; s->sg && i <= s->masksg; i++)
		if (s->sg[i].calls)
			cp_red_put(o, &s->sg[i], sizeof(s->sg[i]));
	cp_red_put_u64(o, s->ncworst);
	cp_red_put(o, s->cworst, s->ncworst * sizeof(*s->cworst));
}

size_t cp_red_sum_pack(const struct cp_red_sum *s, void *buf, size_t len)
{
	struct cp_red_out o = { .len = len };

	cp_red_sum_put(s, &o);		/* all or nothing */
	if (o.at <= len && buf) {
		o.p = buf;
		o.at = 0;
		cp_red_sum_put(s, &o);
	}
	return o.at;
}

struct cp_red_in {
	const unsigned char *p;
	size_t at, len;
	bool bad;		/* read past the end */
};

static void cp_red_get(struct cp_red_in *in, void *v, size_t n)
{
	if (in->bad || in->len - in->at < n) {
		in->bad = true;
		memset(v, 0, n);
		return;
	}
	memcpy(v, in->p + in->at, n);
	in->at += n;
}

static uint64_t cp_red_get_u64(struct cp_red_in *in)
{
	uint64_t v;

	cp_red_get(in, &v, sizeof(v));
	return v;
}

/* True when (model, grp) names a group of the accuracy summary. */
static bool cp_red_acc_ok(int32_t model, int32_t grp)
{
	if (grp < 0 || grp >= CP_RED_NG || model < 0)
		return false;
	return grp == CP_RED_G_CTIME ? model == CP_SUM_T_TRANSFER ||
				       model == CP_SUM_T_WAIT :
	       model < CP_NMODELS;
}

/* Merge the next packed group of in into s. */
static int cp_red_get_acc(struct cp_red_in *in, struct cp_red_sum *s)
{
	struct cp_red_acc a;
	struct cp_hist *h;
	uint64_t n;

	cp_red_get(in, &a.model, sizeof(a.model));
	cp_red_get(in, &a.grp, sizeof(a.grp));
	cp_red_get(in, &a.key, sizeof(a.key));
	n = cp_red_get_u64(in);
	if (in->bad || n > in->len - in->at || a.model < 0 ||
	    !cp_red_acc_ok(a.model, a.grp))
		return -CP_EINVAL;
	h = cp_red_acc_get(s, a.model, a.grp, a.key);
	if (!h)
		return -CP_ENOMEM;
	in->at += n;
	return cp_hist_unpack(h, in->p + in->at - n, n);
}

int cp_red_sum_unpack(struct cp_red_sum *s, const void *buf, size_t len)
{
	struct cp_red_in in = { .p = buf, .len = len };
	struct cp_red_sum t;
	uint64_t n, i;
	uint32_t magic;
	int k, ret = 0;

	/* into a summary of its own first: s changes only when all of it
	 * reads */
	cp_red_sum_init(&t);
	cp_red_get(&in, &magic, sizeof(magic));
	cp_red_get(&in, &t.st, sizeof(t.st));
	t.p2p_skipped = cp_red_get_u64(&in);
	t.calls_compared = cp_red_get_u64(&in);
	n = cp_red_get_u64(&in);
	if (in.bad || magic != CP_RED_MAGIC ||
	    n > (len - in.at) / sizeof(struct cp_sum_cov))
		return -CP_EINVAL;
	for (i = 0; !ret && i < n; i++) {
		struct cp_sum_cov c;

		cp_red_get(&in, &c, sizeof(c));
		ret = cp_red_cov_add(&t, &c);
	}
	n = cp_red_get_u64(&in);
	for (i = 0; !ret && !in.bad && i < n; i++)
		ret = cp_red_get_acc(&in, &t);
	for (k = 0; !ret && k < CP_NMODELS; k++) {
		n = cp_red_get_u64(&in);
		if (n > CP_RED_WORST)
			ret = -CP_EINVAL;
		for (i = 0; !ret && i < n; i++) {
			struct cp_sum_worst w;

			cp_red_get(&in, &w, sizeof(w));
			cp_red_worst_add(&t, k, &w);
		}
	}
	n = cp_red_get_u64(&in);
	for (i = 0; !ret && !in.bad && i < n; i++) {
		struct cp_sum_sg g;

		cp_red_get(&in, &g, sizeof(g));
		ret = g.calls ? cp_red_sg_put(&t, &g) : -CP_EINVAL;
	}
	n = cp_red_get_u64(&in);
	if (!ret && n > CP_RED_WORST)
		ret = -CP_EINVAL;
	for (i = 0; !ret && i < n; i++) {
		struct cp_sum_worst w;

		cp_red_get(&in, &w, sizeof(w));
		cp_red_cworst_add(&t, &w);
	}
	if (!ret && (in.bad || in.at != len))
		ret = -CP_EINVAL;
	if (!ret)
		return cp_red_sum_take(s, &t);
	cp_red_sum_free(&t);
	return ret;
}

/* ---- records (src/common/cp_sum.h) ---- */

/* The counts of struct cp_match_stats by the names records give them. */
static const struct {
	const char *key;
	size_t off;
} cp_red_counts[] = {
#define CP_RED_COUNT(f) { #f, offsetof(struct cp_match_stats, f) }
	CP_RED_COUNT(p2p_rows), CP_RED_COUNT(p2p_matched),
	CP_RED_COUNT(p2p_counts), CP_RED_COUNT(p2p_groups),
	CP_RED_COUNT(p2p_negative), CP_RED_COUNT(p2p_cut),
	CP_RED_COUNT(p2p_hole), CP_RED_COUNT(coll_rows),
	CP_RED_COUNT(coll_matched), CP_RED_COUNT(coll_incomplete),
	CP_RED_COUNT(coll_mixed), CP_RED_COUNT(coll_hole),
	CP_RED_COUNT(coll_insts),
#undef CP_RED_COUNT
};

#define CP_RED_NCOUNTS	(sizeof(cp_red_counts) / sizeof(cp_red_counts[0]))

static int cp_red_each_count(const struct cp_red_sum *s,
			     int (*fn)(void *arg, const struct cp_sum_rec *r),
			     void *arg)
{
	struct cp_sum_rec r = { .kind = CP_SUM_COUNT };
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < CP_RED_NCOUNTS + 2; i++) {
		if (i < CP_RED_NCOUNTS) {
			r.u.count.key = cp_red_counts[i].key;
			r.u.count.value = (int64_t)*(const size_t *)
				((const char *)&s->st + cp_red_counts[i].off);
		} else if (i == CP_RED_NCOUNTS) {
			r.u.count.key = "p2p_skipped";
			r.u.count.value = (int64_t)s->p2p_skipped;
		} else {
			r.u.count.key = "calls_compared";
			r.u.count.value = (int64_t)s->calls_compared;
		}
		ret = fn(arg, &r);
	}
	return ret;
}

static int cp_red_each_acc(const struct cp_red_sum *s,
			   int (*fn)(void *arg, const struct cp_sum_rec *r),
			   void *arg)
{
	struct cp_sum_rec r = { .kind = CP_SUM_ACC };
	unsigned char *buf = NULL, *nb;
	size_t i, cap = 0, len;
	int ret = 0;

	for (i = 0; !ret && s->acc && i <= s->maskacc; i++) {
		const struct cp_red_acc *a = &s->acc[i];

		if (a->model < 0)
			continue;
		len = cp_hist_pack(&a->h, NULL, 0);
		if (len > cap) {
			nb = realloc(buf, len);
			if (!nb) {
				ret = -CP_ENOMEM;
				break;
			}
			buf = nb;
			cap = len;
		}
		cp_hist_pack(&a->h, buf, len);
		r.u.acc.model = a->model;
		r.u.acc.grp = a->grp;
		r.u.acc.key = a->key;
		r.u.acc.n = a->h.n;
		r.u.acc.sum = a->h.sum;
		r.u.acc.bins = buf;
		r.u.acc.len = len;
		ret = fn(arg, &r);
	}
	free(buf);
	return ret;
}

int cp_red_sum_each(const struct cp_red_sum *s,
		    int (*fn)(void *arg, const struct cp_sum_rec *r),
		    void *arg)
{
	struct cp_sum_rec r;
	size_t i;
	int k, ret;

	ret = cp_red_each_count(s, fn, arg);
	for (i = 0; !ret && i < s->ncov; i++) {
		r.kind = CP_SUM_COV;
		r.u.cov = s->cov[i];
		ret = fn(arg, &r);
	}
	if (!ret)
		ret = cp_red_each_acc(s, fn, arg);
	for (k = 0; !ret && k < CP_NMODELS; k++)
		for (i = 0; !ret && i < s->nworst[k]; i++) {
			r.kind = CP_SUM_WORST;
			r.u.worst = s->worst[k][i];
			ret = fn(arg, &r);
		}
	for (i = 0; !ret && s->sg && i <= s->masksg; i++) {
		if (!s->sg[i].calls)
			continue;
		r.kind = CP_SUM_SG;
		r.u.sg = s->sg[i];
		ret = fn(arg, &r);
	}
	for (i = 0; !ret && i < s->ncworst; i++) {
		r.kind = CP_SUM_CWORST;
		r.u.worst = s->cworst[i];
		ret = fn(arg, &r);
	}
	return ret;
}

static int cp_red_add_count(struct cp_red_sum *s,
			    const struct cp_sum_count *c)
{
	size_t i;

	if (c->value < 0)
		return -CP_EINVAL;
	if (!strcmp(c->key, "p2p_skipped")) {
		s->p2p_skipped += (uint64_t)c->value;
		return 0;
	}
	if (!strcmp(c->key, "calls_compared")) {
		s->calls_compared += (uint64_t)c->value;
		return 0;
	}
	for (i = 0; i < CP_RED_NCOUNTS; i++)
		if (!strcmp(c->key, cp_red_counts[i].key)) {
			*(size_t *)((char *)&s->st + cp_red_counts[i].off) +=
				(size_t)c->value;
			return 0;
		}
	return 0;	/* a count of a later version: not ours to know */
}

int cp_red_sum_add_rec(struct cp_red_sum *s, const struct cp_sum_rec *r)
{
	const struct cp_sum_acc *a = &r->u.acc;
	struct cp_hist *h;

	switch (r->kind) {
	case CP_SUM_COUNT:
		return cp_red_add_count(s, &r->u.count);
	case CP_SUM_COV:
		return cp_red_cov_add(s, &r->u.cov);
	case CP_SUM_ACC:
		if (!cp_red_acc_ok(a->model, a->grp))
			return -CP_EINVAL;
		h = cp_red_acc_get(s, a->model, a->grp, a->key);
		return h ? cp_hist_unpack(h, a->bins, a->len) : -CP_ENOMEM;
	case CP_SUM_WORST:
		if (r->u.worst.model < 0 || r->u.worst.model >= CP_NMODELS)
			return -CP_EINVAL;
		cp_red_worst_add(s, r->u.worst.model, &r->u.worst);
		return 0;
	case CP_SUM_SG:
		return r->u.sg.calls ? cp_red_sg_put(s, &r->u.sg) :
		       -CP_EINVAL;
	case CP_SUM_CWORST:
		if (r->u.worst.model != CP_MODEL_TAULOP)
			return -CP_EINVAL;
		cp_red_cworst_add(s, &r->u.worst);
		return 0;
	}
	return -CP_EINVAL;
}
