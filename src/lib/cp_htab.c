/*
 * cp_htab.c - life cycle of the lock-free handle tables (src/lib/cp_htab.h);
 * lookups, inserts and removals are inline in the header.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "src/lib/cp_htab.h"

struct cp_htab *cp_htab_new(uint32_t slots, uint32_t probe, uint32_t cap)
{
	struct cp_htab *t = calloc(1, sizeof(*t) + slots * sizeof(t->s[0]));

	if (!t)
		return NULL;
	t->mask = slots - 1;
	t->probe = probe;
	t->cap = cap;
	return t;
}

void cp_htab_free(struct cp_htab *t)
{
	struct cp_htab *old;

	for (; t; t = old) {
		old = t->old;
		free(t);
	}
}

uint32_t cp_htab_claim_capped(struct cp_htab *t, uintptr_t k)
{
	uint32_t i = cp_htab_home(t, k);

	for (uint32_t n = t->probe; n; n--, i = (i + 1) & t->mask) {
		uintptr_t s = atomic_load_explicit(&t->s[i].key,
						   memory_order_relaxed);

		/* a lookup stops at an empty slot: never claim past one */
		if (s == CP_HKEY_EMPTY && atomic_load(&t->used) >= t->cap)
			return CP_HTAB_NONE;
		if ((s != CP_HKEY_EMPTY && s != CP_HKEY_GONE) ||
		    !atomic_compare_exchange_strong(&t->s[i].key, &s,
						    CP_HKEY_BUSY))
			continue;
		if (s == CP_HKEY_EMPTY)
			atomic_fetch_add(&t->used, 1);
		else
			atomic_fetch_sub(&t->gone, 1);
		return i;
	}
	return CP_HTAB_NONE;
}

struct cp_htab *cp_htab_rebuild(struct cp_htab *t)
{
	struct cp_htab *nt = cp_htab_new(t->mask + 1, t->probe, t->cap);
	uint32_t j;
	uintptr_t k;

	if (!nt)
		return NULL;
	/* a key the new generation has no room for is left out: its next
	 * lookup misses, and the owner inserts it again */
	for (uint32_t i = 0; i <= t->mask; i++) {
		k = atomic_load_explicit(&t->s[i].key, memory_order_relaxed);
		if (!cp_htab_key_ok(k))
			continue;
		j = nt->cap ? cp_htab_claim_capped(nt, k) :
			      cp_htab_claim(nt, k);
		if (j != CP_HTAB_NONE)
			cp_htab_publish(nt, j, k, cp_htab_val(t, i));
	}
	nt->old = t;
	return nt;
}

int cp_hgen_push(struct cp_htab **tp, uintptr_t k, struct cp_hgen *g)
{
	struct cp_htab *t = *tp;
	uint32_t i = cp_htab_find(t, k);

	atomic_store_explicit(&g->newer, NULL, memory_order_relaxed);
	if (i != CP_HTAB_NONE) {
		g->older = (struct cp_hgen *)(uintptr_t)cp_htab_val(t, i);
		if (g->older)
			atomic_store_explicit(&g->older->newer, g,
					      memory_order_release);
		atomic_store_explicit(&t->s[i].val, (uintptr_t)g,
				      memory_order_release);
		return 0;
	}
	g->older = NULL;
	if (!t->cap) {
		i = cp_htab_claim(t, k);
	} else {
		i = cp_htab_claim_capped(t, k);
		if (i == CP_HTAB_NONE && atomic_load(&t->gone) >=
					 (t->mask + 1) / 8) {
			struct cp_htab *nt = cp_htab_rebuild(t);

			if (!nt)
				return -ENOSPC;
			*tp = t = nt;
			i = cp_htab_claim_capped(t, k);
		}
	}
	if (i == CP_HTAB_NONE)
		return -ENOSPC;
	cp_htab_publish(t, i, k, (uintptr_t)g);
	return 0;
}

bool cp_hgen_cut(struct cp_htab *t, uintptr_t k, struct cp_hgen *g)
{
	struct cp_hgen *nw = atomic_load(&g->newer);
	uint32_t i;

	if (g->older)
		atomic_store(&g->older->newer, nw);
	if (nw) {
		nw->older = g->older;
		return true;
	}
	i = cp_htab_find(t, k);		/* g is the newest */
	if (i == CP_HTAB_NONE ||
	    (struct cp_hgen *)(uintptr_t)cp_htab_val(t, i) != g)
		return false;
	if (g->older)
		atomic_store_explicit(&t->s[i].val, (uintptr_t)g->older,
				      memory_order_release);
	else
		cp_htab_remove(t, i);
	return true;
}

static uint32_t cur_of(uintptr_t k)
{
	return (uint32_t)(((uint64_t)k * UINT64_C(0x9e3779b97f4a7c15)) >> 40) &
	       (CP_HGEN_CURSORS - 1);
}

struct cp_hgen *cp_hgen_at_cur(struct cp_htab *t, struct cp_hgen_cursor *c,
			       uintptr_t k, uint64_t tick)
{
	uint32_t i = cur_of(k);
	struct cp_hgen *g = c->k[i] == k ? c->g[i] : NULL;

	if (!g) {
		g = cp_hgen_at(t, k, tick);
	} else {
		while (g->born > tick && g->older)
			g = g->older;
		if (g->born > tick)
			g = NULL;
		for (struct cp_hgen *n; g && (n = atomic_load_explicit(
			     &g->newer, memory_order_acquire)) &&
		     n->born <= tick;)
			g = n;
	}
	c->k[i] = k;
	c->g[i] = g;
	return g;
}

void cp_hgen_uncur(struct cp_hgen_cursor *c, uintptr_t k,
		   const struct cp_hgen *g)
{
	uint32_t i = cur_of(k);

	if (c->k[i] == k && c->g[i] == g)
		c->k[i] = 0;
}
