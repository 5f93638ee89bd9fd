/*
 * cp_site.c - callsite resolution with elfutils libdwfl (interface:
 * src/cli/cp_site.h).  Used by the CLI at export and report time only.
 *
 * Each module file is opened once per cache, as its own Dwfl session,
 * reported with dwfl_report_elf() at its link-time addresses (base 0), so
 * the same open file serves every rank whatever its load address: a
 * return address is looked up at addr - base, which is the link-time
 * address for shared objects and PIE executables (base = dlpi_addr) and
 * the address itself for non-PIE executables (base 0).  Separate debug
 * files are found by build-id or .gnu_debuglink under /usr/lib/debug
 * (dwfl_standard_find_debuginfo).
 */
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cp_site.h"

struct cp_site_mod {
	char *path;
	Dwfl *dwfl;		/* NULL: the file could not be used */
	Dwfl_Module *mod;
	char build_id[128];	/* of the file, hex; "" none */
};

struct cp_site_cache {
	struct cp_site_mod *m;
	size_t n, cap;
};

static const Dwfl_Callbacks cp_site_cb = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static const char *cp_site_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

struct cp_site_cache *cp_site_cache_new(void)
{
	return calloc(1, sizeof(struct cp_site_cache));
}

void cp_site_cache_free(struct cp_site_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++) {
		if (c->m[i].dwfl)
			dwfl_end(c->m[i].dwfl);
		free(c->m[i].path);
	}
	free(c->m);
	free(c);
}

/* The file's GNU build id, as the library records it at run time. */
static void cp_site_build_id(struct cp_site_mod *m)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(m->mod, &bits, &vaddr);

	m->build_id[0] = '\0';
	for (int i = 0; i < n && 2 * i + 2 < (int)sizeof(m->build_id); i++)
		snprintf(m->build_id + 2 * i, 3, "%02x", bits[i]);
}

/* Open path as a Dwfl session of one module at link-time addresses.
 * Leaves m->dwfl NULL when the file is missing or not ELF. */
static void cp_site_open(struct cp_site_mod *m)
{
	m->dwfl = dwfl_begin(&cp_site_cb);
	if (!m->dwfl)
		return;
	dwfl_report_begin(m->dwfl);
	m->mod = dwfl_report_elf(m->dwfl, cp_site_base(m->path), m->path, -1,
				 0, true);
	if (dwfl_report_end(m->dwfl, NULL, NULL) != 0 || !m->mod) {
		dwfl_end(m->dwfl);
		m->dwfl = NULL;
		m->mod = NULL;
		return;
	}
	cp_site_build_id(m);
}

/* The cache entry of path, opened on first use; NULL on no memory. */
static struct cp_site_mod *cp_site_mod_get(struct cp_site_cache *c,
					   const char *path)
{
	struct cp_site_mod *m;
	size_t i, cap;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->m[i].path, path))
			return &c->m[i];
	if (c->n == c->cap) {
		cap = c->cap ? 2 * c->cap : 16;
		m = realloc(c->m, cap * sizeof(*m));
		if (!m)
			return NULL;
		c->m = m;
		c->cap = cap;
	}
	m = &c->m[c->n];
	memset(m, 0, sizeof(*m));
	m->path = strdup(path);
	if (!m->path)
		return NULL;
	c->n++;
	cp_site_open(m);
	return m;
}

/* Source line of module address a into buf; false without line info. */
static bool cp_site_line(Dwfl_Module *mod, uint64_t a, char *buf, size_t len)
{
	Dwfl_Line *line = dwfl_module_getsrc(mod, a);
	const char *src;
	int lineno = 0;

	if (!line)
		return false;
	src = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (!src || lineno <= 0)
		return false;
	snprintf(buf, len, "%s:%d", cp_site_base(src), lineno);
	return true;
}

int cp_site_resolve(struct cp_site_cache *c, const char *path,
		    const char *build_id, uint64_t base, uint64_t addr,
		    char *buf, size_t len, char *func, size_t funclen)
{
	const char *name = path && *path ? path : "?";
	uint64_t off = addr - base;
	struct cp_site_mod *m = NULL;
	const char *sym = NULL;
	GElf_Off soff = 0;
	GElf_Sym s;

	if (func && funclen)
		func[0] = '\0';
	if (!buf || !len)
		return -1;
	if (c && path && *path && addr > base)
		m = cp_site_mod_get(c, path);
	if (m && m->mod && build_id && *build_id &&
	    strcmp(build_id, m->build_id)) {
		snprintf(buf, len, "%s+0x%" PRIx64, cp_site_base(name), off);
		return CP_SITE_REBUILT;
	}
	if (m && m->mod) {
		/* the call instruction ends at the return address */
		sym = dwfl_module_addrinfo(m->mod, off - 1, &soff, &s, NULL,
					   NULL, NULL);
		if (sym && func && funclen)
			snprintf(func, funclen, "%s", sym);
		if (cp_site_line(m->mod, off - 1, buf, len))
			return 0;
		if (sym) {
			/* offset of the return address, as backtraces show */
			snprintf(buf, len, "%s+0x%" PRIx64, sym,
				 (uint64_t)soff + 1);
			return 0;
		}
	}
	snprintf(buf, len, "%s+0x%" PRIx64, cp_site_base(name), off);
	return -1;
}
