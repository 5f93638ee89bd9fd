/*
 * cp_log3p_eval.c - log3P's interpolated T(s,d), broadcast costs and
 * middleware predicates (analysis/cp_model.h, models.md "log3P").
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
	free(m->stride_bytes);
	free(m->t_mem_s);
	free(m->o_mw_s);
	free(m->o_net_s);
	free(m->l_mw_s);
	memset(m, 0, sizeof(*m));
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
	return cp_model_lerp(row, 1, a, w, nd);
}

int cp_log3p_eval(const struct cp_log3p *m, double s_bytes, double d_bytes,
		  struct cp_log3p_pred *p)
{
	int a, ns = m->nsizes;
	double w, l[2];
	bool out = false;

	if (!(s_bytes >= 0) || !(d_bytes >= 0) || !isfinite(s_bytes) ||
	    !isfinite(d_bytes))
		return -CP_EINVAL;
	memset(p, 0, sizeof(*p));
	if (cp_model_locate(m->size_bytes, ns, s_bytes, &a, &w))
		p->flags |= CP_LOG3P_F_EXTRAP_SIZE;
	p->o_mw_s = cp_model_lerp(m->o_mw_s, 1, a, w, ns);
	p->o_net_s = cp_model_lerp(m->o_net_s, 1, a, w, ns);
	if (d_bytes > 0) {
		/* l_mw at the stride in the two size rows around s, then
		 * between them as the other terms */
		l[0] = lmw_row(m, a, d_bytes, &out);
		if (ns > 1)
			l[1] = lmw_row(m, a + 1, d_bytes, &out);
		p->l_mw_s = cp_model_lerp(l, 1, 0, w, ns > 1 ? 2 : 1);
		if (out)
			p->flags |= CP_LOG3P_F_EXTRAP_STRIDE;
	}
	p->t_s = p->o_mw_s + p->l_mw_s + p->o_net_s;
	p->self_s = p->o_mw_s + p->l_mw_s +
		    cp_model_lerp(m->t_mem_s, 1, a, w, ns);
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
