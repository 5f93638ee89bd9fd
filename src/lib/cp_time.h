/*
 * cp_time.h - the profiler's clock.  Ticks are the invariant TSC where the
 * CPU has one (constant_tsc and nonstop_tsc in /proc/cpuinfo), else
 * CLOCK_MONOTONIC nanoseconds.  The hot path only reads ticks; the
 * conversion to nanoseconds happens at flush time (cp_time_ns()).
 */
#ifndef CP_TIME_H
#define CP_TIME_H

#include <stdint.h>

#include "src/common/cp_clock.h"

/* Set once at init: 1 when the TSC is the tick source. */
extern int cp_time_tsc;

static inline uint64_t cp_mono_ns(void)
{
	return (uint64_t)cp_clock_ns();
}

static inline uint64_t cp_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (__builtin_expect(cp_time_tsc, 1))
		return __builtin_ia32_rdtsc();
#endif
	return cp_mono_ns();
}

/* The TSC, for a wrapper that checked cp_fast (src/lib/cp_state.h); a
 * machine without one never sets it. */
static inline uint64_t cp_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	return cp_mono_ns();
#endif
}

/* Choose the tick source and take the first reference point.  Cannot
 * fail. */
void cp_time_init(void);
/* Take a new reference point, refining the tick rate (flusher). */
void cp_time_refine(void);
/* Ticks to CLOCK_MONOTONIC nanoseconds, and a tick count to ns. */
uint64_t cp_time_ns(uint64_t ticks);
uint64_t cp_time_dur_ns(uint64_t ticks);
/* Ticks per second currently in use (for tests and the benchmark). */
double cp_time_hz(void);

#endif
