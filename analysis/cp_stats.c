/*
 * cp_stats.c - sample summaries, t intervals, least-squares lines and
 * error measures (analysis/cp_stats.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/cp_err.h"
#include "analysis/cp_stats.h"

static bool all_finite(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

/* GSL's default handler aborts; every caller checks our return codes */
void cp_stats_init(void)
{
	gsl_set_error_handler_off();
}

int cp_stats_mean(const double *x, size_t n, double *mean)
{
	if (!x || !n || !all_finite(x, n))
		return -CP_EINVAL;
	*mean = gsl_stats_mean(x, 1, n);
	return 0;
}

int cp_stats_min(const double *x, size_t n, double *min)
{
	if (!x || !n || !all_finite(x, n))
		return -CP_EINVAL;
	*min = gsl_stats_min(x, 1, n);
	return 0;
}

int cp_stats_percentile(const double *x, size_t n, double p, double *q)
{
	double *c;

	if (!x || !n || !(p >= 0 && p <= 1) || !all_finite(x, n))
		return -CP_EINVAL;
	c = malloc(n * sizeof(*c));
	if (!c)
		return -CP_ENOMEM;
	memcpy(c, x, n * sizeof(*c));
	gsl_sort(c, 1, n);
	*q = gsl_stats_quantile_from_sorted_data(c, 1, n, p);
	free(c);
	return 0;
}

int cp_stats_median(const double *x, size_t n, double *med)
{
	return cp_stats_percentile(x, n, 0.5, med);
}

double cp_stats_tq(double level, double df)
{
	if (!(df > 0) || !(level > 0 && level < 1))
		return NAN;
	return gsl_cdf_tdist_Pinv(0.5 + level / 2, df);
}

void cp_stats_est_ci(struct cp_est *e, double level)
{
	double h = 0;

	if (e->df > 0 && e->se > 0)
		h = cp_stats_tq(level, e->df) * e->se;
	e->lo = e->val - h;
	e->hi = e->val + h;
}

int cp_stats_mean_ci(const double *x, size_t n, double level,
		     struct cp_est *e)
{
	if (!x || n < 2 || !all_finite(x, n) || !(level > 0 && level < 1))
		return -CP_EINVAL;
	memset(e, 0, sizeof(*e));
	e->val = gsl_stats_mean(x, 1, n);
	e->se = gsl_stats_sd_m(x, 1, n, e->val) / sqrt((double)n);
	e->df = (double)n - 1;
	e->n = (int)n;
	cp_stats_est_ci(e, level);
	return 0;
}

void cp_stats_ws_add(struct cp_ws *w, double coef, double se, double df)
{
	double v = coef * coef * se * se;

	if (v == 0 || !(df > 0))
		return;
	w->var += v;
	w->den += v * v / df;
}

void cp_stats_ws_est(const struct cp_ws *w, double level, struct cp_est *e)
{
	e->se = sqrt(w->var);
	e->df = w->den > 0 ? w->var * w->var / w->den : 0;
	cp_stats_est_ci(e, level);
}

int cp_stats_linfit(const double *x, const double *y, size_t n,
		    double level, struct cp_linfit *f)
{
	double c0, c1, v00, v01, v11, rss;

	if (!x || !y || n < 3 || !all_finite(x, n) || !all_finite(y, n) ||
	    !(level > 0 && level < 1))
		return -CP_EINVAL;
	if (gsl_stats_variance(x, 1, n) <= 0)
		return -CP_EINVAL;
	gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &v00, &v01, &v11, &rss);
	memset(f, 0, sizeof(*f));
	f->c0.val = c0;
	f->c1.val = c1;
	f->c0.se = sqrt(v00);
	f->c1.se = sqrt(v11);
	f->c0.df = f->c1.df = (double)n - 2;
	f->c0.n = f->c1.n = f->n = (int)n;
	f->cov01 = v01;
	f->rss = rss;
	cp_stats_est_ci(&f->c0, level);
	cp_stats_est_ci(&f->c1, level);
	return 0;
}

int cp_stats_mu(double r, double e, double *mu)
{
	if (!(isfinite(r) && isfinite(e) && r > 0 && e > 0))
		return -CP_EINVAL;
	*mu = r > e ? r / e : e / r;
	return 0;
}

int cp_stats_rho(double r, double e, double *rho)
{
	if (!(isfinite(r) && isfinite(e) && r > 0 && e >= 0))
		return -CP_EINVAL;
	*rho = fabs(e - r) / r;
	return 0;
}

int cp_stats_mu_of_rho(double rho, bool over, double *mu)
{
	if (!isfinite(rho) || rho < 0 || (!over && rho >= 1))
		return -CP_EINVAL;
	*mu = over ? 1 + rho : 1 / (1 - rho);
	return 0;
}

int cp_stats_rho_of_mu(double mu, bool over, double *rho)
{
	if (!isfinite(mu) || mu < 1)
		return -CP_EINVAL;
	*rho = over ? mu - 1 : 1 - 1 / mu;
	return 0;
}

int cp_stats_errsum(const double *r, const double *e, size_t n,
		    struct cp_errsum *s)
{
	double mu, rho, sum_mu = 0, sum_rho = 0;
	size_t i;
	int rc;

	if (!r || !e || !n)
		return -CP_EINVAL;
	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		rc = cp_stats_mu(r[i], e[i], &mu);
		if (rc)
			return rc;
		cp_stats_rho(r[i], e[i], &rho);
		sum_mu += mu;
		sum_rho += rho;
		if (mu > s->mu_max)
			s->mu_max = mu;
		if (rho > s->rho_max)
			s->rho_max = rho;
	}
	s->mu_bar = sum_mu / (double)n;
	s->rho_mean = sum_rho / (double)n;
	s->n = (int)n;
	return 0;
}
