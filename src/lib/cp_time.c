/*
 * cp_time.c - tick source selection and tick-to-nanosecond conversion.
 *
 * The TSC rate is not exposed by Linux in a portable way, so it is
 * measured: a reference pair (tsc, CLOCK_MONOTONIC) is taken at init and
 * again at every flush; the rate is the slope between the first and the
 * newest pair, which becomes more precise the longer the run.  Until the
 * two pairs are 10 ms apart the rate comes from a 2 ms busy measurement
 * made once at init.
 */
#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "src/lib/cp_time.h"

int cp_time_tsc;

static uint64_t ref_tsc0, ref_ns0;
static _Atomic double tick_hz = 1e9;

static int cpu_has_invariant_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	char line[4096];
	int c = 0, n = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		c = strstr(line, " constant_tsc") != NULL;
		n = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return c && n;
#else
	return 0;
#endif
}

void cp_time_init(void)
{
	uint64_t t1, n1;

	cp_time_tsc = cpu_has_invariant_tsc();
	ref_ns0 = cp_mono_ns();
	ref_tsc0 = cp_ticks();
	if (!cp_time_tsc) {
		atomic_store(&tick_hz, 1e9);
		return;
	}
	do {
		n1 = cp_mono_ns();
		t1 = cp_ticks();
	} while (n1 - ref_ns0 < 2000000);
	atomic_store(&tick_hz, (double)(t1 - ref_tsc0) * 1e9 /
			       (double)(n1 - ref_ns0));
}

void cp_time_refine(void)
{
	uint64_t n1, t1;

	if (!cp_time_tsc)
		return;
	n1 = cp_mono_ns();
	t1 = cp_ticks();
	if (n1 - ref_ns0 < 10000000)
		return;
	atomic_store(&tick_hz, (double)(t1 - ref_tsc0) * 1e9 /
			       (double)(n1 - ref_ns0));
}

uint64_t cp_time_ns(uint64_t ticks)
{
	double d = (double)(int64_t)(ticks - ref_tsc0);

	return ref_ns0 + (int64_t)(d * 1e9 / atomic_load(&tick_hz));
}

uint64_t cp_time_dur_ns(uint64_t ticks)
{
	return (uint64_t)((double)ticks * 1e9 / atomic_load(&tick_hz));
}

double cp_time_hz(void)
{
	return atomic_load(&tick_hz);
}
