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

/*
 * Cache-set aliasing of a stride (ours, measured on the development
 * host under Open MPI with written pages: single doubles at strides of
 * 2 and 4 KiB packed 1.8 to 2.1 times slower per element than at 2112
 * or 3200 B, in messages of 8 KiB and of 128 KiB; at 1 KiB 1.4 times
 * slower than at 1088 B in 8 KiB, as fast in 128 KiB; sent amid other
 * messages, 64 and 128 KiB of them at strides of 256, 512, 768, 1024
 * and 2048 B took 2 to 4.5 times as long per element as at 264, 296,
 * 520 and 1088 B).  A stride that is a multiple of
 * CP_LOG3P_ALIAS_BYTES maps its elements to a fraction of the cache's
 * sets; below it, and above a page (where every element is on a page
 * of its own either way), a stride is of neither class.  A column of
 * the table that has grid strides of both classes in between (the
 * calibrator measures one-double blocks at 256 B, 1 and 4 KiB and at
 * 1088 and 4160 B) is interpolated over the grid points of the
 * stride's own class and the neutral ones; other columns, and tables
 * of older calibrations, over all their points.
 */
#define CP_LOG3P_ALIAS_BYTES	256.0
#define CP_LOG3P_PAGE_BYTES	4096.0
#define CP_LOG3P_LINE_BYTES	64.0
#define CP_LOG3P_MAXG		64	/* more gaps: no classes */

enum { AL_NEUTRAL, AL_ALIASED, AL_SPREAD };

static int alias_class(double stride)
{
	if (stride < CP_LOG3P_ALIAS_BYTES || stride > CP_LOG3P_PAGE_BYTES)
		return AL_NEUTRAL;
	return fmod(stride, CP_LOG3P_ALIAS_BYTES) == 0 ? AL_ALIASED :
							 AL_SPREAD;
}

/* The gaps of column kb to interpolate a stride d over: their indices
 * into ig[] and values into gx[]; returns how many.  With points of
 * both classes, an aliased stride leaves out the spread ones and any
 * other stride the aliased ones. */
static int column_gaps(const struct cp_log3p *m, int kb, double d, int *ig,
		       double *gx)
{
	int i, n = 0, c, keep = alias_class(d) == AL_ALIASED ? AL_ALIASED :
							     AL_SPREAD;
	unsigned seen = 0;
	double b = m->block_bytes[kb];
	bool both;

	for (i = 0; i < m->ngaps; i++)
		seen |= 1u << alias_class(b + m->gap_bytes[i]);
	both = (seen & 1u << AL_ALIASED) && (seen & 1u << AL_SPREAD);
	for (i = 0; i < m->ngaps; i++) {
		c = alias_class(b + m->gap_bytes[i]);
		if (both && c != AL_NEUTRAL && c != keep)
			continue;
		ig[n] = i;
		gx[n++] = m->gap_bytes[i];
	}
	return n;
}

/* Cache lines a block of b bytes touches: one below a line, else its
 * own lines and the one it starts or ends in. */
static double lines_per_block(double b)
{
	return b < CP_LOG3P_LINE_BYTES ? 1 : b / CP_LOG3P_LINE_BYTES + 1;
}

/* l_mw for s bytes in blocks of b with gaps g: per-block costs of the
 * four table points around (b, g), interpolated (gaps in log2, over the
 * points of the stride's aliasing class).  A block column is read where
 * its messages touch as many cache lines as this one: a strided
 * message's cost per block jumps where its lines outgrow a cache (on
 * the development host near 2 MiB of lines, its L2: 32-B blocks 1112 B
 * apart took 2.3 ns a block in 16384 blocks and 13 in 32768, 64-B
 * blocks, two lines each, 1.7 in 8192 and 6.3 in 16384), so 40-B
 * blocks read the 32-B column at their count of blocks and the 64-B
 * one at half of it, not both at their size, which put the jump of the
 * 32-B column under 40-B messages that had not reached theirs (900 KB
 * 1600 B apart: 2.4 times their measured time).  A column at a
 * message's own block size is read at its size. */
static double lmw_at(const struct cp_log3p *m, double s, double b,
		     double g, unsigned *flags)
{
	int ab, ag, i, j, kb, n, ig[CP_LOG3P_MAXG + 1];
	double wb, wg, p = 0, c, wt, beff = b, gx[CP_LOG3P_MAXG + 1], sk, bk;
	const int *gi;
	const double *gv;
	bool out_s = false, out_l = false;

	grid_at(m->block_bytes, m->nblocks, b, false, &ab, &wb, &out_l);
	if (b > m->block_bytes[m->nblocks - 1])
		beff = m->block_bytes[m->nblocks - 1];	/* per byte kept */
	for (i = 0; i < 2; i++) {
		wt = i ? wb : 1 - wb;
		if (wt == 0)
			continue;
		kb = ab + i < m->nblocks ? ab + i : ab;
		bk = m->block_bytes[kb];
		sk = s / b * lines_per_block(b) / lines_per_block(bk) * bk;
		if (m->ngaps <= CP_LOG3P_MAXG) {
			n = column_gaps(m, kb, b + g, ig, gx);
			gi = ig;
			gv = gx;
		} else {
			n = m->ngaps;
			gi = NULL;
			gv = m->gap_bytes;
		}
		grid_at(gv, n, g, true, &ag, &wg, &out_l);
		for (j = 0; j < 2; j++) {
			double w = j ? wg : 1 - wg;
			int k = ag + j < n ? ag + j : ag;

			if (w == 0)
				continue;
			c = column_at(m, kb, gi ? gi[k] : k, sk, &out_s);
			p += wt * w * c * bk / sk;
		}
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
