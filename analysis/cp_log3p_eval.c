/*
 * cp_log3p_eval.c - log3P's interpolated T(s,d), broadcast costs and
 * middleware predicates (analysis/cp_model.h, log3P paper).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_model.h"

void cp_log3p_free(struct cp_log3p *m)
{
	free(m->size_bytes);
	free(m->t_mem_s);
	free(m->o_mw_s);
	free(m->o_net_s);
	free(m->ssize_bytes);
	free(m->block_bytes);
	free(m->gap_bytes);
	free(m->l_mw_s);
	memset(m, 0, sizeof(*m));
}

/* A contiguous term at s: linear between the sizes, its per-byte cost
 * kept above the last, its value below the first. */
static double term_at(const double *xs, const double *v, int n, double s,
		      bool *out)
{
	int a;
	double w;

	if (s > xs[n - 1]) {
		*out = true;
		return xs[n - 1] > 0 ? v[n - 1] * s / xs[n - 1] : v[n - 1];
	}
	if (s < xs[0]) {
		*out = true;
		return v[0];
	}
	cp_model_locate(xs, n, s, &a, &w);
	return cp_model_lerp(v, 1, a, w, n);
}

/* l_mw of column (ib, ig) at s, over the sizes it has a value for;
 * NAN when it has none. */
static double column_at(const struct cp_log3p *m, int ib, int ig, double s,
			bool *out)
{
	int k = m->nblocks * m->ngaps, i, lo = -1, hi = -1;
	const double *v = m->l_mw_s + ib * m->ngaps + ig, *x = m->ssize_bytes;

	for (i = 0; i < m->nssizes; i++) {
		if (isnan(v[i * k]))
			continue;
		if (x[i] <= s)
			lo = i;
		if (x[i] >= s && hi < 0)
			hi = i;
	}
	if (lo < 0 && hi < 0)
		return NAN;
	if (hi < 0) {
		*out = true;
		return v[lo * k] * s / x[lo];
	}
	if (lo < 0) {
		*out = true;
		return v[hi * k];
	}
	if (lo == hi)
		return v[lo * k];
	return v[lo * k] + (v[hi * k] - v[lo * k]) * (s - x[lo]) /
	       (x[hi] - x[lo]);
}

/* Segment a and weight w of x in xs[0..n) (log2 when lg), held at the
 * ends (w 0 or 1 on the end segment, *out set). */
static void grid_at(const double *xs, int n, double x, bool lg, int *a,
		    double *w, bool *out)
{
	double x0, x1;

	*a = 0;
	*w = 0;
	if (n == 1) {
		*out |= x != xs[0];
		return;
	}
	if (x <= xs[0] || x >= xs[n - 1]) {
		*out |= x < xs[0] || x > xs[n - 1];
		*a = x <= xs[0] ? 0 : n - 2;
		*w = x <= xs[0] ? 0 : 1;
		return;
	}
	cp_model_locate(xs, n, x, a, w);
	if (!lg)
		return;
	x0 = log2(xs[*a]);
	x1 = log2(xs[*a + 1]);
	*w = (log2(x) - x0) / (x1 - x0);
}

/* l_mw for s bytes in blocks of b with gaps g: per-block costs of the
 * four table columns around (b, g), interpolated. */
static double lmw_at(const struct cp_log3p *m, double s, double b,
		     double g, unsigned *flags)
{
	int ab, ag, i, j, kb, kg;
	double wb, wg, p = 0, c, wt, beff = b;
	bool out_s = false, out_l = false;

	grid_at(m->block_bytes, m->nblocks, b, false, &ab, &wb, &out_l);
	grid_at(m->gap_bytes, m->ngaps, g, true, &ag, &wg, &out_l);
	if (b > m->block_bytes[m->nblocks - 1])
		beff = m->block_bytes[m->nblocks - 1];	/* per byte kept */
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			wt = (i ? wb : 1 - wb) * (j ? wg : 1 - wg);
			if (wt == 0)
				continue;
			kb = ab + i < m->nblocks ? ab + i : ab;
			kg = ag + j < m->ngaps ? ag + j : ag;
			c = column_at(m, kb, kg, s, &out_s);
			p += wt * c * m->block_bytes[kb] / s;
		}
	if (out_s)
		*flags |= CP_LOG3P_F_EXTRAP_SIZE;
	if (out_l)
		*flags |= CP_LOG3P_F_EXTRAP_STRIDE;
	return p * s / beff;
}

int cp_log3p_eval(const struct cp_log3p *m, double s_bytes, double d_bytes,
		  double b_bytes, struct cp_log3p_pred *p)
{
	int ns = m->nsizes;
	bool out = false;

	if (!(s_bytes >= 0) || !(d_bytes >= 0) || !isfinite(s_bytes) ||
	    !isfinite(d_bytes) ||
	    (d_bytes > 0 && !(b_bytes > 0 && b_bytes < d_bytes)))
		return -CP_EINVAL;
	memset(p, 0, sizeof(*p));
	p->o_mw_s = term_at(m->size_bytes, m->o_mw_s, ns, s_bytes, &out);
	p->o_net_s = term_at(m->size_bytes, m->o_net_s, ns, s_bytes, &out);
	if (out)
		p->flags |= CP_LOG3P_F_EXTRAP_SIZE;
	if (d_bytes > 0 && s_bytes > 0)
		p->l_mw_s = lmw_at(m, s_bytes, b_bytes, d_bytes - b_bytes,
				   &p->flags);
	p->t_s = p->o_mw_s + p->l_mw_s + p->o_net_s;
	p->self_s = p->o_mw_s + p->l_mw_s +
		    term_at(m->size_bytes, m->t_mem_s, ns, s_bytes, &out);
	return 0;
}

int cp_log3p_eval_bcast_linear(const struct cp_log3p_pred *p, int nprocs,
			       double *t_s)
{
	if (nprocs < 2)
		return -CP_EINVAL;
	*t_s = nprocs * (p->o_mw_s / 2 + p->l_mw_s / 2) + p->o_net_s;
	return 0;
}

int cp_log3p_eval_bcast_tree(const struct cp_log3p_pred *p, int nprocs,
			     double *t_s)
{
	if (nprocs < 2)
		return -CP_EINVAL;
	*t_s = cp_model_tree_height(nprocs) *
	       (p->o_mw_s + p->l_mw_s + p->o_net_s);
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
