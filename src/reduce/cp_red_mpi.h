/*
 * cp_red_mpi.h - the reduction of a run (src/reduce/cp_red.h) with MPI as
 * its transport: every rank of a communicator scans a share of the run's
 * rows (a rank of a job its own, at MPI_Finalize; a rank of commprof-mpi
 * a share of the rank files), hands each record to the rank that is its
 * home (cp_red_mpi_emit), the records travel in one all-to-all
 * (cp_red_mpi_exchange), each rank matches what it got, and the
 * summaries meet at rank 0 along a binomial tree (cp_red_mpi_reduce).
 *
 * Only PMPI calls, on a communicator the caller duplicated and whose
 * errors return (cp_red_mpi_init sets it): inside the profiling library
 * none is recorded, and an MPI failure is a return code, never the end
 * of the application.  Every rank makes the same calls in the same
 * order; a rank gives up only when every rank does (cp_red_mpi_go), so
 * that none is left waiting for another.
 *
 * Actions return 0 or -CP_E* (analysis/cp_err.h); a failure of MPI is
 * -CP_EINVAL.  Not thread-safe: one reduction per process at a time.
 */
#ifndef CP_RED_MPI_H
#define CP_RED_MPI_H

#include <stdbool.h>
#include <stdint.h>

#include <mpi.h>

#include "src/reduce/cp_red.h"

/* Records of one home. */
struct cp_red_bucket {
	struct cp_red_rec *v;
	size_t n, cap;
};

struct cp_red_mpi {
	MPI_Comm comm;		/* the caller's duplicate */
	int rank, size;
	int64_t deadline_ns;	/* CLOCK_MONOTONIC ns; 0: none */
	struct cp_red_bucket *out;	/* [size]: records by home */
	bool bad;		/* a local failure: the result is void */
};

/*
 * cp_red_mpi_init - a reduction over comm (a duplicate the caller owns
 * and frees; its error handler becomes MPI_ERRORS_RETURN) that gives up
 * once budget_ms have passed from now (0: never).  Not collective.
 * Returns 0 or -CP_ENOMEM.
 */
int cp_red_mpi_init(struct cp_red_mpi *m, MPI_Comm comm, int64_t budget_ms);

/* cp_red_mpi_free - free what m holds (not its communicator).  Cannot
 * fail. */
void cp_red_mpi_free(struct cp_red_mpi *m);

/* cp_red_mpi_emit - the emit of struct cp_red (arg: m; nhome must be
 * m->size): keep record r for rank h.  Returns 0 or -CP_ENOMEM. */
int cp_red_mpi_emit(void *arg, uint32_t h, const struct cp_red_rec *r);

/*
 * cp_red_mpi_go - collective: true when ok is true on every rank, none
 * had a local failure and none is past its deadline.  A failure of MPI
 * counts as false.  Cannot fail otherwise.
 */
bool cp_red_mpi_go(struct cp_red_mpi *m, bool ok);

/*
 * cp_red_mpi_states - collective: the CP_RED_S_* of every rank into
 * state[0..size) (malloc'ed, the caller frees), from each rank's own
 * mine.  Returns 0, -CP_ENOMEM or -CP_EINVAL.
 */
int cp_red_mpi_states(struct cp_red_mpi *m, uint8_t mine, uint8_t **state);

/*
 * cp_red_mpi_states_or - collective: state[0..*n) (malloc'ed, may be NULL
 * with *n 0) of each rank, the CP_RED_S_* of the ranks of the run whose
 * files it scanned (0 elsewhere), become their OR over the ranks, all
 * *n of the longest.  Returns 0, -CP_ENOMEM or -CP_EINVAL (*state
 * unchanged).
 */
int cp_red_mpi_states_or(struct cp_red_mpi *m, uint8_t **state, int32_t *n);

/*
 * cp_red_mpi_exchange - collective: send every kept record to its home
 * and receive those of which this rank is home into *in (malloc'ed, *n
 * of them; the caller frees it).  The kept records are freed.  Every
 * rank first says whether it could make room (cp_red_mpi_go): when one
 * could not, none sends.  Returns 0, -CP_ENOMEM or -CP_EINVAL (nothing
 * received).
 */
int cp_red_mpi_exchange(struct cp_red_mpi *m, struct cp_red_rec **in,
			size_t *n);

/*
 * cp_red_mpi_reduce - collective: merge every rank's summary s into rank
 * 0's, along a binomial tree (log2(size) steps).  On rank 0 s is then
 * the job's, unless -CP_E* is returned there or m->bad is set (a rank
 * failed: the sum is missing some); on the others s is spent.  Returns
 * 0 or -CP_E*.
 */
int cp_red_mpi_reduce(struct cp_red_mpi *m, struct cp_red_sum *s);

#endif
