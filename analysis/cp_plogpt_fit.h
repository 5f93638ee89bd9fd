/*
 * cp_plogpt_fit.h - PlogPT's parameters from the calibrator's
 * measurements (PlogPT paper section III-C; src/calib/calib_plogpt.c
 * measures, man/commprof-calibrate.1 says how).  Plain arithmetic on
 * what was measured; the formulas that use the parameters are in
 * analysis/cp_model.h.  No global state; thread-safe.
 */
#ifndef CP_PLOGPT_FIT_H
#define CP_PLOGPT_FIT_H

#include <stdbool.h>

/* Below this, eq. 5's left side is noise and no switch: b or d must
 * differ by more than 25% between heights (log(1.25)^2). */
#define CP_PLOGPT_EPS_S_MIN	0.0498
/* eps_T in packets: a few times one packet's time (section III-D). */
#define CP_PLOGPT_EPS_T_PACKETS	4
/* One packet's payload: TCP over Ethernet, MSS 1460 less 12 B of
 * timestamps. */
#define CP_PLOGPT_PACKET_BYTES	1448

/* L from eq. 1, RTT(0) = 2(L + g(0)), both measured with both ends
 * sending.  -CP_EINVAL for a non-finite or negative input; -CP_ENUM
 * when L comes out negative (*l_s set all the same). */
int cp_plogpt_fit_l(double rtt0_s, double g0_s, double *l_s);

/* d(h): the leftmost-rightmost ping-pong under the burst less without
 * it, half of that when the burst went both ways.  -CP_EINVAL as
 * cp_plogpt_fit_l; -CP_ENUM when negative (*d_s set all the same). */
int cp_plogpt_fit_d(double rtt_load_s, double rtt_free_s, bool both,
		    double *d_s);

/* b(h + 1) <= 2 b(h) (section III-A: an edge never carries more than
 * its two children): b_bps[2..height] capped in place.  Returns how
 * many were capped.  Cannot fail. */
int cp_plogpt_fit_cap_b(double *b_bps, int height);

/* eps_S: the largest over h = 1..height of eq. 5's left side between
 * two measures of the same height (b_lo, b_hi, d_lo, d_hi, indexed by
 * h: e.g. the quartiles of its repetitions), so that what the noise
 * makes of one height is no switch; at least CP_PLOGPT_EPS_S_MIN.
 * Non-positive entries are skipped.  Cannot fail. */
double cp_plogpt_fit_eps_s(const double *b_lo, const double *b_hi,
			   const double *d_lo, const double *d_hi,
			   int height);

/* eps_T: CP_PLOGPT_EPS_T_PACKETS times g(CP_PLOGPT_PACKET_BYTES) of the
 * table size_bytes/g_s (n entries, linear between them).  -CP_EINVAL as
 * cp_plogp_eval (analysis/cp_model.h). */
int cp_plogpt_fit_eps_t(const double *size_bytes, const double *g_s, int n,
			double *eps_t_s);

#endif
