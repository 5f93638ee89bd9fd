/*
 * cp_lmo_fit.c - LMO estimation from roundtrip, one-to-one and one-to-two
 * series; thresholds; predictions of the estimates through the formulas
 * of analysis/cp_model.h (analysis/cp_lmo.h, models.md "LMO").
 *
 * Confidence intervals.  As 002 prescribes, each experiment's repetitions
 * are averaged first and the averaged times enter the equations; every
 * parameter is then averaged over all the equations (triplets) that give
 * it.  Each estimate is thus a fixed linear combination of experiment
 * means (once the partner of larger T_ij(M) is chosen), and experiments
 * are independent: its variance is sum coef_e^2 * s_e^2 / k_e, with s_e
 * the spread of experiment e over its k_e repetitions, and the interval
 * is Student-t with Welch-Satterthwaite degrees of freedom.  We rejected
 * the spread of the per-triplet values: the triplets share measurements,
 * so that spread is not that of independent samples, and it would mix
 * model misfit with noise.  A CI therefore needs k >= 2 in every series.
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
static const char cause_neg_c[] = "negative fixed delay C_i";
static const char cause_neg_t[] = "negative per-byte delay t_i";
static const char cause_neg_ib[] = "non-positive 1/beta_ij";
static const char cause_dep_c[] = "depends on a failed C_i";
static const char cause_dep_ct[] = "depends on a failed C_i or t_i";
static const char cause_dep_lmo[] = "depends on a failed LMO estimate";
static const char cause_few[] = "fewer than 3 sizes in the fitted range";

/* Experiment means of one series and their standard errors. */
struct series {
	double *mean;		/* [nexp] mean over repetitions */
	double *se;		/* [nexp] standard error of that mean */
	double df;		/* repetitions - 1 */
	int reps;		/* repetitions */
};

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
	if (!m->c_s || !m->t_spb || !m->ib_spb || !m->beta_Bps) {
		cp_lmo_free(m);
		return -CP_ENOMEM;
	}
	est_unset(m->c_s, n);
	est_unset(m->t_spb, n);
	est_unset(m->ib_spb, np);
	est_unset(m->beta_Bps, np);
	m->nfail = 2 * n + np;
	return 0;
}

void cp_lmo_free(struct cp_lmo *m)
{
	free(m->c_s);
	free(m->t_spb);
	free(m->ib_spb);
	free(m->beta_Bps);
	m->c_s = m->t_spb = m->ib_spb = m->beta_Bps = NULL;
}

static void series_free(struct series *s)
{
	free(s->mean);
	free(s->se);
	s->mean = s->se = NULL;
}

static int series_init(struct series *s, const double *t, int nexp,
		       int reps, int stat)
{
	struct cp_est e;
	int i, r, rc;

	s->reps = reps;
	s->df = reps - 1;
	s->mean = malloc(nexp * sizeof(*s->mean));
	s->se = malloc(nexp * sizeof(*s->se));
	if (!s->mean || !s->se) {
		series_free(s);
		return -CP_ENOMEM;
	}
	for (i = 0; i < nexp; i++) {
		rc = cp_stats_mean_ci(t + (size_t)i * reps, reps,
				      CP_STATS_LEVEL, &e);
		if (rc) {
			series_free(s);
			return rc;
		}
		s->mean[i] = e.val;
		s->se[i] = e.se;
		if (stat != CP_LMO_STAT_MIN)
			continue;
		for (r = 0; r < reps; r++)
			if (t[(size_t)i * reps + r] < s->mean[i])
				s->mean[i] = t[(size_t)i * reps + r];
		s->se[i] = 0;
	}
	return 0;
}

/* The estimator for n >= 3.  Every estimate is a fixed linear
 * combination of experiment means once the partners are chosen; a
 * combination is a dense vector over all experiments, in the order
 * rt0 [0, np), o2o [np, 2np), o2t [2np, 2np + n2t), o2t0 [.., + n2t). */
struct lsys {
	int n, np, n2t, nexp;
	double mb;		/* M */
	bool diff;		/* t_i from the measured empty one-to-two */
	struct series s[4];	/* rt0, o2o, o2t, o2t0 */
	int base[4];		/* first index of each series in v */
	int *pm;		/* [n2t] partner of larger T_ij(M) */
	int *p0;		/* [n2t] partner of larger T_ij(0) */
	double *v;		/* [nexp] scratch combination */
};

static const struct series *lsys_series(const struct lsys *l, int e,
					int *idx)
{
	int k = 3;

	while (e < l->base[k])
		k--;
	*idx = e - l->base[k];
	return &l->s[k];
}

/* Value and interval of the combination in l->v. */
static void lsys_est(const struct lsys *l, double level, struct cp_est *e)
{
	const struct series *s;
	struct cp_ws w;
	int x, i;

	memset(&w, 0, sizeof(w));
	memset(e, 0, sizeof(*e));
	for (x = 0; x < l->nexp; x++) {
		if (l->v[x] == 0)
			continue;
		s = lsys_series(l, x, &i);
		e->val += l->v[x] * s->mean[i];
		e->n += s->reps;
		cp_stats_ws_add(&w, l->v[x], s->se[i], s->df);
	}
	cp_stats_ws_est(&w, level, e);
}

/* v += coef * C_i.  C_i = mean over triplets {i,j,k} of (T_ij + T_ik -
 * T_jk)/4, which sums to ((n-1)*S_i - Tot) / (4*C(n-1,2)), S_i the sum of
 * T(0) over pairs with i: coefficient (n-2)/(4*C(n-1,2)) on those pairs,
 * -1/(4*C(n-1,2)) on the others. */
static void add_c(struct lsys *l, double coef, int i)
{
	double den = 4.0 * c2(l->n - 1);
	int a, b, p;

	for (a = 0, p = 0; a < l->n; a++)
		for (b = a + 1; b < l->n; b++, p++)
			l->v[p] += coef * (a == i || b == i ? l->n - 2 : -1) /
				   den;
}

/* v += coef * t_i.  t_i = mean over the triplets rooted at i of
 * (T_i(M) - T_ip(M) - F_i)/M, p the partner of larger T_ij(M).  F_i, the
 * fixed part of the one-to-two: 002 takes the model's 2C_i; with the
 * empty one-to-two measured (ours) F_i = T_i(0) - T_iq(0), q the partner
 * of larger T_ij(0).  Both agree where the model holds; the measured one
 * stays right where fixed delays of the two transfers overlap (link
 * latency, a root that does not pay it twice), which 2C_i over-counts. */
static void add_t(struct lsys *l, double coef, int i)
{
	double w = coef / (c2(l->n - 1) * l->mb);
	int a, b, q;

	for (a = 0; a < l->n; a++)
		for (b = a + 1; b < l->n; b++) {
			if (a == i || b == i)
				continue;
			q = cp_lmo_o2t_idx(l->n, i, a, b);
			l->v[l->base[2] + q] += w;
			l->v[l->base[1] + cp_lmo_pair_idx(l->n, i, l->pm[q])] -=
				w;
			if (!l->diff)
				continue;
			l->v[l->base[3] + q] -= w;
			l->v[l->base[0] + cp_lmo_pair_idx(l->n, i, l->p0[q])] +=
				w;
		}
	if (!l->diff)
		add_c(l, -2 * coef / l->mb, i);
}

/* Partners of larger T_ij(M) and T_ij(0) of every one-to-two. */
static void choose_partners(struct lsys *l)
{
	int n = l->n, i, a, b, q, pa, pb;

	for (i = 0; i < n; i++)
		for (a = 0; a < n; a++)
			for (b = a + 1; b < n; b++) {
				if (a == i || b == i)
					continue;
				q = cp_lmo_o2t_idx(n, i, a, b);
				pa = cp_lmo_pair_idx(n, i, a);
				pb = cp_lmo_pair_idx(n, i, b);
				l->pm[q] = l->s[1].mean[pa] >=
					   l->s[1].mean[pb] ? a : b;
				l->p0[q] = l->s[0].mean[pa] >=
					   l->s[0].mean[pb] ? a : b;
			}
}

/* C, t, then 1/beta_ij = (T_ij(M) - 2C_i - 2C_j)/M - t_i - t_j. */
static void estimate_lsys(struct lsys *l, double level, struct cp_lmo *m)
{
	size_t sz = (size_t)l->nexp * sizeof(*l->v);
	int i, j, p;

	choose_partners(l);
	for (i = 0; i < l->n; i++) {
		memset(l->v, 0, sz);
		add_c(l, 1, i);
		lsys_est(l, level, &m->c_s[i]);
		memset(l->v, 0, sz);
		add_t(l, 1, i);
		lsys_est(l, level, &m->t_spb[i]);
	}
	for (i = 0; i < l->n; i++)
		for (j = i + 1; j < l->n; j++) {
			p = pair_of(l->n, i, j);
			memset(l->v, 0, sz);
			l->v[l->base[1] + p] += 1 / l->mb;
			add_c(l, -2 / l->mb, i);
			add_c(l, -2 / l->mb, j);
			add_t(l, -1, i);
			add_t(l, -1, j);
			lsys_est(l, level, &m->ib_spb[p]);
		}
}

/* n == 2: one empty roundtrip and one one-to-one, three unknowns too
 * many.  We assume C_0 = C_1 = T_01(0)/4 and t_0 = t_1 = 0, so that
 * 1/beta_01 = (T_01(M) - T_01(0))/M carries the whole per-byte cost: the
 * point-to-point prediction is then exact for this pair; flagged. */
static void estimate_n2(double mb, const struct series *s0,
			const struct series *s1, double level,
			struct cp_lmo *m)
{
	struct cp_ws w = { 0 };
	int i;

	for (i = 0; i < 2; i++) {
		memset(&m->c_s[i], 0, sizeof(m->c_s[i]));
		m->c_s[i].val = s0->mean[0] / 4;
		m->c_s[i].se = s0->se[0] / 4;
		m->c_s[i].df = s0->df;
		m->c_s[i].n = s0->reps;
		cp_stats_est_ci(&m->c_s[i], level);
		memset(&m->t_spb[i], 0, sizeof(m->t_spb[i]));
	}
	memset(&m->ib_spb[0], 0, sizeof(m->ib_spb[0]));
	m->ib_spb[0].val = (s1->mean[0] - s0->mean[0]) / mb;
	m->ib_spb[0].n = s0->reps + s1->reps;
	cp_stats_ws_add(&w, 1 / mb, s1->se[0], s1->df);
	cp_stats_ws_add(&w, -1 / mb, s0->se[0], s0->df);
	cp_stats_ws_est(&w, level, &m->ib_spb[0]);
	m->flags |= CP_LMO_F_EQUAL_C | CP_LMO_F_ZERO_T;
}

static int check(struct cp_est *e, const char *neg, bool strict)
{
	if (e->fail)
		return 1;
	if (!isfinite(e->val) || !isfinite(e->se))
		e->fail = cause_nonfinite;
	else if (e->val < 0 || (strict && e->val == 0))
		e->fail = neg;
	return e->fail != NULL;
}

/* A per-byte delay below 0 is noise around a cost too small to see at M
 * when its interval reaches 0, or when it is immaterial: under 5% of the
 * per-byte cost t_i + t_j + 1/beta_ij of every link of i (interval
 * widths understate run-to-run drift).  It becomes 0, its interval is
 * widened to reach 0 if it did not, and every 1/beta_ij of i gives back
 * what t_i took, so that each link's sum t_i + t_j + 1/beta_ij (what the
 * one-to-one measured) is kept; the model says so (CP_LMO_F_T_CLAMPED).
 * Otherwise it stays and fails: the data contradict the model. */
#define CP_LMO_T_IMMATERIAL	0.05

static void clamp_t(struct cp_lmo *m, int i)
{
	struct cp_est *t = &m->t_spb[i];
	double sum, least = INFINITY;
	int j, p;

	if (t->fail || !isfinite(t->val) || t->val >= 0)
		return;
	for (j = 0; j < m->n; j++) {
		if (j == i)
			continue;
		p = cp_lmo_pair_idx(m->n, i, j);
		sum = m->ib_spb[p].val + t->val + m->t_spb[j].val;
		least = sum < least ? sum : least;
	}
	if (!(t->hi >= 0) && !(-t->val < CP_LMO_T_IMMATERIAL * least))
		return;
	for (j = 0; j < m->n; j++) {
		if (j == i)
			continue;
		p = cp_lmo_pair_idx(m->n, i, j);
		m->ib_spb[p].val += t->val;
		m->ib_spb[p].lo += t->val;
		m->ib_spb[p].hi += t->val;
	}
	t->val = 0;
	if (t->hi < 0)
		t->hi = 0;
	m->flags |= CP_LMO_F_T_CLAMPED;
}

/* Flag what is negative or not finite, and what was computed from a
 * flagged value; mirror 1/beta into beta. */
static void check_all(struct cp_lmo *m)
{
	struct cp_est *ib, *be;
	int i, j, p;

	m->nfail = 0;
	for (i = 0; i < m->n; i++)
		m->nfail += check(&m->c_s[i], cause_neg_c, false);
	for (i = 0; i < m->n; i++) {
		if (m->c_s[i].fail && !m->t_spb[i].fail &&
		    !(m->flags & CP_LMO_F_T_MEASURED))
			m->t_spb[i].fail = cause_dep_c;
		clamp_t(m, i);
		m->nfail += check(&m->t_spb[i], cause_neg_t, false);
	}
	for (i = 0; i < m->n; i++)
		for (j = i + 1; j < m->n; j++) {
			p = pair_of(m->n, i, j);
			ib = &m->ib_spb[p];
			be = &m->beta_Bps[p];
			if (m->t_spb[i].fail || m->t_spb[j].fail ||
			    m->c_s[i].fail || m->c_s[j].fail)
				ib->fail = cause_dep_ct;
			m->nfail += check(ib, cause_neg_ib, true);
			*be = *ib;
			be->val = 1 / ib->val;
			be->se = ib->se / (ib->val * ib->val);
			be->lo = ib->hi > 0 ? 1 / ib->hi : 0;
			be->hi = ib->lo > 0 ? 1 / ib->lo : INFINITY;
		}
}

static int validate(const struct cp_lmo_meas *in)
{
	if (!in || in->n < 2 || !(in->msg_bytes > 0) ||
	    !isfinite(in->msg_bytes) || in->reps0 < 2 || in->reps1 < 2 ||
	    !in->rt0_s || !in->o2o_s)
		return -CP_EINVAL;
	if (in->n > 2 && (in->reps2 < 2 || !in->o2t_s))
		return -CP_EINVAL;
	if (in->n > 2 && in->o2t0_s && in->reps3 < 2)
		return -CP_EINVAL;
	if (in->stat != CP_LMO_STAT_MEAN && in->stat != CP_LMO_STAT_MIN)
		return -CP_EINVAL;
	return 0;
}

static void lsys_free(struct lsys *l)
{
	int k;

	for (k = 0; k < 4; k++)
		series_free(&l->s[k]);
	free(l->pm);
	free(l->p0);
	free(l->v);
}

/* Means of every series; the scratch of the n >= 3 estimator. */
static int lsys_init(struct lsys *l, const struct cp_lmo_meas *in)
{
	int rc;

	memset(l, 0, sizeof(*l));
	l->n = in->n;
	l->np = c2(in->n);
	l->n2t = cp_lmo_no2t(in->n);
	l->base[1] = l->np;
	l->base[2] = 2 * l->np;
	l->base[3] = 2 * l->np + l->n2t;
	l->nexp = l->base[3] + l->n2t;
	l->mb = in->msg_bytes;
	l->diff = in->n > 2 && in->o2t0_s;
	rc = series_init(&l->s[0], in->rt0_s, l->np, in->reps0, in->stat);
	if (!rc)
		rc = series_init(&l->s[1], in->o2o_s, l->np, in->reps1,
				 in->stat);
	if (!rc && in->n > 2)
		rc = series_init(&l->s[2], in->o2t_s, l->n2t, in->reps2,
				 in->stat);
	if (!rc && l->diff)
		rc = series_init(&l->s[3], in->o2t0_s, l->n2t, in->reps3,
				 in->stat);
	if (!rc && in->n > 2) {
		l->pm = calloc(l->n2t, sizeof(*l->pm));
		l->p0 = calloc(l->n2t, sizeof(*l->p0));
		l->v = calloc(l->nexp, sizeof(*l->v));
		if (!l->pm || !l->p0 || !l->v)
			rc = -CP_ENOMEM;
	}
	if (rc)
		lsys_free(l);
	return rc;
}

int cp_lmo_estimate(const struct cp_lmo_meas *in, double level,
		    struct cp_lmo *m)
{
	struct lsys l;
	int rc;

	rc = validate(in);
	if (rc)
		return rc;
	if (!(level > 0 && level < 1))
		return -CP_EINVAL;
	rc = cp_lmo_alloc(m, in->n);
	if (rc)
		return rc;
	m->msg_bytes = in->msg_bytes;
	m->level = level;
	rc = lsys_init(&l, in);
	if (rc) {
		cp_lmo_free(m);
		return rc;
	}
	if (in->n == 2) {
		estimate_n2(in->msg_bytes, &l.s[0], &l.s[1], level, m);
	} else {
		estimate_lsys(&l, level, m);
		if (l.diff)
			m->flags |= CP_LMO_F_T_MEASURED;
	}
	lsys_free(&l);
	if (in->stat == CP_LMO_STAT_MIN)
		m->flags |= CP_LMO_F_STAT_MIN;
	check_all(m);
	return m->nfail ? -CP_ENUM : 0;
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
	/* 002: k = min{i : T^(i+1)/T^1 > 10}, M1 = M_k, fit i = 1..k */
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
	th->m2_bytes = bytes[th->m2_idx];
	th->large = b.seg[b.m].fit;
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

/* The slope term max_i or sum_i of (t_i + 1/beta_0i), with a bound on its
 * standard error (sum of the parts') and the smallest df of the parts. */
static int slope_term(const struct cp_lmo *m, int root, const int *peers,
		      int npeers, bool sum, double *x, double *se, double *df)
{
	const struct cp_est *t, *ib;
	double v, s, d;
	int i;

	*x = sum ? 0 : -INFINITY;
	*se = 0;
	*df = INFINITY;
	for (i = 0; i < npeers; i++) {
		t = &m->t_spb[peers[i]];
		ib = &m->ib_spb[cp_lmo_pair_idx(m->n, root, peers[i])];
		if (t->fail || ib->fail)
			return -CP_ENUM;
		v = t->val + ib->val;
		s = t->se + ib->se;
		d = t->df > 0 && t->df < ib->df ? t->df : ib->df;
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
		if (rc || t0->fail) {
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
		cp_stats_ws_add(&w, 1, se, df);
		k[v].n = fit->n;
		cp_stats_ws_est(&w, level, &k[v]);
		if (!isfinite(k[v].val) || !isfinite(k[v].se))
			k[v].fail = cause_nonfinite;
	}
	return k[0].fail || k[1].fail ? -CP_ENUM : 0;
}

int cp_lmo_kappa(const struct cp_lmo *m, int root, const int *peers,
		 int npeers, double level, struct cp_lmo_thresh *th)
{
	int r1, r2;

	if (!ranks_ok(m, root, peers, npeers) || isnan(th->m1_bytes))
		return -CP_EINVAL;
	r1 = one_kappa(m, root, peers, npeers, &th->small, false, level,
		       th->kappa1_spb);
	r2 = one_kappa(m, root, peers, npeers, &th->large, true, level,
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
	int n = npeers + 1, i, j, ri, rj;
	double *v = malloc((size_t)n * (n + 2) * sizeof(*v));

	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		ri = i ? peers[i - 1] : root;
		v[i] = est_val(&m->c_s[ri]);
		v[n + i] = est_val(&m->t_spb[ri]);
		for (j = 0; j < n; j++) {
			rj = j ? peers[j - 1] : root;
			v[2 * n + i * n + j] = ri == rj ? NAN :
				est_val(&m->ib_spb[cp_lmo_pair_idx(m->n, ri,
								   rj)]);
		}
	}
	*tab = (struct cp_lmo_tab){ .n = n, .c_s = v, .t_spb = v + n,
		.ib_spb = v + 2 * n, .s_bytes = NAN, .m1_bytes = NAN,
		.m2_bytes = NAN, .kappa1_spb = NAN, .kappa2_spb = NAN };
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
