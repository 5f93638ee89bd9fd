/*
 * cli_site.c - callsite texts for the commprof tool.  Resolving an address
 * through libdw costs microseconds and a run has few distinct callsites
 * but up to millions of rows, so each (module, offset) is resolved once.
 * Keying by the offset in the module rather than the address lets ranks
 * whose module was loaded at different addresses share an entry.
 * A module whose file on disk has another build id than the run recorded
 * was rebuilt since: its sites are module+offset, and one line says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/cp_db_read.h"
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
	char **ids;			/* their build ids in the run, or NULL */
	bool *noted;			/* the rebuilt line was printed */
	size_t npaths;
	struct cp_db *db;
};

struct cp_cli_sites *cp_cli_sites_new(struct cp_db *db)
{
	struct cp_cli_sites *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->db = db;
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
	for (i = 0; i < s->npaths; i++) {
		free(s->paths[i]);
		free(s->ids[i]);
	}
	free(s->paths);
	free(s->ids);
	free(s->noted);
	free(s->tab);
	cp_site_cache_free(s->cache);
	free(s);
}

/* The index of path's interned copy (a handful of modules: linear
 * search), with the build id the run recorded; -1 on no memory. */
static long cp_cli_intern(struct cp_cli_sites *s, const char *path)
{
	size_t i, n = s->npaths + 1;
	char id[128], **np, **ni;
	bool *nn;

	for (i = 0; i < s->npaths; i++)
		if (!strcmp(s->paths[i], path))
			return (long)i;
	np = realloc(s->paths, n * sizeof(*np));
	if (np)
		s->paths = np;
	ni = np ? realloc(s->ids, n * sizeof(*ni)) : NULL;
	if (ni)
		s->ids = ni;
	nn = ni ? realloc(s->noted, n * sizeof(*nn)) : NULL;
	if (!nn)
		return -1;
	s->noted = nn;
	i = s->npaths;
	s->noted[i] = false;
	s->ids[i] = NULL;
	if (s->db && !cp_db_get_build_id(s->db, path, id, sizeof(id)))
		s->ids[i] = strdup(id);
	s->paths[i] = strdup(path);
	if (!s->paths[i]) {
		free(s->ids[i]);
		return -1;
	}
	s->npaths++;
	return (long)i;
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

/* Resolve into e (path, off set; k: the path's index, or -1): the one
 * place cp_site_resolve is called. */
static int cp_cli_resolve(struct cp_cli_sites *s, struct cp_cli_site *e,
			  long k, uint64_t base)
{
	char buf[1024], fn[512] = "";

	if (!e->path) {
		snprintf(buf, sizeof(buf), "0x%llx",
			 (unsigned long long)e->off);
	} else if (cp_site_resolve(s->cache, e->path, s->ids[k], base,
				   base + e->off, buf, sizeof(buf), fn,
				   sizeof(fn)) == CP_SITE_REBUILT &&
		   !s->noted[k]) {
		s->noted[k] = true;
		cp_cli_err("note: %s is not the build that ran (its build id "
			   "differs): its callsites are module+offset",
			   e->path);
	}
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
	long k = -1;

	*site = NULL;
	*func = NULL;
	if (!addr)
		return 0;
	if (path) {
		k = cp_cli_intern(s, path);
		if (k < 0)
			return -1;
		path = s->paths[k];
	}
	off = path ? addr - base : addr;
	if (cp_cli_grow(s))
		return -1;
	e = cp_cli_slot(s->tab, s->cap, path, off);
	if (!e->site) {
		e->path = path;
		e->off = off;
		if (cp_cli_resolve(s, e, k, base))
			return -1;
		s->n++;
	}
	*site = e->site;
	*func = e->func;
	return 0;
}
