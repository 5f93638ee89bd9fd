/*
 * cp_nnls.h - weighted linear least squares with non-negativity
 * constraints on chosen unknowns: Lawson and Hanson's NNLS ("Solving
 * Least Squares Problems", 1974, chapter 23), with some unknowns left
 * free, on GSL's QR decomposition.  LMO's per-regime estimation
 * (analysis/cp_lmo_ls.h) solves its one system with it: every delay and
 * rate is >= 0, nuisance intercepts are free.
 *
 * minimize sum_r w_r * (b_r - sum_c a_rc x_c)^2  subject to x_c >= 0 for
 * every constrained c.
 *
 * Columns are scaled to unit norm before solving (the unknowns of one
 * system differ by nine orders of magnitude: seconds and seconds per
 * byte times megabytes), which keeps the signs and so the constraints.
 *
 * Covariance: at the solution the constrained unknowns that sit at 0
 * (the active set) are fixed; the others (passive) are the unconstrained
 * least-squares fit on their columns, with covariance
 * s^2 (A_P' W A_P)^-1, s^2 = weighted RSS / (rows - passive).  An active
 * unknown has standard error 0 from this fit; se_free gives the standard
 * error it would have with every unknown free, for an interval that says
 * how far from 0 the data allow it.
 *
 * No global state; thread-safe.  Actions return 0 or -CP_E*.
 */
#ifndef CP_NNLS_H
#define CP_NNLS_H

#include <stdbool.h>

/* A solution.  Arrays owned: cp_nnls_free(). */
struct cp_nnls {
	int nrows;		/* equations */
	int nvar;		/* unknowns */
	double *x;		/* [nvar] solution */
	double *se;		/* [nvar] standard error; 0 for active ones */
	double *se_free;	/* [nvar] standard error with every unknown
				 * free (NAN when that fit is singular) */
	double *cov;		/* [nvar * nvar] covariance of the passive
				 * unknowns, 0 in rows and columns of active
				 * ones */
	bool *active;		/* [nvar] constrained and at its bound 0 */
	double rss;		/* weighted residual sum of squares */
	double df;		/* nrows - passive unknowns (>= 0) */
	int iters;		/* outer iterations taken */
};

/*
 * cp_nnls_solve - solve the problem above.
 * a: [nrows * nvar] row-major design; b: [nrows] right side; w: [nrows]
 * weights >= 0, or NULL for all 1; nrows, nvar: sizes (nrows >= 1,
 * nvar >= 1); is_free: [nvar] true for an unknown without constraint, or
 * NULL (all constrained); out: solution, release with cp_nnls_free()
 * (it holds nothing on error).
 * Returns 0; -CP_EINVAL (bad sizes, a non-finite input, a negative
 * weight); -CP_ENUM when the passive columns are linearly dependent (the
 * data do not determine the unknowns: an all-zero column, two equal
 * ones) or the iteration does not converge in 3 * nvar steps;
 * -CP_ENOMEM.
 */
int cp_nnls_solve(const double *a, const double *b, const double *w,
		  int nrows, int nvar, const bool *is_free,
		  struct cp_nnls *out);

/* Release the arrays of s (NULL-safe, idempotent).  Cannot fail. */
void cp_nnls_free(struct cp_nnls *s);

#endif
