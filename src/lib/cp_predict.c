/*
 * cp_predict.c - flat model tables from a parameter file, and the
 * evaluation of one call with every model (cp_predict.h).
 *
 * Which model covers which call is decided here; every formula is one
 * of analysis/cp_model.h (README "References"), the same functions the fitting
 * side predicts with.  LMO's tables are flat arrays per regime (C_i,
 * t_i, and each link's sums C_i + C_j and t_i + t_j + 1/beta_ij over the
 * job's ranks), with the averages in place of what the job does not
 * have; a call uses the regime its size falls in.  tests/test_predict.c
 * checks every value against the fitting side's predictions and the
 * formulas written out.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_model.h"
#include "analysis/cp_taulop.h"
#include "src/common/cp_pt_params.h"
#include "src/common/cp_tl_params.h"
#include "src/lib/cp_predict.h"

/* Open MPI's alltoall algorithms that are PlogPT's A and B
 * (analysis/cp_coll.h's table). */
#define CP_PLOGPT_ALG_LINEAR	1	/* every Irecv, then the Isends: B */
#define CP_PLOGPT_ALG_PAIRWISE	2	/* a Sendrecv per step: A */

struct cp_pred {
	int n;			/* world ranks of the job */
	unsigned models;	/* 1 << CP_MODEL_* usable */
	/* LMO per regime k and job rank; *_avg: 1 when the value is an
	 * average in some regime */
	int nreg;
	double *first_bytes;	/* [nreg] */
	double *c_s;		/* [k * n + i] C_i */
	double *t_spb;		/* [k * n + i] t_i */
	double *csum_s;		/* [(k * n + i) * n + j] C_i + C_j */
	double *tsum_spb;	/* [(k * n + i) * n + j] t_i + t_j +
				 * 1/beta_ij */
	unsigned char *avg;	/* [n] rank i's C or t averaged */
	unsigned char *avg_ib;	/* [n * n] link averaged */
	struct cp_lmo_tab *lmo;	/* [nreg] the arrays above, thresholds,
				 * kappas of the NT0 variant; NAN unknown */
	/* log3P */
	struct cp_log3p l3;
	/* baselines */
	double hock_alpha_s, hock_beta_spb;
	double lg_l_s, lg_o_s, lg_gb_spb;	/* LogGP L, o, G */
	double lg_g_s;		/* g; NAN: no broadcast priced */
	double pl_l_s;		/* PLogP L */
	int pl_n;		/* g(m) table */
	double *pl_size_bytes, *pl_g_s;	/* [pl_n] */
	/* tau-Lop: tables per channel (arrays owned), hosts, collectives */
	struct cp_taulop tl;
	int32_t *host;		/* [n] host index of each job rank */
	struct cp_coll_mca mca;	/* the job's collective settings */
	/* PlogPT: the tree (its g table owned), each job rank's leaf (-1:
	 * its host is no leaf), eq. 24's threshold of each height */
	struct cp_plogpt_net pt;
	int32_t *leaf;		/* [n] */
	double pt_rto_bytes[CP_PLOGPT_MAX_HEIGHT + 1];
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

/* Mean of the usable values of v[0..n), NAN if none. */
static double mean_ok(const struct cp_pval *v, int n)
{
	double s = 0;
	int i, k = 0;

	for (i = 0; i < n; i++) {
		if (pv_ok(&v[i])) {
			s += v[i].val;
			k++;
		}
	}
	return k ? s / k : NAN;
}

/* Mean of a link sum of regime k over the usable links. */
static double mean_pair(const struct cp_params *p, const struct cp_pval *v)
{
	double s = 0;
	int i, j, k = 0, n = p->nranks;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (pv_ok(&v[i * n + j])) {
				s += v[i * n + j].val;
				k++;
			}
	return k ? s / k : NAN;
}

static int lmo_alloc(struct cp_pred *m, int nreg)
{
	size_t n = (size_t)m->n, k = (size_t)nreg;

	m->nreg = nreg;
	m->first_bytes = calloc(k, sizeof(double));
	m->c_s = calloc(k * n, sizeof(double));
	m->t_spb = calloc(k * n, sizeof(double));
	m->csum_s = calloc(k * n * n, sizeof(double));
	m->tsum_spb = calloc(k * n * n, sizeof(double));
	m->avg = calloc(n, 1);
	m->avg_ib = calloc(n * n, 1);
	m->lmo = calloc(k, sizeof(*m->lmo));
	return m->first_bytes && m->c_s && m->t_spb && m->csum_s &&
	       m->tsum_spb && m->avg && m->avg_ib && m->lmo ? 0 : -ENOMEM;
}

/* One value for the job: the calibrated one where the job is the
 * calibrated one and it is usable, else the mean; *avg set then. */
static double pick(const struct cp_pval *v, bool same, double mean,
		   unsigned char *avg)
{
	if (same && pv_ok(v))
		return v->val;
	*avg = 1;
	return mean;
}

/* Regime k's tables for the job's n ranks; false when nothing in it is
 * usable. */
static bool build_regime(struct cp_pred *m, const struct cp_params *p,
			 int k, bool same)
{
	int i, j, n = m->n, pn = p->nranks;
	const struct cp_pval *pc = p->lmo_c_s + (size_t)k * pn;
	const struct cp_pval *pt = p->lmo_t_spb + (size_t)k * pn;
	const struct cp_pval *ps = p->lmo_csum_s + (size_t)k * pn * pn;
	const struct cp_pval *pb = p->lmo_tsum_spb + (size_t)k * pn * pn;
	double mc = mean_ok(pc, pn), mt = mean_ok(pt, pn);
	double ms = mean_pair(p, ps), mb = mean_pair(p, pb);
	double *c = m->c_s + (size_t)k * n, *t = m->t_spb + (size_t)k * n;
	double *cs = m->csum_s + (size_t)k * n * n;
	double *ts = m->tsum_spb + (size_t)k * n * n;

	for (i = 0; i < n; i++) {
		c[i] = pick(i < pn ? &pc[i] : NULL, same, mc, &m->avg[i]);
		t[i] = pick(i < pn ? &pt[i] : NULL, same, mt, &m->avg[i]);
		for (j = 0; j < n; j++) {
			if (i == j)
				continue;
			cs[i * n + j] = pick(same ? &ps[i * pn + j] : NULL,
					     same, ms, &m->avg_ib[i * n + j]);
			ts[i * n + j] = pick(same ? &pb[i * pn + j] : NULL,
					     same, mb, &m->avg_ib[i * n + j]);
		}
	}
	m->first_bytes[k] = p->lmo_first_bytes[k];
	m->lmo[k] = (struct cp_lmo_tab){ .n = n, .c_s = c, .t_spb = t,
		.csum_s = cs, .tsum_spb = ts,
		.s_bytes = pv_or_nan(&p->lmo_s_bytes),
		.m1_bytes = pv_or_nan(&p->lmo_m1_bytes),
		.m2_bytes = pv_or_nan(&p->lmo_m2_bytes),
		/* kappa may be negative (a slope correction) */
		.kappa1_spb = p->lmo_kappa1_spb[1].state == CP_PV_OK ?
			      p->lmo_kappa1_spb[1].val : NAN,
		.kappa2_spb = p->lmo_kappa2_spb[1].state == CP_PV_OK ?
			      p->lmo_kappa2_spb[1].val : NAN };
	return !isnan(ms) && !isnan(mb);
}

/* LMO tables for the job's n ranks: the calibrated values where the job
 * is the calibrated one and the value is usable, else the averages. */
static int build_lmo(struct cp_pred *m, const struct cp_params *p, bool same,
		     char *note, size_t len)
{
	int k, i, usable = 0, any_avg = 0;

	if (p->lmo_nreg < 1) {
		note_add(note, len, "LMO: no regimes, not predicted");
		return 0;
	}
	if (lmo_alloc(m, p->lmo_nreg))
		return -ENOMEM;
	for (k = 0; k < p->lmo_nreg; k++)
		usable += build_regime(m, p, k, same);
	if (!usable) {
		note_add(note, len, "LMO: no usable estimate, not predicted");
		return 0;
	}
	for (i = 0; i < m->n * m->n; i++)
		any_avg |= m->avg_ib[i] | (i < m->n ? m->avg[i] : 0);
	if (!same)
		note_add(note, len, "LMO uses averaged parameters");
	else if (any_avg)
		note_add(note, len, "LMO: failed estimates replaced by "
			 "averages");
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

static double *dup_sizes(const double *x, int n)
{
	double *d = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));

	if (d && n > 0)
		memcpy(d, x, (size_t)n * sizeof(double));
	return d;
}

static int build_log3p(struct cp_pred *m, const struct cp_params *p,
		       char *note, size_t len)
{
	int ns = p->l3_nsizes, i, nfail = 0;
	size_t nc = (size_t)p->l3_nssizes * p->l3_nblocks * p->l3_ngaps;
	struct cp_log3p *l = &m->l3;

	if (ns < 1 || !nc) {
		note_add(note, len, "log3P: no tables");
		return 0;
	}
	l->nsizes = ns;
	l->nssizes = p->l3_nssizes;
	l->nblocks = p->l3_nblocks;
	l->ngaps = p->l3_ngaps;
	l->size_bytes = dup_sizes(p->l3_size_bytes, ns);
	l->ssize_bytes = dup_sizes(p->l3_ssize_bytes, p->l3_nssizes);
	l->block_bytes = dup_sizes(p->l3_block_bytes, p->l3_nblocks);
	l->gap_bytes = dup_sizes(p->l3_gap_bytes, p->l3_ngaps);
	l->t_mem_s = malloc((size_t)ns * sizeof(double));
	l->o_mw_s = malloc((size_t)ns * sizeof(double));
	l->o_net_s = malloc((size_t)ns * sizeof(double));
	l->l_mw_s = malloc(nc * sizeof(double));
	if (!l->size_bytes || !l->ssize_bytes || !l->block_bytes ||
	    !l->gap_bytes || !l->t_mem_s || !l->o_mw_s || !l->o_net_s ||
	    !l->l_mw_s)
		return -ENOMEM;
	/* a failed contiguous entry is a hole (NAN): the calls whose
	 * interpolation touches it get no log3P value; a strided cell
	 * without a value (failed, or not measured) is bridged by its
	 * column (cp_model.h) */
	for (i = 0; i < ns; i++) {
		l->t_mem_s[i] = entry(&p->l3_t_mem_s[i], &nfail);
		l->o_mw_s[i] = entry(&p->l3_o_mw_s[i], &nfail);
		l->o_net_s[i] = entry(&p->l3_o_net_s[i], &nfail);
	}
	for (i = 0; i < (int)nc; i++) {
		l->l_mw_s[i] = p->l3_l_mw_s[i].state == CP_PV_OK ?
			       p->l3_l_mw_s[i].val : NAN;
		nfail += p->l3_l_mw_s[i].state == CP_PV_FAIL;
	}
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
		m->lg_l_s = p->loggp_l_s.val;
		m->lg_o_s = p->loggp_o_s.val;
		m->lg_gb_spb = p->loggp_gb_spb.val;
		m->lg_g_s = pv_or_nan(&p->loggp_g_s);
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
	m->pl_l_s = p->plogp_l_s.val;
	m->pl_n = p->plogp_n;
	m->pl_size_bytes = malloc((size_t)p->plogp_n * sizeof(double));
	m->pl_g_s = malloc((size_t)p->plogp_n * sizeof(double));
	if (!m->pl_size_bytes || !m->pl_g_s)
		return -ENOMEM;
	for (i = 0; i < p->plogp_n; i++) {
		m->pl_size_bytes[i] = p->plogp_size_bytes[i];
		m->pl_g_s[i] = p->plogp_g_s[i].val;
	}
	m->models |= 1u << CP_MODEL_PLOGP;
	return 0;
}

/* A copy of n values of v, failed or unset ones NAN (a hole). */
static double *vals(const struct cp_pval *v, int n)
{
	double *a = malloc(sizeof(double) * (size_t)(n ? n : 1));
	int i;

	for (i = 0; a && i < n; i++)
		a[i] = v[i].state == CP_PV_OK ? v[i].val : NAN;
	return a;
}

static double *dup_arr(const double *x, int n)
{
	double *a = malloc(sizeof(double) * (size_t)(n ? n : 1));

	if (a)
		memcpy(a, x, sizeof(double) * (size_t)n);
	return a;
}

/* Host index of each job rank (0 for all without names). */
static int build_hosts(struct cp_pred *m, const char *const *hosts)
{
	int r, q;

	m->host = calloc((size_t)m->n, sizeof(int32_t));
	if (!m->host)
		return -ENOMEM;
	for (r = 0; hosts && r < m->n; r++)
		for (q = 0, m->host[r] = r; q < r; q++)
			if (hosts[q] && hosts[r] &&
			    !strcmp(hosts[q], hosts[r])) {
				m->host[r] = m->host[q];
				break;
			}
	return 0;
}

/* Table tab (L of written messages, of rounds that start together)
 * where the file has it, the loop's L elsewhere; NULL when the channel
 * has none (files before them). */
static int alt_of(const struct cp_tl_chan_params *pc,
		  const struct cp_pval *tab, const double *l_s,
		  const double **out)
{
	int i, n = pc->nsizes * pc->ntau, any = 0;
	double *a;

	*out = NULL;
	for (i = 0; tab && i < n; i++)
		any += tab[i].state == CP_PV_OK;
	if (!any)
		return 0;
	a = vals(tab, n);
	if (!a)
		return -1;
	for (i = 0; i < n; i++)
		if (isnan(a[i]))
			a[i] = l_s[i];
	*out = a;
	return 0;
}

/* The first size channel c sends by rendezvous: where the LMO regime
 * starts that the MPI library's eager limit of the channel's transport
 * names (lmo.source btl_vader_eager_limit= or btl_sm_... for shared
 * memory, another btl's for the network); 0 when the file names none. */
static double rndv_of(const struct cp_params *p, int c)
{
	const char *s;
	bool shm;
	int k;

	for (k = 1; p->lmo_source && p->lmo_first_bytes && k < p->lmo_nreg;
	     k++) {
		s = p->lmo_source[k];
		if (strncmp(s, "btl_", 4) || !strstr(s, "_eager_limit="))
			continue;
		shm = !strncmp(s, "btl_vader_", 10) || !strncmp(s, "btl_sm_", 7);
		if (shm == (c == CP_TL_SHM))
			return p->lmo_first_bytes[k];
	}
	return 0;
}

/* tau-Lop's tables from the file's section; a job whose hosts hold
 * another number of ranks than the in-node Rings had is noted. */
static int build_taulop(struct cp_pred *m, const struct cp_params *p,
			char *note, size_t len)
{
	const struct cp_tl_params *tl = p->tl;
	int c, r, most = 0, k;

	m->tl.red_spb = NAN;
	m->tl.page_s = NAN;
	if (!tl || (!tl->ch[0].nsizes && !tl->ch[1].nsizes)) {
		note_add(note, len, "tau-Lop: no tables");
		return 0;
	}
	for (c = 0; c < CP_TL_NCHAN; c++) {
		const struct cp_tl_chan_params *pc = &tl->ch[c];
		struct cp_taulop_chan *ch = &m->tl.ch[c];

		if (!pc->nsizes)
			continue;
		ch->hops = c == CP_TL_SHM ? 2 : 1;
		ch->size_bytes = dup_arr(pc->size_bytes, pc->nsizes);
		ch->tau = dup_arr(pc->tau, pc->ntau);
		ch->o_s = vals(pc->o_s, pc->nsizes);
		ch->l_s = vals(pc->l_s, pc->nsizes * pc->ntau);
		if (!ch->size_bytes || !ch->tau || !ch->o_s || !ch->l_s)
			return -ENOMEM;
		if (alt_of(pc, pc->lw_s, ch->l_s, &ch->lw_s) ||
		    alt_of(pc, pc->ls_s, ch->l_s, &ch->ls_s))
			return -ENOMEM;
		if (pc->ngap) {
			ch->gap_s = dup_arr(pc->gap_s, pc->ngap);
			ch->lg_s = vals(pc->lg_s, pc->nsizes * pc->ngap);
			if (!ch->gap_s || !ch->lg_s)
				return -ENOMEM;
			ch->ngap = pc->ngap;
		}
		ch->nsizes = pc->nsizes;
		ch->ntau = pc->ntau;
		ch->rndv_bytes = rndv_of(p, c);
	}
	m->tl.red_spb = pv_or_nan(&tl->red_spb);
	m->tl.page_s = pv_or_nan(&tl->page_s);
	for (r = 0; r < m->n; r++) {
		for (k = 0, c = 0; c < m->n; c++)
			k += m->host[c] == m->host[r];
		if (k > most)
			most = k;
	}
	if (tl->ch[0].nsizes && tl->ch[0].ranks && most != tl->ch[0].ranks) {
		char what[128];

		snprintf(what, sizeof(what), "tau-Lop: measured with %d ranks "
			 "on a host, the job runs up to %d", tl->ch[0].ranks,
			 most);
		note_add(note, len, what);
	}
	m->models |= 1u << CP_MODEL_TAULOP;
	return 0;
}

/* Each job rank's leaf: the calibration's index of its host, when the
 * host is one of the tree's 2^D; -1 otherwise. */
static int build_leaves(struct cp_pred *m, const struct cp_params *p,
			const char *const *hosts)
{
	int r, k;

	m->leaf = malloc((size_t)m->n * sizeof(int32_t));
	if (!m->leaf)
		return -ENOMEM;
	for (r = 0; r < m->n; r++) {
		m->leaf[r] = -1;
		for (k = 0; k < p->nhosts && k < (1 << m->pt.height); k++)
			if (hosts ? hosts[r] && !strcmp(hosts[r], p->hosts[k])
				  : r < p->nranks && p->rank_host[r] == k)
				m->leaf[r] = k;
	}
	return 0;
}

/* PlogPT's tree from the file's section, when it has L, every g and
 * every height's b and d. */
static int build_plogpt(struct cp_pred *m, const struct cp_params *p,
			const char *const *hosts, char *note, size_t len)
{
	const struct cp_pt_params *pt = p->pt;
	double *gx, *gy;
	int i, h, nod = 0;

	if (!pt || pt->nsizes < 1 || !pv_ok(&pt->l_s)) {
		note_add(note, len, "PlogPT: no L and g(m), not predicted");
		return 0;
	}
	if (pt->height < 0 || pt->height > CP_PLOGPT_MAX_HEIGHT) {
		note_add(note, len, "PlogPT: no tree (hosts not a power of "
			 "two), not predicted");
		return 0;
	}
	for (i = 0; i < pt->nsizes; i++)
		if (!pv_ok(&pt->g_s[i])) {
			note_add(note, len, "PlogPT: a g(m) entry failed, "
				 "not predicted");
			return 0;
		}
	for (h = 1; h <= pt->height; h++)
		if (!pv_ok(&pt->b_bps[h])) {
			note_add(note, len, "PlogPT: a height's b failed, not "
				 "predicted");
			return 0;
		}
	gx = dup_arr(pt->size_bytes, pt->nsizes);
	gy = vals(pt->g_s, pt->nsizes);
	if (!gx || !gy) {
		free(gx);
		free(gy);
		return -ENOMEM;
	}
	m->pt.height = pt->height;
	/* a failed d(h) is NAN: no switch and no RTO at h (P_S false) */
	for (h = 1; h <= pt->height; h++) {
		m->pt.b_bps[h] = pt->b_bps[h].val;
		m->pt.d_s[h] = pv_or_nan(&pt->d_s[h]);
		if (isnan(m->pt.d_s[h]))
			nod++;
	}
	if (nod)
		note_add(note, len, "PlogPT: a height's d failed, no RTO "
			 "predicted there");
	m->pt.l_s = pt->l_s.val;
	m->pt.g_bytes = gx;
	m->pt.g_s = gy;
	m->pt.g_n = pt->nsizes;
	m->pt.eps_s = pv_ok(&pt->eps_s) ? pt->eps_s.val : 0;
	m->pt.eps_t_s = pv_or_nan(&pt->eps_t_s);
	m->pt.t_rto_s = CP_PLOGPT_T_RTO_S;
	for (h = 0; h <= CP_PLOGPT_MAX_HEIGHT; h++)
		m->pt_rto_bytes[h] = cp_plogpt_rto_bytes(&m->pt, h);
	m->models |= 1u << CP_MODEL_PLOGPT;
	return build_leaves(m, p, hosts);
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
	if ((p->assume & CP_PARAMS_A_UNSTEADY) &&
	    p->calib_gauge_s.state == CP_PV_OK && p->calib_gauge_s.lo > 0) {
		char what[200];

		snprintf(what, sizeof(what), "the host changed speed by "
			 "%.2fx while calibrated (assume unsteady): a mu up to "
			 "that may be the host's, not the model's",
			 p->calib_gauge_s.hi / p->calib_gauge_s.lo);
		note_add(note, len, what);
	}
	cp_coll_mca_default(&m->mca);
	rc = build_hosts(m, hosts);
	if (!rc)
		rc = build_lmo(m, p, same, note, len);
	if (!rc)
		rc = build_log3p(m, p, note, len);
	if (!rc)
		rc = build_baselines(m, p, note, len);
	if (!rc)
		rc = build_taulop(m, p, note, len);
	if (!rc)
		rc = build_plogpt(m, p, hosts, note, len);
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
	free(m->first_bytes);
	free(m->c_s);
	free(m->t_spb);
	free(m->csum_s);
	free(m->tsum_spb);
	free(m->avg);
	free(m->avg_ib);
	free(m->lmo);
	cp_log3p_free(&m->l3);
	free(m->pl_size_bytes);
	free(m->pl_g_s);
	for (int c = 0; c < CP_TL_NCHAN; c++) {
		free((void *)m->tl.ch[c].size_bytes);
		free((void *)m->tl.ch[c].tau);
		free((void *)m->tl.ch[c].o_s);
		free((void *)m->tl.ch[c].l_s);
		free((void *)m->tl.ch[c].lw_s);
		free((void *)m->tl.ch[c].ls_s);
		free((void *)m->tl.ch[c].gap_s);
		free((void *)m->tl.ch[c].lg_s);
	}
	free(m->host);
	free((void *)m->pt.g_bytes);
	free((void *)m->pt.g_s);
	free(m->leaf);
	free(m);
}

void cp_pred_set_coll(struct cp_pred *m, const struct cp_coll_mca *mca)
{
	if (m && mca)
		m->mca = *mca;
}

void cp_pred_set_heap(struct cp_pred *m, const struct cp_taulop_heap *h)
{
	if (m && h)
		m->tl.heap = *h;
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

/* True when a value LMO priced between root (or src) and the members
 * (or dst) came from averaged parameters. */
static bool lmo_averaged(const struct cp_pred *m, const struct cp_pred_in *in,
			 int32_t r)
{
	int32_t q;
	int i;

	if (m->avg[r])
		return true;
	if (in->kind == CP_PK_P2P)
		return m->avg[in->dst] || m->avg_ib[r * m->n + in->dst];
	for (i = 0; i < in->nmembers; i++) {
		q = in->members ? in->members[i] : i;
		if (q != r && (m->avg[q] || m->avg_ib[r * m->n + q]))
			return true;
	}
	return false;
}

/* LMO's tables of the regime bytes falls in. */
static const struct cp_lmo_tab *lmo_tab(const struct cp_pred *m,
					double bytes)
{
	return &m->lmo[cp_lmo_regime_of(m->first_bytes, m->nreg, bytes)];
}

/*
 * LMO of a linear scatter or gather (LMO paper).  A gather in
 * M1..M2 is flagged as escalation; one whose kappa failed as a failed
 * estimate (cp_lmo_gather_range is the one rule of which is which).
 */
static void eval_lmo_coll(const struct cp_pred *m, const struct cp_pred_in *in,
			  struct cp_pred_out *o)
{
	const struct cp_lmo_tab *tab = lmo_tab(m, in->bytes);
	double t;
	int rc;

	if (in->kind == CP_PK_SCATTER)
		rc = cp_lmo_eval_scatter(tab, in->root, in->members,
					 in->nmembers, in->bytes, &t);
	else
		rc = cp_lmo_eval_gather(tab, in->root, in->members,
					in->nmembers, in->bytes, &t);
	if (rc == -CP_ENOPRED)
		o->flags |= CP_PF_LMO_ESCAL;
	else if (rc == -CP_ENUM)
		o->flags |= CP_PF_LMO_FAILED;
	if (rc)
		return;
	o->t_ns[CP_MODEL_LMO] = t * 1e9;
	if (lmo_averaged(m, in, in->root))
		o->flags |= CP_PF_AVERAGED;
}

/* log3P's terms at the call's size and stride; false if not covered. */
static bool log3p_terms(const struct cp_pred *m, const struct cp_pred_in *in,
			struct cp_log3p_pred *lp, uint32_t *flags)
{
	double d = in->stride_bytes;

	if (!has(m, CP_MODEL_LOG3P) || d < 0)
		return false;
	/* an invalid shape (a block as wide as its stride) is refused */
	if (cp_log3p_eval(&m->l3, in->bytes, d, in->block_bytes, lp) ||
	    isnan(lp->t_s))
		return false;	/* or a failed table entry on the way */
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

/* tau-Lop's flags as pred_flags. */
static uint32_t tl_flags(unsigned f)
{
	return (f & (CP_TL_F_EXTRAP_SIZE | CP_TL_F_EXTRAP_TAU) ?
		CP_PF_TL_EXTRAP : 0) |
	       (f & CP_TL_F_NOCHAN ? CP_PF_TL_NOCHAN : 0);
}

/* tau || T_c(m) of one message, c the channel between its ranks. */
static void eval_taulop_p2p(const struct cp_pred *m,
			    const struct cp_pred_in *in, struct cp_pred_out *o)
{
	int c = m->host[in->src] == m->host[in->dst] ? CP_TL_SHM : CP_TL_NET;
	unsigned f = 0;
	double t;

	if (!m->tl.ch[c].nsizes) {
		o->flags |= CP_PF_TL_NOCHAN;
		return;
	}
	t = cp_taulop_p2p(&m->tl, c, in->bytes, in->tau > 1 ? in->tau : 1,
			  in->gap_s, &f);
	o->flags |= tl_flags(f);
	if (!isnan(t))
		o->t_ns[CP_MODEL_TAULOP] = t * 1e9;
}

/* L + g_c(m) of one message alone on the tree, from its leaves' height
 * (a tree of height 0: one host, its ranks). */
static void eval_plogpt_p2p(const struct cp_pred *m,
			    const struct cp_pred_in *in, struct cp_pred_out *o)
{
	int32_t a = m->leaf[in->src], b = m->leaf[in->dst];
	bool extrap = false;
	double t;

	if (a < 0 || b < 0 || (a == b && m->pt.height > 0)) {
		o->flags |= CP_PF_PT_NOLEAF;
		return;
	}
	if (cp_plogpt_p2p(&m->pt, cp_plogpt_height(a, b), in->bytes, &t,
			  &extrap))
		return;
	o->t_ns[CP_MODEL_PLOGPT] = t * 1e9;
	if (extrap)
		o->flags |= CP_PF_PT_EXTRAP;
}

/*
 * Alltoall on the tree (section IV): Open MPI's pairwise exchange is
 * algorithm A, its linear one (every receive, then every send) B, with
 * eq. 24's RTO stalls.  Only when rank i of the group is leaf i of a
 * tree of 2^D leaves, as the formulas assume.
 */
static void eval_plogpt_alltoall(const struct cp_pred *m,
				 const struct cp_pred_in *in, int alg,
				 struct cp_pred_out *o)
{
	int i, nrto = 0;
	double t;

	if (in->nmembers != 1 << m->pt.height || m->pt.height < 1) {
		o->flags |= CP_PF_PT_NOLEAF;
		return;
	}
	for (i = 0; i < in->nmembers; i++) {
		int32_t w = in->members ? in->members[i] : i;

		if (!rank_ok(m, w) || m->leaf[w] != i) {
			o->flags |= CP_PF_PT_NOLEAF;
			return;
		}
	}
	for (i = 1; i < m->pt.height; i++)
		nrto += m->pt_rto_bytes[i] < in->bytes;
	if (alg == CP_PLOGPT_ALG_PAIRWISE ?
	    !cp_plogpt_alltoall_a(&m->pt, in->bytes, &t) :
	    !cp_plogpt_alltoall_b(&m->pt, in->bytes, nrto, &t))
		o->t_ns[CP_MODEL_PLOGPT] = t * 1e9;
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
	if (has(m, CP_MODEL_LMO)) {
		o->t_ns[CP_MODEL_LMO] =
			cp_lmo_eval_p2p(lmo_tab(m, mb), in->src, in->dst,
					mb) * 1e9;
		if (lmo_averaged(m, in, in->src))
			o->flags |= CP_PF_AVERAGED;
	}
	if (log3p_terms(m, in, &lp, &o->flags)) {
		o->t_ns[CP_MODEL_LOG3P] = lp.t_s * 1e9;
		o->lmw_ns = lp.l_mw_s * 1e9;
	}
	if (has(m, CP_MODEL_HOCKNEY))
		o->t_ns[CP_MODEL_HOCKNEY] = cp_hockney_eval(m->hock_alpha_s,
				m->hock_beta_spb, mb) * 1e9;
	if (has(m, CP_MODEL_LOGGP))
		o->t_ns[CP_MODEL_LOGGP] = cp_loggp_eval(m->lg_l_s, m->lg_o_s,
				m->lg_gb_spb, mb) * 1e9;
	if (has(m, CP_MODEL_PLOGP) &&
	    !cp_plogp_eval(m->pl_l_s, m->pl_size_bytes, m->pl_g_s, m->pl_n, mb,
			   &t, &extrap)) {
		o->t_ns[CP_MODEL_PLOGP] = t * 1e9;
		if (extrap)
			o->flags |= CP_PF_PLOGP_EXTRAP;
	}
	if (has(m, CP_MODEL_TAULOP))
		eval_taulop_p2p(m, in, o);
	if (has(m, CP_MODEL_PLOGPT))
		eval_plogpt_p2p(m, in, o);
}

static void eval_bcast(const struct cp_pred *m, const struct cp_pred_in *in,
		       struct cp_pred_out *o)
{
	struct cp_log3p_pred lp;
	double t;

	if (in->nmembers < 2)
		return;
	if (log3p_terms(m, in, &lp, &o->flags) &&
	    !cp_log3p_eval_bcast_tree(&lp, in->nmembers, &t)) {
		o->t_ns[CP_MODEL_LOG3P] = t * 1e9;
		o->lmw_ns = lp.l_mw_s * 1e9;
	}
}

/* The group rank of world rank w among in's members, or -1. */
static int group_rank(const struct cp_pred_in *in, int32_t w)
{
	int i;

	for (i = 0; i < in->nmembers; i++)
		if ((in->members ? in->members[i] : i) == w)
			return i;
	return -1;
}

/* The collective call of in, by group ranks; false when it is none
 * that a schedule takes (fewer than 2 or more than CP_COLL_MAXP ranks,
 * a root outside the group, a v form without every rank's block). */
static bool coll_call_of(const struct cp_pred_in *in, struct cp_coll_call *c)
{
	memset(c, 0, sizeof(*c));
	c->op = (enum cp_coll_op)in->coll_op;
	c->nprocs = in->nmembers;
	c->commute = !(in->flags & CP_F_NONCOMMUTE);
	if (in->coll_op < 0 || in->coll_op >= CP_COLL_NOPS ||
	    in->nmembers < 2 || in->nmembers > CP_COLL_MAXP)
		return false;
	c->count = in->count > 0 ? (int64_t)in->count : 0;
	c->type_bytes = c->count ? in->bytes / (double)c->count : 0;
	if (in->root >= 0 && (c->root = group_rank(in, in->root)) < 0)
		return false;
	if (c->op == CP_COLL_ALLGATHERV || c->op == CP_COLL_REDUCE_SCATTER) {
		/* every rank's block; the element size is this rank's
		 * block's (none when it is empty) */
		if (!in->counts || in->ncounts != in->nmembers || !c->count)
			return false;
		c->counts = in->counts;
	}
	return true;
}

int cp_pred_coll_alg(const struct cp_coll_mca *mca,
		     const struct cp_pred_in *in)
{
	struct cp_coll_call c;
	int alg;

	if (!coll_call_of(in, &c))
		return 0;
	alg = cp_coll_decide(&c, mca);
	return alg > 0 ? alg : 0;
}

/*
 * A collective of analysis/cp_coll.h: the algorithm Open MPI runs for
 * it (in->alg, else decided here), then tau-Lop, Hockney and LogGP over
 * that algorithm's rounds (the baselines per process, as the paper
 * prices HLogGP).
 */
static void eval_coll(const struct cp_pred *m, const struct cp_pred_in *in,
		      struct cp_pred_out *o)
{
	struct cp_coll_call c;
	struct cp_coll_place pl = { in->members, m->host };
	unsigned f = 0;
	double t;
	int alg, rc;

	if (!coll_call_of(in, &c))
		return;
	alg = in->alg > 0 ? in->alg : cp_coll_decide(&c, &m->mca);
	if (alg < 0 || !cp_coll_alg_modelled(c.op, alg)) {
		o->flags |= CP_PF_COLL_NOALG;
		return;
	}
	if (has(m, CP_MODEL_TAULOP)) {
		rc = cp_taulop_coll(&m->tl, &c, alg, &m->mca, &pl,
				    in->heap_hist, &t, &f);
		o->flags |= tl_flags(f);
		if (rc == -CP_COLL_E_ALG || rc == -CP_COLL_E_RULES)
			o->flags |= CP_PF_COLL_NOALG;
		if (!rc)
			o->t_ns[CP_MODEL_TAULOP] = t * 1e9;
	}
	if (has(m, CP_MODEL_HOCKNEY) &&
	    !cp_coll_baseline(CP_COLL_HOCKNEY, m->hock_alpha_s,
			      m->hock_beta_spb, 0, &c, alg, &m->mca, &t))
		o->t_ns[CP_MODEL_HOCKNEY] = t * 1e9;
	if (has(m, CP_MODEL_LOGGP) &&
	    !cp_coll_baseline(CP_COLL_LOGGP, m->lg_l_s, m->lg_o_s,
			      m->lg_gb_spb, &c, alg, &m->mca, &t))
		o->t_ns[CP_MODEL_LOGGP] = t * 1e9;
	if (has(m, CP_MODEL_PLOGPT) && c.op == CP_COLL_ALLTOALL &&
	    (alg == CP_PLOGPT_ALG_PAIRWISE || alg == CP_PLOGPT_ALG_LINEAR))
		eval_plogpt_alltoall(m, in, alg, o);
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
	case CP_PK_GATHER:
		if (has(m, CP_MODEL_LMO))
			eval_lmo_coll(m, in, o);
		break;
	case CP_PK_COLL:
	case CP_PK_NONE:
		break;
	}
	if (in->kind != CP_PK_P2P && in->kind != CP_PK_NONE &&
	    in->coll_op >= 0 && in->coll_op < CP_COLL_NOPS)
		eval_coll(m, in, o);
}
