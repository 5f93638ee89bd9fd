/*
 * cp_plogpt_fit.c - PlogPT's parameters from measurements
 * (analysis/cp_plogpt_fit.h).
 */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

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

static int cmp_delay(const void *a, const void *b)
{
	double x = ((const struct cp_plogpt_delay *)a)->s;
	double y = ((const struct cp_plogpt_delay *)b)->s;

	return (x > y) - (x < y);
}

/* How many delays of each burst a window holds, and of how many bursts. */
struct window {
	size_t per[64];
	int bursts;
};

static void window_add(struct window *w, const struct cp_plogpt_delay *q,
		       int by)
{
	size_t *c = &w->per[(unsigned)q->burst & 63];

	if (by > 0 && (*c)++ == 0)
		w->bursts++;
	if (by < 0 && --(*c) == 0)
		w->bursts--;
}

int cp_plogpt_fit_pile(struct cp_plogpt_delay *q, size_t n, double floor_s,
		       double *d_s, double *lo_s, double *hi_s,
		       size_t *n_pile)
{
	struct window w = { { 0 }, 0 };
	size_t i, j, k;

	if (!isfinite(floor_s) || floor_s < 0)
		return -CP_EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(q[i].s))
			return -CP_EINVAL;
	/* held: the smaller of each delay and the next of its burst */
	for (i = 0, k = 0; i + 1 < n; i++)
		if (q[i].burst == q[i + 1].burst)
			q[k++] = (struct cp_plogpt_delay){
				.s = fmin(q[i].s, q[i + 1].s),
				.burst = q[i].burst };
	n = k;
	if (n < CP_PLOGPT_PILE_MIN)
		return -CP_EINVAL;
	qsort(q, n, sizeof(*q), cmp_delay);
	/* the window [j, i] below q[i], from the top down: both ends only
	 * move down (q[i + 1] was in the last one, which held at least it) */
	for (i = n, j = n; i-- > 0 && q[i].s > floor_s;) {
		if (i + 1 < n)
			window_add(&w, &q[i + 1], -1);
		while (j > 0 &&
		       q[j - 1].s >= q[i].s * (1 - CP_PLOGPT_PILE_WIDTH))
			window_add(&w, &q[--j], 1);
		k = i - j + 1;
		if (k < CP_PLOGPT_PILE_MIN || w.bursts < CP_PLOGPT_PILE_BURSTS)
			continue;
		*d_s = k % 2 ? q[j + k / 2].s
			     : (q[j + k / 2 - 1].s + q[j + k / 2].s) / 2;
		*lo_s = q[j].s;
		*hi_s = q[i].s;
		*n_pile = k;
		return 0;
	}
	return -CP_ENUM;
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
