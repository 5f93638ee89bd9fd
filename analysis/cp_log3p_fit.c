/*
 * cp_log3p_fit.c - log3P's tables from measured half-roundtrip times
 * (analysis/cp_log3p.h); their evaluation is analysis/cp_log3p_eval.c.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_log3p.h"

static bool increasing(const double *x, int n, bool positive)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || (positive && !(x[i] > 0)) || x[i] < 0)
			return false;
		if (i && !(x[i] > x[i - 1]))
			return false;
	}
	return true;
}

static bool all_finite(const double *x, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

static int validate(const struct cp_log3p_meas *in)
{
	int ns, nd;

	if (!in || in->nsizes < 1 || in->nstrides < 1 || !in->size_bytes ||
	    !in->stride_bytes || !in->t_mem_s || !in->t00_s || !in->t01_s ||
	    !in->t00sd_s)
		return -CP_EINVAL;
	ns = in->nsizes;
	nd = in->nstrides;
	if (!increasing(in->size_bytes, ns, false) ||
	    !increasing(in->stride_bytes, nd, true) ||
	    !all_finite(in->t_mem_s, ns) || !all_finite(in->t00_s, ns) ||
	    !all_finite(in->t01_s, ns) || !all_finite(in->t00sd_s, ns * nd))
		return -CP_EINVAL;
	return 0;
}

int cp_log3p_derive(const struct cp_log3p_meas *in, struct cp_log3p *out)
{
	int i, j, ns, nd, rc;
	size_t sz;

	memset(out, 0, sizeof(*out));
	rc = validate(in);
	if (rc)
		return rc;
	ns = out->nsizes = in->nsizes;
	nd = out->nstrides = in->nstrides;
	sz = ns * sizeof(double);
	out->size_bytes = malloc(sz);
	out->stride_bytes = malloc(nd * sizeof(double));
	out->t_mem_s = malloc(sz);
	out->o_mw_s = malloc(sz);
	out->o_net_s = malloc(sz);
	out->l_mw_s = malloc(sz * nd);
	if (!out->size_bytes || !out->stride_bytes || !out->t_mem_s ||
	    !out->o_mw_s || !out->o_net_s || !out->l_mw_s) {
		cp_log3p_free(out);
		return -CP_ENOMEM;
	}
	memcpy(out->size_bytes, in->size_bytes, sz);
	memcpy(out->stride_bytes, in->stride_bytes, nd * sizeof(double));
	memcpy(out->t_mem_s, in->t_mem_s, sz);
	for (i = 0; i < ns; i++) {
		/* T_00 = o_mw + T_mem; T_01 = o_mw + o_net (003, 4.1) */
		out->o_mw_s[i] = in->t00_s[i] - in->t_mem_s[i];
		out->o_net_s[i] = in->t01_s[i] - out->o_mw_s[i];
		out->nneg += out->o_mw_s[i] < 0;
		out->nneg += out->o_net_s[i] < 0;
		for (j = 0; j < nd; j++) {
			/* T_00(s,d) = o_mw + l_mw + T_mem */
			out->l_mw_s[i * nd + j] = in->t00sd_s[i * nd + j] -
						  in->t00_s[i];
			out->nneg += out->l_mw_s[i * nd + j] < 0;
		}
	}
	return 0;
}
