/*
 * cp_env.h - the COMMPROF_* settings of the library.  Every setting has a
 * documented default (README, commprof(1), commprof-env(7)); a value that
 * does not parse gives one warning line and the default.
 */
#ifndef CP_ENV_H
#define CP_ENV_H

#include <stdint.h>

/* The deepest caller COMMPROF_STACK may name (src/lib/cp_stack.h). */
#define CP_STACK_MAX 16

struct cp_env {
	char dir[4096];		/* COMMPROF_DIR, default "commprof-out";
				 * once MPI_Init made it, the run's own
				 * directory in it (src/lib/cp_rt.c) */
	uint64_t max_rows;	/* COMMPROF_MAX_ROWS per rank, default 1e6 */
	uint64_t sample;	/* COMMPROF_SAMPLE: keep 1 row in N, def. 1 */
	uint64_t flush_ms;	/* COMMPROF_FLUSH_MS, default 1000 */
	uint64_t ring;		/* COMMPROF_RING calls a thread's ring
				 * holds, default 65536 */
	uint64_t finalize_ms;	/* COMMPROF_FINALIZE_MS: budget of the
				 * reduction at MPI_Finalize, 0 none;
				 * default 10000 */
	uint64_t stack;		/* COMMPROF_STACK: the caller taken as a
				 * call's site, 1 (MPI_X's) to
				 * CP_STACK_MAX; default 1 */
	int flush_cpu_rank;	/* COMMPROF_FLUSH_CPU=rank: the flusher
				 * stays on the rank's CPUs; default
				 * "socket" (src/lib/cp_flush.c) */
	int disable;		/* COMMPROF_DISABLE=1: record nothing */
	char params[4096];	/* COMMPROF_PARAMS, "" when unset */
};

/*
 * cp_env_read - fill e from the environment.  For each bad value one line
 * naming the variable is written into warn (cleared first, at most len
 * bytes) and the default is used.  Cannot fail.
 */
void cp_env_read(struct cp_env *e, char *warn, size_t len);

#endif
