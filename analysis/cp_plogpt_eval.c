/*
 * cp_plogpt_eval.c - the formulas of PlogPT: a transfer's height on the
 * binary tree, the switch and buffer predicates of the RTO rule, and the
 * Alltoall times of section IV (analysis/cp_model.h).
 * The replay of whole runs is analysis/cp_replay.c.
 */
#include "config.h"

#include <math.h>
#include <stddef.h>

#include "analysis/cp_err.h"
#include "analysis/cp_model.h"

int cp_plogpt_height(int leaf_a, int leaf_b)
{
	unsigned x = (unsigned)leaf_a ^ (unsigned)leaf_b;
	int h = 0;

	while (x) {
		x >>= 1;
		h++;
	}
	return h;
}

static bool cp_plogpt_h_ok(const struct cp_plogpt_net *n, int h)
{
	return h >= 1 && h <= n->height && h <= CP_PLOGPT_MAX_HEIGHT;
}

bool cp_plogpt_switch(const struct cp_plogpt_net *n, int h, int h2)
{
	double lb, ld;

	if (h == h2 || !cp_plogpt_h_ok(n, h) || !cp_plogpt_h_ok(n, h2) ||
	    !(n->b_bps[h] > 0) || !(n->b_bps[h2] > 0))
		return false;
	lb = log(ldexp(n->b_bps[h] / n->b_bps[h2], h2 - h));
	/* a d not measured (NAN, 0): the rates alone */
	ld = n->d_s[h] > 0 && n->d_s[h2] > 0 ? log(n->d_s[h] / n->d_s[h2])
					     : 0;
	return lb * lb + ld * ld > n->eps_s;
}

bool cp_plogpt_buffer_full(const struct cp_plogpt_net *n, int h,
			   double bytes)
{
	return cp_plogpt_h_ok(n, h) && n->d_s[h] * n->b_bps[h] < bytes;
}

int cp_plogpt_gap(const struct cp_plogpt_net *n, double bytes,
		  double *g_s)
{
	return cp_plogp_eval(0, n->g_bytes, n->g_s, n->g_n, bytes, g_s,
			     NULL);
}

int cp_plogpt_p2p(const struct cp_plogpt_net *n, int h, double bytes,
		  double *t_s, bool *extrap)
{
	double g, bmin = INFINITY;
	int k, rc;

	if (h < 0 || h > n->height || h > CP_PLOGPT_MAX_HEIGHT)
		return -CP_EINVAL;
	rc = cp_plogp_eval(0, n->g_bytes, n->g_s, n->g_n, bytes, &g,
			   extrap);
	if (rc)
		return rc;
	for (k = 1; k <= h; k++) {
		if (!(n->b_bps[k] > 0))
			return -CP_EINVAL;
		bmin = fmin(bmin, n->b_bps[k]);
	}
	*t_s = n->l_s + (h ? g * n->b_bps[1] / bmin : g);
	return 0;
}

double cp_plogpt_rto_bytes(const struct cp_plogpt_net *n, int h)
{
	if (h < 1 || h >= n->height || !cp_plogpt_switch(n, h, h + 1))
		return INFINITY;
	return n->d_s[h] * n->b_bps[h];	/* as cp_plogpt_buffer_full */
}

int cp_plogpt_alltoall_nrto(const struct cp_plogpt_net *n, double bytes)
{
	int h, k = 0;

	for (h = 1; h < n->height && h <= CP_PLOGPT_MAX_HEIGHT; h++)
		k += cp_plogpt_rto_bytes(n, h) < bytes;
	return k;
}

int cp_plogpt_alltoall_w(const struct cp_plogpt_net *n, double bytes,
			 double *w_s)
{
	double g, w = 0;
	int h, rc;

	if (n->height < 1 || n->height > CP_PLOGPT_MAX_HEIGHT)
		return -CP_EINVAL;
	rc = cp_plogpt_gap(n, bytes, &g);
	if (rc)
		return rc;
	for (h = 1; h <= n->height; h++) {
		if (!(n->b_bps[h] > 0))
			return -CP_EINVAL;
		w += ldexp(n->b_bps[1] / n->b_bps[h], 2 * (h - 1)) * g;
	}
	*w_s = w;
	return 0;
}

int cp_plogpt_alltoall_a(const struct cp_plogpt_net *n, double bytes,
			 double *t_s)
{
	double w;
	int rc = cp_plogpt_alltoall_w(n, bytes, &w);

	if (rc)
		return rc;
	*t_s = w + (ldexp(1, n->height) - 1) * n->l_s;
	return 0;
}

int cp_plogpt_alltoall_b(const struct cp_plogpt_net *n, double bytes,
			 int n_rto, double *t_s)
{
	double w;
	int rc;

	if (n_rto < 0)
		return -CP_EINVAL;
	rc = cp_plogpt_alltoall_w(n, bytes, &w);
	if (rc)
		return rc;
	*t_s = w + n->l_s + n_rto * n->t_rto_s;
	return 0;
}
