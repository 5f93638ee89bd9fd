/*
 * cp_baseline_eval.c - the formulas of the baseline models: Hockney,
 * LogP/LogGP and their broadcasts, PLogP (analysis/cp_model.h; README
 * "References").
 */
#include "config.h"

#include <math.h>
#include <stddef.h>

#include "analysis/cp_err.h"
#include "analysis/cp_model.h"

int cp_model_tree_height(int nprocs)
{
	int h = 0;

	while ((1L << h) < nprocs)
		h++;
	return h;
}

double cp_hockney_eval(double alpha_s, double beta_spb, double bytes)
{
	return alpha_s + beta_spb * bytes;
}

double cp_logp_eval(double l_s, double o_s)
{
	return l_s + 2 * o_s;
}

double cp_loggp_eval(double l_s, double o_s, double gb_spb, double bytes)
{
	if (!(bytes >= 1))
		return cp_logp_eval(l_s, o_s);
	return l_s + 2 * o_s + (bytes - 1) * gb_spb;
}

int cp_loggp_eval_bcast_linear(double l_s, double o_s, double g_s,
			       double gb_spb, double bytes, int nprocs,
			       double *t_s)
{
	if (nprocs < 2 || !(bytes >= 1))
		return -CP_EINVAL;
	*t_s = 2 * o_s + l_s + (nprocs - 1) * gb_spb * (bytes - 1) +
	       (nprocs - 2) * g_s;
	return 0;
}

int cp_loggp_eval_bcast_tree(double l_s, double o_s, double g_s,
			     double gb_spb, double bytes, int nprocs,
			     double *t_s)
{
	int h = cp_model_tree_height(nprocs);

	if (nprocs < 2 || !(bytes >= 1))
		return -CP_EINVAL;
	*t_s = h * (2 * o_s + l_s + (bytes - 1) * gb_spb) + (h - 1) * g_s;
	return 0;
}

int cp_plogp_eval(double l_s, const double *size_bytes, const double *g_s,
		  int n, double bytes, double *t_s, bool *extrap)
{
	double w;
	int a;

	if (!(bytes >= 0) || !isfinite(bytes) || n < 1)
		return -CP_EINVAL;
	cp_model_locate(size_bytes, n, bytes, &a, &w);
	if (extrap)
		*extrap = bytes > size_bytes[n - 1];
	*t_s = l_s + cp_model_lerp(g_s, 1, a, w, n);
	return 0;
}

int cp_plogp_eval_alltoall_b(double l_s, const double *size_bytes,
			     const double *g_s, int n, double bytes,
			     int nprocs, double *t_s)
{
	double g;
	int rc;

	if (nprocs < 2)
		return -CP_EINVAL;
	rc = cp_plogp_eval(0, size_bytes, g_s, n, bytes, &g, NULL);
	if (rc)
		return rc;
	*t_s = (nprocs - 1) * g + l_s;
	return 0;
}

/* A pays L at each of its P - 1 steps, B once: A = B + (P - 2)L */
int cp_plogp_eval_alltoall_a(double l_s, const double *size_bytes,
			     const double *g_s, int n, double bytes,
			     int nprocs, double *t_s)
{
	int rc = cp_plogp_eval_alltoall_b(l_s, size_bytes, g_s, n, bytes,
					  nprocs, t_s);

	if (!rc)
		*t_s += (nprocs - 2) * l_s;
	return rc;
}
