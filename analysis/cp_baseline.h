/*
 * cp_baseline.h - the classic models we score LMO and log3P against
 * (README "References"): Hockney alpha + beta*m, LogP/LogGP from their
 * measurement formulas, PLogP L + g(m) with g as a table.  Fits with
 * intervals; the predictions below evaluate the estimates with the
 * formulas of analysis/cp_model.h, which the preloaded library uses too.
 *
 * No global state; thread-safe.  Actions return 0 or -CP_E*.
 */
#ifndef CP_BASELINE_H
#define CP_BASELINE_H

#include "analysis/cp_model.h"
#include "analysis/cp_stats.h"

/* Hockney: T(m) = alpha + beta*m. */
struct cp_hockney {
	struct cp_est alpha_s;	/* start-up time */
	struct cp_est beta_spb;	/* time per byte */
	double rss;		/* residual sum of squares, s^2 */
};

/* Fit Hockney by least squares over one-way times (the caller halves
 * roundtrips) at several sizes; intervals from the line fit.
 * -CP_EINVAL as cp_stats_linfit (n >= 3, two distinct sizes at least);
 * -CP_ENUM if alpha or beta is negative (flagged in fail as well).
 * bytes, t_s: sizes and one-way times; n: points; level: confidence
 * level; h: out. */
int cp_hockney_fit(const double *bytes, const double *t_s, int n,
		   double level, struct cp_hockney *h);

/* cp_hockney_eval of h's values.  Cannot fail.  h: model; bytes: m. */
double cp_hockney_predict(const struct cp_hockney *h, double bytes);

/* LogP/LogGP measurements (README "References"), each a sample set. */
struct cp_loggp_meas {
	const double *send_s;	/* times of single sends in a back-to-back
				 * row of small messages: o_s samples */
	int nsend;
	const double *recv_s;	/* receive times, posted after the reply
				 * arrived: o_r samples */
	int nrecv;
	const double *rtt_s;	/* roundtrips of small messages */
	int nrtt;
	const double *burst_s;	/* T_n of burst_count small sends */
	int nburst;
	int burst_count;	/* n of T_n */
	const double *big_burst_s;	/* T_n of burst_count sends of
					 * big_bytes each: G = g(big)/big */
	int nbig;
	double big_bytes;	/* large M for G */
};

/* LogGP parameters; LogP is L, o, g. */
struct cp_loggp {
	struct cp_est os_s;	/* send overhead o_s */
	struct cp_est or_s;	/* receive overhead o_r */
	struct cp_est o_s;	/* o = (o_s + o_r)/2 */
	struct cp_est l_s;	/* L = RTT/2 - o_s - o_r */
	struct cp_est g_s;	/* gap g = T_n/n */
	struct cp_est gb_spb;	/* G = (T_n/n)/M for large M */
	int dropped;		/* slow samples left out */
};

/* Estimate LogGP from in.  Each quantity is a mean (t interval) of its
 * samples less those above both Tukey's upper far-out fence (3
 * interquartile ranges past the third quartile) and twice the median (a
 * preempted sample; dropped counts them);
 * sums of independent means get Welch-Satterthwaite intervals.  Needs
 * >= 2 samples per set (-CP_EINVAL); -CP_ENUM if L, o or g is negative
 * or not finite (flagged in fail as well; the rest is still filled).
 * in: samples; level: confidence level; p: out. */
int cp_loggp_fit(const struct cp_loggp_meas *in, double level,
		 struct cp_loggp *p);

/* cp_logp_eval of p's values.  Cannot fail.  p: parameters. */
double cp_logp_predict(const struct cp_loggp *p);

/* cp_loggp_eval of p's values: L + 2o + (bytes - 1)*G, LogP's L + 2o
 * for bytes < 1.  Cannot fail.  p: parameters; bytes: message size. */
double cp_loggp_predict(const struct cp_loggp *p, double bytes);

/* cp_loggp_eval_bcast_linear of p's values: 2o + L + (P-1)*G*k +
 * (P-2)*g for k+1 bytes.  -CP_EINVAL for nprocs < 2 or bytes < 1.
 * p: parameters; bytes: k+1; nprocs: P; t_s: out. */
int cp_loggp_bcast_linear(const struct cp_loggp *p, double bytes,
			  int nprocs, double *t_s);

/* cp_loggp_eval_bcast_tree of p's values: h*(2o + L + k*G) + (h-1)*g.
 * -CP_EINVAL as cp_loggp_bcast_linear.  Arguments as there. */
int cp_loggp_bcast_tree(const struct cp_loggp *p, double bytes,
			int nprocs, double *t_s);

/* PLogP: latency L and gap g(m) at measured sizes. Arrays owned:
 * cp_plogp_free(). */
struct cp_plogp {
	double l_s;		/* latency L */
	int n;			/* sizes */
	double *size_bytes;	/* [n] increasing, first 0 */
	double *g_s;		/* [n] g(m) */
	double g0_meas_s;	/* g(0) as measured: above g_s[0] when it
				 * was capped at RTT(0)/2 */
};

/* From g(0) (the rate of 0-byte sends: g0_s = T_n/n) and roundtrips
 * with m bytes each way: L = RTT(0)/2 - g(0) (PlogPT paper eq. 1) and g(m) =
 * RTT(m)/2 - L (eq. 1 read for m bytes both ways: ours).  A g(0) above
 * RTT(0)/2 (bursts and roundtrips timed at different moments, one of
 * them in a slow spell) is capped there and L is 0: L + g(m) is still
 * RTT(m)/2 at every size, and g0_meas_s keeps the measured one.
 * -CP_EINVAL (n < 1, sizes not increasing from 0, non-finite),
 * -CP_ENOMEM; -CP_ENUM if g(0) or a g(m) is negative (the struct is
 * filled all the same and owns its arrays).
 * g0_s: g(0); bytes, rtt_s: sizes and mean roundtrips, bytes[0] == 0;
 * n: count; p: out, release with cp_plogp_free(). */
int cp_plogp_from_rtt(double g0_s, const double *bytes, const double *rtt_s,
		      int n, struct cp_plogp *p);

/* Release p's arrays (NULL-safe, idempotent).  Cannot fail. */
void cp_plogp_free(struct cp_plogp *p);

/* cp_plogp_eval of p: L + g(m), g linear between measured sizes and
 * extended along the last segment beyond them; *extrap set when bytes is
 * above them.  -CP_EINVAL for bytes < 0 or an empty table.  p: model;
 * bytes: m; t_s: out; extrap: out, may be NULL. */
int cp_plogp_predict(const struct cp_plogp *p, double bytes, double *t_s,
		     bool *extrap);

#endif
