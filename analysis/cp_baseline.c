/*
 * cp_baseline.c - Hockney, LogP/LogGP and PLogP (analysis/cp_baseline.h).
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

int cp_loggp_fit(const struct cp_loggp_meas *in, double level,
		 struct cp_loggp *p)
{
	struct cp_est rtt, burst, big, x[3];
	double c[3];
	int rc, bad;

	if (!in || in->burst_count < 1 || !(in->big_bytes > 0) ||
	    in->nsend < 2 || in->nrecv < 2 || in->nrtt < 2 ||
	    in->nburst < 2 || in->nbig < 2)
		return -CP_EINVAL;
	memset(p, 0, sizeof(*p));
	rc = cp_stats_mean_ci(in->send_s, in->nsend, level, &p->os_s);
	if (!rc)
		rc = cp_stats_mean_ci(in->recv_s, in->nrecv, level, &p->or_s);
	if (!rc)
		rc = cp_stats_mean_ci(in->rtt_s, in->nrtt, level, &rtt);
	if (!rc)
		rc = cp_stats_mean_ci(in->burst_s, in->nburst, level, &burst);
	if (!rc)
		rc = cp_stats_mean_ci(in->big_burst_s, in->nbig, level, &big);
	if (rc)
		return rc;
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

