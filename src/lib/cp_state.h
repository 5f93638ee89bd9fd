/*
 * cp_state.h - the process's profiling state (src/lib/cp_state.c): its
 * settings, its place in the job, the job clock, and whether it records.
 *
 * The bottom of the library: every module may use it, and it uses
 * nothing of the library but the clock (src/lib/cp_time.h).  The
 * variables are written once by start-up (src/lib/cp_rt.c) before
 * recording starts, and only read afterwards.
 */
#ifndef CP_STATE_H
#define CP_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "src/lib/cp_env.h"

/* COMMPROF_* settings, read at MPI_Init. */
extern struct cp_env cp_env;
/* This process in MPI_COMM_WORLD: rank (-1 before MPI_Init) and size. */
extern int cp_rank, cp_size;
/* CLOCK_MONOTONIC ns at entry of the process's MPI_Init. */
extern uint64_t cp_init_entry_ns;
/* The job clock: this host's CLOCK_MONOTONIC minus rank 0's host's, and
 * the earliest MPI_Init entry of the job on rank 0's clock, in ns. */
extern int64_t cp_clock_off_ns, cp_epoch_ns;

/* Set while the profiler records: after our MPI_Init, before Finalize,
 * and cleared for good by cp_off() or cp_warn_once().  (A call made
 * inside a wrapped call is not recorded: see cp_ring_on().) */
extern atomic_bool cp_active;
/* cp_active, and the TSC is the clock (src/lib/cp_time.h): the
 * wrappers' one test for their fast path (__atomic_load_n and
 * __atomic_store_n; hidden, so that the test reads it directly). */
extern uint8_t cp_fast __attribute__((visibility("hidden")));

/* Stop recording for good, silently (finalize, a forked child).  Cannot
 * fail; async-signal-safe. */
void cp_off(void);
/* Stop recording for good and print one line, once per process:
 * "commprof: <what>; recording stopped, app unaffected".  Signal-unsafe. */
void cp_warn_once(const char *what);
/* The same line, once per process, but recording goes on (rows no
 * longer written still count in the aggregates).  Signal-unsafe. */
void cp_warn_line(const char *what);
/* True once cp_warn_once() or cp_warn_line() has printed its line. */
bool cp_warned(void);
/* Ticks (src/lib/cp_time.h) to the job clock: ns since the job's first
 * MPI_Init.  Cannot fail. */
int64_t cp_job_ns(uint64_t ticks);

#endif
