/*
 * cp_site.h - callsite resolution, done at export/report time, never in
 * the profiled process.  A callsite is a return address recorded in the
 * application; with the modules mapped in that rank (path, load base,
 * address range) it resolves to function and file:line where the module
 * has debug information (libdw), else function+offset (symbol table),
 * else module+offset.
 */
#ifndef CP_SITE_H
#define CP_SITE_H

#include <stddef.h>
#include <stdint.h>

struct cp_site_cache;

/* Create an empty cache of opened modules.  NULL on allocation failure. */
struct cp_site_cache *cp_site_cache_new(void);
/* Free the cache and every module it opened; c may be NULL. */
void cp_site_cache_free(struct cp_site_cache *c);

/*
 * cp_site_resolve - text for the return address `addr` that lies in the
 * module `path` loaded at `base` (addr - base is the module offset).
 * Writes "file.c:42" (basename of the source file), or "func+0x1c", or
 * "libfoo.so+0x1234" into buf (always NUL-terminated); writes the
 * function name (or "") into func when func is not NULL.  The address is
 * a return address: the call instruction is at addr - 1.  build_id is the
 * module's GNU build id (hex) in the run, or NULL when unknown: a file on
 * disk with another one was rebuilt since, and its lines and symbols
 * would name the wrong code, so it gives module+offset only.  Returns 0,
 * -1 when nothing better than module+offset was found, or CP_SITE_REBUILT
 * after a build id mismatch (buf is always set).
 */
#define CP_SITE_REBUILT	1
int cp_site_resolve(struct cp_site_cache *c, const char *path,
		    const char *build_id, uint64_t base, uint64_t addr,
		    char *buf, size_t len, char *func, size_t funclen);

#endif
