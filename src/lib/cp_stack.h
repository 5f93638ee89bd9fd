/*
 * cp_stack.h - the callsite of a call made through a wrapper library:
 * COMMPROF_STACK=N takes the N-th caller of the MPI call as its site (1,
 * the default, is the code that called MPI_X).  A deeper site is found
 * by walking the stack with libunwind, on the wrappers' slow path only:
 * the library keeps them off the fast path while N > 1 (src/lib/cp_rt.c).
 */
#ifndef CP_STACK_H
#define CP_STACK_H

#include <stdint.h>

#include "src/lib/cp_compiler.h"
#include "src/lib/cp_state.h"

/*
 * cp_stack_walk - the return address cp_env.stack - 1 frames above site,
 * the return address of the MPI call (the caller's own site when the
 * stack ends first or site is not on it).  Cannot fail.
 */
uintptr_t cp_stack_walk(uintptr_t site);

/* site, or the deeper one COMMPROF_STACK asks for. */
static inline uintptr_t cp_stack_site(uintptr_t site)
{
	return cp_unlikely(cp_env.stack > 1) ? cp_stack_walk(site) : site;
}

#endif
