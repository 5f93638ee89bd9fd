/*
 * cp_time.c - tick source selection and tick-to-nanosecond conversion.
 *
 * The TSC rate is not exposed by Linux in a portable way, so it is
 * measured: a reference pair (tsc, CLOCK_MONOTONIC) is taken at init and
 * again at every flush; the rate is the slope between the first and the
 * newest pair, which becomes more precise the longer the run.  Until the
 * two pairs are 10 ms apart the rate comes from a 2 ms busy measurement
 * made once at init.  Each pair is read as a bracket (ref_point()).
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

/*
 * A reference point: ticks and CLOCK_MONOTONIC read together, from the
 * tightest of a few brackets (clock, ticks, clock).  A rank descheduled
 * between two plain reads, as on a machine with more ranks than CPUs,
 * would shift every timestamp converted with that point by its time off
 * the CPU.
 */
static void ref_point(uint64_t *ticks, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 8; i++) {
		uint64_t a = cp_mono_ns(), t = cp_ticks(), b = cp_mono_ns();

		if (b - a < best) {
			best = b - a;
			*ticks = t;
			*ns = a + (b - a) / 2;
		}
	}
}

void cp_time_init(void)
{
	uint64_t t1, n1;

	cp_time_tsc = cpu_has_invariant_tsc();
	if (!cp_time_tsc) {
		ref_ns0 = ref_tsc0 = cp_mono_ns();
		atomic_store(&tick_hz, 1e9);
		return;
	}
	ref_point(&ref_tsc0, &ref_ns0);
	do
		ref_point(&t1, &n1);
	while (n1 - ref_ns0 < 2000000);
	atomic_store(&tick_hz, (double)(t1 - ref_tsc0) * 1e9 /
			       (double)(n1 - ref_ns0));
}

void cp_time_refine(void)
{
	uint64_t n1, t1;

	if (!cp_time_tsc)
		return;
	ref_point(&t1, &n1);
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
