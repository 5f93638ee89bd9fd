/*
 * cp_log3p.c - log3P tables, interpolated predictions, broadcast costs
 * and middleware predicates (analysis/cp_log3p.h).
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

void cp_log3p_free(struct cp_log3p *m)
{
	free(m->size_bytes);
	free(m->stride_bytes);
	free(m->t_mem_s);
	free(m->o_mw_s);
	free(m->o_net_s);
	free(m->l_mw_s);
	memset(m, 0, sizeof(*m));
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

/* Segment a and weight w so that x ~ (1-w)*xs[a] + w*xs[a+1]; w outside
 * [0,1] extends the end segment.  With one point a = 0, w = 0.  Returns
 * true when x lies outside [xs[0], xs[n-1]]. */
static bool locate(const double *xs, int n, double x, int *a, double *w)
{
	int i = 0;

	*a = 0;
	*w = 0;
	if (n == 1)
		return x != xs[0];
	while (i < n - 2 && x > xs[i + 1])
		i++;
	*a = i;
	*w = (x - xs[i]) / (xs[i + 1] - xs[i]);
	return x < xs[0] || x > xs[n - 1];
}

static double lerp(const double *v, int stride, int a, double w, int n)
{
	if (n == 1 || w == 0)
		return v[a * stride];
	return (1 - w) * v[a * stride] + w * v[(a + 1) * stride];
}

/* l_mw at size row i, stride log2(d) clamped to the measured ones. */
static double lmw_row(const struct cp_log3p *m, int i, double d, bool *out)
{
	const double *row = m->l_mw_s + i * m->nstrides;
	int nd = m->nstrides, a;
	double w, x0, x1;

	*out = d < m->stride_bytes[0] || d > m->stride_bytes[nd - 1];
	if (d <= m->stride_bytes[0])
		return row[0];
	if (d >= m->stride_bytes[nd - 1])
		return row[nd - 1];
	for (a = 0; a < nd - 2 && d > m->stride_bytes[a + 1]; a++)
		;
	x0 = log2(m->stride_bytes[a]);
	x1 = log2(m->stride_bytes[a + 1]);
	w = (log2(d) - x0) / (x1 - x0);
	return (1 - w) * row[a] + w * row[a + 1];
}

int cp_log3p_predict(const struct cp_log3p *m, double s_bytes,
		     double d_bytes, struct cp_log3p_pred *p)
{
	int a, ns = m->nsizes;
	double w, l0, l1;
	bool out = false;

	if (!(s_bytes >= 0) || !(d_bytes >= 0) || !isfinite(s_bytes) ||
	    !isfinite(d_bytes))
		return -CP_EINVAL;
	memset(p, 0, sizeof(*p));
	if (locate(m->size_bytes, ns, s_bytes, &a, &w))
		p->flags |= CP_LOG3P_F_EXTRAP_SIZE;
	p->o_mw_s = lerp(m->o_mw_s, 1, a, w, ns);
	p->o_net_s = lerp(m->o_net_s, 1, a, w, ns);
	if (d_bytes > 0) {
		l0 = lmw_row(m, a, d_bytes, &out);
		l1 = ns > 1 ? lmw_row(m, a + 1, d_bytes, &out) : l0;
		p->l_mw_s = ns > 1 && w != 0 ? (1 - w) * l0 + w * l1 : l0;
		if (out)
			p->flags |= CP_LOG3P_F_EXTRAP_STRIDE;
	}
	p->t_s = p->o_mw_s + p->l_mw_s + p->o_net_s;
	p->self_s = p->o_mw_s + p->l_mw_s + lerp(m->t_mem_s, 1, a, w, ns);
	return 0;
}

int cp_log3p_bcast_linear(const struct cp_log3p_pred *p, int nprocs,
			  double *t_s)
{
	if (nprocs < 2)
		return -CP_EINVAL;
	*t_s = nprocs * (p->o_mw_s / 2 + p->l_mw_s / 2) + p->o_net_s;
	return 0;
}

int cp_log3p_bcast_tree(const struct cp_log3p_pred *p, int nprocs,
			double *t_s)
{
	int h = 0;

	if (nprocs < 2)
		return -CP_EINVAL;
	while ((1L << h) < nprocs)
		h++;
	*t_s = h * (p->o_mw_s + p->l_mw_s + p->o_net_s);
	return 0;
}

bool cp_log3p_mw_dominated(const struct cp_log3p_pred *p)
{
	return p->o_mw_s + p->l_mw_s > p->o_net_s;
}

bool cp_log3p_lmw_largest(const struct cp_log3p_pred *p)
{
	return p->l_mw_s > p->o_mw_s && p->l_mw_s > p->o_net_s;
}

void cp_log3p_pack_saving(const struct cp_log3p_pred *p,
			  struct cp_log3p_saving *sv)
{
	sv->manual_s = CP_LOG3P_PACK_MEAN * p->t_s;
	sv->manual_lo_s = CP_LOG3P_PACK_LO * p->t_s;
	sv->manual_hi_s = CP_LOG3P_PACK_HI * p->t_s;
	sv->blocked_s = CP_LOG3P_PACK_BLOCKED * p->t_s;
}
