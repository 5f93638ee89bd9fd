/*
 * cp_env.c - parsing of the COMMPROF_* environment variables.  Runs once
 * at MPI_Init; nothing here is on the hot path.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/cp_env.h"

static void warn_add(char *warn, size_t len, const char *name,
		     const char *val, const char *want, const char *def)
{
	size_t used = strlen(warn);

	if (used >= len)
		return;
	snprintf(warn + used, len - used,
		 "commprof: %s='%s' is not %s; using %s\n", name, val, want,
		 def);
}

/* Unsigned integer in [lo, hi]; anything else keeps *out and warns. */
static void env_u64(const char *name, uint64_t lo, uint64_t hi,
		    uint64_t *out, char *warn, size_t len)
{
	const char *v = getenv(name);
	char want[96], def[32];
	unsigned long long x;
	bool digits;

	if (!v || !*v)
		return;
	/* plain decimal digits only: strtoull alone takes " 5", "+5" and
	 * wraps "-5" */
	digits = strspn(v, "0123456789") == strlen(v);
	errno = 0;
	x = digits ? strtoull(v, NULL, 10) : 0;
	if (digits && !errno && x >= lo && x <= hi) {
		*out = x;
		return;
	}
	snprintf(want, sizeof(want), "an integer from %llu to %llu",
		 (unsigned long long)lo, (unsigned long long)hi);
	snprintf(def, sizeof(def), "%llu", (unsigned long long)*out);
	warn_add(warn, len, name, v, want, def);
}

void cp_env_read(struct cp_env *e, char *warn, size_t len)
{
	const char *v;

	if (len)
		warn[0] = '\0';
	memset(e, 0, sizeof(*e));
	strcpy(e->dir, "commprof-out");
	e->max_rows = 1000000;
	e->sample = 1;
	e->flush_ms = 1000;
	e->ring = 65536;
	e->finalize_ms = 10000;
	e->stack = 1;

	v = getenv("COMMPROF_DIR");
	if (v && *v) {
		if (strlen(v) < sizeof(e->dir))
			strcpy(e->dir, v);
		else
			warn_add(warn, len, "COMMPROF_DIR", "...",
				 "a path shorter than 4096 bytes",
				 "commprof-out");
	}
	env_u64("COMMPROF_MAX_ROWS", 0, UINT64_MAX / 2, &e->max_rows, warn,
		len);
	env_u64("COMMPROF_SAMPLE", 1, UINT32_MAX, &e->sample, warn, len);
	env_u64("COMMPROF_FLUSH_MS", 10, 3600000, &e->flush_ms, warn, len);
	env_u64("COMMPROF_RING", 1024, 1u << 24, &e->ring, warn, len);
	env_u64("COMMPROF_FINALIZE_MS", 0, 3600000, &e->finalize_ms, warn,
		len);
	env_u64("COMMPROF_STACK", 1, CP_STACK_MAX, &e->stack, warn, len);
	if (e->ring & (e->ring - 1)) {
		char val[32];

		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)e->ring);
		warn_add(warn, len, "COMMPROF_RING", val, "a power of two",
			 "65536");
		e->ring = 65536;
	}
	v = getenv("COMMPROF_FLUSH_CPU");
	if (v && *v) {
		if (!strcmp(v, "rank"))
			e->flush_cpu_rank = 1;
		else if (strcmp(v, "socket"))
			warn_add(warn, len, "COMMPROF_FLUSH_CPU", v,
				 "socket or rank", "socket");
	}
	v = getenv("COMMPROF_DISABLE");
	if (v && *v) {
		if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true"))
			e->disable = 1;
		else if (strcmp(v, "0") && strcmp(v, "no") &&
			 strcmp(v, "false"))
			warn_add(warn, len, "COMMPROF_DISABLE", v,
				 "0 or 1", "0");
	}
	v = getenv("COMMPROF_PARAMS");
	if (v && strlen(v) < sizeof(e->params))
		strcpy(e->params, v);
}
