/*
 * cp_lmo.h - estimation and predictions of the LMO heterogeneous
 * point-to-point model (models.md "LMO"; paper 002, section 3).
 *
 * Per processor i a fixed delay C_i (s) and a per-byte delay t_i (s/B);
 * per link a rate beta_ij = beta_ji (B/s).  A message i -> j of M bytes
 * costs C_i + t_i*M + C_j + t_j*M + M/beta_ij.  The calibrator measures
 * three series at one size M < S, and the one-to-two with empty messages
 * too (struct cp_lmo_meas); cp_lmo_estimate solves them for C, t and
 * 1/beta.  The thresholds S, M1, M2 and the
 * gather slope corrections kappa1, kappa2 come from scatter and gather
 * size rows (cp_lmo_scatter_thresh, cp_lmo_gather_thresh, cp_lmo_kappa).
 *
 * The predictions evaluate the estimates with the formulas of
 * analysis/cp_model.h, the ones the preloaded library prices calls with.
 *
 * Ranks are 0..n-1.  Pairs {i, j} and one-to-two experiments are stored
 * in the orders cp_lmo_pair_idx and cp_lmo_o2t_idx define.
 *
 * No global state; thread-safe.  Actions return 0 or -CP_E*
 * (analysis/cp_err.h).
 */
#ifndef CP_LMO_H
#define CP_LMO_H

#include "analysis/cp_stats.h"

/* Timings of the three estimation series at one message size. */
struct cp_lmo_meas {
	int n;			/* processors, >= 2 */
	double msg_bytes;	/* M of the one-to-one and one-to-two series */
	int reps0;		/* k0: repetitions of each empty roundtrip */
	int reps1;		/* k1: repetitions of each one-to-one */
	int reps2;		/* k2: repetitions of each one-to-two */
	/* [cp_lmo_pair_idx(n, i, j) * reps0 + r]: roundtrip i <-> j with
	 * empty messages, T_ij(0) = 2C_i + 2C_j */
	const double *rt0_s;
	/* [cp_lmo_pair_idx(n, i, j) * reps1 + r]: M bytes one way, empty
	 * reply, T_ij(M); either direction (the model is symmetric) */
	const double *o2o_s;
	/* [cp_lmo_o2t_idx(n, root, j, k) * reps2 + r]: root sends M to j
	 * and to k, both reply empty, T_root(M); unused (may be NULL) when
	 * n == 2 */
	const double *o2t_s;
	int reps3;		/* k3: repetitions of each empty one-to-two */
	/* [cp_lmo_o2t_idx(n, root, j, k) * reps3 + r]: the one-to-two with
	 * empty messages, T_root(0), or NULL.  With it, t_i's fixed part is
	 * measured, T_i(0) - max_j T_ij(0), instead of 002's 2C_i (ours;
	 * CP_LMO_F_T_MEASURED): right also where the fixed delays of the
	 * root's two transfers overlap, as link latency does. */
	const double *o2t0_s;
	int stat;		/* CP_LMO_STAT_*: an experiment's time */
};

/* What stands for an experiment's repetitions. */
/* their mean, as 002 does; intervals from the spread */
#define CP_LMO_STAT_MEAN	0
/* their minimum: the undisturbed time on a crowded host; estimates then
 * have no interval (lo = hi = value, se 0) */
#define CP_LMO_STAT_MIN		1

/* Flags of struct cp_lmo: assumptions the data could not check. */
/* n == 2: C_0 = C_1 assumed */
#define CP_LMO_F_EQUAL_C	0x1
/* n == 2: t_0 = t_1 = 0 assumed, all per-byte cost in 1/beta_01 */
#define CP_LMO_F_ZERO_T		0x2
/* t_i's fixed part measured by the empty one-to-two (o2t0_s) */
#define CP_LMO_F_T_MEASURED	0x4
/* a t_i < 0 within noise was set to 0 (lo keeps the sign, hi >= 0) */
#define CP_LMO_F_T_CLAMPED	0x8
/* experiments stood for by their minimum (CP_LMO_STAT_MIN) */
#define CP_LMO_F_STAT_MIN	0x10

/* An estimated (or loaded) model.  Arrays owned: cp_lmo_free(). */
struct cp_lmo {
	int n;			/* processors */
	double msg_bytes;	/* M the estimates were measured at */
	double level;		/* confidence level of the intervals */
	unsigned flags;		/* CP_LMO_F_* */
	int nfail;		/* estimates whose fail is set */
	struct cp_est *c_s;	/* [n] fixed delays C_i, s */
	struct cp_est *t_spb;	/* [n] per-byte delays t_i, s/B */
	struct cp_est *ib_spb;	/* [npairs] 1/beta_ij, s/B */
	struct cp_est *beta_Bps;	/* [npairs] beta_ij, B/s */
};

/* Variants of kappa1, kappa2 (models.md "Thresholds"). */
/* kappa = c1 - term, as 002 prints it */
#define CP_LMO_KAPPA_PRINTED	0
/* kappa = c1 - term - n*t_0 (ours): the model's slope is then c1 */
#define CP_LMO_KAPPA_NT0	1

/* Thresholds and gather slope corrections.  cp_lmo_thresh_init first. */
struct cp_lmo_thresh {
	double s_bytes;		/* scatter: M <= S parallel, else serial;
				 * NAN until estimated */
	int s_idx;		/* index of S in the scatter row, or -1 */
	struct cp_linfit scat_lo;	/* scatter fit, sizes <= S */
	struct cp_linfit scat_hi;	/* scatter fit, sizes > S */
	double m1_bytes;	/* gather: M < M1 small; NAN until estimated */
	int m1_idx;		/* k of models.md (0-based), or -1 */
	double m2_bytes;	/* gather: M >= M2 large (first size of the
				 * last linear segment); NAN until estimated */
	int m2_idx;		/* index of M2 in the gather row, or -1 */
	int gather_breaks;	/* breaks chosen by BIC in the gather row */
	unsigned flags;		/* CP_LMO_T_* */
	struct cp_linfit small;	/* gather fit on sizes 0..m1_idx */
	struct cp_linfit large;	/* gather fit on sizes m2_idx.. */
	struct cp_est kappa1_spb[2];	/* [CP_LMO_KAPPA_*], s/B */
	struct cp_est kappa2_spb[2];	/* [CP_LMO_KAPPA_*], s/B */
};

/* T^(i+1)/T^1 never > 10: M1 is the last size of the row */
#define CP_LMO_T_NO_M1		0x1
/* no gather break: M2 is the first size of the row */
#define CP_LMO_T_NO_M2		0x2

/* Number of pairs, C(n, 2).  Cannot fail (0 for n < 2). */
int cp_lmo_npairs(int n);

/* Number of one-to-two experiments, 3*C(n, 3).  Cannot fail. */
int cp_lmo_no2t(int n);

/* Index of pair {i, j} (any order) in lexicographic order of (min, max).
 * -CP_EINVAL unless 0 <= i, j < n and i != j.
 * n: processors; i, j: ranks. */
int cp_lmo_pair_idx(int n, int i, int j);

/* Index of the one-to-two experiment with root root and receivers a, b
 * (any order): 3 * (lexicographic index of the sorted triplet) + the
 * position of root in it.  -CP_EINVAL unless the three are distinct
 * ranks below n.  n: processors; root: sender; a, b: receivers. */
int cp_lmo_o2t_idx(int n, int root, int a, int b);

/* Allocate the arrays of m for n processors, all estimates zero with
 * fail "not estimated" (for loading stored values).  -CP_EINVAL for
 * n < 2, -CP_ENOMEM.  m: out, release with cp_lmo_free().
 * n: processors. */
int cp_lmo_alloc(struct cp_lmo *m, int n);

/* Release the arrays of m (NULL-safe, idempotent).  Cannot fail. */
void cp_lmo_free(struct cp_lmo *m);

/* Estimate C, t, 1/beta and beta from in at confidence level.
 * A t_i below 0 whose interval reaches 0 is set to 0 (CP_LMO_F_T_CLAMPED).
 * Returns 0, or -CP_ENUM when at least one estimate is negative or not
 * finite: m is then filled all the same, m->nfail counts the failed
 * estimates and each carries its cause in fail.  On both, m owns arrays
 * (cp_lmo_free).  Other errors (m holds nothing): -CP_EINVAL (n < 2, a
 * series with fewer than 2 repetitions, M <= 0, a non-finite time, level
 * outside (0, 1)), -CP_ENOMEM.
 * in: measurements; level: e.g. CP_STATS_LEVEL; m: out. */
int cp_lmo_estimate(const struct cp_lmo_meas *in, double level,
		    struct cp_lmo *m);

/* Predicted time of one message of bytes from i to j (cp_lmo_eval_p2p):
 * C_i + t_i*M + C_j + t_j*M + M/beta_ij.  -CP_EINVAL for bad ranks or
 * bytes < 0, -CP_ENUM if an estimate used has failed, -CP_ENOMEM.
 * m: model; i, j: ranks; bytes: M; t_s: out. */
int cp_lmo_predict_p2p(const struct cp_lmo *m, int i, int j, double bytes,
		       double *t_s);

/* Set th to "nothing estimated".  Cannot fail.  th: out. */
void cp_lmo_thresh_init(struct cp_lmo_thresh *th);

/* S from a scatter size row: the single break of a two-segment
 * piecewise-linear fit (cp_breaks_fit with 1 break); S = the last size
 * of the first segment.
 * bytes, t_s: the row, sizes increasing; n: its length; h: minimum
 * segment size (<= 0 for the default); level: confidence level;
 * th: updated (s_*, scat_*).  Errors of cp_breaks_fit. */
int cp_lmo_scatter_thresh(const double *bytes, const double *t_s, int n,
			  int h, double level, struct cp_lmo_thresh *th);

/* M1 and M2 from a gather size row.  M1 = M_k, k = min{i : T^(i+1)/T^1 >
 * 10} (0-based here; the last size and CP_LMO_T_NO_M1 if none), small =
 * the line through sizes 0..k; M2 = first size of the last segment of the
 * BIC-chosen partition (cp_breaks_fit), large = its line.  Fewer than 3
 * sizes up to M1 leaves small.n == 0 (kappa1 then fails).
 * bytes, t_s: the row; n: length; h: minimum segment size (<= 0 default);
 * level: confidence level; th: updated (m1_*, m2_*, small, large...).
 * Errors of cp_breaks_fit; -CP_EINVAL if a time is not positive. */
int cp_lmo_gather_thresh(const double *bytes, const double *t_s, int n,
			 int h, double level, struct cp_lmo_thresh *th);

/* kappa1 = c1(small) - max_i (t_i + 1/beta_root,i) and kappa2 = c1(large)
 * - sum_i (t_i + 1/beta_root,i) over the gather row's senders, in both
 * variants (CP_LMO_KAPPA_*).  Intervals: the fit's slope and the model
 * term are independent experiments, so their variances add; the model
 * term's standard error is bounded by the sum of its parts' (their
 * covariances are not kept): conservative.  A kappa whose inputs failed
 * gets a fail cause; returns -CP_ENUM if any kappa failed, else 0.
 * -CP_EINVAL for bad ranks or thresholds not estimated.
 * m: model; root: gather root; peers, npeers: the senders; level:
 * confidence level; th: updated (kappa*). */
int cp_lmo_kappa(const struct cp_lmo *m, int root, const int *peers,
		 int npeers, double level, struct cp_lmo_thresh *th);

/* Linear scatter from root to the npeers peers, bytes each
 * (cp_lmo_eval_scatter): n*(C_0 + t_0*M) + max_i {C_i + t_i*M +
 * M/beta_0i} if M <= S, the sum over i instead of the max if M > S.
 * -CP_EINVAL (bad ranks, S not estimated), -CP_ENUM (an estimate used
 * has failed), -CP_ENOMEM.
 * m: model; th: thresholds; root: sender; peers, npeers: receivers;
 * bytes: M; t_s: out. */
int cp_lmo_predict_scatter(const struct cp_lmo *m,
			   const struct cp_lmo_thresh *th, int root,
			   const int *peers, int npeers, double bytes,
			   double *t_s);

/* Linear gather of bytes from each of npeers peers to root
 * (cp_lmo_eval_gather): the scatter terms (max for M < M1, sum for
 * M >= M2) plus kappa1*M or kappa2*M of the given variant.  Between M1
 * and M2 the time escalates in random discrete levels (002):
 * -CP_ENOPRED, *t_s untouched; only there (cp_lmo_gather_range).  A
 * failed kappa of the size's range is a failed estimate: -CP_ENUM.
 * -CP_EINVAL (bad ranks or variant, the threshold that decides not
 * estimated), -CP_ENUM, -CP_ENOMEM as cp_lmo_predict_scatter.
 * m: model; th: thresholds and kappas; variant: CP_LMO_KAPPA_*;
 * root, peers, npeers, bytes: the gather; t_s: out. */
int cp_lmo_predict_gather(const struct cp_lmo *m,
			  const struct cp_lmo_thresh *th, int variant,
			  int root, const int *peers, int npeers,
			  double bytes, double *t_s);

#endif
