/*
 * cp_rt.h - the library's run time: set-up at MPI_Init, the job-wide
 * clock, warnings, and the flusher that drains per-thread rings into the
 * rank's database (src/lib/cp_rt.c, src/lib/cp_flush.c).
 */
#ifndef CP_RT_H
#define CP_RT_H

#include <stdint.h>

#include "src/lib/cp_env.h"

struct cp_db;

extern struct cp_env cp_env;
extern int cp_rank, cp_size;
/* CLOCK_MONOTONIC ns at entry of the process's MPI_Init. */
extern uint64_t cp_init_entry_ns;

/* Turn recording off for good and print one line, once per process:
 * "commprof: <what>; recording stopped, app unaffected".  Signal-unsafe. */
void cp_warn_once(const char *what);
/* Ticks to the job clock: ns since the job's first MPI_Init. */
int64_t cp_job_ns(uint64_t ticks);

/* Flusher (src/lib/cp_flush.c).  Start with an open rank database; 0 or -errno
 * (no thread: the caller warns and stops). */
int cp_flush_start(struct cp_db *db);
/* Drain everything now and wait for it (at most timeout_ms).
 * Async-signal-safe: the SIGTERM/SIGINT handler calls it too. */
void cp_flush_wait(unsigned timeout_ms);
/* Final drain, stop the thread; the database stays open. */
void cp_flush_stop(void);
/* Rows dropped because a ring was full, so far. */
uint64_t cp_flush_dropped(void);

#endif
