/*
 * cp_predict.c - flat model tables from a parameter file, and the
 * evaluation of one call with every model (cp_predict.h).
 *
 * The formulas are those of analysis/ (models.md); LMO's point-to-point
 * and linear scatter/gather are evaluated here from flat per-rank arrays
 * (C_i, t_i in seconds, 1/beta_ij in s/B) because the analysis structs
 * keep an interval per value and walk pair indices: the hot path wants
 * one cache line per rank.  tests/test_predict.c checks every value
 * against the analysis functions and the formulas written out.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_baseline.h"
#include "analysis/cp_log3p.h"
#include "src/lib/cp_predict.h"

/* log3P was measured with one double per block (src/calib/calib_meas.c). */
#define CP_PRED_L3_BLOCK_BYTES 8.0

struct cp_pred {
	int n;			/* world ranks of the job */
	unsigned models;	/* 1 << CP_MODEL_* usable */
	/* LMO, per job rank; *_avg: 1 when the value is an average */
	double *c_s;		/* [n] C_i */
	double *t_spb;		/* [n] t_i */
	double *ib_spb;		/* [n * n] 1/beta_ij, diagonal 0 */
	unsigned char *avg;	/* [n] rank i's C or t averaged */
	unsigned char *avg_ib;	/* [n * n] link averaged */
	double s_bytes;		/* scatter threshold, NAN unknown */
	double m1_bytes, m2_bytes;	/* gather thresholds, NAN unknown */
	double kappa1_spb, kappa2_spb;	/* NT0 variant, NAN unknown */
	/* log3P */
	struct cp_log3p l3;
	/* baselines */
	double hock_alpha_s, hock_beta_spb;
	struct cp_loggp lg;
	bool lg_bcast;		/* g known: tree broadcast priced */
	struct cp_plogp pl;
};

static bool pv_ok(const struct cp_pval *v)
{
	return v->state == CP_PV_OK && isfinite(v->val) && v->val >= 0;
}

static double pv_or_nan(const struct cp_pval *v)
{
	return pv_ok(v) ? v->val : NAN;
}

/* Append ", what" (or "what") to note. */
static void note_add(char *note, size_t len, const char *what)
{
	size_t k = strlen(note);

	if (k + 1 < len)
		snprintf(note + k, len - k, "%s%s", k ? "; " : "", what);
}

/* True when the job runs the ranks on the hosts of the calibration. */
static bool same_job(const struct cp_params *p, int nranks,
		     const char *const *hosts)
{
	int r;

	if (p->nranks != nranks)
		return false;
	if (!hosts || !p->rank_host)
		return true;
	for (r = 0; r < nranks; r++) {
		int h = p->rank_host[r];

		if (h < 0 || h >= p->nhosts || !hosts[r] ||
		    strcmp(p->hosts[h], hosts[r]))
			return false;
	}
	return true;
}

/* Mean of the usable values of v[0..n) (stride step), NAN if none. */
static double mean_ok(const struct cp_pval *v, int n, int step)
{
	double s = 0;
	int i, k = 0;

	for (i = 0; i < n; i += step) {
		if (pv_ok(&v[i])) {
			s += v[i].val;
			k++;
		}
	}
	return k ? s / k : NAN;
}

/* Mean of 1/beta over the usable links. */
static double mean_ib(const struct cp_params *p)
{
	double s = 0;
	int i, j, k = 0, n = p->nranks;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			const struct cp_pval *b = &p->lmo_beta_Bps[i * n + j];

			if (pv_ok(b) && b->val > 0) {
				s += 1 / b->val;
				k++;
			}
		}
	}
	return k ? s / k : NAN;
}

/* LMO tables for the job's n ranks: the calibrated values where the job
 * is the calibrated one and the value is usable, else the averages. */
static int build_lmo(struct cp_pred *m, const struct cp_params *p, bool same,
		     char *note, size_t len)
{
	int i, j, n = m->n, pn = p->nranks;
	double mc, mt, mib;
	bool any_avg = false;

	m->c_s = calloc((size_t)n, sizeof(double));
	m->t_spb = calloc((size_t)n, sizeof(double));
	m->ib_spb = calloc((size_t)n * n, sizeof(double));
	m->avg = calloc((size_t)n, 1);
	m->avg_ib = calloc((size_t)n * n, 1);
	if (!m->c_s || !m->t_spb || !m->ib_spb || !m->avg || !m->avg_ib)
		return -ENOMEM;
	mc = mean_ok(p->lmo_c_s, pn, 1);
	mt = mean_ok(p->lmo_t_spb, pn, 1);
	mib = mean_ib(p);
	if (isnan(mc) || isnan(mt) || isnan(mib)) {
		note_add(note, len, "LMO: no usable estimate, not predicted");
		return 0;
	}
	for (i = 0; i < n; i++) {
		bool c_ok = same && pv_ok(&p->lmo_c_s[i]);
		bool t_ok = same && pv_ok(&p->lmo_t_spb[i]);

		m->c_s[i] = c_ok ? p->lmo_c_s[i].val : mc;
		m->t_spb[i] = t_ok ? p->lmo_t_spb[i].val : mt;
		m->avg[i] = !c_ok || !t_ok;
		any_avg |= m->avg[i];
		for (j = 0; j < n; j++) {
			const struct cp_pval *b;

			if (i == j)
				continue;
			b = same ? &p->lmo_beta_Bps[i * pn + j] : NULL;
			if (b && pv_ok(b) && b->val > 0) {
				m->ib_spb[i * n + j] = 1 / b->val;
			} else {
				m->ib_spb[i * n + j] = mib;
				m->avg_ib[i * n + j] = 1;
				any_avg = true;
			}
		}
	}
	if (!same)
		note_add(note, len, "LMO uses averaged parameters");
	else if (any_avg)
		note_add(note, len, "LMO: failed estimates replaced by "
			 "averages");
	m->s_bytes = pv_or_nan(&p->lmo_s_bytes);
	m->m1_bytes = pv_or_nan(&p->lmo_m1_bytes);
	m->m2_bytes = pv_or_nan(&p->lmo_m2_bytes);
	/* kappa may be negative (a slope correction), only finite */
	m->kappa1_spb = p->lmo_kappa1_spb[1].state == CP_PV_OK ?
			p->lmo_kappa1_spb[1].val : NAN;
	m->kappa2_spb = p->lmo_kappa2_spb[1].state == CP_PV_OK ?
			p->lmo_kappa2_spb[1].val : NAN;
	m->models |= 1u << CP_MODEL_LMO;
	return 0;
}

/* A table entry: its value, or NAN (counted in *nfail) if it failed. */
static double entry(const struct cp_pval *v, int *nfail)
{
	if (v->state == CP_PV_OK && isfinite(v->val))
		return v->val;
	(*nfail)++;
	return NAN;
}

static int build_log3p(struct cp_pred *m, const struct cp_params *p,
		       char *note, size_t len)
{
	int ns = p->l3_nsizes, nd = p->l3_nstrides, i;
	struct cp_log3p *l = &m->l3;

	int nfail = 0;

	if (ns < 1 || nd < 1) {
		note_add(note, len, "log3P: no tables");
		return 0;
	}
	l->nsizes = ns;
	l->nstrides = nd;
	l->size_bytes = malloc((size_t)ns * sizeof(double));
	l->stride_bytes = malloc((size_t)nd * sizeof(double));
	l->t_mem_s = malloc((size_t)ns * sizeof(double));
	l->o_mw_s = malloc((size_t)ns * sizeof(double));
	l->o_net_s = malloc((size_t)ns * sizeof(double));
	l->l_mw_s = malloc((size_t)ns * nd * sizeof(double));
	if (!l->size_bytes || !l->stride_bytes || !l->t_mem_s || !l->o_mw_s ||
	    !l->o_net_s || !l->l_mw_s)
		return -ENOMEM;
	memcpy(l->size_bytes, p->l3_size_bytes, (size_t)ns * sizeof(double));
	memcpy(l->stride_bytes, p->l3_stride_bytes,
	       (size_t)nd * sizeof(double));
	/* a failed entry is a hole (NAN): the calls whose interpolation
	 * touches it get no log3P value, the others keep theirs */
	for (i = 0; i < ns; i++) {
		l->t_mem_s[i] = entry(&p->l3_t_mem_s[i], &nfail);
		l->o_mw_s[i] = entry(&p->l3_o_mw_s[i], &nfail);
		l->o_net_s[i] = entry(&p->l3_o_net_s[i], &nfail);
	}
	for (i = 0; i < ns * nd; i++)
		l->l_mw_s[i] = entry(&p->l3_l_mw_s[i], &nfail);
	if (nfail) {
		char what[96];

		snprintf(what, sizeof(what), "log3P: %d failed table entries, "
			 "calls that need them not predicted", nfail);
		note_add(note, len, what);
	}
	m->models |= 1u << CP_MODEL_LOG3P;
	return 0;
}

static int build_baselines(struct cp_pred *m, const struct cp_params *p,
			   char *note, size_t len)
{
	int i;

	if (pv_ok(&p->hockney_alpha_s) && pv_ok(&p->hockney_beta_spb)) {
		m->hock_alpha_s = p->hockney_alpha_s.val;
		m->hock_beta_spb = p->hockney_beta_spb.val;
		m->models |= 1u << CP_MODEL_HOCKNEY;
	} else {
		note_add(note, len, "Hockney: failed, not predicted");
	}
	if (pv_ok(&p->loggp_l_s) && pv_ok(&p->loggp_o_s) &&
	    pv_ok(&p->loggp_gb_spb)) {
		m->lg.l_s.val = p->loggp_l_s.val;
		m->lg.o_s.val = p->loggp_o_s.val;
		m->lg.gb_spb.val = p->loggp_gb_spb.val;
		m->lg.g_s.val = pv_or_nan(&p->loggp_g_s);
		m->lg_bcast = pv_ok(&p->loggp_g_s);
		m->models |= 1u << CP_MODEL_LOGGP;
	} else {
		note_add(note, len, "LogGP: failed, not predicted");
	}
	if (!pv_ok(&p->plogp_l_s) || p->plogp_n < 1) {
		note_add(note, len, "PLogP: failed, not predicted");
		return 0;
	}
	for (i = 0; i < p->plogp_n; i++) {
		if (p->plogp_g_s[i].state != CP_PV_OK) {
			note_add(note, len, "PLogP: a g(m) entry failed, "
				 "not predicted");
			return 0;
		}
	}
	m->pl.l_s = p->plogp_l_s.val;
	m->pl.n = p->plogp_n;
	m->pl.size_bytes = malloc((size_t)p->plogp_n * sizeof(double));
	m->pl.g_s = malloc((size_t)p->plogp_n * sizeof(double));
	if (!m->pl.size_bytes || !m->pl.g_s)
		return -ENOMEM;
	for (i = 0; i < p->plogp_n; i++) {
		m->pl.size_bytes[i] = p->plogp_size_bytes[i];
		m->pl.g_s[i] = p->plogp_g_s[i].val;
	}
	m->models |= 1u << CP_MODEL_PLOGP;
	return 0;
}

int cp_pred_build(const struct cp_params *p, int nranks,
		  const char *const *hosts, struct cp_pred **out,
		  unsigned *models, bool *job_differs, char *note,
		  size_t len)
{
	struct cp_pred *m;
	bool same;
	int rc;

	*out = NULL;
	*models = 0;
	*job_differs = false;
	if (len)
		note[0] = '\0';
	if (nranks < 1)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->n = nranks;
	same = same_job(p, nranks, hosts);
	*job_differs = !same;
	if (!same) {
		char what[160];

		snprintf(what, sizeof(what), "calibrated on %d ranks%s, "
			 "the job has %d", p->nranks,
			 p->nranks == nranks ? " on other hosts" : "", nranks);
		note_add(note, len, what);
	}
	rc = build_lmo(m, p, same, note, len);
	if (!rc)
		rc = build_log3p(m, p, note, len);
	if (!rc)
		rc = build_baselines(m, p, note, len);
	if (rc) {
		cp_pred_free(m);
		return rc;
	}
	*models = m->models;
	*out = m;
	return 0;
}

void cp_pred_free(struct cp_pred *m)
{
	if (!m)
		return;
	free(m->c_s);
	free(m->t_spb);
	free(m->ib_spb);
	free(m->avg);
	free(m->avg_ib);
	cp_log3p_free(&m->l3);
	cp_plogp_free(&m->pl);
	free(m);
}

/* ---- evaluation ---------------------------------------------------- */

static inline bool has(const struct cp_pred *m, int model)
{
	return m->models & (1u << model);
}

static inline bool rank_ok(const struct cp_pred *m, int32_t r)
{
	return r >= 0 && r < m->n;
}

/* C_i + t_i*M + C_j + t_j*M + M/beta_ij (models.md "LMO"). */
static double lmo_p2p(const struct cp_pred *m, int32_t i, int32_t j,
		      double mb, uint32_t *flags)
{
	if (m->avg[i] || m->avg[j] || m->avg_ib[i * m->n + j])
		*flags |= CP_PF_AVERAGED;
	return m->c_s[i] + m->c_s[j] +
	       mb * (m->t_spb[i] + m->t_spb[j] + m->ib_spb[i * m->n + j]);
}

/*
 * Linear scatter or gather between root and the other members (models.md
 * "LMO"): n*(C_0 + t_0*M) + max_i or sum_i {C_i + t_i*M + M/beta_0i}.
 * NAN if a member is not a job rank.
 */
static double lmo_linear(const struct cp_pred *m, const struct cp_pred_in *in,
			 bool sum, uint32_t *flags)
{
	double mb = in->bytes, mx = -INFINITY, sm = 0, x;
	int32_t r = in->root, q;
	int i, k = 0;

	if (!rank_ok(m, r))
		return NAN;
	for (i = 0; i < in->nmembers; i++) {
		q = in->members ? in->members[i] : i;
		if (q == r)
			continue;	/* the root's own block is a copy */
		if (!rank_ok(m, q))
			return NAN;
		if (m->avg[q] || m->avg_ib[r * m->n + q])
			*flags |= CP_PF_AVERAGED;
		x = m->c_s[q] + m->t_spb[q] * mb + mb * m->ib_spb[r * m->n + q];
		sm += x;
		mx = x > mx ? x : mx;
		k++;
	}
	if (!k)
		return NAN;
	if (m->avg[r])
		*flags |= CP_PF_AVERAGED;
	return k * (m->c_s[r] + m->t_spb[r] * mb) + (sum ? sm : mx);
}

static double lmo_scatter(const struct cp_pred *m,
			  const struct cp_pred_in *in, uint32_t *flags)
{
	if (isnan(m->s_bytes))
		return NAN;
	return lmo_linear(m, in, in->bytes > m->s_bytes, flags);
}

/* Small: M < M1, plus kappa1*M; large: M >= M2, plus kappa2*M; between
 * them nothing (002: random escalation levels).  A failed kappa leaves
 * its range unpredicted as a failed estimate, not as escalation, as
 * analysis/cp_lmo.c's cp_lmo_predict_gather says (-CP_ENUM). */
static double lmo_gather(const struct cp_pred *m, const struct cp_pred_in *in,
			 uint32_t *flags)
{
	double mb = in->bytes;

	if (!isnan(m->m1_bytes) && mb < m->m1_bytes) {
		if (isnan(m->kappa1_spb)) {
			*flags |= CP_PF_LMO_FAILED;
			return NAN;
		}
		return lmo_linear(m, in, false, flags) + m->kappa1_spb * mb;
	}
	if (!isnan(m->m2_bytes) && mb >= m->m2_bytes) {
		if (isnan(m->kappa2_spb)) {
			*flags |= CP_PF_LMO_FAILED;
			return NAN;
		}
		return lmo_linear(m, in, true, flags) + m->kappa2_spb * mb;
	}
	if (!isnan(m->m1_bytes) && !isnan(m->m2_bytes))
		*flags |= CP_PF_LMO_ESCAL;
	return NAN;
}

/* log3P's terms at the call's size and stride; false if not covered. */
static bool log3p_terms(const struct cp_pred *m, const struct cp_pred_in *in,
			struct cp_log3p_pred *lp, uint32_t *flags)
{
	double d = in->stride_bytes;

	if (!has(m, CP_MODEL_LOG3P) || d < 0)
		return false;
	if (d > 0 && in->block_bytes > CP_PRED_L3_BLOCK_BYTES) {
		*flags |= CP_PF_L3_BLOCK;
		return false;
	}
	if (cp_log3p_predict(&m->l3, in->bytes, d, lp) || isnan(lp->t_s))
		return false;	/* a failed table entry on the way */
	if (lp->flags & CP_LOG3P_F_EXTRAP_SIZE)
		*flags |= CP_PF_L3_EXTRAP_SIZE;
	if (lp->flags & CP_LOG3P_F_EXTRAP_STRIDE)
		*flags |= CP_PF_L3_EXTRAP_STRIDE;
	if (cp_log3p_mw_dominated(lp))
		*flags |= CP_PF_L3_MW_DOM;
	if (d > 0 && cp_log3p_lmw_largest(lp))
		*flags |= CP_PF_L3_LMW_LARGEST;
	return true;
}

static void eval_p2p(const struct cp_pred *m, const struct cp_pred_in *in,
		     struct cp_pred_out *o)
{
	struct cp_log3p_pred lp;
	double mb = in->bytes, t;
	bool extrap = false;

	if (!rank_ok(m, in->src) || !rank_ok(m, in->dst))
		return;
	if (in->src == in->dst) {
		o->flags |= CP_PF_SELF;
		if (log3p_terms(m, in, &lp, &o->flags)) {
			o->t_ns[CP_MODEL_LOG3P] = lp.self_s * 1e9;
			o->lmw_ns = lp.l_mw_s * 1e9;
		}
		return;
	}
	if (has(m, CP_MODEL_LMO))
		o->t_ns[CP_MODEL_LMO] =
			lmo_p2p(m, in->src, in->dst, mb, &o->flags) * 1e9;
	if (log3p_terms(m, in, &lp, &o->flags)) {
		o->t_ns[CP_MODEL_LOG3P] = lp.t_s * 1e9;
		o->lmw_ns = lp.l_mw_s * 1e9;
	}
	if (has(m, CP_MODEL_HOCKNEY))
		o->t_ns[CP_MODEL_HOCKNEY] =
			(m->hock_alpha_s + m->hock_beta_spb * mb) * 1e9;
	if (has(m, CP_MODEL_LOGGP))
		o->t_ns[CP_MODEL_LOGGP] = (mb >= 1 ?
			cp_loggp_predict(&m->lg, mb) :
			cp_logp_predict(&m->lg)) * 1e9;
	if (has(m, CP_MODEL_PLOGP) &&
	    !cp_plogp_predict(&m->pl, mb, &t, &extrap)) {
		o->t_ns[CP_MODEL_PLOGP] = t * 1e9;
		if (extrap)
			o->flags |= CP_PF_PLOGP_EXTRAP;
	}
}

static void eval_bcast(const struct cp_pred *m, const struct cp_pred_in *in,
		       struct cp_pred_out *o)
{
	struct cp_log3p_pred lp;
	double t;

	if (in->nmembers < 2)
		return;
	if (log3p_terms(m, in, &lp, &o->flags) &&
	    !cp_log3p_bcast_tree(&lp, in->nmembers, &t)) {
		o->t_ns[CP_MODEL_LOG3P] = t * 1e9;
		o->lmw_ns = lp.l_mw_s * 1e9;
	}
	if (has(m, CP_MODEL_LOGGP) && m->lg_bcast &&
	    !cp_loggp_bcast_tree(&m->lg, in->bytes, in->nmembers, &t))
		o->t_ns[CP_MODEL_LOGGP] = t * 1e9;
}

void cp_pred_eval(const struct cp_pred *m, const struct cp_pred_in *in,
		  struct cp_pred_out *o)
{
	int i;

	for (i = 0; i < CP_NMODELS; i++)
		o->t_ns[i] = NAN;
	o->lmw_ns = NAN;
	o->flags = CP_PF_ON;
	if (!(in->bytes >= 0))
		return;
	switch (in->kind) {
	case CP_PK_P2P:
		eval_p2p(m, in, o);
		break;
	case CP_PK_BCAST:
		eval_bcast(m, in, o);
		break;
	case CP_PK_SCATTER:
		if (has(m, CP_MODEL_LMO))
			o->t_ns[CP_MODEL_LMO] =
				lmo_scatter(m, in, &o->flags) * 1e9;
		break;
	case CP_PK_GATHER:
		if (has(m, CP_MODEL_LMO))
			o->t_ns[CP_MODEL_LMO] =
				lmo_gather(m, in, &o->flags) * 1e9;
		break;
	case CP_PK_NONE:
		break;
	}
}
