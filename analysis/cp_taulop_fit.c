/*
 * cp_taulop_fit.c - tau-Lop's tables from Ring times and MPI_Isend durations
 * (analysis/cp_taulop_fit.h: the choices and why).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_taulop_fit.h"

static const char cause_neg[] = "below 0 beyond noise";
static const char cause_in[] = "a measurement failed";

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* P(Binomial(n, 1/2) <= k). */
static double binom_cdf(int n, int k)
{
	double p = 0, term = ldexp(1.0, -n);	/* C(n,0) / 2^n */
	int i;

	for (i = 0; i <= k && i <= n; i++) {
		p += term;
		term = term * (n - i) / (i + 1);
	}
	return p;
}

int cp_taulop_median_ci(const double *x, int n, double level,
			struct cp_est *e)
{
	double *v;
	int i, k;

	if (n < 1 || !x || !(level > 0 && level < 1))
		return -CP_EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -CP_EINVAL;
	v = malloc(sizeof(double) * (size_t)n);
	if (!v)
		return -CP_ENOMEM;
	memcpy(v, x, sizeof(double) * (size_t)n);
	qsort(v, (size_t)n, sizeof(double), cmp_dbl);
	for (k = 1; k < n && 2 * binom_cdf(n, k) <= 1 - level; k++)
		;
	memset(e, 0, sizeof(*e));
	e->val = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	e->lo = v[k - 1];
	e->hi = v[n - k];
	e->n = n;
	free(v);
	return 0;
}

/* Interval arithmetic on estimates: a - b, a * s (s >= 0). */
static struct cp_est est_sub(struct cp_est a, struct cp_est b)
{
	struct cp_est r = a;

	r.val = a.val - b.val;
	r.lo = a.lo - b.hi;
	r.hi = a.hi - b.lo;
	r.fail = a.fail ? a.fail : b.fail;
	return r;
}

static struct cp_est est_scale(struct cp_est a, double s)
{
	a.val *= s;
	a.lo *= s;
	a.hi *= s;
	return a;
}

/* Below 0: 0 within noise or where any is (flagged), else failed. */
static void est_floor0(struct cp_est *e, bool any, unsigned *flags)
{
	if (e->fail || e->val >= 0)
		return;
	if (any && e->hi < 0)
		e->hi = 0;
	if (e->hi >= 0) {
		e->val = 0;
		if (e->lo > 0)
			e->lo = 0;
		*flags |= CP_TLFIT_CLAMPED;
		return;
	}
	e->fail = cause_neg;
}

static bool meas_ok(const struct cp_taulop_meas *in)
{
	int i;

	if (!in || in->nsizes < 1 || in->ntau < 1 || in->reps < 1 ||
	    in->nsend < 1 || !in->size_bytes || !in->tau || !in->deg ||
	    !in->ring_s || !in->isend_s || in->hops < 1 || in->tau[0] != 1)
		return false;
	for (i = 0; i < in->nsizes; i++)
		if (!(in->size_bytes[i] >= 0) ||
		    (i && in->size_bytes[i] <= in->size_bytes[i - 1]))
			return false;
	for (i = 0; i < in->ntau; i++)
		if (in->deg[i] < 1 || (i && in->tau[i] <= in->tau[i - 1]))
			return false;
	return true;
}

/* The median of experiment at with its interval; failed when its
 * samples are not all finite. */
static struct cp_est exp_est(const double *x, int reps, double level)
{
	struct cp_est e = { 0 };

	if (cp_taulop_median_ci(x, reps, level, &e))
		e.fail = cause_in;
	return e;
}

int cp_taulop_fit(const struct cp_taulop_meas *in, double level,
		  struct cp_taulop_fit *f)
{
	int is, it;

	memset(f, 0, sizeof(*f));
	if (!meas_ok(in) || !(level > 0 && level < 1))
		return -CP_EINVAL;
	f->o_s = calloc((size_t)in->nsizes, sizeof(*f->o_s));
	f->l_s = calloc((size_t)in->nsizes * in->ntau, sizeof(*f->l_s));
	if (!f->o_s || !f->l_s) {
		cp_taulop_fit_free(f);
		return -CP_ENOMEM;
	}
	f->nsizes = in->nsizes;
	f->ntau = in->ntau;
	for (is = 0; is < in->nsizes; is++) {
		struct cp_est o = exp_est(in->isend_s + (size_t)is * in->nsend,
					  in->nsend, level);

		f->o_s[is] = o;
		for (it = 0; it < in->ntau; it++) {
			size_t ri = ((size_t)is * in->ntau + it) * in->reps;
			struct cp_est l;

			l = est_sub(exp_est(in->ring_s + ri, in->reps, level),
				    est_scale(o, in->deg[it]));
			l = est_scale(l, 1.0 / in->hops);
			l.n = in->reps;
			est_floor0(&l, in->from_last, &f->flags);
			f->l_s[(size_t)is * in->ntau + it] = l;
		}
	}
	return 0;
}

void cp_taulop_fit_free(struct cp_taulop_fit *f)
{
	if (!f)
		return;
	free(f->o_s);
	free(f->l_s);
	f->o_s = f->l_s = NULL;
	f->nsizes = f->ntau = 0;
}

int cp_taulop_fit_unit(const double *units, const double *t_s, int n,
		      double level, struct cp_est *e)
{
	struct cp_linfit lf;
	int rc;

	rc = cp_stats_linfit(units, t_s, (size_t)n, level, &lf);
	if (rc)
		return rc;
	*e = lf.c1;
	if (e->val < 0) {
		e->fail = cause_neg;
		return -CP_ENUM;
	}
	if (e->lo < 0)
		e->lo = 0;
	return 0;
}
