/*
 * cp_lmo_eval.c - LMO's point-to-point, linear scatter and linear
 * gather formulas (analysis/cp_model.h, LMO paper).
 */
#include "config.h"

#include <math.h>

#include "analysis/cp_err.h"
#include "analysis/cp_model.h"

static bool rank_ok(const struct cp_lmo_tab *m, int r)
{
	return r >= 0 && r < m->n;
}

int cp_lmo_regime_of(const double *first_bytes, int nreg, double bytes)
{
	int k = 0;

	while (k + 1 < nreg && bytes >= first_bytes[k + 1])
		k++;
	return k;
}

/* The link's time: (C_i + C_j) + (t_i + t_j + 1/beta_ij)*M. */
static double link(const struct cp_lmo_tab *m, int i, int j, double mb)
{
	return m->csum_s[i * m->n + j] + m->tsum_spb[i * m->n + j] * mb;
}

double cp_lmo_eval_p2p(const struct cp_lmo_tab *m, int i, int j,
		       double bytes)
{
	if (!rank_ok(m, i) || !rank_ok(m, j) || i == j || !(bytes >= 0))
		return NAN;
	return link(m, i, j, bytes);
}

/*
 * n*(C_0 + t_0*M) + max_i or sum_i {C_i + t_i*M + M/beta_0i} over the
 * members other than the root (LMO paper: the root sends, or receives, n
 * messages of M bytes one after the other; the transfers run in parallel
 * below the threshold and one after the other above it).  Each term
 * C_0 + t_0*M + C_i + t_i*M + M/beta_0i is the link's determined sum, so
 * the root's share is added n - 1 more times for the max and not again
 * for the sum.
 */
static int linear(const struct cp_lmo_tab *m, int root,
		  const int32_t *members, int nmembers, double mb, bool sum,
		  double *t_s)
{
	double mx = -INFINITY, sm = 0, x;
	int i, q, k = 0;

	if (!rank_ok(m, root) || !(mb >= 0))
		return -CP_EINVAL;
	for (i = 0; i < nmembers; i++) {
		q = members ? members[i] : i;
		if (q == root)
			continue;
		if (!rank_ok(m, q))
			return -CP_EINVAL;
		x = link(m, root, q, mb);
		if (isnan(x))
			return -CP_ENUM;
		sm += x;
		mx = x > mx ? x : mx;
		k++;
	}
	if (!k)
		return -CP_EINVAL;
	x = sum ? sm : mx;
	if (!sum && k > 1)
		x += (k - 1) * (m->c_s[root] + m->t_spb[root] * mb);
	if (isnan(x))
		return -CP_ENUM;
	*t_s = x;
	return 0;
}

int cp_lmo_eval_scatter(const struct cp_lmo_tab *m, int root,
			const int32_t *members, int nmembers, double bytes,
			double *t_s)
{
	if (isnan(m->s_bytes))
		return -CP_EINVAL;
	return linear(m, root, members, nmembers, bytes, bytes > m->s_bytes,
		      t_s);
}

enum cp_lmo_range cp_lmo_gather_range(double m1_bytes, double m2_bytes,
				      double bytes)
{
	if (bytes < m1_bytes)
		return CP_LMO_SMALL;
	if (bytes >= m2_bytes)
		return CP_LMO_LARGE;
	if (isnan(m1_bytes) || isnan(m2_bytes))
		return CP_LMO_UNKNOWN;
	return CP_LMO_ESCAL;
}

int cp_lmo_eval_gather(const struct cp_lmo_tab *m, int root,
		       const int32_t *members, int nmembers, double bytes,
		       double *t_s)
{
	enum cp_lmo_range g = cp_lmo_gather_range(m->m1_bytes, m->m2_bytes,
						  bytes);
	double t, kappa;
	int rc;

	if (g == CP_LMO_UNKNOWN || !(bytes >= 0))
		return -CP_EINVAL;
	if (g == CP_LMO_ESCAL)
		return -CP_ENOPRED;
	kappa = g == CP_LMO_SMALL ? m->kappa1_spb : m->kappa2_spb;
	rc = linear(m, root, members, nmembers, bytes, g == CP_LMO_LARGE, &t);
	if (rc)
		return rc;
	if (isnan(kappa))
		return -CP_ENUM;
	*t_s = t + kappa * bytes;
	/* a correction that prices the gather at no time is no estimate */
	return *t_s > 0 ? 0 : -CP_ENUM;
}
