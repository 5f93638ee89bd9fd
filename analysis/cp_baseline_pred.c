/*
 * cp_baseline_pred.c - the predictions of the baseline models
 * (cp_baseline.h): plain arithmetic and libc, no GSL, so that the
 * preloaded library can price calls without loading the fitting code.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_baseline.h"
#include "analysis/cp_err.h"

double cp_hockney_predict(const struct cp_hockney *h, double bytes)
{
	return h->alpha_s.val + h->beta_spb.val * bytes;
}

/* est = sum coef_i * mean_i over independent sample sets. */
double cp_logp_predict(const struct cp_loggp *p)
{
	return p->l_s.val + 2 * p->o_s.val;
}

double cp_loggp_predict(const struct cp_loggp *p, double bytes)
{
	return p->l_s.val + 2 * p->o_s.val + (bytes - 1) * p->gb_spb.val;
}

static int ceil_log2(int p)
{
	int h = 0;

	while ((1L << h) < p)
		h++;
	return h;
}

int cp_loggp_bcast_linear(const struct cp_loggp *p, double bytes,
			  int nprocs, double *t_s)
{
	if (nprocs < 2 || !(bytes >= 1))
		return -CP_EINVAL;
	*t_s = 2 * p->o_s.val + p->l_s.val +
	       (nprocs - 1) * p->gb_spb.val * (bytes - 1) +
	       (nprocs - 2) * p->g_s.val;
	return 0;
}

int cp_loggp_bcast_tree(const struct cp_loggp *p, double bytes,
			int nprocs, double *t_s)
{
	int h = ceil_log2(nprocs);

	if (nprocs < 2 || !(bytes >= 1))
		return -CP_EINVAL;
	*t_s = h * (2 * p->o_s.val + p->l_s.val +
		    (bytes - 1) * p->gb_spb.val) + (h - 1) * p->g_s.val;
	return 0;
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
	p->l_s = rtt_s[0] / 2 - g0_s;	/* RTT(0) = 2(L + g(0)) */
	neg += p->l_s < 0 || g0_s < 0;
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
	const double *x = p->size_bytes, *g = p->g_s;
	double w;
	int a = 0;

	if (!(bytes >= 0) || !isfinite(bytes) || p->n < 1)
		return -CP_EINVAL;
	if (extrap)
		*extrap = bytes > x[p->n - 1];
	if (p->n == 1) {
		*t_s = p->l_s + g[0];
		return 0;
	}
	while (a < p->n - 2 && bytes > x[a + 1])
		a++;
	w = (bytes - x[a]) / (x[a + 1] - x[a]);
	*t_s = p->l_s + (1 - w) * g[a] + w * g[a + 1];
	return 0;
}
