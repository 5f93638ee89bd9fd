/*
 * cp_stack.c - a callsite further up the stack (contract in
 * src/lib/cp_stack.h).
 */
#include "config.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "src/lib/cp_stack.h"

uintptr_t cp_stack_walk(uintptr_t site)
{
	/* the wrapper's own frames, then the caller's, then N - 1 more */
	void *pc[CP_STACK_MAX + 16];
	int n = unw_backtrace(pc, (int)(sizeof(pc) / sizeof(pc[0])));

	for (int i = 0; i < n; i++) {
		if ((uintptr_t)pc[i] != site)
			continue;
		i += (int)cp_env.stack - 1;
		return (uintptr_t)pc[i < n ? i : n - 1];
	}
	return site;
}
