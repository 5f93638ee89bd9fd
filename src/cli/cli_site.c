/*
 * cli_site.c - callsite texts for the commprof tool.  Resolving an address
 * through libdw costs microseconds and a run has few distinct callsites
 * but up to millions of rows, so each (module, offset) is resolved once.
 * Keying by the offset in the module rather than the address lets ranks
 * whose module was loaded at different addresses share an entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/cli/cp_site.h"

/* An entry is in use when site is not NULL. */
struct cp_cli_site {
	const char *path;	/* interned module path, NULL: none */
	uint64_t off;		/* address - base, or address without path */
	char *site;		/* NULL for address 0 */
	char *func;		/* NULL when unknown */
};

struct cp_cli_sites {
	struct cp_site_cache *cache;
	struct cp_cli_site *tab;	/* open addressing, path+off key */
	size_t cap, n;			/* cap is a power of two */
	char **paths;			/* interned module paths */
	size_t npaths;
};

struct cp_cli_sites *cp_cli_sites_new(void)
{
	struct cp_cli_sites *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cap = 256;
	s->tab = calloc(s->cap, sizeof(*s->tab));
	s->cache = cp_site_cache_new();
	if (!s->tab || !s->cache) {
		cp_cli_sites_free(s);
		return NULL;
	}
	return s;
}

void cp_cli_sites_free(struct cp_cli_sites *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; s->tab && i < s->cap; i++) {
		free(s->tab[i].site);
		free(s->tab[i].func);
	}
	for (i = 0; i < s->npaths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->tab);
	cp_site_cache_free(s->cache);
	free(s);
}

/* The interned copy of path (a handful of modules: linear search). */
static const char *cp_cli_intern(struct cp_cli_sites *s, const char *path)
{
	char **np;
	size_t i;

	for (i = 0; i < s->npaths; i++)
		if (!strcmp(s->paths[i], path))
			return s->paths[i];
	np = realloc(s->paths, (s->npaths + 1) * sizeof(*np));
	if (!np)
		return NULL;
	s->paths = np;
	np[s->npaths] = strdup(path);
	return np[s->npaths] ? np[s->npaths++] : NULL;
}

static size_t cp_cli_hash(const char *path, uint64_t off)
{
	uint64_t h = (uintptr_t)path * 0x9e3779b97f4a7c15ULL;

	h ^= off + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdULL;
	return (size_t)(h ^ (h >> 33));
}

static struct cp_cli_site *cp_cli_slot(struct cp_cli_site *tab, size_t cap,
				       const char *path, uint64_t off)
{
	size_t i = cp_cli_hash(path, off) & (cap - 1);

	while (tab[i].site) {
		if (tab[i].path == path && tab[i].off == off)
			break;
		i = (i + 1) & (cap - 1);
	}
	return &tab[i];
}

/* Double the table when it is half full.  Returns 0 or -1. */
static int cp_cli_grow(struct cp_cli_sites *s)
{
	struct cp_cli_site *nt, *e;
	size_t i;

	if (2 * (s->n + 1) <= s->cap)
		return 0;
	nt = calloc(2 * s->cap, sizeof(*nt));
	if (!nt)
		return -1;
	for (i = 0; i < s->cap; i++) {
		e = &s->tab[i];
		if (e->site)
			*cp_cli_slot(nt, 2 * s->cap, e->path, e->off) = *e;
	}
	free(s->tab);
	s->tab = nt;
	s->cap *= 2;
	return 0;
}

/* Resolve into e (path, off set): the one place cp_site_resolve is
 * called. */
static int cp_cli_resolve(struct cp_cli_sites *s, struct cp_cli_site *e,
			  uint64_t base)
{
	char buf[1024], fn[512] = "";

	if (!e->path)
		snprintf(buf, sizeof(buf), "0x%llx",
			 (unsigned long long)e->off);
	else
		cp_site_resolve(s->cache, e->path, base, base + e->off, buf,
				sizeof(buf), fn, sizeof(fn));
	e->site = strdup(buf);
	e->func = fn[0] ? strdup(fn) : NULL;
	if (e->site && (e->func || !fn[0]))
		return 0;
	free(e->site);
	free(e->func);
	memset(e, 0, sizeof(*e));
	return -1;
}

int cp_cli_site_get(struct cp_cli_sites *s, const char *path, uint64_t base,
		    uint64_t addr, const char **site, const char **func)
{
	struct cp_cli_site *e;
	uint64_t off;

	*site = NULL;
	*func = NULL;
	if (!addr)
		return 0;
	if (path) {
		path = cp_cli_intern(s, path);
		if (!path)
			return -1;
	}
	off = path ? addr - base : addr;
	if (cp_cli_grow(s))
		return -1;
	e = cp_cli_slot(s->tab, s->cap, path, off);
	if (!e->site) {
		e->path = path;
		e->off = off;
		if (cp_cli_resolve(s, e, base))
			return -1;
		s->n++;
	}
	*site = e->site;
	*func = e->func;
	return 0;
}
