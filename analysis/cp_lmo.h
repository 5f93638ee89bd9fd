/*
 * cp_lmo.h - the LMO heterogeneous point-to-point model (LMO
 * paper, section 3): its estimates per protocol regime,
 * thresholds and predictions.
 *
 * Per processor i a fixed delay C_i (s) and a per-byte delay t_i (s/B);
 * per link a rate beta_ij = beta_ji (B/s).  A message i -> j of M bytes
 * costs C_i + t_i*M + C_j + t_j*M + M/beta_ij.  An MPI library changes
 * protocol with the size (eager, rendezvous), and each protocol has its
 * own costs: the parameters hold per regime, a range of sizes
 * [first_bytes, next regime's first_bytes).  analysis/cp_lmo_ls.h finds
 * the regimes in a size sweep and estimates each one (struct cp_lmo).
 *
 * What a point-to-point prediction needs is the two sums C_i + C_j and
 * t_i + t_j + 1/beta_ij of its link: they are always determined by the
 * one-to-one series and kept as estimates of their own (csum_s,
 * tsum_spb); the split into C_i, t_i and beta_ij needs triplets and may
 * be ambiguous (cp_est.ambig says why).  The thresholds S, M1, M2 and the
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

/* Flags of struct cp_lmo. */
/* n == 2: the split is assumed (C_0 = C_1, t_0 = t_1 = 0), each value
 * marked ambiguous; the sums are measured */
#define CP_LMO_F_N2		0x1
/* the split system could not be solved: C, t, beta failed, the sums
 * stand */
#define CP_LMO_F_NOSPLIT	0x2

/* The estimates of one regime.  Arrays owned: cp_lmo_free(). */
struct cp_lmo {
	int n;			/* processors */
	double first_bytes;	/* the regime's first size (0 for the first) */
	double lo_bytes;	/* smallest size measured in it */
	double hi_bytes;	/* largest size measured in it */
	double level;		/* confidence level of the intervals */
	unsigned flags;		/* CP_LMO_F_* */
	int nfail;		/* estimates whose fail is set */
	int ndropped;		/* rows left out as outliers */
	struct cp_est *c_s;	/* [n] fixed delays C_i, s */
	struct cp_est *t_spb;	/* [n] per-byte delays t_i, s/B */
	struct cp_est *ib_spb;	/* [npairs] 1/beta_ij, s/B */
	struct cp_est *beta_Bps;	/* [npairs] beta_ij, B/s (+inf when
					 * 1/beta_ij is 0) */
	struct cp_est *csum_s;	/* [npairs] C_i + C_j, s */
	struct cp_est *tsum_spb;	/* [npairs] t_i + t_j + 1/beta_ij */
};

/* Variants of kappa1, kappa2 (LMO paper). */
/* kappa = c1 - term, as the LMO paper prints it */
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
	int m1_idx;		/* k of the LMO paper (0-based), or -1 */
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

/* Predicted time of one message of bytes from i to j (cp_lmo_eval_p2p):
 * (C_i + C_j) + (t_i + t_j + 1/beta_ij)*M from the sums of the link.
 * -CP_EINVAL for bad ranks or bytes < 0, -CP_ENUM if a sum used has
 * failed, -CP_ENOMEM.
 * m: the estimates of the regime bytes falls in; i, j: ranks; bytes: M;
 * t_s: out. */
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
 * BIC-chosen partition (cp_breaks_fit) that is not escalated (more than
 * twice the line through the sizes after it, while 3 remain), large =
 * the line through M2 and the sizes after it.  Fewer than 3
 * sizes up to M1 leaves small.n == 0 (kappa1 then fails).
 * bytes, t_s: the row; n: length; h: minimum segment size (<= 0 default);
 * level: confidence level; th: updated (m1_*, m2_*, small, large...).
 * Errors of cp_breaks_fit; -CP_EINVAL if a time is not positive. */
int cp_lmo_gather_thresh(const double *bytes, const double *t_s, int n,
			 int h, double level, struct cp_lmo_thresh *th);

/* kappa1 = c1(small) - max_i (t_i + 1/beta_root,i) and kappa2 = c1(large)
 * - sum_i (t_i + 1/beta_root,i) over the gather row's senders, in both
 * variants (CP_LMO_KAPPA_*), t_i + 1/beta_root,i being the link's sum
 * less t_root.  Each range takes the LMO estimates of the regime its
 * fitted sizes end in (the caller picks them).  Intervals: the fit's
 * slope and the model term are independent experiments, so their
 * variances add; the model term's standard error is bounded by the sum
 * of its parts' (their covariances are not kept): conservative.  A kappa
 * whose inputs failed gets a fail cause; returns -CP_ENUM if any kappa
 * failed, else 0.  -CP_EINVAL for bad ranks or thresholds not estimated.
 * small, large: the regimes of the small and the large gathers; root:
 * gather root; peers, npeers: the senders; level: confidence level;
 * th: updated (kappa*). */
int cp_lmo_kappa(const struct cp_lmo *small, const struct cp_lmo *large,
		 int root, const int *peers, int npeers, double level,
		 struct cp_lmo_thresh *th);

/* Linear scatter from root to the npeers peers, bytes each
 * (cp_lmo_eval_scatter): n*(C_0 + t_0*M) + max_i {C_i + t_i*M +
 * M/beta_0i} if M <= S, the sum over i instead of the max if M > S,
 * written with the links' sums and the root's split.
 * -CP_EINVAL (bad ranks, S not estimated), -CP_ENUM (an estimate used
 * has failed), -CP_ENOMEM.
 * m: the regime bytes falls in; th: thresholds; root: sender; peers, npeers: receivers;
 * bytes: M; t_s: out. */
int cp_lmo_predict_scatter(const struct cp_lmo *m,
			   const struct cp_lmo_thresh *th, int root,
			   const int *peers, int npeers, double bytes,
			   double *t_s);

/* Linear gather of bytes from each of npeers peers to root
 * (cp_lmo_eval_gather): the scatter terms (max for M < M1, sum for
 * M >= M2) plus kappa1*M or kappa2*M of the given variant.  Between M1
 * and M2 the time escalates in random discrete levels (LMO paper):
 * -CP_ENOPRED, *t_s untouched; only there (cp_lmo_gather_range).  A
 * failed kappa of the size's range is a failed estimate: -CP_ENUM.
 * -CP_EINVAL (bad ranks or variant, the threshold that decides not
 * estimated), -CP_ENUM, -CP_ENOMEM as cp_lmo_predict_scatter.
 * m: the regime bytes falls in; th: thresholds and kappas; variant: CP_LMO_KAPPA_*;
 * root, peers, npeers, bytes: the gather; t_s: out. */
int cp_lmo_predict_gather(const struct cp_lmo *m,
			  const struct cp_lmo_thresh *th, int variant,
			  int root, const int *peers, int npeers,
			  double bytes, double *t_s);

#endif
