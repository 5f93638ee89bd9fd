/*
 * cp_clock.h - the host's monotonic clock (CLOCK_MONOTONIC) in
 * nanoseconds, which every process of a host reads alike (MPI_Wtime need
 * not: Open MPI's counts from each process's first call).  The library's
 * own clock, ticks of the TSC where it can, is src/lib/cp_time.h; this is
 * for deadlines and elapsed times off the hot path, in every program.
 */
#ifndef CP_CLOCK_H
#define CP_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t cp_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The same in seconds. */
static inline double cp_clock_s(void)
{
	return cp_clock_ns() * 1e-9;
}

/* Whole milliseconds since t0_ns (a cp_clock_ns() value). */
static inline int64_t cp_clock_ms_since(int64_t t0_ns)
{
	return (cp_clock_ns() - t0_ns) / 1000000;
}

#endif
