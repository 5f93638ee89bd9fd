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
#include <stddef.h>

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

/* One roundtrip timed in a burst: its queue's delay (the roundtrip less
 * the median free one) and which burst (0..63) it was timed in. */
struct cp_plogpt_delay {
	double s;
	int burst;
};

/* d(h) from the roundtrips timed during bursts (ours): a drop-tail
 * buffer caps its queue, so the delays pile up at the buffer's delay
 * while it is full, roundtrip after roundtrip, in burst after burst;
 * they lie below it while the queue builds or TCP backs off, and some
 * lie far above it (a ping dropped and resent 10 ms later, a host that
 * stalled for a while in one burst).  So each delay is first taken as
 * held: the smaller of it and the next of its burst (the last of each
 * burst has none and is dropped); d is the median of the highest pile
 * of held delays: the highest v whose window
 * [v (1 - CP_PLOGPT_PILE_WIDTH), v] holds at least CP_PLOGPT_PILE_MIN of
 * them from at least CP_PLOGPT_PILE_BURSTS bursts (of the calibrator's
 * 7 or 14: on a shallow buffer TCP times out in most bursts).  *lo_s
 * and *hi_s are the lowest and highest of that window, *n_pile how many
 * it holds.  Only v above floor_s count: what the free roundtrips
 * spread by themselves is no queue, nor is a queue of a few packets,
 * which piles up where TCP timed out in most bursts (30 to 96 us read
 * for a buffer of 1.75 ms on the tree bed; the calibrator's floor is
 * the larger of the free roundtrips' largest less their median and
 * CP_PLOGPT_PILE_PACKETS packets at b(h)).  q[0..n) in the order timed,
 * each burst's together; overwritten.  -CP_EINVAL when a delay or
 * floor_s is not finite, floor_s is negative, or fewer than
 * CP_PLOGPT_PILE_MIN are held; -CP_ENUM when no window above floor_s
 * holds enough (no queue seen). */
#define CP_PLOGPT_PILE_MIN	8
#define CP_PLOGPT_PILE_BURSTS	3
#define CP_PLOGPT_PILE_WIDTH	0.1
/* The calibrator's floor of the pile, in packets at b(h) (ours): a
 * queue no deeper is the flows' own burst (TCP's first window). */
#define CP_PLOGPT_PILE_PACKETS	10
int cp_plogpt_fit_pile(struct cp_plogpt_delay *q, size_t n, double floor_s,
		       double *d_s, double *lo_s, double *hi_s,
		       size_t *n_pile);

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
