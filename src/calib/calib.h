/*
 * calib.h - the pieces of commprof-calibrate (src/calib/calibrate.c): the
 * run's context, the fatal end, the progress bar and the idle barrier
 * (calib_run.c), the library's protocol limits (calib_limits.c), the LMO
 * experiment schedule (calib_sched.c), the LMO size sweep and its
 * estimation per regime (calib_lmo.c), the log3P tables
 * (calib_log3p.c), tau-Lop's Ring experiments (calib_taulop.c), PlogPT's
 * pair and tree (calib_plogpt.c), the
 * host's steadiness (calib_gauge.c) and the other measurements
 * (calib_meas.c).  Everything
 * here runs inside MPI_COMM_WORLD and is collective unless said
 * otherwise.
 */
#ifndef CP_CALIB_H
#define CP_CALIB_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/cp_lmo.h"
#include "analysis/cp_lmo_ls.h"
#include "analysis/cp_log3p.h"
#include "src/common/cp_params.h"

/* The quantile of its samples that a measured value is: log3P's table
 * cells (calib_log3p.c) and the points that lines through them share,
 * the baselines' 0-B roundtrip and PLogP's g(0) (calibrate.c). */
#define CALIB_Q		0.1

/* The run. */
struct calib {
	int rank;		/* in MPI_COMM_WORLD */
	int n;			/* ranks */
	bool quick;		/* --quick: a first look */
	int reps;		/* repetitions of each LMO experiment at each
				 * size, and of each threshold size */
	int samples;		/* log3P: samples per table point (m) */
	const char *series;	/* --series: raw LMO sweep to this file, or
				 * NULL */
	double slow_s;		/* --slow-us: an LMO size whose experiment
				 * median exceeds its minimum by more than
				 * this (+2%) is run again; 0 never */
	bool crowded;		/* some machine (kernel) runs more ranks
				 * than it has CPUs: waiting processes
				 * yield (calib_wait), experiments run one
				 * at a time, a pair's processes pinned */
	bool sparse;		/* --quick and some MPI node has more
				 * ranks than CPUs: fewer LMO sizes and
				 * tau-Lop repetitions, whose exchanges wait
				 * for time slices there */
	bool tty;		/* rank 0 and stderr is a terminal */
	double t0_s;		/* MPI_Wtime at start */
	double phase_base;	/* progress: share of the run before the
				 * current phase */
	double phase_weight;	/* its share */
	const char *phase;	/* its name */
	double phase_t0;	/* MPI_Wtime at its start */
};

/* Start a phase worth weight of the whole run (the weights of a run sum
 * to 1); rank 0 prints what the phase before took ("phase NAME: S s").
 * Not collective; cannot fail. */
void calib_phase(struct calib *c, const char *name, double weight);

/* The current phase is done of total: on rank 0 with a terminal, a
 * progress bar on stderr, the phase, detail and the estimated time
 * left.  Not collective; cannot fail.  detail may be NULL. */
void calib_progress(struct calib *c, const char *detail, double done,
		    double total);

/* Clear the progress bar.  Not collective; cannot fail. */
void calib_progress_end(struct calib *c);

/* Print "commprof-calibrate: what" on stderr and end the whole job:
 * a collective program whose peers would otherwise wait forever. */
void calib_fatal(const char *what) __attribute__((noreturn));

/* Barrier (an MPI_Ibarrier) that sleeps nap_us between polls, for
 * ranks idle while others measure (they would steal a core on a crowded
 * host); nap_us 0: inside MPI_Wait, for the ranks that measure, whose
 * peers nap in the same barrier.  Collective over comm. */
void calib_nap_barrier(MPI_Comm comm, long nap_us);
/* The same with CALIB_IDLE_NAP_US. */
#define CALIB_IDLE_NAP_US	500
void calib_idle_barrier_on(MPI_Comm comm);
void calib_idle_barrier(void);

/* MPI_Waitall of reqs[0..n), which on a crowded machine (c->crowded) polls
 * and yields the CPU between polls: a process that waits for a message
 * in a blocking call spins, and takes from the one that must send it
 * the core it needs to push its data into the transport (the process
 * yielded to runs at once; a message's arrival is seen within a
 * scheduler pass, where sleeping would add a timer's slack).  Not
 * collective; cannot fail. */
void calib_wait(const struct calib *c, int n, MPI_Request *reqs);

/* On a machine with fewer CPUs than ranks (c->crowded), pin this process to
 * the slot-th CPU it may run on, for the two processes of an experiment
 * to run side by side as on a host with a CPU each, instead of the
 * scheduler putting them on one CPU now and then (a message then waits
 * for a context switch); calib_unpin() gives the process back all its
 * CPUs.  No-ops otherwise or where affinity cannot be set.  Not
 * collective; cannot fail. */
void calib_pin(const struct calib *c, int slot);
void calib_unpin(const struct calib *c);

/* Write one byte per cache line of buf[0..len), so that a message's data
 * are in its sender's cache, as an application's freshly computed data
 * are, and not in the receiver's from the previous repetition.  Cannot
 * fail. */
void calib_touch(char *buf, size_t len);

/* The ranks of comm on this process's MPI node (shared memory), itself
 * included.  Collective over comm. */
int calib_node_ranks(MPI_Comm comm);

/* An estimate into a parameter: a value with its interval, or failed
 * with its cause when it failed, is not finite (+inf allowed with
 * inf_ok) or lies outside its interval; its ambiguity kept.  Not
 * collective; cannot fail. */
void calib_put(struct cp_pval *v, const struct cp_est *e, bool inf_ok);

/* A value with the interval [lo, hi] measured n times; negative or
 * non-finite values fail.  Not collective; cannot fail. */
void calib_put_range(struct cp_pval *v, double x, double lo, double hi,
		     int n);

/* The q quantile of x[0..n) (cp_stats_percentile: GSL, linear between
 * order statistics); NAN where there is none (n < 1, a non-finite
 * sample, out of memory).  Cannot fail otherwise. */
double calib_quantile(const double *x, int n, double q);

/* The protocol limits the MPI library reports (MPI_T control variables
 * of transports in use: Open MPI's btl_*_eager_limit, MPICH's
 * *EAGER*MAX_MSG_SIZE), at most max, by increasing size.  Not
 * collective; 0 when there is no MPI_T or no such variable. */
int calib_limits(struct cp_lmo_limit *lim, int max);

/* Kinds of LMO experiments. */
#define CALIB_RT0	0	/* empty roundtrip i <-> j */
#define CALIB_O2O	1	/* i sends M to j, empty reply */
#define CALIB_O2T	2	/* root sends M to a and b, empty replies */
#define CALIB_NKINDS	3

/* Experiments grouped in rounds: no process takes part in two
 * experiments of one round. */
struct calib_sched {
	int kind;		/* CALIB_* */
	int nexp;		/* experiments */
	int size;		/* processes per experiment: 2 or 3 */
	int *memb;		/* [e * size + k]: k == 0 is the initiator
				 * (i, or the root); e in the analysis order
				 * (cp_lmo_pair_idx, cp_lmo_o2t_idx) */
	int nrounds;
	int *order;		/* [nexp] experiments, round after round */
	int *round_start;	/* [nrounds + 1] into order */
};

/* Build the schedule of kind for n ranks (greedy: each round takes, in
 * order, every remaining experiment whose processes are still free;
 * with serial, one experiment per round).  Not collective;
 * deterministic, so every rank builds the same.  Returns 0 or -1 (out
 * of memory). */
int calib_sched_build(struct calib_sched *s, int kind, int n, bool serial);

/* Release s (idempotent).  Cannot fail. */
void calib_sched_free(struct calib_sched *s);

/* Run every experiment of s reps times (after one warm-up), a barrier
 * between rounds.  On rank 0, t_s[e * reps + r] gets the initiator's
 * time of repetition r of experiment e.  Collective.  bytes: M (unused
 * for CALIB_RT0); buf: at least bytes, the initiator's message. */
void calib_sched_run(struct calib *c, const struct calib_sched *s,
		     int bytes, int reps, char *buf, double *t_s);

/* Linear scatter (gather) by hand from (to) rank 0, bytes to (from)
 * every other rank, over the sizes row: on rank 0 t_s[i] gets the median
 * over c->reps of the slowest rank's time for size row[i].  Collective. */
void calib_scatter_row(struct calib *c, const double *row, int nrow,
		       double *t_s);
void calib_gather_row(struct calib *c, const double *row, int nrow,
		      double *t_s);

/* LogGP samples between ranks 0 and 1 (README "References"): on
 * rank 0, nsamp samples each of o_s, o_r, small roundtrips, bursts of
 * burst small sends and of burst sends of big bytes.  Ranks 0 and 1
 * only. */
void calib_loggp(struct calib *c, int nsamp, int burst, int big,
		 double *os, double *or_, double *rtt, double *bs,
		 double *bbs);

/* ---- LMO (calib_lmo.c) ---- */

/* The sweep and its estimates, on rank 0 (sizes on every rank). */
struct calib_lmo {
	int nsizes;
	double *size_bytes;	/* [nsizes] the sweep */
	int npass;		/* 1, or 2 with a second pass */
	int npass2;		/* sizes in the second pass */
	/* values in the layouts of struct cp_lmo_sweep, two passes */
	double *rt0;		/* [pass * npairs + p] */
	double *o2o;		/* [(pass * nsizes + is) * npairs + p] */
	double *o2t;		/* [(pass * nsizes + is) * no2t + q] (n > 2) */
	double *rt0_sd, *o2o_sd, *o2t_sd;	/* their spreads */
	int nlim;
	struct cp_lmo_limit lim[16];	/* the library's limits */
	struct cp_lmo_regimes reg;
	struct cp_lmo est[CP_LMO_MAXREG];	/* per regime */
	/* [k >= 1]: a break of the data refined by measuring sizes
	 * between the sweep's: the largest size found below it (0: not
	 * refined), on every rank after calib_lmo_run */
	double below[CP_LMO_MAXREG];
	bool ok;		/* regimes and estimates made */
};

/* The sizes of the sweep: a geometric row from 64 B up to 4 MiB (quick:
 * 1 MiB), with the sizes just below and at every limit, stopping after
 * the first size whose one-to-one takes longer than max_ms on the
 * slowest link (measured as the sweep goes); then a second pass from
 * the largest size down while the calibration is younger than 25 s
 * (quick: 3 s).  Runs the sweep of every
 * experiment (empty roundtrips once, one-to-one and one-to-two at every
 * size), the reps of each experiment at a size summed up by their 10%
 * quantile and their spread (median less that); a size with a slow
 * spell (a median twice its value and --slow-us above it) is run again,
 * up to 3 times, keeping the calmest try.  Then, on rank 0: regimes, estimates,
 * and what it found printed; a break of the data up to 256 KiB is then
 * refined by measuring sizes between the sweep's (bisection; every
 * rank gets the regimes' first sizes and l->below).  Collective.  l:
 * out (calib_lmo_free). */
void calib_lmo_run(struct calib *c, struct calib_lmo *l);

/* The LMO parameters of l into p (rank 0): regimes, sources, sweep, per
 * regime C, t, beta, the sums, ambiguities.  Not collective. */
void calib_lmo_fill(const struct calib *c, const struct calib_lmo *l,
		    struct cp_params *p);

void calib_lmo_free(struct calib_lmo *l);

/* ---- the gauge (calib_gauge.c) ---- */

#define CALIB_GAUGE_BYTES	(256 << 10)	/* the message */
#define CALIB_GAUGE_MAX		8	/* moments */
/* Above this ratio of the slowest moment to the fastest, the host
 * changed speed while measured: on the CI's idle machines the moments
 * of one spell agreed within 1.03x to 1.30x, spells differ by 1.7x
 * (24 and 40 us) to 3x (40 and 120 us). */
#define CALIB_GAUGE_STEADY	1.5

/* The moments so far (rank 0), and the message (ranks 0 and 1). */
struct calib_gauge {
	int n;
	double t_s[CALIB_GAUGE_MAX];	/* each moment's fastest one-way
					 * time */
	char *buf;		/* the same pages at every moment */
};

/* One moment: ranks 0 and 1 (pinned as in LMO's experiments) send
 * CALIB_GAUGE_BYTES back and forth for
 * 0.2 s (quick: 0.05 s; at least 3 roundtrips), rank 0 adds the fastest
 * one-way time to g (up to CALIB_GAUGE_MAX moments); the other ranks
 * sleep in a barrier.  Collective.  g: zero at first, then
 * calib_gauge_free(). */
void calib_gauge(struct calib *c, struct calib_gauge *g);

/* The same, ranks 0 and 1 only (no barrier, no pinning; the others do
 * nothing), as inside log3P.  Not collective. */
void calib_gauge_pair(struct calib *c, struct calib_gauge *g);

/* Release the message of g (idempotent).  Cannot fail. */
void calib_gauge_free(struct calib_gauge *g);

/* The moments of g into p->calib_gauge_s (median, fastest and slowest,
 * moments), "assume unsteady" when the slowest is over
 * CALIB_GAUGE_STEADY times the fastest, and what it found printed
 * (rank 0).  Not collective; cannot fail. */
void calib_gauge_fill(const struct calib_gauge *g, struct cp_params *p);

/* ---- log3P (calib_log3p.c) ---- */

/* log3P's grids and measurements (ranks 0 and 1). */
struct calib_l3 {
	int ns;			/* contiguous sizes */
	double *sizes;		/* [ns] */
	int nss, nb, ng;	/* strided sizes, blocks, gaps */
	double *ssizes, *blocks, *gaps;
	/* rank 0: values and 95% intervals (order statistics) */
	double *tmem[3], *t00[3], *t01[3];	/* [ns]: value, lo, hi */
	double *t01sd[3];	/* [cell]; NAN not measured */
	int nsamp;		/* samples behind each value */
	double half_rt0;	/* rank 0: the empty message's one-way time,
				 * s (half its roundtrip in the rounds) */
	int *nsd;		/* [cell]: samples behind each strided value */
	int redone;		/* local values measured again (spread) */
	int ncells;		/* remote values measured in rounds */
	int rounds;		/* the rounds run */
	int capped;		/* cells skipped: extent above the cap */
	struct cp_log3p tab;	/* derived */
	bool ok;
};

/* Measure log3P between ranks 0 and 1 over grids built from the LMO
 * sweep sizes (lmo_sizes, n, up to 4 MiB) and the regime boundaries
 * (first, nreg: a strided size on both sides of each up to 256 KiB;
 * below[k] > 0: the largest size of regime k - 1 a refined break found,
 * it and first[k] also contiguous sizes), and the breaks of a sweep of
 * strided messages (a strided size on both sides of each),
 * blocks of 8 B to 1 KiB, gaps of 8 B to 8 KiB (calib_log3p.c says how
 * each value is measured).  The other ranks sleep in a barrier.  Then
 * derive the tables (rank 0) and print the predicted-versus-measured
 * check of layouts off the grids; a moment of the gauge g between the
 * contiguous and the strided tables.  Collective.  l: out
 * (calib_l3_free). */
void calib_l3_run(struct calib *c, const double *lmo_sizes, int n,
		  const double *first, const double *below, int nreg,
		  struct calib_gauge *g, struct calib_l3 *l);

/* The log3P tables of l into p (rank 0).  Not collective. */
void calib_l3_fill(const struct calib_l3 *l, struct cp_params *p);

void calib_l3_free(struct calib_l3 *l);

/* ---- tau-Lop (calib_taulop.c) ---- */

/* tau-Lop's Ring experiments and the cost of a local reduction into
 * the tau-Lop section of p (rank 0, p allocated; the other ranks pass
 * what they have), reporting progress within the current phase; the
 * sizes of the Rings include both sides of every regime boundary of the
 * LMO sweep inside their grid (first, below, nreg as calib_l3_run takes
 * them; NULL: none).  Collective. */
void calib_taulop(struct calib *c, const double *first, const double *below,
		  int nreg, struct cp_params *p);

/* ---- PlogPT (calib_plogpt.c) ---- */

/* PlogPT's parameters, both ends sending, and the tree of the hosts'
 * b(h) and d(h), into the PlogPT section of p (rank 0, p allocated; the
 * other ranks pass what they have), reporting progress within the
 * current phase.  Collective. */
void calib_plogpt(struct calib *c, struct cp_params *p);

#endif
