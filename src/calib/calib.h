/*
 * calib.h - the pieces of commprof-calibrate (src/calib/calibrate.c): the run's
 * context, the fatal end, the progress line and the idle barrier
 * (calib_run.c), the LMO experiment schedule (calib_sched.c) and the
 * other measurements (calib_meas.c).  Everything here runs inside
 * MPI_COMM_WORLD and is collective unless said otherwise.
 */
#ifndef CP_CALIB_H
#define CP_CALIB_H

#include <stdbool.h>

/* The run. */
struct calib {
	int rank;		/* in MPI_COMM_WORLD */
	int n;			/* ranks */
	bool quick;		/* --quick: short series */
	int reps;		/* repetitions of each LMO experiment and of
				 * each threshold size */
	int lmo_bytes;		/* --lmo-bytes: M of the LMO series; 0: half
				 * of S (run_thresholds) */
	const char *series;	/* --series: raw LMO series to this file, or
				 * NULL */
	int lmo_stat;		/* --lmo-stat: CP_LMO_STAT_* */
	double slow_s;		/* --slow-us: an LMO series with an
				 * experiment whose median exceeds its
				 * minimum by more than this (+2%) is run
				 * again; 0 never */
	bool tty;		/* rank 0 and stderr is a terminal */
	double t0_s;		/* MPI_Wtime at start */
	int units_total;	/* progress: planned steps */
	int units_done;		/* progress: steps done */
};

/* Report a step done in phase what (rank 0 on a terminal only: a
 * progress line on stderr with the estimated time left).  Not
 * collective; cannot fail. */
void calib_progress(struct calib *c, const char *what, int units);

/* Clear the progress line.  Not collective; cannot fail. */
void calib_progress_end(struct calib *c);

/* Print "commprof-calibrate: what" on stderr and end the whole job:
 * a collective program whose peers would otherwise wait forever. */
void calib_fatal(const char *what) __attribute__((noreturn));

/* Barrier that sleeps between polls, for ranks idle while 0 and 1
 * measure (they would steal a core on a crowded host).  Collective. */
void calib_idle_barrier(void);

/* Kinds of LMO experiments. */
#define CALIB_RT0	0	/* empty roundtrip i <-> j */
#define CALIB_O2O	1	/* i sends M to j, empty reply */
#define CALIB_O2T	2	/* root sends M to a and b, empty replies */
#define CALIB_O2T0	3	/* the same with empty messages */
#define CALIB_NKINDS	4

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
 * order, every remaining experiment whose processes are still free).
 * Not collective; deterministic, so every rank builds the same.
 * Returns 0 or -1 (out of memory). */
int calib_sched_build(struct calib_sched *s, int kind, int n);

/* Release s (idempotent).  Cannot fail. */
void calib_sched_free(struct calib_sched *s);

/* Run every experiment of s reps times (after one warm-up), a barrier
 * between rounds.  On rank 0, t_s[e * reps + r] gets the initiator's
 * time of repetition r of experiment e; *wall_s the phase's wall time;
 * *seq_s the sum of all experiment times (running them one after
 * another).  Collective.  bytes: M (unused for CALIB_RT0, CALIB_O2T0). */
void calib_sched_run(struct calib *c, const struct calib_sched *s,
		     int bytes, int reps, double *t_s, double *wall_s,
		     double *seq_s);

/* Linear scatter (gather) by hand from (to) rank 0, bytes to (from)
 * every other rank, over the sizes row: on rank 0 t_s[i] gets the median
 * over c->reps of the slowest rank's time for size row[i].  Collective. */
void calib_scatter_row(struct calib *c, const double *row, int nrow,
		       double *t_s);
void calib_gather_row(struct calib *c, const double *row, int nrow,
		      double *t_s);

/* log3P tables between ranks 0 and 1 (models.md "log3P"): each value is
 * the minimum over m samples of the mean of nrep repetitions after a
 * warm-up.  On rank 0: t_mem, t00, t01 [ns], t00sd, t01sd [ns * nd]
 * (half roundtrips for remote); ranks 0 and 1 take part, the others
 * must not call it.  sizes: bytes (multiples of 8); strides: bytes
 * between doubles (multiples of 8, > 8). */
void calib_log3p(struct calib *c, const double *sizes, int ns,
		 const double *strides, int nd, int m, int nrep,
		 double *t_mem, double *t00, double *t01, double *t00sd,
		 double *t01sd);

struct cp_params;

/* tau-Lop's Ring experiments (src/calib/calib_taulop.c) into the
 * tau-Lop section of p (rank 0; the other ranks pass what they have).
 * Collective. */
void calib_taulop(struct calib *c, struct cp_params *p);

/* Progress units calib_taulop reports.  Not collective. */
int calib_taulop_units(const struct calib *c);

/* LogGP samples between ranks 0 and 1 (models.md "Baselines"): on
 * rank 0, nsamp samples each of o_s, o_r, small roundtrips, bursts of
 * burst small sends and of burst sends of big bytes.  Ranks 0 and 1
 * only. */
void calib_loggp(struct calib *c, int nsamp, int burst, int big,
		 double *os, double *or_, double *rtt, double *bs,
		 double *bbs);

#endif
