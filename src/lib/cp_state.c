/*
 * cp_state.c - the process's profiling state (src/lib/cp_state.h).
 */
#include "config.h"

#include <stdio.h>

#include "src/lib/cp_state.h"
#include "src/lib/cp_time.h"

struct cp_env cp_env;
int cp_rank = -1, cp_size;
uint64_t cp_init_entry_ns;
int64_t cp_clock_off_ns, cp_epoch_ns;
atomic_bool cp_active;
uint8_t cp_fast;

static atomic_int warned;

void cp_off(void)
{
	__atomic_store_n(&cp_fast, 0, __ATOMIC_SEQ_CST);
	atomic_store(&cp_active, false);
}

void cp_warn_line(const char *what)
{
	if (atomic_exchange(&warned, 1))
		return;
	fprintf(stderr, "commprof: %s; recording stopped, app unaffected\n",
		what);
}

void cp_warn_once(const char *what)
{
	cp_off();
	cp_warn_line(what);
}

bool cp_warned(void)
{
	return atomic_load(&warned);
}

int64_t cp_job_ns(uint64_t ticks)
{
	return (int64_t)cp_time_ns(ticks) + cp_clock_off_ns - cp_epoch_ns;
}
