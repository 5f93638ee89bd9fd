/*
 * cp_taulop.h - the tau-Lop model (tau-Lop paper: Rico-Gallego, Lastovetsky
 * and Diaz-Martin, sections 3 to 5): per channel c an overhead o_c(m) and a
 * transfer time L_c(m, tau) under tau concurrent transfers, composed into one
 * message, into the rounds of a collective's schedule (analysis/cp_coll.h)
 * and, for comparison, the Hockney and LogGP baselines over the same rounds.
 *
 * Evaluation (cp_taulop_eval.c) is libc only (libcpmodel.la: the
 * preloaded library prices with it); the estimation of the tables from
 * Ring times (cp_taulop_fit.c) is in libcpanalysis.la.  Times are
 * seconds, sizes bytes.  No global state, no allocation; thread-safe.
 */
#ifndef CP_TAULOP_H
#define CP_TAULOP_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/cp_coll.h"

/* Channels: 0 shared memory inside a node, 1 the network between
 * nodes (the paper's numbering). */
#define CP_TL_SHM	0
#define CP_TL_NET	1
#define CP_TL_NCHAN	2

/*
 * One channel's tables, measured at discrete sizes and concurrencies.
 * A transmission of m bytes through it costs o(m) + hops * L(m, tau):
 * hops is 2 in shared memory (eq. 1: a copy into a shared buffer, one
 * out of it) and 1 on the network, where L holds all of eq. 2's
 * transfers (ours: a Ring between nodes times them together, and
 * nothing else in a collective separates them).
 */
struct cp_taulop_chan {
	int nsizes;		/* 0: the channel was not calibrated */
	int ntau;		/* concurrencies measured, >= 1 */
	int hops;		/* transfers of a transmission priced by L */
	const double *size_bytes;	/* [nsizes] increasing, >= 0 */
	const double *tau;	/* [ntau] increasing, the first 1 */
	const double *o_s;	/* [nsizes] o_c(m) */
	const double *l_s;	/* [is * ntau + it] L_c(m, tau) */
	const double *lw_s;	/* [is * ntau + it] L of messages their
				 * senders wrote just before (NULL: not
				 * measured, l_s) */
	const double *ls_s;	/* [is * ntau + it] L of rounds that
				 * start together, messages written
				 * first (NULL: not measured, l_s) */
	int ngap;		/* 0: no gap table */
	const double *gap_s;	/* [ngap] increasing, > 0 */
	const double *lg_s;	/* [is * ngap + ig] what a message takes
				 * more after gap ig outside MPI than
				 * right after the last (NAN unset) */
	double rndv_bytes;	/* the smallest message the MPI library
				 * sends by rendezvous (its sender waits
				 * for the receiver); 0: unknown, every
				 * blocking send waits */
};

/*
 * glibc malloc's settings (mallopt(3), malloc/malloc.c) that decide
 * whether the scratch buffers of a collective come back as fresh pages
 * on every call.  All zero: glibc's defaults, with its dynamic mmap
 * threshold.  fixed: the user set one of them, which turns the dynamic
 * threshold off; the three fields then hold what glibc uses (the
 * defaults for those not set).  The preloaded library reads them from
 * the environment at start (src/lib/cp_pred_rt.c).
 */
struct cp_taulop_heap {
	bool fixed;
	double mmap_threshold;	/* MALLOC_MMAP_THRESHOLD_, bytes */
	double trim_threshold;	/* MALLOC_TRIM_THRESHOLD_ */
	double top_pad;		/* MALLOC_TOP_PAD_ */
};

/* glibc's defaults: M_TOP_PAD, the first mmap and trim thresholds, and
 * the most the dynamic mmap threshold rises to (64-bit). */
#define CP_TL_HEAP_PAD		(128.0 * 1024)
#define CP_TL_HEAP_MMAP		(128.0 * 1024)
#define CP_TL_HEAP_TRIM		(128.0 * 1024)
#define CP_TL_HEAP_MMAP_MAX	(32.0 * 1024 * 1024)
#define CP_TL_PAGE		4096.0

/* The model's parameters. */
struct cp_taulop {
	struct cp_taulop_chan ch[CP_TL_NCHAN];
	double red_spb;		/* local reduction per byte (ours: an
				 * MPI_Op over a received block, which
				 * the paper's kernels do not have);
				 * NAN: collectives that reduce are not
				 * priced */
	double page_s;		/* first touch of a fresh page of
				 * CP_TL_PAGE bytes, every rank of the
				 * node at once (ours: the scratch of
				 * Open MPI's algorithms); NAN: scratch
				 * not priced */
	struct cp_taulop_heap heap;	/* the allocator the run uses */
};

/*
 * glibc's dynamic mmap threshold in each process of a job, as the
 * collectives priced so far, in the order they were called, raised it
 * (ours): glibc maps a block at or above the threshold and, freeing a
 * mapped block larger than it (up to CP_TL_HEAP_MMAP_MAX), raises it to
 * the block's size and its trim threshold to twice that, so that the
 * scratch of a later collective, smaller, stays in the heap.  Each
 * process has its own: a binomial reduce's leaves malloc nothing and
 * keep theirs.  thr[w] is world rank w's, 0 before any raise (glibc's
 * start).  Blocks that the application or the MPI library map and free
 * elsewhere raise it further, unseen (fewer faults than said).  Unused
 * when the thresholds are fixed.
 */
struct cp_taulop_hist {
	double *thr;		/* [n] bytes, per world rank */
	int n;
};

/* One rank's scratch in one call, as cp_taulop_fresh needs it. */
struct cp_taulop_scratch {
	double heap;		/* bytes malloc took from the heap */
	double heap_max;	/* the largest of them */
	double heap_new;	/* of those written, the bytes past the top
				 * pad (the pad stays mapped after a trim) */
	double mapped;		/* bytes written of those malloc maps on
				 * its own */
	double mapped_max;	/* the largest chunk it maps, bytes */
};

/*
 * cp_taulop_scratch_add - one malloc of bytes, of which used are written
 * from skip bytes on, into a rank's sc, in the order of the mallocs:
 * mapped on its own when glibc would mmap it (at or above a set mmap
 * threshold; with the dynamic one, at or above *thr, the rank's, 0
 * before any raise, or, with thr NULL, only above CP_TL_HEAP_MMAP_MAX:
 * the steady state of a run of identical calls, whose first raised the
 * threshold past their buffers), else laid after the earlier ones on
 * the top of the heap.  h, thr may be NULL (defaults; steady state).
 * Cannot fail.
 */
void cp_taulop_scratch_add(const struct cp_taulop_heap *h, const double *thr,
			   struct cp_taulop_scratch *sc, double bytes,
			   double skip, double used);

/*
 * cp_taulop_fresh - the bytes of fresh pages a rank writes in a call
 * whose buffers sc are allocated together and freed together: the
 * written bytes of its mapped buffers, and those of its heap buffers
 * past the top pad when the top of the heap, once they are freed (their
 * sum and the pad), reaches the trim threshold (set, or twice the
 * dynamic mmap threshold once raised, 128 KiB before): free() then gives
 * them back to the kernel down to the pad, and the next call faults in
 * again what it writes.  The dynamic threshold is the rank's *thr after
 * this call's mapped buffers are freed (cp_taulop_hist_raise); with thr
 * NULL, where the largest of the call's buffers raised it (the steady
 * state of a run of identical calls, taken to be the largest the
 * process frees).  h, thr may be NULL.  Cannot fail.
 */
double cp_taulop_fresh(const struct cp_taulop_heap *h, const double *thr,
		       const struct cp_taulop_scratch *sc);

/*
 * cp_taulop_hist_raise - a rank's threshold *thr after the call whose
 * buffers sc it freed (glibc's rule, above).  No-op when thr is NULL or
 * h has the thresholds fixed.
 */
void cp_taulop_hist_raise(const struct cp_taulop_heap *h, double *thr,
			  const struct cp_taulop_scratch *sc);

/* Flags of a prediction. */
#define CP_TL_F_EXTRAP_SIZE	0x1	/* m beyond the largest size */
#define CP_TL_F_EXTRAP_TAU	0x2	/* tau beyond the largest tau */
#define CP_TL_F_NOCHAN		0x4	/* a transfer on a channel not
					 * calibrated: not predicted */
#define CP_TL_F_NORED		0x8	/* a reduction, no red_spb: not
					 * predicted */

/*
 * cp_taulop_o - o_c(m): linear between measured sizes, the end segment
 * extended beyond them (flag CP_TL_F_EXTRAP_SIZE above the largest).
 * NAN when the channel has no tables or m < 0.  ch: the channel; bytes:
 * m; flags: or'ed with CP_TL_F_*, may be NULL.
 */
double cp_taulop_o(const struct cp_taulop_chan *ch, double bytes,
		   unsigned *flags);

/*
 * cp_taulop_l - L_c(m, tau): linear in m and in tau between measured
 * points.  Above the largest size, L(m_max, tau) * m / m_max (the
 * paper's L(A*m, tau) = A*L(m, tau)); above the largest tau,
 * L(m, tau_max) * tau / tau_max (its bound L(m, A*tau) <= A*L(m, tau)),
 * both flagged.  NAN when the channel has no tables, m < 0 or tau < 1.
 * ch: the channel; bytes: m; tau: concurrent transfers; flags: as
 * cp_taulop_o.
 */
double cp_taulop_l(const struct cp_taulop_chan *ch, double bytes, double tau,
		   unsigned *flags);

/*
 * cp_taulop_gap - what a message of m bytes takes more when its
 * processes spent gap seconds outside MPI before it than right after
 * their last call (ours, not the paper's: on the machine we measured, a
 * 28-KiB exchange took 6.3 us back to back, 11 us after 300 us of
 * reading the clock or of arithmetic on registers and 27 us after 3 ms,
 * 18 and 21 us after writing 8 MiB; and about 1 us less after 10 us).
 * Linear in m between measured sizes, the largest size's above it (the
 * measured extra time does not grow with m past the eager limit);
 * linear in log(gap) between measured gaps, from 0 at gap 0 to the
 * first gap linearly, the last gap's above it.  May be below 0.  0
 * without a gap table, for gap <= 0 or unknown (NAN), and where a cell
 * needed is unset.
 */
double cp_taulop_gap(const struct cp_taulop_chan *ch, double bytes,
		     double gap_s);

/*
 * cp_taulop_p2p - one transmission of m bytes while tau transfers share
 * channel c: tau || T_c(m) = o_c(m) + hops * L_c(m, tau) (eqs. 1-3; the
 * overhead belongs to the processor and is not shared), plus
 * cp_taulop_gap of its quiet gap, never below o_c(m).  L is that of
 * written messages (lw_s) where the channel has it: an application
 * writes (packs, computes) what it sends, and a buffer sent unchanged
 * again and again stays in both processes' caches (ours: a loop of
 * 28-KiB exchanges took 6.7 us an iteration, 8.9 us when each sender
 * wrote its buffer first).  NAN as cp_taulop_l.  m: model; chan:
 * CP_TL_*; bytes: m; tau: >= 1; gap_s: seconds the thread spent outside
 * MPI before it (NAN or <= 0: none); flags: as cp_taulop_o.
 */
double cp_taulop_p2p(const struct cp_taulop *m, int chan, double bytes,
		     double tau, double gap_s, unsigned *flags);

/*
 * cp_taulop_round - one round of k concurrent transmissions on one
 * channel, sizes[] ascending with counts[] (d distinct sizes): the
 * sender with the most overhead pays its overheads one after another,
 * max_p sum o_c(m), and the transfers follow the tau-Lop paper's rule A2
 * (eq. 9): sum_j hops * L_c(m_j - m_(j-1), n_j), n_j the transfers of size >=
 * m_j, m_0 = 0; the overheads of the remainders are dropped (rule A1).
 * L is that of rounds that start together (ls_s) where the channel has
 * it: a collective's rounds follow a barrier or each other, and the
 * Rings' loop overlaps its iterations (4 ranks on 2 cores: a ring of
 * 200000-B messages took 40 to 50 us after a barrier, the loop's L
 * priced it 23 us).
 * Returns NAN as cp_taulop_l.  m: model; chan: CP_TL_*; sizes, counts:
 * the round's sizes; d: their number; o_s: the overhead term, computed
 * by the caller (cp_taulop_o summed per sender, the largest); flags: as
 * cp_taulop_o.
 */
double cp_taulop_round(const struct cp_taulop *m, int chan,
		       const double *sizes, const int *counts, int d,
		       double o_s, unsigned *flags);

/*
 * Where the ranks of a collective live: group rank g is world rank
 * members[g] (NULL: g itself), on host host[world] (NULL: all on one).
 * Two ranks on one host talk through CP_TL_SHM, else CP_TL_NET.
 */
struct cp_coll_place {
	const int32_t *members;
	const int32_t *host;
};

/*
 * cp_taulop_coll - tau-Lop of collective c under algorithm alg (rules
 * of cp_coll_decide with mca): the sum over its rounds of the slowest
 * channel's round (rule A3: channels do not interfere; a sender's
 * messages of the same data in a round inside a host, a broadcast's
 * fan-out, pay their overheads and count once in the round's sizes),
 * plus red_spb
 * times the largest reduction of the round, plus page_s times the
 * fresh pages (cp_taulop_fresh) of the rank whose scratch faults most
 * (none when page_s is NAN), each rank's under its threshold in hist,
 * which the call then raises (cp_taulop_hist_raise).  Returns 0 and
 * *t_s; -CP_COLL_E_* from the schedule; -1 when a round cannot be priced
 * (*flags says why: CP_TL_F_NOCHAN, CP_TL_F_NORED).  m: model; c: the
 * call; alg: algorithm; mca: overrides or NULL; pl: placement, may be
 * NULL (one host; group rank g is world rank g); hist: glibc's
 * thresholds so far, by world rank, or NULL (the steady state of a run
 * of identical calls); t_s: out; flags: out, CP_TL_F_*.
 */
int cp_taulop_coll(const struct cp_taulop *m, const struct cp_coll_call *c,
		   int alg, const struct cp_coll_mca *mca,
		   const struct cp_coll_place *pl,
		   struct cp_taulop_hist *hist, double *t_s, unsigned *flags);

/* Cost of one message for a per-process baseline. */
enum cp_coll_base {
	CP_COLL_HOCKNEY,	/* alpha + beta*m */
	CP_COLL_LOGGP,		/* L + 2o + (m-1)G */
};

/*
 * cp_coll_baseline - a baseline over the same rounds, as the tau-Lop paper
 * prices HLogGP: in each round every process pays the messages it sends one
 * after another and, at the same time, those it receives; the round
 * costs the most any process pays, max_p max(sum of its sends, sum of
 * its receives); the rounds add up.  No reduction term.  Returns 0 and
 * *t_s, or -CP_COLL_E_* from the schedule.  kind: the message cost;
 * a, b, c: its parameters (Hockney alpha, beta, unused; LogGP L, o, G);
 * call: the call; alg, mca: as cp_taulop_coll; t_s: out.
 */
int cp_coll_baseline(enum cp_coll_base kind, double a, double b, double c,
		     const struct cp_coll_call *call, int alg,
		     const struct cp_coll_mca *mca, double *t_s);

#endif
