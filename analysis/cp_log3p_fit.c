/*
 * cp_log3p_fit.c - log3P's tables from measured one-way times
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

	if (!x || n < 1)
		return false;
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

	if (!x)
		return false;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

/* Index of s in the contiguous sizes, or -1. */
static int size_idx(const struct cp_log3p_meas *in, double s)
{
	int i;

	for (i = 0; i < in->nsizes; i++)
		if (in->size_bytes[i] == s)
			return i;
	return -1;
}

static int validate(const struct cp_log3p_meas *in)
{
	int i;

	if (!in || !increasing(in->size_bytes, in->nsizes, false) ||
	    !all_finite(in->t_mem_s, in->nsizes) ||
	    !all_finite(in->t00_s, in->nsizes) ||
	    !all_finite(in->t01_s, in->nsizes) ||
	    !increasing(in->ssize_bytes, in->nssizes, true) ||
	    !increasing(in->block_bytes, in->nblocks, true) ||
	    !increasing(in->gap_bytes, in->ngaps, true) || !in->t01sd_s)
		return -CP_EINVAL;
	for (i = 0; i < in->nssizes; i++)
		if (size_idx(in, in->ssize_bytes[i]) < 0)
			return -CP_EINVAL;
	return 0;
}

static double *dup_of(const double *x, int n)
{
	double *d = malloc((size_t)n * sizeof(double));

	if (d)
		memcpy(d, x, (size_t)n * sizeof(double));
	return d;
}

static int alloc_out(const struct cp_log3p_meas *in, struct cp_log3p *out)
{
	size_t ns = (size_t)in->nsizes;
	size_t nc = (size_t)in->nssizes * in->nblocks * in->ngaps;

	out->nsizes = in->nsizes;
	out->nssizes = in->nssizes;
	out->nblocks = in->nblocks;
	out->ngaps = in->ngaps;
	out->size_bytes = dup_of(in->size_bytes, in->nsizes);
	out->t_mem_s = dup_of(in->t_mem_s, in->nsizes);
	out->ssize_bytes = dup_of(in->ssize_bytes, in->nssizes);
	out->block_bytes = dup_of(in->block_bytes, in->nblocks);
	out->gap_bytes = dup_of(in->gap_bytes, in->ngaps);
	out->o_mw_s = malloc(ns * sizeof(double));
	out->o_net_s = malloc(ns * sizeof(double));
	out->l_mw_s = malloc(nc * sizeof(double));
	if (!out->size_bytes || !out->t_mem_s || !out->ssize_bytes ||
	    !out->block_bytes || !out->gap_bytes || !out->o_mw_s ||
	    !out->o_net_s || !out->l_mw_s) {
		cp_log3p_free(out);
		return -CP_ENOMEM;
	}
	return 0;
}

int cp_log3p_derive(const struct cp_log3p_meas *in, struct cp_log3p *out)
{
	int i, c, k, rc, is;
	double mw;

	memset(out, 0, sizeof(*out));
	rc = validate(in);
	if (!rc)
		rc = alloc_out(in, out);
	if (rc)
		return rc;
	for (i = 0; i < in->nsizes; i++) {
		/* T_00 = o_mw + T_mem; T_01 = o_mw + o_net (log3P paper,
		 * 4.1) */
		mw = in->t00_s[i] - in->t_mem_s[i];
		mw = mw < 0 ? 0 : mw > in->t01_s[i] ? in->t01_s[i] : mw;
		out->o_mw_s[i] = mw;
		out->o_net_s[i] = in->t01_s[i] - mw;
		out->nneg += out->o_net_s[i] < 0;
	}
	k = in->nblocks * in->ngaps;
	for (i = 0; i < in->nssizes; i++) {
		is = size_idx(in, in->ssize_bytes[i]);
		for (c = 0; c < k; c++) {
			/* T_01(s,b,g) = o_mw + l_mw + o_net (ours: remote) */
			out->l_mw_s[i * k + c] = in->t01sd_s[i * k + c] -
						 in->t01_s[is];
			out->nneg += out->l_mw_s[i * k + c] < 0;
		}
	}
	return 0;
}
