/*
 * cp_lmo_fit.c - LMO's estimate containers, thresholds S, M1, M2, the
 * gather corrections kappa, and predictions of the estimates through the
 * formulas of analysis/cp_model.h (analysis/cp_lmo.h, LMO paper).
 * The estimation of C, t and beta per regime is analysis/cp_lmo_ls.c.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_breaks.h"
#include "analysis/cp_err.h"
#include "analysis/cp_lmo.h"
#include "analysis/cp_model.h"

static const char cause_unset[] = "not estimated";
static const char cause_nonfinite[] = "non-finite estimate";
static const char cause_dep_lmo[] = "depends on a failed LMO estimate";
static const char cause_few[] = "fewer than 3 sizes in the fitted range";

static int c2(int n)
{
	return n < 2 ? 0 : n * (n - 1) / 2;
}

static int c3(int n)
{
	return n < 3 ? 0 : n * (n - 1) * (n - 2) / 6;
}

int cp_lmo_npairs(int n)
{
	return c2(n);
}

int cp_lmo_no2t(int n)
{
	return 3 * c3(n);
}

/* i < j: pairs with a smaller first rank come first. */
static int pair_of(int n, int i, int j)
{
	return c2(n) - c2(n - i) + j - i - 1;
}

/* i < j < k, lexicographic. */
static int triplet_of(int n, int i, int j, int k)
{
	return c3(n) - c3(n - i) + c2(n - i - 1) - c2(n - j) + k - j - 1;
}

int cp_lmo_pair_idx(int n, int i, int j)
{
	if (i < 0 || j < 0 || i >= n || j >= n || i == j)
		return -CP_EINVAL;
	return i < j ? pair_of(n, i, j) : pair_of(n, j, i);
}

int cp_lmo_o2t_idx(int n, int root, int a, int b)
{
	int v[3] = { root, a, b }, t, i, j, pos = 0;

	for (i = 0; i < 3; i++)
		if (v[i] < 0 || v[i] >= n)
			return -CP_EINVAL;
	if (root == a || root == b || a == b)
		return -CP_EINVAL;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2 - i; j++)
			if (v[j] > v[j + 1]) {
				t = v[j];
				v[j] = v[j + 1];
				v[j + 1] = t;
			}
	while (v[pos] != root)
		pos++;
	return 3 * triplet_of(n, v[0], v[1], v[2]) + pos;
}

static void est_unset(struct cp_est *e, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		e[i].fail = cause_unset;
	}
}

int cp_lmo_alloc(struct cp_lmo *m, int n)
{
	int np = c2(n);

	memset(m, 0, sizeof(*m));
	if (n < 2)
		return -CP_EINVAL;
	m->n = n;
	m->level = CP_STATS_LEVEL;
	m->c_s = malloc(n * sizeof(*m->c_s));
	m->t_spb = malloc(n * sizeof(*m->t_spb));
	m->ib_spb = malloc(np * sizeof(*m->ib_spb));
	m->beta_Bps = malloc(np * sizeof(*m->beta_Bps));
	m->csum_s = malloc(np * sizeof(*m->csum_s));
	m->tsum_spb = malloc(np * sizeof(*m->tsum_spb));
	if (!m->c_s || !m->t_spb || !m->ib_spb || !m->beta_Bps ||
	    !m->csum_s || !m->tsum_spb) {
		cp_lmo_free(m);
		return -CP_ENOMEM;
	}
	est_unset(m->c_s, n);
	est_unset(m->t_spb, n);
	est_unset(m->ib_spb, np);
	est_unset(m->beta_Bps, np);
	est_unset(m->csum_s, np);
	est_unset(m->tsum_spb, np);
	m->nfail = 2 * n + 4 * np;
	return 0;
}

void cp_lmo_free(struct cp_lmo *m)
{
	free(m->c_s);
	free(m->t_spb);
	free(m->ib_spb);
	free(m->beta_Bps);
	free(m->csum_s);
	free(m->tsum_spb);
	m->c_s = m->t_spb = m->ib_spb = m->beta_Bps = NULL;
	m->csum_s = m->tsum_spb = NULL;
}

void cp_lmo_thresh_init(struct cp_lmo_thresh *th)
{
	memset(th, 0, sizeof(*th));
	th->s_bytes = th->m1_bytes = th->m2_bytes = NAN;
	th->s_idx = th->m1_idx = th->m2_idx = -1;
	est_unset(th->kappa1_spb, 2);
	est_unset(th->kappa2_spb, 2);
}

int cp_lmo_scatter_thresh(const double *bytes, const double *t_s, int n,
			  int h, double level, struct cp_lmo_thresh *th)
{
	struct cp_breaks b;
	int rc;

	rc = cp_breaks_fit(bytes, t_s, n, h, 1, level, &b);
	if (rc)
		return rc;
	th->s_idx = b.brk[0];
	th->s_bytes = bytes[b.brk[0]];
	th->scat_lo = b.seg[0].fit;
	th->scat_hi = b.seg[1].fit;
	cp_breaks_free(&b);
	return 0;
}

/*
 * The last segment's first sizes while each is escalated: more than
 * ESCAL_X times the line through the sizes after it.  The least-squares
 * partition can leave one escalated size at the head of the linear
 * segment (its level, hundreds of ms, is noise to a partition of flat
 * levels), and the line through it priced large gathers at a negative
 * time (tests/test_analysis_lmo, 1 of 100 noise draws).  M2 moves past
 * such sizes, and large is the line through the rest, while at least 3
 * sizes remain.
 */
#define ESCAL_X 2.0

static void m2_past_escalation(const double *bytes, const double *t_s,
			       int n, double level, struct cp_lmo_thresh *th)
{
	struct cp_linfit rest;
	double at;
	int f;

	for (f = th->m2_idx; n - (f + 1) >= 3; f++) {
		if (cp_stats_linfit(bytes + f + 1, t_s + f + 1,
				    (size_t)(n - (f + 1)), level, &rest))
			return;
		at = rest.c0.val + rest.c1.val * bytes[f];
		if (!(at > 0) || !(t_s[f] > ESCAL_X * at))
			return;
		th->m2_idx = f + 1;
		th->large = rest;
	}
}

int cp_lmo_gather_thresh(const double *bytes, const double *t_s, int n,
			 int h, double level, struct cp_lmo_thresh *th)
{
	struct cp_breaks b;
	int i, k, rc;

	if (!bytes || !t_s || n < 2)
		return -CP_EINVAL;
	for (i = 0; i < n; i++)
		if (!(t_s[i] > 0))
			return -CP_EINVAL;
	rc = cp_breaks_fit(bytes, t_s, n, h, -1, level, &b);
	if (rc)
		return rc;
	th->flags &= ~(CP_LMO_T_NO_M1 | CP_LMO_T_NO_M2);
	/* LMO paper: k = min{i : T^(i+1)/T^1 > 10}, M1 = M_k, fit i = 1..k */
	for (k = 0; k < n - 1; k++)
		if (t_s[k + 1] / t_s[0] > 10)
			break;
	if (k == n - 1)
		th->flags |= CP_LMO_T_NO_M1;
	th->m1_idx = k;
	th->m1_bytes = bytes[k];
	memset(&th->small, 0, sizeof(th->small));
	if (k + 1 >= 3 && cp_stats_linfit(bytes, t_s, k + 1, level, &th->small))
		memset(&th->small, 0, sizeof(th->small));
	/* M2: the first size of the last segment (ours: the paper's "M >
	 * M2" with M2 the break would leave that size unpredicted) */
	th->gather_breaks = b.m;
	if (!b.m)
		th->flags |= CP_LMO_T_NO_M2;
	th->m2_idx = b.seg[b.m].first;
	th->large = b.seg[b.m].fit;
	if (b.m)
		m2_past_escalation(bytes, t_s, n, level, th);
	th->m2_bytes = bytes[th->m2_idx];
	cp_breaks_free(&b);
	return 0;
}

static bool ranks_ok(const struct cp_lmo *m, int root, const int *peers,
		     int npeers)
{
	int i;

	if (root < 0 || root >= m->n || !peers || npeers < 1)
		return false;
	for (i = 0; i < npeers; i++)
		if (peers[i] < 0 || peers[i] >= m->n || peers[i] == root)
			return false;
	return true;
}

/* The slope term max_i or sum_i of (t_i + 1/beta_0i) = the link's sum
 * less t_0, with a bound on its standard error (sum of the parts') and
 * the smallest df of the parts. */
static int slope_term(const struct cp_lmo *m, int root, const int *peers,
		      int npeers, bool sum, double *x, double *se, double *df)
{
	const struct cp_est *t0 = &m->t_spb[root], *ts;
	double v, s, d;
	int i;

	*x = sum ? 0 : -INFINITY;
	*se = 0;
	*df = INFINITY;
	if (t0->fail)
		return -CP_ENUM;
	for (i = 0; i < npeers; i++) {
		ts = &m->tsum_spb[cp_lmo_pair_idx(m->n, root, peers[i])];
		if (ts->fail)
			return -CP_ENUM;
		v = ts->val - t0->val;
		s = ts->se + t0->se;
		d = t0->df > 0 && t0->df < ts->df ? t0->df : ts->df;
		if (sum) {
			*x += v;
			*se += s;
		} else if (v > *x) {
			*x = v;
			*se = s;
		}
		if (d < *df)
			*df = d;
	}
	return 0;
}

static int one_kappa(const struct cp_lmo *m, int root, const int *peers,
		     int npeers, const struct cp_linfit *fit, bool sum,
		     double level, struct cp_est *k)
{
	const struct cp_est *t0 = &m->t_spb[root];
	double x, se, df;
	struct cp_ws w;
	int v, rc;

	rc = slope_term(m, root, peers, npeers, sum, &x, &se, &df);
	for (v = 0; v < 2; v++) {
		memset(&k[v], 0, sizeof(k[v]));
		if (!fit->n) {
			k[v].fail = cause_few;
			continue;
		}
		if (rc) {
			k[v].fail = cause_dep_lmo;
			continue;
		}
		memset(&w, 0, sizeof(w));
		k[v].val = fit->c1.val - x;
		if (v == CP_LMO_KAPPA_NT0) {
			k[v].val -= npeers * t0->val;
			se += npeers * t0->se;
		}
		cp_stats_ws_add(&w, 1, fit->c1.se, fit->c1.df);
		if (df > 0 && isfinite(df))
			cp_stats_ws_add(&w, 1, se, df);
		k[v].n = fit->n;
		cp_stats_ws_est(&w, level, &k[v]);
		if (!isfinite(k[v].val) || !isfinite(k[v].se))
			k[v].fail = cause_nonfinite;
	}
	return k[0].fail || k[1].fail ? -CP_ENUM : 0;
}

int cp_lmo_kappa(const struct cp_lmo *small, const struct cp_lmo *large,
		 int root, const int *peers, int npeers, double level,
		 struct cp_lmo_thresh *th)
{
	int r1, r2;

	if (!ranks_ok(small, root, peers, npeers) ||
	    !ranks_ok(large, root, peers, npeers) || isnan(th->m1_bytes))
		return -CP_EINVAL;
	r1 = one_kappa(small, root, peers, npeers, &th->small, false, level,
		       th->kappa1_spb);
	r2 = one_kappa(large, root, peers, npeers, &th->large, true, level,
		       th->kappa2_spb);
	return r1 ? r1 : r2;
}

/* The value of e, NAN if it failed: what cp_model.h takes. */
static double est_val(const struct cp_est *e)
{
	return e->fail ? NAN : e->val;
}

/*
 * The estimates of root and its npeers peers as the flat tables of
 * cp_model.h, renumbered: rank 0 is root, rank 1 + k is peers[k];
 * thresholds NAN.  Returns the block that holds the arrays (the caller
 * frees it), or NULL out of memory.  Ranks must be valid (ranks_ok).
 */
static double *member_tab(const struct cp_lmo *m, int root,
			  const int *peers, int npeers, struct cp_lmo_tab *tab)
{
	int n = npeers + 1, i, j, ri, rj, p;
	double *v = malloc((size_t)n * (2 * n + 2) * sizeof(*v));

	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		ri = i ? peers[i - 1] : root;
		v[i] = est_val(&m->c_s[ri]);
		v[n + i] = est_val(&m->t_spb[ri]);
		for (j = 0; j < n; j++) {
			rj = j ? peers[j - 1] : root;
			p = ri == rj ? -1 : cp_lmo_pair_idx(m->n, ri, rj);
			v[2 * n + i * n + j] = p < 0 ? NAN :
					       est_val(&m->csum_s[p]);
			v[2 * n + n * n + i * n + j] = p < 0 ? NAN :
						     est_val(&m->tsum_spb[p]);
		}
	}
	*tab = (struct cp_lmo_tab){ .n = n, .c_s = v, .t_spb = v + n,
		.csum_s = v + 2 * n, .tsum_spb = v + 2 * n + n * n,
		.s_bytes = NAN, .m1_bytes = NAN, .m2_bytes = NAN,
		.kappa1_spb = NAN, .kappa2_spb = NAN };
	return v;
}

int cp_lmo_predict_p2p(const struct cp_lmo *m, int i, int j, double bytes,
		       double *t_s)
{
	struct cp_lmo_tab tab;
	double *v;

	if (cp_lmo_pair_idx(m->n, i, j) < 0 || !(bytes >= 0))
		return -CP_EINVAL;
	v = member_tab(m, i, &j, 1, &tab);
	if (!v)
		return -CP_ENOMEM;
	*t_s = cp_lmo_eval_p2p(&tab, 0, 1, bytes);
	free(v);
	return isnan(*t_s) ? -CP_ENUM : 0;
}

int cp_lmo_predict_scatter(const struct cp_lmo *m,
			   const struct cp_lmo_thresh *th, int root,
			   const int *peers, int npeers, double bytes,
			   double *t_s)
{
	struct cp_lmo_tab tab;
	double *v;
	int rc;

	if (!ranks_ok(m, root, peers, npeers))
		return -CP_EINVAL;
	v = member_tab(m, root, peers, npeers, &tab);
	if (!v)
		return -CP_ENOMEM;
	tab.s_bytes = th->s_bytes;
	rc = cp_lmo_eval_scatter(&tab, 0, NULL, tab.n, bytes, t_s);
	free(v);
	return rc;
}

int cp_lmo_predict_gather(const struct cp_lmo *m,
			  const struct cp_lmo_thresh *th, int variant,
			  int root, const int *peers, int npeers,
			  double bytes, double *t_s)
{
	struct cp_lmo_tab tab;
	double *v;
	int rc;

	if (!ranks_ok(m, root, peers, npeers) ||
	    (variant != CP_LMO_KAPPA_PRINTED && variant != CP_LMO_KAPPA_NT0))
		return -CP_EINVAL;
	v = member_tab(m, root, peers, npeers, &tab);
	if (!v)
		return -CP_ENOMEM;
	tab.m1_bytes = th->m1_bytes;
	tab.m2_bytes = th->m2_bytes;
	tab.kappa1_spb = est_val(&th->kappa1_spb[variant]);
	tab.kappa2_spb = est_val(&th->kappa2_spb[variant]);
	rc = cp_lmo_eval_gather(&tab, 0, NULL, tab.n, bytes, t_s);
	free(v);
	return rc;
}
