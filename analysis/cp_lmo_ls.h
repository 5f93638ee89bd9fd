/*
 * cp_lmo_ls.h - LMO from size sweeps, per protocol regime (ours, after
 * the LMO paper): the regimes are found in the sweep, and each regime's
 * parameters come from one weighted least-squares system over all its
 * experiments, with every delay and rate constrained to be >= 0
 * (analysis/cp_nnls.h).
 *
 * The sweep: every LMO experiment at every size M_1 < ... < M_S, one time
 * per experiment and size (the calibrator's statistic of its
 * repetitions), and the empty roundtrips T_ij(0).
 *
 * One-way time of a link.  The one-to-one sends M and gets an empty
 * reply, which is an empty message of the first regime, half of
 * T_ij(0): y_ij(M) = T_ij(M) - T_ij(0)/2 = (C_i + C_j) + (t_i + t_j +
 * 1/beta_ij)*M with the parameters of M's regime (y_ij(0) = T_ij(0)/2).
 *
 * Regimes (cp_lmo_regimes_find).  The one-way times of all links share
 * one partition of the sizes into linear segments (cp_breaks_fit_joint,
 * each cell weighted as below, number of breaks by BIC, at least 4
 * sizes per segment: with 3, a regime's per-byte terms were noise).  A
 * break is matched to a limit the MPI library reports (Open MPI's
 * btl_*_eager_limit, ...) when that limit lies between the last size
 * before it and the first after it, both included; the regime then
 * starts at the limit when it lies above the last size before (an
 * eager limit), one byte above it when it is that size (the largest size
 * of the lower protocol, as an inline limit is), and at the first size
 * after the break if that comes first.  Limits no break matches are
 * listed as unseen; breaks no limit matches stand, as the data's.
 *
 * Each regime (cp_lmo_fit_regime), over its sizes M (and M = 0 in the
 * first):
 *  - the sums of every link, C_i + C_j and t_i + t_j + 1/beta_ij, from
 *    its one-way times alone (two unknowns >= 0, weights 1/y^2): what a
 *    message needs, always determined;
 *  - the split, n >= 3: unknowns C_i, t_i, 1/beta_ij >= 0 and a free
 *    intercept a_q per one-to-two experiment q, in one system: rows
 *    y_ij(M) = C_i + C_j + (t_i + t_j + 1/beta_ij)*M for every link, and
 *    T_q(M) = a_q + (2 t_i + t_p + 1/beta_ip)*M for every one-to-two
 *    with root i, p the partner of larger one-to-one time at M (LMO paper's
 *    max).  The one-to-two informs t_i through its slope only: its fixed
 *    part, 4C_i + 2C_p in the LMO paper, is where overlapping link latencies
 * break    the model, and a free intercept absorbs whatever it is.
 *    Weights from each cell's spread and a relative part (struct
 *    cp_lmo_sweep), refitted once around the fitted times; then the
 *    row of largest standardized residual is dropped while it exceeds 5
 *    robust standard deviations (and 10% of its time), up to a tenth of
 *    the rows: outliers.
 *  - n == 2: the split is not determined; C_0 = C_1 = (C_0 + C_1)/2,
 *    t_0 = t_1 = 0, 1/beta_01 = the per-byte sum, each marked ambiguous
 *    (CP_LMO_F_N2).
 * A t_i whose interval reaches 0 is taken as 0 and marked ambiguous, its
 * links' 1/beta_ij holding that part of their sums (the sums and the
 * intervals do not move).  A split value is also marked ambiguous when
 * its 95% interval is wider than the smallest sum it is part of: the
 * data cannot tell it from the other terms of that sum.
 *
 * Intervals: Student-t at the given level around each value, from the
 * system's covariance (cp_nnls: passive unknowns); an unknown at its
 * bound 0 gets [0, t * se_free].
 *
 * No global state; thread-safe.  Actions return 0 or -CP_E*.
 */
#ifndef CP_LMO_LS_H
#define CP_LMO_LS_H

#include "analysis/cp_lmo.h"

/* The measured sweep, in npass passes (the same sizes measured again
 * at another time: every pass is one more row per experiment and size,
 * so that how much the host moved between them is in the residuals and
 * the intervals).  A NAN time is a cell not measured (skipped).  The
 * spreads (*_sd, optional) say how much a cell's time varies from
 * repetition to repetition: a cell is weighted by 1/(sd^2 + (0.01 T)^2);
 * without them by 1/T^2 (relative residuals). */
struct cp_lmo_sweep {
	int n;			/* processors, >= 2 */
	int nsizes;		/* sizes of the sweep, >= 1 */
	const double *size_bytes;	/* [nsizes] > 0, increasing */
	int npass;		/* passes, 0 or 1: one */
	/* [pass * npairs + pair] T_ij(0) */
	const double *rt0_s;
	/* [(pass * nsizes + is) * npairs + pair] T_ij(M_is) */
	const double *o2o_s;
	/* [(pass * nsizes + is) * no2t + cp_lmo_o2t_idx] T_i(M_is); NULL
	 * when n == 2 */
	const double *o2t_s;
	const double *rt0_sd;	/* spreads of the three, same layouts, or */
	const double *o2o_sd;	/* NULL (all three or none) */
	const double *o2t_sd;
};

/* A limit the MPI library reports (man/commprof-calibrate.1). */
struct cp_lmo_limit {
	char name[48];		/* e.g. "btl_vader_eager_limit" */
	double bytes;
};

#define CP_LMO_MAXREG	8

/* Regimes of a sweep. */
struct cp_lmo_regimes {
	int nreg;				/* >= 1 */
	double first_bytes[CP_LMO_MAXREG];	/* [0] = 0, increasing */
	int lo_idx[CP_LMO_MAXREG];	/* first sweep size in the regime */
	int hi_idx[CP_LMO_MAXREG];	/* last sweep size in it */
	char source[CP_LMO_MAXREG][64];	/* [k >= 1]: "data", or the limit
					 * matched, "NAME=BYTES" */
	int nunseen;			/* limits no break matched */
	struct cp_lmo_limit unseen[CP_LMO_MAXREG];
};

/*
 * cp_lmo_regimes_find - the regimes of sw (see above).
 * sw: the sweep; lim, nlim: the library's limits (may be 0); r: out.
 * A sweep of fewer than 8 sizes is one regime.  Returns 0, -CP_EINVAL
 * (bad sweep), -CP_ENOMEM.
 */
int cp_lmo_regimes_find(const struct cp_lmo_sweep *sw,
			const struct cp_lmo_limit *lim, int nlim,
			struct cp_lmo_regimes *r);

/*
 * cp_lmo_fit_regime - the estimates of regime k of r (see above).
 * sw: the sweep; r: its regimes; k: which; level: confidence level;
 * m: out (release with cp_lmo_free; it owns arrays also when the return
 * is -CP_ENUM).  Returns 0; -CP_ENUM when some estimate failed (each
 * with its cause, m->nfail counts them); -CP_EINVAL (bad sweep, k, or
 * level), -CP_ENOMEM (m then holds nothing).
 */
int cp_lmo_fit_regime(const struct cp_lmo_sweep *sw,
		      const struct cp_lmo_regimes *r, int k, double level,
		      struct cp_lmo *m);

/* y_ij(M) = T_ij(M) - T_ij(0)/2, a link's one-way time from its
 * one-to-one o2o_s and its empty roundtrip rt0_s (above).  Cannot
 * fail. */
static inline double cp_lmo_oneway(double o2o_s, double rt0_s)
{
	return o2o_s - rt0_s / 2;
}

#endif
