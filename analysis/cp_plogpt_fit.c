/*
 * cp_plogpt_fit.c - PlogPT's parameters from measurements
 * (analysis/cp_plogpt_fit.h).
 */
#include "config.h"

#include <math.h>
#include <stddef.h>

#include "analysis/cp_err.h"
#include "analysis/cp_model.h"
#include "analysis/cp_plogpt_fit.h"

static bool usable(double x)
{
	return isfinite(x) && x >= 0;
}

int cp_plogpt_fit_l(double rtt0_s, double g0_s, double *l_s)
{
	if (!usable(rtt0_s) || !usable(g0_s))
		return -CP_EINVAL;
	*l_s = rtt0_s / 2 - g0_s;
	return *l_s < 0 ? -CP_ENUM : 0;
}

int cp_plogpt_fit_d(double rtt_load_s, double rtt_free_s, bool both,
		    double *d_s)
{
	if (!usable(rtt_load_s) || !usable(rtt_free_s))
		return -CP_EINVAL;
	*d_s = (rtt_load_s - rtt_free_s) / (both ? 2 : 1);
	return *d_s < 0 ? -CP_ENUM : 0;
}

int cp_plogpt_fit_cap_b(double *b_bps, int height)
{
	int h, k = 0;

	for (h = 2; h <= height; h++)
		if (b_bps[h] > 2 * b_bps[h - 1] && b_bps[h - 1] > 0) {
			b_bps[h] = 2 * b_bps[h - 1];
			k++;
		}
	return k;
}

double cp_plogpt_fit_eps_s(const double *b_lo, const double *b_hi,
			   const double *d_lo, const double *d_hi,
			   int height)
{
	double eps = CP_PLOGPT_EPS_S_MIN, lb, ld;
	int h;

	for (h = 1; h <= height; h++) {
		lb = b_lo[h] > 0 && b_hi[h] > 0 ? log(b_hi[h] / b_lo[h]) : 0;
		ld = d_lo[h] > 0 && d_hi[h] > 0 ? log(d_hi[h] / d_lo[h]) : 0;
		eps = fmax(eps, lb * lb + ld * ld);
	}
	return eps;
}

int cp_plogpt_fit_eps_t(const double *size_bytes, const double *g_s, int n,
			double *eps_t_s)
{
	double g;
	int rc = cp_plogp_eval(0, size_bytes, g_s, n, CP_PLOGPT_PACKET_BYTES,
			       &g, NULL);

	if (rc)
		return rc;
	*eps_t_s = CP_PLOGPT_EPS_T_PACKETS * g;
	return 0;
}
