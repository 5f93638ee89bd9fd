/*
 * cp_taulop_fit.h - tau-Lop's tables from Ring times and MPI_Isend
 * durations (tau-Lop paper, section 5.2), with intervals.  How o_c and L_c
 * come out of Ring times is in the tau-Lop paper's reference [30], not in the
 * seeds; the choice made here (ours, man/commprof-calibrate.1):
 *
 *   o(m) is what its definition says: the time from the call until the
 *     data start to flow, the processor's own cost of issuing the
 *     message.  It is timed as the duration of the MPI_Isend calls of
 *     the one-message ping-pong (tau = 1), where nothing else is in
 *     flight; a sender that issues k messages pays it k times.
 *   Ring(m, tau): tau transmissions of m bytes at once, each process of
 *     the ring sending d of them (d = 1 for a ring of tau processes, d
 *     > 1 when tau exceeds the processes, each then sending to its d
 *     successors) and receiving as many; its time per iteration is
 *     d * o(m) + hops * L(m, tau), the round rule of cp_taulop_round, so
 *     L(m, tau) = (Ring(m, tau) - d * o(m)) / hops.
 *
 * Each experiment stands for the median of its repetitions, with the
 * distribution-free interval of the median (order statistics); the
 * intervals of L follow by interval arithmetic.  An L below 0 whose
 * interval reaches 0 is noise around 0 and set to 0; one wholly below
 * 0 fails (set to 0 where from_last).
 *
 * libcpanalysis.la; no global state.
 */
#ifndef CP_TAULOP_FIT_H
#define CP_TAULOP_FIT_H

#include <stdbool.h>

#include "analysis/cp_stats.h"

/* What was measured for one channel. */
struct cp_taulop_meas {
	int nsizes;
	const double *size_bytes;	/* [nsizes] increasing */
	int ntau;
	const double *tau;		/* [ntau] increasing, first 1 */
	const int *deg;			/* [ntau] messages each ring
					 * process sends per iteration */
	int reps;			/* repetitions of every experiment */
	const double *ring_s;		/* [(is * ntau + it) * reps + r]
					 * time of one ring iteration */
	int nsend;			/* MPI_Isend durations per size */
	const double *isend_s;		/* [is * nsend + r] */
	int hops;			/* 2 shared memory, 1 network */
	bool from_last;			/* ring_s timed from the last
					 * process's start (rounds after a
					 * barrier): a message can be there
					 * before its receiver, the senders'
					 * overheads then fall before the
					 * time, and an L below 0, even
					 * wholly, is 0 (flagged clamped) */
};

/* Flags of a fit. */
#define CP_TLFIT_CLAMPED	0x1	/* a value below 0 within noise set
					 * to 0 */

/* The tables, owned: cp_taulop_fit_free(). */
struct cp_taulop_fit {
	int nsizes, ntau;
	struct cp_est *o_s;		/* [nsizes] o(m) */
	struct cp_est *l_s;		/* [is * ntau + it] L(m, tau) */
	unsigned flags;			/* CP_TLFIT_* */
};

/*
 * cp_taulop_median_ci - the median of x and its distribution-free
 * interval at level: the order statistics x_(k) and x_(n+1-k), k the
 * largest with 2 * P(Binomial(n, 1/2) < k) <= 1 - level (the whole
 * range when n is too small for level).  se and df are 0.
 * Returns 0, -CP_EINVAL (n < 1, a non-finite sample), -CP_ENOMEM.
 * x: samples (not modified); n: their count; level: e.g. 0.95; e: out.
 */
int cp_taulop_median_ci(const double *x, int n, double level,
			struct cp_est *e);

/*
 * cp_taulop_fit - o and L of one channel from in (see above).  Returns
 * 0 and *f (release with cp_taulop_fit_free) with failed entries marked
 * in their fail field; -CP_EINVAL (sizes or taus inconsistent, reps or
 * nsend < 1), -CP_ENOMEM.
 * in: measurements; level: confidence level; f: out.
 */
int cp_taulop_fit(const struct cp_taulop_meas *in, double level,
		  struct cp_taulop_fit *f);

/* Release the arrays of f (idempotent).  Cannot fail. */
void cp_taulop_fit_free(struct cp_taulop_fit *f);

/*
 * cp_taulop_fit_unit - the cost per unit of a local operation whose time
 * grows with its size: a local reduction per byte (MPI_SUM over doubles
 * by MPI_Reduce_local), a fresh page's first touch per page; the slope
 * of a least-squares line through (units, time), with its interval.
 * Returns 0 or -CP_EINVAL as cp_stats_linfit, -CP_ENUM for a slope below
 * 0 (e->fail set).  units, t_s: points; n: their count; level:
 * confidence level; e: out.
 */
int cp_taulop_fit_unit(const double *units, const double *t_s, int n,
		      double level, struct cp_est *e);

#endif
