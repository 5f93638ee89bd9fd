/*
 * cp_nnls.c - Lawson-Hanson non-negative least squares with free
 * unknowns, weights and a covariance (analysis/cp_nnls.h).
 *
 * The algorithm (Lawson & Hanson 1974, 23.3): start with every free
 * unknown passive and every constrained one at 0; repeatedly move into
 * the passive set the constrained unknown whose gradient of the residual
 * (A'(b - Ax)) is largest and positive, solve the unconstrained problem
 * on the passive columns, and when that solution makes a constrained
 * passive unknown non-positive, step back along the segment to the first
 * one that reaches 0 and make it active again.  Each subproblem is a
 * Householder QR of the passive columns (gsl_linalg_QR_decomp); the
 * covariance of the last one comes from R^-1 (gsl_linalg_tri_invert).
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "analysis/cp_err.h"
#include "analysis/cp_nnls.h"

/* The weighted, column-scaled problem. */
struct nn {
	int m, n;
	double *a;		/* [m * n] sqrt(w) * a / scale */
	double *b;		/* [m] sqrt(w) * b */
	double *scale;		/* [n] column norms (1 for a zero column) */
	double bnorm;
};

void cp_nnls_free(struct cp_nnls *s)
{
	free(s->x);
	free(s->se);
	free(s->se_free);
	free(s->cov);
	free(s->active);
	memset(s, 0, sizeof(*s));
}

static int nn_init(struct nn *p, const double *a, const double *b,
		   const double *w, int m, int n)
{
	double s, v;
	int r, c;

	p->m = m;
	p->n = n;
	p->a = malloc((size_t)m * n * sizeof(double));
	p->b = malloc((size_t)m * sizeof(double));
	p->scale = malloc((size_t)n * sizeof(double));
	if (!p->a || !p->b || !p->scale)
		return -CP_ENOMEM;
	p->bnorm = 0;
	for (r = 0; r < m; r++) {
		v = w ? w[r] : 1;
		if (!isfinite(v) || v < 0 || !isfinite(b[r]))
			return -CP_EINVAL;
		v = sqrt(v);
		p->b[r] = v * b[r];
		p->bnorm += p->b[r] * p->b[r];
		for (c = 0; c < n; c++) {
			if (!isfinite(a[(size_t)r * n + c]))
				return -CP_EINVAL;
			p->a[(size_t)r * n + c] = v * a[(size_t)r * n + c];
		}
	}
	p->bnorm = sqrt(p->bnorm);
	for (c = 0; c < n; c++) {
		for (s = 0, r = 0; r < m; r++)
			s += p->a[(size_t)r * n + c] * p->a[(size_t)r * n + c];
		p->scale[c] = s > 0 ? sqrt(s) : 1;
		for (r = 0; r < m; r++)
			p->a[(size_t)r * n + c] /= p->scale[c];
	}
	return 0;
}

static void nn_free(struct nn *p)
{
	free(p->a);
	free(p->b);
	free(p->scale);
}

/*
 * Unconstrained least squares on the columns in P: z (all n entries, 0
 * outside P), and when cov is not NULL the unscaled (R'R)^-1 of the
 * passive columns into cov[n * n] (0 elsewhere).  *rss: residual sum of
 * squares.  -CP_ENUM when the passive columns are dependent or more than
 * the rows.
 */
static int ls_on(const struct nn *p, const bool *P, double *z, double *cov,
		 double *rss)
{
	int k = 0, i, j, c, r, *col, rc = -CP_ENOMEM;
	gsl_matrix *q = NULL, *ri = NULL;
	gsl_vector *tau = NULL, *x = NULL, *res = NULL;
	gsl_vector_const_view bv = gsl_vector_const_view_array(p->b, p->m);
	double dmax = 0, s;

	col = malloc((size_t)p->n * sizeof(int));
	if (!col)
		return -CP_ENOMEM;
	for (c = 0; c < p->n; c++) {
		z[c] = 0;
		if (P[c])
			col[k++] = c;
	}
	if (cov)
		memset(cov, 0, (size_t)p->n * p->n * sizeof(double));
	*rss = p->bnorm * p->bnorm;
	if (!k) {
		free(col);
		return 0;
	}
	if (k > p->m) {
		free(col);
		return -CP_ENUM;
	}
	q = gsl_matrix_alloc(p->m, k);
	tau = gsl_vector_alloc(k);
	x = gsl_vector_alloc(k);
	res = gsl_vector_alloc(p->m);
	if (!q || !tau || !x || !res)
		goto out;
	for (r = 0; r < p->m; r++)
		for (j = 0; j < k; j++)
			gsl_matrix_set(q, r, j, p->a[(size_t)r * p->n + col[j]]);
	rc = -CP_ENUM;
	if (gsl_linalg_QR_decomp(q, tau))
		goto out;
	for (j = 0; j < k; j++)
		dmax = fmax(dmax, fabs(gsl_matrix_get(q, j, j)));
	/* unit columns: a diagonal this small means a dependent column */
	for (j = 0; j < k; j++)
		if (!(fabs(gsl_matrix_get(q, j, j)) > 1e-10 * dmax))
			goto out;
	if (gsl_linalg_QR_lssolve(q, tau, &bv.vector, x, res))
		goto out;
	for (j = 0; j < k; j++)
		z[col[j]] = gsl_vector_get(x, j);
	for (s = 0, r = 0; r < p->m; r++)
		s += gsl_vector_get(res, r) * gsl_vector_get(res, r);
	*rss = s;
	rc = 0;
	if (!cov)
		goto out;
	rc = -CP_ENOMEM;
	ri = gsl_matrix_calloc(k, k);
	if (!ri)
		goto out;
	for (i = 0; i < k; i++)
		for (j = i; j < k; j++)
			gsl_matrix_set(ri, i, j, gsl_matrix_get(q, i, j));
	rc = -CP_ENUM;
	if (gsl_linalg_tri_invert(CblasUpper, CblasNonUnit, ri))
		goto out;
	for (i = 0; i < k; i++)
		for (j = 0; j < k; j++) {
			for (s = 0, r = i > j ? i : j; r < k; r++)
				s += gsl_matrix_get(ri, i, r) *
				     gsl_matrix_get(ri, j, r);
			cov[(size_t)col[i] * p->n + col[j]] = s;
		}
	rc = 0;
out:
	gsl_matrix_free(q);
	gsl_matrix_free(ri);
	gsl_vector_free(tau);
	gsl_vector_free(x);
	gsl_vector_free(res);
	free(col);
	return rc;
}

/* g = A'(b - Ax) in the scaled problem. */
static void gradient(const struct nn *p, const double *x, double *g)
{
	double r;
	int i, c;

	memset(g, 0, (size_t)p->n * sizeof(double));
	for (i = 0; i < p->m; i++) {
		r = p->b[i];
		for (c = 0; c < p->n; c++)
			r -= p->a[(size_t)i * p->n + c] * x[c];
		for (c = 0; c < p->n; c++)
			g[c] += p->a[(size_t)i * p->n + c] * r;
	}
}

/* Inner loop of 23.3: from x (feasible) towards the passive solution,
 * dropping constrained unknowns that reach 0.  Returns 0, or an error of
 * ls_on. */
static int inner(const struct nn *p, const bool *fr, bool *P, double *x,
		 double *z)
{
	double alpha, q, rss;
	int c, rc, guard;

	for (guard = 0; guard <= p->n; guard++) {
		rc = ls_on(p, P, z, NULL, &rss);
		if (rc)
			return rc;
		alpha = 2;
		for (c = 0; c < p->n; c++) {
			if (!P[c] || fr[c] || z[c] > 0)
				continue;
			q = x[c] / (x[c] - z[c]);
			alpha = q < alpha ? q : alpha;
		}
		if (alpha > 1) {
			memcpy(x, z, (size_t)p->n * sizeof(double));
			return 0;
		}
		for (c = 0; c < p->n; c++) {
			x[c] += alpha * (z[c] - x[c]);
			if (P[c] && !fr[c] && x[c] <= 0) {
				P[c] = false;
				x[c] = 0;
			}
		}
	}
	return -CP_ENUM;
}

/* The outer loop; x, P out (scaled problem). */
static int outer(const struct nn *p, const bool *fr, bool *P, double *x,
		 int *iters)
{
	double *g = malloc((size_t)p->n * sizeof(double)), *z, best, tol;
	bool *skip = calloc((size_t)p->n, sizeof(bool));
	int c, t, rc = 0;

	z = malloc((size_t)p->n * sizeof(double));
	if (!g || !z || !skip) {
		rc = -CP_ENOMEM;
		goto out;
	}
	tol = 1e-11 * (p->bnorm > 0 ? p->bnorm : 1);
	for (c = 0; c < p->n; c++) {
		P[c] = fr[c];
		x[c] = 0;
	}
	rc = inner(p, fr, P, x, z);
	for (*iters = 0; !rc && *iters < 3 * p->n; (*iters)++) {
		gradient(p, x, g);
		t = -1;
		best = tol;
		for (c = 0; c < p->n; c++)
			if (!P[c] && !skip[c] && g[c] > best) {
				best = g[c];
				t = c;
			}
		if (t < 0)
			goto out;
		P[t] = true;
		rc = ls_on(p, P, z, NULL, &best);
		if (!rc && !(z[t] > 0)) {
			/* rounding: the gradient said up, the solve says
			 * no; 23.3 step 6 leaves t out for now */
			P[t] = false;
			skip[t] = true;
			continue;
		}
		memset(skip, 0, (size_t)p->n * sizeof(bool));
		if (!rc)
			rc = inner(p, fr, P, x, z);
	}
	if (!rc)
		rc = -CP_ENUM;
out:
	free(g);
	free(z);
	free(skip);
	return rc;
}

static int out_alloc(struct cp_nnls *o, int m, int n)
{
	memset(o, 0, sizeof(*o));
	o->nrows = m;
	o->nvar = n;
	o->x = calloc((size_t)n, sizeof(double));
	o->se = calloc((size_t)n, sizeof(double));
	o->se_free = calloc((size_t)n, sizeof(double));
	o->cov = calloc((size_t)n * n, sizeof(double));
	o->active = calloc((size_t)n, sizeof(bool));
	return o->x && o->se && o->se_free && o->cov && o->active ? 0 :
	       -CP_ENOMEM;
}

/* Covariances in the caller's units from the scaled fit on P. */
static int finish(const struct nn *p, const bool *P, struct cp_nnls *o)
{
	double *z = malloc((size_t)p->n * sizeof(double)), *cv = NULL;
	double s2, rss;
	bool *all = malloc((size_t)p->n * sizeof(bool));
	int i, j, k = 0, n = p->n, rc;

	if (!z || !all) {
		rc = -CP_ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		k += P[i];
	rc = ls_on(p, P, z, o->cov, &rss);
	if (rc)
		goto out;
	o->rss = rss;
	o->df = p->m - k;
	s2 = o->df > 0 ? rss / o->df : 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			o->cov[(size_t)i * n + j] *= s2 / (p->scale[i] *
							   p->scale[j]);
		o->se[i] = sqrt(o->cov[(size_t)i * n + i]);
		all[i] = true;
	}
	/* the free fit, only for its standard errors */
	rc = -CP_ENOMEM;
	cv = malloc((size_t)n * n * sizeof(double));
	if (!cv)
		goto out;
	rc = 0;
	if (p->m > n && !ls_on(p, all, z, cv, &rss)) {
		for (i = 0; i < n; i++)
			o->se_free[i] = sqrt(cv[(size_t)i * n + i] * rss /
					     (p->m - n)) / p->scale[i];
	} else {
		for (i = 0; i < n; i++)
			o->se_free[i] = NAN;
	}
out:
	free(z);
	free(cv);
	free(all);
	return rc;
}

int cp_nnls_solve(const double *a, const double *b, const double *w,
		  int nrows, int nvar, const bool *is_free,
		  struct cp_nnls *out)
{
	struct nn p = { 0 };
	bool *fr = NULL, *P = NULL;
	int rc, c;

	memset(out, 0, sizeof(*out));
	if (!a || !b || nrows < 1 || nvar < 1)
		return -CP_EINVAL;
	rc = out_alloc(out, nrows, nvar);
	fr = calloc((size_t)nvar, sizeof(bool));
	P = calloc((size_t)nvar, sizeof(bool));
	if (rc || !fr || !P) {
		rc = -CP_ENOMEM;
		goto out;
	}
	for (c = 0; c < nvar; c++)
		fr[c] = is_free && is_free[c];
	rc = nn_init(&p, a, b, w, nrows, nvar);
	if (!rc)
		rc = outer(&p, fr, P, out->x, &out->iters);
	if (!rc)
		rc = finish(&p, P, out);
	for (c = 0; !rc && c < nvar; c++) {
		out->x[c] /= p.scale[c];
		out->active[c] = !P[c];
	}
out:
	nn_free(&p);
	free(fr);
	free(P);
	if (rc)
		cp_nnls_free(out);
	return rc;
}
