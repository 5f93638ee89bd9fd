/*
 * cp_stats.h - the statistics every model fit shares: summaries of a
 * sample, confidence intervals of means and of least-squares lines, and
 * the error measures of the tau-Lop paper (section 5.5: mu, rho).
 *
 * A value with its uncertainty travels as struct cp_est, so that every
 * estimate of analysis/ can be printed and stored the same way: value,
 * interval, standard error, degrees of freedom, sample count, a static
 * cause string when the value must not be used, and one when the data do
 * not settle it (a split of a determined sum, say).
 *
 * No global state; every function is thread-safe.  Actions return 0 or
 * -CP_E* (analysis/cp_err.h) and leave their outputs unspecified on error.
 */
#ifndef CP_STATS_H
#define CP_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Default confidence level of every interval in analysis/. */
#define CP_STATS_LEVEL	0.95

/* An estimate.  Units are those of the field that holds it. */
struct cp_est {
	double val;		/* point estimate */
	double lo;		/* lower bound of the confidence interval */
	double hi;		/* upper bound (may be +INFINITY) */
	double se;		/* standard error; 0 if exact/assumed */
	double df;		/* degrees of freedom of lo/hi; 0 none */
	int n;			/* measured samples behind val; 0 if
				 * assumed */
	const char *fail;	/* NULL, or why val is unusable (static) */
	const char *ambig;	/* NULL, or why the data do not settle val
				 * although it is usable (static) */
};

/* A least-squares line y = c0 + c1*x. */
struct cp_linfit {
	struct cp_est c0;	/* intercept, units of y */
	struct cp_est c1;	/* slope, units of y per unit of x */
	double cov01;		/* covariance of c0 and c1 */
	double rss;		/* residual sum of squares, units of y^2 */
	int n;			/* points fitted */
};

/* Summary of predicted-versus-measured errors over a set of cases. */
struct cp_errsum {
	double mu_bar;		/* arithmetic mean of mu (ours) */
	double mu_max;		/* largest mu */
	double rho_mean;	/* mean relative error |e - r| / r */
	double rho_max;		/* largest rho */
	int n;			/* cases */
};

/* Make GSL report errors as return codes instead of aborting the
 * process; call once before any fitting.  Cannot fail. */
void cp_stats_init(void);

/* Mean of x[0..n-1]; -CP_EINVAL if n == 0 or x holds a non-finite value.
 * x: samples; n: their count; mean: out. */
int cp_stats_mean(const double *x, size_t n, double *mean);

/* Smallest of x[0..n-1]; -CP_EINVAL as cp_stats_mean.
 * x: samples; n: their count; min: out. */
int cp_stats_min(const double *x, size_t n, double *min);

/* The p-quantile (0 <= p <= 1) of x, linear interpolation between order
 * statistics (GSL, R type 7).  x is not modified; a sorted copy is made:
 * -CP_ENOMEM if it cannot be, -CP_EINVAL for n == 0, p out of range or a
 * non-finite sample.
 * x: samples; n: their count; p: quantile; q: out. */
int cp_stats_percentile(const double *x, size_t n, double p, double *q);

/* Median: cp_stats_percentile(x, n, 0.5, med); same errors. */
int cp_stats_median(const double *x, size_t n, double *med);

/* Mean of x with a Student-t interval at level: val = mean, se =
 * sd/sqrt(n), df = n - 1.  -CP_EINVAL for n < 2, a non-finite sample
 * or level outside (0, 1).
 * x: samples; n: count; level: e.g. CP_STATS_LEVEL; e: out. */
int cp_stats_mean_ci(const double *x, size_t n, double level,
		     struct cp_est *e);

/* Two-sided Student-t quantile for level with df degrees of freedom
 * (real df allowed, as from Welch-Satterthwaite); NAN if df <= 0 or level
 * not in (0, 1).  Cannot fail otherwise.
 * level: confidence level; df: degrees of freedom. */
double cp_stats_tq(double level, double df);

/* Fill e->lo/hi from e->val, e->se and e->df at level (val +- t*se).  If
 * df <= 0 the interval is the single point val.  Cannot fail.
 * e: estimate to complete; level: confidence level. */
void cp_stats_est_ci(struct cp_est *e, double level);

/* Running variance of a linear combination of independent estimates,
 * for its standard error and Welch-Satterthwaite degrees of freedom. */
struct cp_ws {
	double var;		/* sum of (coef * se)^2 */
	double den;		/* sum of (coef * se)^4 / df */
};

/* Add coef * X to the combination, X an estimate independent of the
 * others with standard error se and df degrees of freedom (terms with se
 * == 0 are exact and ignored).  Cannot fail.
 * w: accumulator, zeroed by the caller first; coef: weight of X;
 * se: standard error of X; df: its degrees of freedom (> 0). */
void cp_stats_ws_add(struct cp_ws *w, double coef, double se, double df);

/* Set e->se and e->df from w, then e->lo/hi at level around e->val.
 * Cannot fail.  w: accumulator; level: confidence level; e: estimate. */
void cp_stats_ws_est(const struct cp_ws *w, double level, struct cp_est *e);

/* Least-squares line through (x[i], y[i]) (gsl_fit_linear), intervals
 * from the t distribution with n - 2 degrees of freedom.  -CP_EINVAL if
 * n < 3, a value is not finite, all x are equal or level is outside
 * (0, 1).
 * x, y: points; n: count; level: confidence level; f: out. */
int cp_stats_linfit(const double *x, const double *y, size_t n,
		    double level, struct cp_linfit *f);

/* Proportional error mu = max(r, e) / min(r, e) >= 1 (tau-Lop paper, 5.5).
 * -CP_EINVAL unless r > 0 and e > 0 are finite.
 * r: measured; e: predicted; mu: out. */
int cp_stats_mu(double r, double e, double *mu);

/* Relative error rho = |e - r| / r.  -CP_EINVAL unless r > 0 and e >= 0
 * are finite.  r: measured; e: predicted; rho: out. */
int cp_stats_rho(double r, double e, double *rho);

/* mu from rho: 1 + rho for an overestimate, 1/(1 - rho) for an
 * underestimate (needs rho < 1).  -CP_EINVAL for rho < 0 or not finite.
 * rho: relative error; over: true if e >= r; mu: out. */
int cp_stats_mu_of_rho(double rho, bool over, double *mu);

/* rho from mu: mu - 1 for an overestimate, 1 - 1/mu for an
 * underestimate.  -CP_EINVAL for mu < 1 or not finite.
 * mu: proportional error; over: true if e >= r; rho: out. */
int cp_stats_rho_of_mu(double mu, bool over, double *rho);

/* mu_bar, mu_max, mean and max rho over n (measured, predicted) pairs.
 * -CP_EINVAL for n == 0 or any pair refused by cp_stats_mu.
 * r: measured values; e: predictions; n: pairs; s: out. */
int cp_stats_errsum(const double *r, const double *e, size_t n,
		    struct cp_errsum *s);

#endif
