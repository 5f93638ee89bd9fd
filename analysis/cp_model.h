/*
 * cp_model.h - the evaluation of every model of README "References": one
 * function per formula, plain numbers and arrays in, a time out
 * (libcpmodel.la: libc and libm, no GSL, no intervals).  The preloaded library
 * prices each call with these (src/lib/cp_predict.c), and the fitting side
 * (analysis/cp_lmo.h, cp_log3p.h, cp_baseline.h) evaluates its estimates
 * through them: a formula is written here and nowhere else.
 *
 * A parameter that failed or was never estimated is NAN; what depends on
 * it is NAN, or -CP_ENUM where a function returns a code.  Times are
 * seconds and sizes bytes in the names; the formulas are linear in the
 * times, so any time unit works.  No global state, no allocation;
 * thread-safe.  Actions return 0 or -CP_E* (analysis/cp_err.h).
 */
#ifndef CP_MODEL_H
#define CP_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* ---- tables measured at discrete sizes (ours) ---- */

/*
 * cp_model_locate - segment a and weight w of x in xs[0..n), increasing,
 * so that x = (1-w)*xs[a] + w*xs[a+1]: the segment that holds x, or the
 * end segment extended (w outside [0,1]); a = 0, w = 0 when n == 1.
 * Returns true when x lies outside [xs[0], xs[n-1]].  Cannot fail.
 */
bool cp_model_locate(const double *xs, int n, double x, int *a, double *w);

/*
 * cp_model_lerp - (1-w)*v[a] + w*v[a+1], the entries stride apart (v[a]
 * is v[a * stride]); v[a] alone when n == 1 or w == 0, so that a value
 * measured at x is taken as it is.  Cannot fail.  n: entries of v.
 */
double cp_model_lerp(const double *v, int stride, int a, double w, int n);

/* ---- LMO (LMO paper, section 3) ---- */

/*
 * LMO parameters of n ranks in one protocol regime, as flat arrays that
 * the caller owns.  A message uses only the sums of its link, which the
 * data always determine; a scatter or gather adds the root's own share
 * C_root + t_root*M once per further peer.
 */
struct cp_lmo_tab {
	int n;			/* ranks 0..n-1 */
	const double *c_s;	/* [n] fixed delays C_i */
	const double *t_spb;	/* [n] per-byte delays t_i */
	const double *csum_s;	/* [i * n + j] C_i + C_j, symmetric; the
				 * diagonal is not read */
	const double *tsum_spb;	/* [i * n + j] t_i + t_j + 1/beta_ij */
	double s_bytes;		/* scatter threshold S; NAN unknown */
	double m1_bytes;	/* gather: M < M1 small; NAN unknown */
	double m2_bytes;	/* gather: M >= M2 large; NAN unknown */
	double kappa1_spb;	/* gather slope corrections of the variant */
	double kappa2_spb;	/* in use (CP_LMO_KAPPA_*); NAN failed */
};

/*
 * cp_lmo_regime_of - the regime a message of bytes falls in: the last k
 * with first_bytes[k] <= bytes (0 when bytes is below all, NAN or
 * negative).  first_bytes: [nreg] increasing, first_bytes[0] = 0;
 * nreg >= 1.  Cannot fail.
 */
int cp_lmo_regime_of(const double *first_bytes, int nreg, double bytes);

/* Where a linear gather of M bytes per sender falls (LMO paper): */
enum cp_lmo_range {
	CP_LMO_SMALL,		/* M < M1: parallel, plus kappa1*M */
	CP_LMO_ESCAL,		/* M1 <= M < M2: discrete random escalation
				 * levels, not predicted */
	CP_LMO_LARGE,		/* M >= M2: serialised, plus kappa2*M */
	CP_LMO_UNKNOWN,		/* the threshold that decides is NAN */
};

/*
 * cp_lmo_gather_range - the one rule of where a gather falls: CP_LMO_SMALL
 * when M < M1, else CP_LMO_LARGE when M >= M2, else CP_LMO_ESCAL when
 * both thresholds are known, else CP_LMO_UNKNOWN.  A failed kappa does
 * not move a size into the escalation range: the gather is then priced
 * from a failed estimate (cp_lmo_eval_gather: -CP_ENUM).  Cannot fail.
 * m1_bytes, m2_bytes: thresholds (NAN unknown); bytes: M.
 */
enum cp_lmo_range cp_lmo_gather_range(double m1_bytes, double m2_bytes,
				      double bytes);

/*
 * cp_lmo_eval_p2p - one message of bytes from i to j:
 * C_i + t_i*M + C_j + t_j*M + M/beta_ij, as (C_i + C_j) + (t_i + t_j +
 * 1/beta_ij)*M.  NAN when i or j is not a rank of m, i == j, bytes < 0,
 * or a parameter used is NAN.
 * m: parameters; i, j: sender and receiver; bytes: M.
 */
double cp_lmo_eval_p2p(const struct cp_lmo_tab *m, int i, int j,
		       double bytes);

/*
 * cp_lmo_eval_scatter - linear scatter from root, bytes to each other
 * member: n*(C_0 + t_0*M) + max_i {C_i + t_i*M + M/beta_0i} if M <= S,
 * the sum over i instead of the max if M > S, n the members other than
 * the root (the root's own block is a local copy); computed as
 * (n - 1)*(C_0 + t_0*M) + max_i {(C_0 + C_i) + (t_0 + t_i + 1/beta_0i)*M}
 * and sum_i {(C_0 + C_i) + (t_0 + t_i + 1/beta_0i)*M}.  Returns 0 and *t_s;
 * -CP_EINVAL (S unknown, root or a member not a rank of m, no member
 * but the root, bytes < 0); -CP_ENUM (a parameter used is NAN).
 * m: parameters; root: sender; members: ranks of the group, NULL for
 * 0..nmembers-1, the root among them or not; nmembers: their count;
 * bytes: M; t_s: out.
 */
int cp_lmo_eval_scatter(const struct cp_lmo_tab *m, int root,
			const int32_t *members, int nmembers, double bytes,
			double *t_s);

/*
 * cp_lmo_eval_gather - linear gather to root of bytes from each other
 * member: the terms of the scatter, their max for M < M1 plus kappa1*M,
 * their sum for M >= M2 plus kappa2*M (cp_lmo_gather_range).  Returns 0
 * and *t_s; -CP_ENOPRED in the escalation range; -CP_ENUM when a
 * parameter used is NAN (kappa1 below M1, kappa2 from M2 on: a failed
 * estimate) or the time comes out at 0 or less (a kappa no fit should
 * have given); -CP_EINVAL as cp_lmo_eval_scatter, or the range unknown.
 * Arguments as cp_lmo_eval_scatter.
 */
int cp_lmo_eval_gather(const struct cp_lmo_tab *m, int root,
		       const int32_t *members, int nmembers, double bytes,
		       double *t_s);

/* ---- log3P (log3P paper, sections 2-4) ---- */

/*
 * T(s,d) = o_mw(s) + l_mw(s,d) + o_net(s) from tables at measured points
 * (analysis/cp_log3p.h derives them).  A strided layout is one block of
 * b bytes every d bytes; its gap g = d - b is what the copy skips.  The
 * contiguous terms are tabled over sizes s, l_mw over sizes, blocks b
 * and gaps g (ours: the log3P paper measured one element per block only).
 *
 * Interpolation (ours), monotone: between two table points every value
 * lies between theirs, so no per-byte cost overshoots its neighbours.
 *  - in s: each term linearly in s, so that its per-byte cost T/s moves
 *    monotonically between the points; above the largest size a term
 *    keeps its per-byte cost (T grows in proportion to s), below the
 *    smallest it keeps its value;
 *  - in b: the per-block cost l_mw*b/s linearly in b (a block costs a
 *    fixed part and a part per byte); above the largest block the
 *    per-byte cost is kept, below the smallest the per-block cost;
 *  - in g: the per-block cost linearly in log2 g (gaps span orders of
 *    magnitude; cache lines and pages change the cost by steps), kept
 *    outside the measured gaps.
 * A strided cell not measured (the calibrator skips layouts whose extent
 * exceeds its memory cap) is extrapolated from its column's largest
 * measured size as above.  Leaving the tables sets a flag in the
 * prediction.  A NAN entry is a value that failed: the column bridges it
 * from its neighbours; a column with no value makes NAN every
 * prediction that needs it.
 */
struct cp_log3p {
	int nsizes;		/* contiguous sizes measured, >= 1 */
	double *size_bytes;	/* [nsizes] increasing */
	double *t_mem_s;	/* [nsizes] memcpy time */
	double *o_mw_s;		/* [nsizes] middleware overhead */
	double *o_net_s;	/* [nsizes] network overhead */
	int nssizes;		/* strided sizes, >= 1 */
	int nblocks;		/* block sizes, >= 1 */
	int ngaps;		/* gaps, >= 1 */
	double *ssize_bytes;	/* [nssizes] increasing */
	double *block_bytes;	/* [nblocks] increasing, > 0 */
	double *gap_bytes;	/* [ngaps] increasing, > 0 */
	double *l_mw_s;		/* [(is * nblocks + ib) * ngaps + ig]
				 * middleware latency; NAN none */
	int nneg;		/* derived values < 0 */
};

#define CP_LOG3P_F_EXTRAP_SIZE	0x1	/* s outside the measured sizes */
#define CP_LOG3P_F_EXTRAP_STRIDE 0x2	/* block or gap outside the measured */

/* One prediction and its terms. */
struct cp_log3p_pred {
	double o_mw_s;		/* middleware overhead */
	double l_mw_s;		/* middleware latency; 0 if contiguous */
	double o_net_s;		/* network overhead */
	double t_s;		/* remote: o_mw + l_mw + o_net */
	double self_s;		/* send to self: o_mw + l_mw + T_mem */
	unsigned flags;		/* CP_LOG3P_F_* */
};

/* Savings quoted from the log3P paper as estimates, not model output: manual
 * packing beat derived datatypes by 15% on average (2% to 50%, 4.3.2); blocked
 * packing by 43.5% in the 3D FFT on 4 nodes (4.3.4). */
#define CP_LOG3P_PACK_MEAN	0.15
#define CP_LOG3P_PACK_LO	0.02
#define CP_LOG3P_PACK_HI	0.50
#define CP_LOG3P_PACK_BLOCKED	0.435

/* Estimated savings of packing by hand one strided send. */
struct cp_log3p_saving {
	double manual_s;	/* CP_LOG3P_PACK_MEAN * T(s,d) */
	double manual_lo_s;	/* CP_LOG3P_PACK_LO * T(s,d) */
	double manual_hi_s;	/* CP_LOG3P_PACK_HI * T(s,d) */
	double blocked_s;	/* CP_LOG3P_PACK_BLOCKED * T(s,d) */
};

/* Release the arrays of m (NULL-safe, idempotent), whoever filled them
 * with malloc.  Cannot fail. */
void cp_log3p_free(struct cp_log3p *m);

/* T(s,d) and its terms for blocks of b bytes d bytes apart.  d == 0
 * means contiguous (l_mw = 0 exactly).  -CP_EINVAL for s < 0, d < 0,
 * d > 0 with b <= 0 or b >= d, or a non-finite argument.
 * m: tables; s_bytes: message size; d_bytes: stride; b_bytes: block;
 * p: out. */
int cp_log3p_eval(const struct cp_log3p *m, double s_bytes, double d_bytes,
		  double b_bytes, struct cp_log3p_pred *p);

/* Linear broadcast, root sends P-1 times (log3P paper, 4.3.3):
 * P*(o_mw/2 + l_mw/2) + o_net.  -CP_EINVAL for nprocs < 2.
 * p: point-to-point terms at the message's s, d; nprocs: P; t_s: out. */
int cp_log3p_eval_bcast_linear(const struct cp_log3p_pred *p, int nprocs,
			       double *t_s);

/* Tree broadcast: h*(o_mw + l_mw + o_net), h = cp_model_tree_height(P).
 * -CP_EINVAL for nprocs < 2.
 * p: point-to-point terms; nprocs: P; t_s: out. */
int cp_log3p_eval_bcast_tree(const struct cp_log3p_pred *p, int nprocs,
			     double *t_s);

/* True when the middleware dominates: o_mw + l_mw > o_net (log3P paper,
 * 4.2.1). p: prediction. */
bool cp_log3p_mw_dominated(const struct cp_log3p_pred *p);

/* True when l_mw is the largest of the three terms: a strided send
 * worth packing (ours, from the log3P paper 4.3.2, 4.3.4).  p: prediction. */
bool cp_log3p_lmw_largest(const struct cp_log3p_pred *p);

/* Packing savings estimated from p->t_s.  Cannot fail.
 * p: prediction of the strided send; sv: out. */
void cp_log3p_pack_saving(const struct cp_log3p_pred *p,
			  struct cp_log3p_saving *sv);

/* ---- baselines (README "References") ---- */

/* Height h of a broadcast tree over P processes: log2 P (log3P paper, 4.3.3),
 * ceil(log2 P) for other P (ours); 0 for P <= 1.  Cannot fail. */
int cp_model_tree_height(int nprocs);

/* Hockney: alpha + beta*m.  Cannot fail.
 * alpha_s: start-up; beta_spb: time per byte; bytes: m. */
double cp_hockney_eval(double alpha_s, double beta_spb, double bytes);

/* LogP point to point: L + 2o.  Cannot fail.  l_s: L; o_s: o. */
double cp_logp_eval(double l_s, double o_s);

/* LogGP point to point: L + 2o + (m - 1)*G; an empty message (m < 1) is
 * LogP's L + 2o.  Cannot fail.  l_s: L; o_s: o; gb_spb: G; bytes: m. */
double cp_loggp_eval(double l_s, double o_s, double gb_spb, double bytes);

/* LogGP linear broadcast of k+1 bytes to P: 2o + L + (P-1)*G*k +
 * (P-2)*g (log3P paper, 4.3.3).  -CP_EINVAL for nprocs < 2 or bytes < 1.
 * l_s: L; o_s: o; g_s: g; gb_spb: G; bytes: k+1; nprocs: P; t_s: out. */
int cp_loggp_eval_bcast_linear(double l_s, double o_s, double g_s,
			       double gb_spb, double bytes, int nprocs,
			       double *t_s);

/* LogGP tree broadcast: h*(2o + L + k*G) + (h-1)*g,
 * h = cp_model_tree_height(P).  -CP_EINVAL as
 * cp_loggp_eval_bcast_linear.  Arguments as there. */
int cp_loggp_eval_bcast_tree(double l_s, double o_s, double g_s,
			     double gb_spb, double bytes, int nprocs,
			     double *t_s);

/* PLogP: L + g(m), g linear between measured sizes and extended along
 * the last segment beyond them; *extrap set when bytes is above the
 * last.  -CP_EINVAL for bytes < 0 or non-finite, or n < 1.
 * l_s: L; size_bytes, g_s: the g(m) table, sizes increasing; n: its
 * length; bytes: m; t_s: out; extrap: out, may be NULL. */
int cp_plogp_eval(double l_s, const double *size_bytes, const double *g_s,
		  int n, double bytes, double *t_s, bool *extrap);

/* PLogP's Alltoall, PlogPT's baseline (PlogPT paper, section IV):
 * A (P-1)(g(m) + L), B (P-1)g(m) + L.  -CP_EINVAL for nprocs < 2, or as cp_plogp_eval.
 * Arguments as cp_plogp_eval; nprocs: P; t_s: out. */
int cp_plogp_eval_alltoall_a(double l_s, const double *size_bytes,
			     const double *g_s, int n, double bytes,
			     int nprocs, double *t_s);
int cp_plogp_eval_alltoall_b(double l_s, const double *size_bytes,
			     const double *g_s, int n, double bytes,
			     int nprocs, double *t_s);

/* ---- PlogPT (PlogPT paper, section III; Alltoall: section IV) ---- */

#define CP_PLOGPT_MAX_HEIGHT	16	/* trees of up to 2^16 leaves */
#define CP_PLOGPT_T_RTO_S	0.2	/* Linux's minimum TCP RTO */

/*
 * A perfect binary tree of switches of height D over 2^D leaves (hosts),
 * with PLogP's parameters measured between two leaves of one height-1
 * switch.  Index h = 1..D; b and d of height h hold for every edge whose
 * parent switch has height h.  The caller owns the g table.
 */
struct cp_plogpt_net {
	int height;			/* D >= 0 */
	double b_bps[CP_PLOGPT_MAX_HEIGHT + 1];	/* b(h), bytes/s */
	double d_s[CP_PLOGPT_MAX_HEIGHT + 1];	/* d(h), buffer delay */
	double l_s;			/* L */
	const double *g_bytes;		/* sizes of the g(m) table, rising */
	const double *g_s;		/* g(m) at height 1 */
	int g_n;			/* entries of the table, >= 1 */
	double eps_s;			/* eq. 5's error bound on P_S */
	double eps_t_s;			/* eq. 14's window, eps_T */
	double t_rto_s;			/* T_RTO */
};

/* Height of a transfer between leaves a and b: the height of its highest
 * edge, 1 + the highest bit in which they differ; 0 when a == b.
 * Cannot fail. */
int cp_plogpt_height(int leaf_a, int leaf_b);

/* P_S(h, h') of eq. 5: a switch lies between heights h and h' when
 * (log(2^(h'-h) b(h)/b(h')))^2 + (log(d(h)/d(h')))^2 > eps_S; false for
 * h == h', and for an h outside 1..D or a b that is not positive
 * (nothing to tell switches apart with).  A d(h) or d(h') that is not
 * positive (not measured: NAN) leaves the rates alone to tell (ours).
 * Cannot fail. */
bool cp_plogpt_switch(const struct cp_plogpt_net *n, int h, int h2);

/* P_B of eqs. 8-9 (ours: for the buffer's whole depth): a height-h
 * buffer, which holds d(h) b(h) bytes, holds less than the message, so
 * a burst behind it can drop its last packets.  Eq. 8 takes the
 * transfer's share b_c of the rate instead of b(h).  False when h is
 * outside 1..D.  Cannot fail. */
bool cp_plogpt_buffer_full(const struct cp_plogpt_net *n, int h,
			   double bytes);

/* g(m) of the net, PLogP's table interpolated as cp_plogp_eval does.
 * -CP_EINVAL as there.  g_s: out. */
int cp_plogpt_gap(const struct cp_plogpt_net *n, double bytes,
		  double *g_s);

/* One transfer alone at height h (0: both ends on one leaf, or a net of
 * height 0 measured between two processes of one host): L + g_c(m),
 * g_c = g(m) b(1) / b_c with b_c the narrowest edge on its path, the
 * minimum of b(k) over k = 1..h (eqs. 6-7 with no other transfer).
 * -CP_EINVAL for h outside 0..D, a non-positive b on the path, or as
 * cp_plogpt_gap.  t_s: out; extrap: out, set when bytes is above the g
 * table, may be NULL. */
int cp_plogpt_p2p(const struct cp_plogpt_net *n, int h, double bytes,
		  double *t_s, bool *extrap);

/* The message size above which Alltoall B's step from height h to h + 1
 * stalls for an RTO (eq. 24): P_S(h, h + 1), and P_B of the height-h
 * edge into the destination, which both steps cross: its buffer holds
 * d(h) b(h) bytes (ours, as cp_replay_run reads eq. 8; the paper takes
 * the transfer's share of the rate, the same at h = 1).  +inf when P_S
 * is false or h is outside 1..D-1.  Cannot fail. */
double cp_plogpt_rto_bytes(const struct cp_plogpt_net *n, int h);

/* N_RTO of Alltoall B for m bytes per pair: the heights h = 1..D-1
 * whose cp_plogpt_rto_bytes is below bytes.  Cannot fail. */
int cp_plogpt_alltoall_nrto(const struct cp_plogpt_net *n, double bytes);

/* W = sum over h = 1..D of 4^(h-1) * b(1)/b(h) * g(m), the time the
 * P - 1 exchange steps of an Alltoall of m bytes per pair take on the
 * tree when each step's transfers share their highest edges fairly
 * (section IV).  -CP_EINVAL for a net of height < 1 or a non-positive
 * b, or as cp_plogpt_gap.  w_s: out. */
int cp_plogpt_alltoall_w(const struct cp_plogpt_net *n, double bytes,
			 double *w_s);

/* Alltoall over P = 2^D ranks (section IV), partner r xor i at step i.
 * A (Irecv, Send, Wait per step): W + (P-1)L.  B (every Irecv, then the
 * Sends): W + L + n_rto*T_RTO, n_rto the RTO stalls expected (at most
 * D - 1).  -CP_EINVAL as cp_plogpt_alltoall_w, or n_rto < 0.  t_s: out. */
int cp_plogpt_alltoall_a(const struct cp_plogpt_net *n, double bytes,
			 double *t_s);
int cp_plogpt_alltoall_b(const struct cp_plogpt_net *n, double bytes,
			 int n_rto, double *t_s);

#endif
