/*
 * cp_baseline_fit.c - Hockney, LogP/LogGP and PLogP from measurements,
 * and their predictions through the formulas of analysis/cp_model.h
 * (analysis/cp_baseline.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_baseline.h"
#include "analysis/cp_err.h"

static const char cause_neg[] = "negative estimate";
static const char cause_nonfinite[] = "non-finite estimate";

static int flag(struct cp_est *e)
{
	if (!isfinite(e->val) || !isfinite(e->se))
		e->fail = cause_nonfinite;
	else if (e->val < 0)
		e->fail = cause_neg;
	return e->fail ? 1 : 0;
}

int cp_hockney_fit(const double *bytes, const double *t_s, int n,
		   double level, struct cp_hockney *h)
{
	struct cp_linfit f;
	int rc;

	if (n < 3)
		return -CP_EINVAL;
	rc = cp_stats_linfit(bytes, t_s, n, level, &f);
	if (rc)
		return rc;
	h->alpha_s = f.c0;
	h->beta_spb = f.c1;
	h->rss = f.rss;
	return flag(&h->alpha_s) + flag(&h->beta_spb) ? -CP_ENUM : 0;
}

static void lincomb(const struct cp_est *x, const double *coef, int n,
		    double level, struct cp_est *e)
{
	struct cp_ws w = { 0 };
	int i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < n; i++) {
		e->val += coef[i] * x[i].val;
		e->n += x[i].n;
		cp_stats_ws_add(&w, coef[i], x[i].se, x[i].df);
	}
	cp_stats_ws_est(&w, level, e);
}

/*
 * The mean of x with its t interval, less the samples that a preemption
 * made slow: above Tukey's upper far-out fence (3 interquartile ranges
 * past the third quartile) and above twice the median.  A send that the
 * host preempted for 50 us, one of 50 samples of 0.1 us, made the mean
 * 1.1 us and LogGP's L negative (a 2-rank calibration on 2 CPUs); no
 * other sample is touched (a slow one is never a fast one's mistake).
 * *dropped: the samples left out.
 */
static int robust_mean_ci(const double *x, int n, double level,
			  struct cp_est *e, int *dropped)
{
	double q1, q3, med, hi, *k;
	int i, m = 0, rc;

	*dropped = 0;
	rc = cp_stats_percentile(x, (size_t)n, 0.25, &q1);
	if (!rc)
		rc = cp_stats_percentile(x, (size_t)n, 0.75, &q3);
	if (!rc)
		rc = cp_stats_median(x, (size_t)n, &med);
	if (rc)
		return rc;
	hi = fmax(q3 + 3 * (q3 - q1), 2 * med);
	k = malloc((size_t)n * sizeof(*k));
	if (!k)
		return -CP_ENOMEM;
	for (i = 0; i < n; i++)
		if (x[i] <= hi)
			k[m++] = x[i];
	*dropped = n - m;
	rc = cp_stats_mean_ci(k, (size_t)m, level, e);
	free(k);
	return rc;
}

int cp_loggp_fit(const struct cp_loggp_meas *in, double level,
		 struct cp_loggp *p)
{
	struct cp_est rtt, burst, big, x[3];
	double c[3];
	int rc, bad, d[5];

	if (!in || in->burst_count < 1 || !(in->big_bytes > 0) ||
	    in->nsend < 2 || in->nrecv < 2 || in->nrtt < 2 ||
	    in->nburst < 2 || in->nbig < 2)
		return -CP_EINVAL;
	memset(p, 0, sizeof(*p));
	rc = robust_mean_ci(in->send_s, in->nsend, level, &p->os_s, &d[0]);
	if (!rc)
		rc = robust_mean_ci(in->recv_s, in->nrecv, level, &p->or_s,
				    &d[1]);
	if (!rc)
		rc = robust_mean_ci(in->rtt_s, in->nrtt, level, &rtt, &d[2]);
	if (!rc)
		rc = robust_mean_ci(in->burst_s, in->nburst, level, &burst,
				    &d[3]);
	if (!rc)
		rc = robust_mean_ci(in->big_burst_s, in->nbig, level, &big,
				    &d[4]);
	if (rc)
		return rc;
	p->dropped = d[0] + d[1] + d[2] + d[3] + d[4];
	x[0] = p->os_s;
	x[1] = p->or_s;
	c[0] = c[1] = 0.5;
	lincomb(x, c, 2, level, &p->o_s);
	x[2] = rtt;
	c[0] = c[1] = -1;
	c[2] = 0.5;
	lincomb(x, c, 3, level, &p->l_s);	/* L = RTT/2 - o_s - o_r */
	c[0] = 1.0 / in->burst_count;
	lincomb(&burst, c, 1, level, &p->g_s);	/* g = T_n/n */
	c[0] = 1.0 / (in->burst_count * in->big_bytes);
	lincomb(&big, c, 1, level, &p->gb_spb);	/* G = g(M)/M */
	bad = flag(&p->os_s) + flag(&p->or_s) + flag(&p->o_s) +
	      flag(&p->l_s) + flag(&p->g_s) + flag(&p->gb_spb);
	return bad ? -CP_ENUM : 0;
}

double cp_hockney_predict(const struct cp_hockney *h, double bytes)
{
	return cp_hockney_eval(h->alpha_s.val, h->beta_spb.val, bytes);
}

double cp_logp_predict(const struct cp_loggp *p)
{
	return cp_logp_eval(p->l_s.val, p->o_s.val);
}

double cp_loggp_predict(const struct cp_loggp *p, double bytes)
{
	return cp_loggp_eval(p->l_s.val, p->o_s.val, p->gb_spb.val, bytes);
}

int cp_loggp_bcast_linear(const struct cp_loggp *p, double bytes,
			  int nprocs, double *t_s)
{
	return cp_loggp_eval_bcast_linear(p->l_s.val, p->o_s.val, p->g_s.val,
					  p->gb_spb.val, bytes, nprocs, t_s);
}

int cp_loggp_bcast_tree(const struct cp_loggp *p, double bytes,
			int nprocs, double *t_s)
{
	return cp_loggp_eval_bcast_tree(p->l_s.val, p->o_s.val, p->g_s.val,
					p->gb_spb.val, bytes, nprocs, t_s);
}

void cp_plogp_free(struct cp_plogp *p)
{
	free(p->size_bytes);
	free(p->g_s);
	p->size_bytes = p->g_s = NULL;
	p->n = 0;
}

int cp_plogp_from_rtt(double g0_s, const double *bytes, const double *rtt_s,
		      int n, struct cp_plogp *p)
{
	int i, neg = 0;

	memset(p, 0, sizeof(*p));
	if (!bytes || !rtt_s || n < 1 || bytes[0] != 0 || !isfinite(g0_s))
		return -CP_EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(rtt_s[i]) || !isfinite(bytes[i]) ||
		    (i && !(bytes[i] > bytes[i - 1])))
			return -CP_EINVAL;
	p->size_bytes = malloc(n * sizeof(*p->size_bytes));
	p->g_s = malloc(n * sizeof(*p->g_s));
	if (!p->size_bytes || !p->g_s) {
		cp_plogp_free(p);
		return -CP_ENOMEM;
	}
	p->n = n;
	p->g0_meas_s = g0_s;
	if (g0_s > rtt_s[0] / 2)
		g0_s = rtt_s[0] / 2;
	p->l_s = rtt_s[0] / 2 - g0_s;	/* RTT(0) = 2(L + g(0)) */
	neg += g0_s < 0;
	memcpy(p->size_bytes, bytes, n * sizeof(*bytes));
	p->g_s[0] = g0_s;
	for (i = 1; i < n; i++) {
		p->g_s[i] = rtt_s[i] / 2 - p->l_s;
		neg += p->g_s[i] < 0;
	}
	return neg ? -CP_ENUM : 0;
}

int cp_plogp_predict(const struct cp_plogp *p, double bytes, double *t_s,
		     bool *extrap)
{
	return cp_plogp_eval(p->l_s, p->size_bytes, p->g_s, p->n, bytes, t_s,
			     extrap);
}
