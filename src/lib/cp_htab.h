/*
 * cp_htab.h - a lock-free table from MPI handle values to 64-bit values
 * (src/lib/cp_htab.c): the communicator cache, the request table and the
 * layout cache each keep their handles in one.
 *
 * Open addressing with linear probing from a multiplicative hash of the
 * handle.  Readers never lock: a writer stores a slot's value, then
 * publishes its key with a release store; a reader loads the key with
 * acquire, then the value.  A writer claims a slot by compare-and-swap,
 * so writers may insert concurrently; one that must insert a key only if
 * it is absent serialises itself (find, then claim, under its own lock).
 * A removed key leaves a tombstone that inserts reuse.  A key sits at
 * most probe - 1 slots past its home slot, so a lookup looks at no more
 * than probe slots however full the table is.
 *
 * A table with a cap counts its non-empty slots and its tombstones, and
 * stops claiming empty slots at the cap, so that every lookup of an
 * absent key still ends on an empty slot; when tombstones take the room,
 * cp_htab_rebuild() makes a fresh generation of the table.  A table
 * without a cap counts nothing.
 *
 * Handle generations (struct cp_hgen): MPI reuses the value of a freed
 * handle, and a record made before the free may be decoded after the
 * reuse.  So a key's value is the newest of a list of what the handle
 * meant, each from the tick it was made (born); a lookup at tick t takes
 * the newest generation born at or before t.  Lists are pushed by the
 * application's threads when a handle is made (datatype commit,
 * communicator creation) and cut by the flusher some time after the
 * handle's retire record; both under the owner's lock.
 */
#ifndef CP_HTAB_H
#define CP_HTAB_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Key values that no handle takes. */
#define CP_HKEY_EMPTY	((uintptr_t)0)	/* never used since the table began */
#define CP_HKEY_GONE	((uintptr_t)1)	/* tombstone: a key was removed */
#define CP_HKEY_BUSY	((uintptr_t)2)	/* claimed or taken by a writer */

struct cp_hslot {
	_Atomic uintptr_t key;	/* handle value or CP_HKEY_* */
	_Atomic uint64_t val;	/* the owner's value, valid while key is */
};

struct cp_htab {
	struct cp_htab *old;	/* generation retired by cp_htab_rebuild() */
	uint32_t mask;		/* slots - 1; slots is a power of two */
	uint32_t probe;		/* slots a lookup looks at, at most */
	uint32_t cap;		/* non-empty slots allowed; 0: no limit */
	_Atomic uint32_t used;	/* non-empty slots (counted with a cap) */
	_Atomic uint32_t gone;	/* tombstones (counted with a cap) */
	struct cp_hslot s[];	/* mask + 1 slots */
};

/*
 * cp_htab_new - an empty table of slots slots (a power of two); a key
 * lies at most probe - 1 slots past its home (1 <= probe <= slots); cap:
 * the most non-empty slots, 0 for no limit (below slots, so that
 * lookups end).  Returns the table, or NULL when out of memory.
 */
struct cp_htab *cp_htab_new(uint32_t slots, uint32_t probe, uint32_t cap);

/*
 * cp_htab_free - free t and every generation it retired.  No other call
 * on them may run concurrently or later.  t may be NULL.
 */
void cp_htab_free(struct cp_htab *t);

/*
 * cp_htab_rebuild - a new generation of t holding t's keys and values
 * without its tombstones; t is linked to it (->old) and freed with it.
 * The caller serialises writers, then publishes the new table (release);
 * readers still in t stay valid.  NULL when out of memory (t unchanged).
 */
struct cp_htab *cp_htab_rebuild(struct cp_htab *t);

/* True when handle value k can be a key (not one of CP_HKEY_*). */
static inline bool cp_htab_key_ok(uintptr_t k)
{
	return k > CP_HKEY_BUSY;
}

static inline uint32_t cp_htab_home(const struct cp_htab *t, uintptr_t k)
{
	return (uint32_t)(((uint64_t)k * UINT64_C(0x9e3779b97f4a7c15)) >> 40) &
	       t->mask;
}

/* Slot indices from here on are below t->mask + 1, or CP_HTAB_NONE. */
#define CP_HTAB_NONE UINT32_MAX

/*
 * cp_htab_find - the index of the slot holding key k, or CP_HTAB_NONE.
 * Lock-free (acquire: the slot's value is the one published with k).
 * Cannot fail.
 */
static inline uint32_t cp_htab_find(struct cp_htab *t, uintptr_t k)
{
	uint32_t i = cp_htab_home(t, k);
	uintptr_t s = atomic_load_explicit(&t->s[i].key, memory_order_acquire);

	/* the home slot apart: a hit there reads nothing more of t */
	for (uint32_t n = t->probe; s != k; ) {
		if (s == CP_HKEY_EMPTY || !--n)
			return CP_HTAB_NONE;
		i = (i + 1) & t->mask;
		s = atomic_load_explicit(&t->s[i].key, memory_order_acquire);
	}
	return i;
}

/*
 * cp_htab_claim - claim a slot for key k in t, a table without a cap: the
 * first tombstone or empty slot from k's home, now CP_HKEY_BUSY and the
 * caller's until it publishes k there.  Returns its index, or
 * CP_HTAB_NONE when none is left within probe slots.  Does not look for
 * k: a caller that must not insert it twice finds it first, under its
 * own lock.  Lock-free.
 */
static inline uint32_t cp_htab_claim(struct cp_htab *t, uintptr_t k)
{
	uint32_t i = cp_htab_home(t, k), n = t->probe;

	do {	/* probe >= 1 */
		uintptr_t s = atomic_load_explicit(&t->s[i].key,
						   memory_order_relaxed);

		if ((s == CP_HKEY_EMPTY || s == CP_HKEY_GONE) &&
		    atomic_compare_exchange_strong(&t->s[i].key, &s,
						   CP_HKEY_BUSY))
			return i;
		i = (i + 1) & t->mask;
	} while (--n);
	return CP_HTAB_NONE;
}

/*
 * cp_htab_claim_capped - cp_htab_claim() for a table with a cap, whose
 * writers the caller serialises: also CP_HTAB_NONE when the first free
 * slot is empty and the table is at its cap.  Keeps the counts.
 */
uint32_t cp_htab_claim_capped(struct cp_htab *t, uintptr_t k);

/* cp_htab_val - the value of slot i, valid while it holds the key the
 * caller found there. */
static inline uint64_t cp_htab_val(struct cp_htab *t, uint32_t i)
{
	return atomic_load_explicit(&t->s[i].val, memory_order_relaxed);
}

/* cp_htab_publish - give slot i, claimed, the value val, then the key k,
 * which makes both visible to readers. */
static inline void cp_htab_publish(struct cp_htab *t, uint32_t i,
				   uintptr_t k, uint64_t val)
{
	atomic_store_explicit(&t->s[i].val, val, memory_order_relaxed);
	atomic_store_explicit(&t->s[i].key, k, memory_order_release);
}

/* cp_htab_put_key - slot i, claimed or taken, holds key k (again) with
 * the value it has: for an owner that keeps its values elsewhere. */
static inline void cp_htab_put_key(struct cp_htab *t, uint32_t i,
				   uintptr_t k)
{
	atomic_store_explicit(&t->s[i].key, k, memory_order_release);
}

/* cp_htab_take - take slot i, found holding key k, for this writer alone
 * (CP_HKEY_BUSY); false when another writer took or removed it first. */
static inline bool cp_htab_take(struct cp_htab *t, uint32_t i, uintptr_t k)
{
	return atomic_compare_exchange_strong(&t->s[i].key, &k,
					      CP_HKEY_BUSY);
}

/* cp_htab_remove - leave a tombstone in slot i, which the caller found,
 * took or claimed (and keeps from other writers). */
static inline void cp_htab_remove(struct cp_htab *t, uint32_t i)
{
	atomic_store_explicit(&t->s[i].key, CP_HKEY_GONE,
			      memory_order_release);
	if (t->cap)
		atomic_fetch_add_explicit(&t->gone, 1, memory_order_relaxed);
}

/* What a handle meant from tick born on. */
struct cp_hgen {
	uint64_t born;		/* ticks (cp_ticks()) */
	uint64_t val;		/* the owner's value */
	struct cp_hgen *older;	/* what it meant before, or NULL */
	/* what it meant after: written under the lock (release), read by
	 * the flusher (acquire) */
	_Atomic(struct cp_hgen *) newer;
	_Atomic int freed;	/* the application freed it (its wrapper) */
	uint64_t retired;	/* the flusher's: drain of its last retire
				 * record, 0 none */
};

/* The newest generation of key k, NULL when k is absent.  Lock-free
 * (acquire: the generation's fields are those published with it). */
static inline struct cp_hgen *cp_hgen_now(struct cp_htab *t, uintptr_t k)
{
	uint32_t i = cp_htab_find(t, k);

	if (i == CP_HTAB_NONE)
		return NULL;
	return (struct cp_hgen *)(uintptr_t)atomic_load_explicit(
		&t->s[i].val, memory_order_acquire);
}

/* The generation of key k at tick t: the newest born at or before t;
 * NULL when there is none.  Lock-free for the flusher, which alone cuts
 * lists (cp_hgen_cut). */
static inline struct cp_hgen *cp_hgen_at(struct cp_htab *t, uintptr_t k,
					 uint64_t tick)
{
	struct cp_hgen *g = cp_hgen_now(t, k);

	while (g && g->born > tick)
		g = g->older;
	return g;
}

/*
 * The flusher's cursor into the lists: the generation each handle was
 * last found at.  It reads a ring's records in time order, so the next
 * lookup of a handle starts there and moves a step or two, however long
 * the list (a loop that makes and frees types of alternating layouts
 * grows one by a generation a call until their grace ends: walking it
 * from its newest end made the flusher fall behind and drop nearly
 * every row).  One owner, no lock.
 */
#define CP_HGEN_CURSORS 1024	/* a power of two */
struct cp_hgen_cursor {
	uintptr_t k[CP_HGEN_CURSORS];
	struct cp_hgen *g[CP_HGEN_CURSORS];
};

/* cp_hgen_at() through cursor c.  Lock-free; the flusher's. */
struct cp_hgen *cp_hgen_at_cur(struct cp_htab *t, struct cp_hgen_cursor *c,
			       uintptr_t k, uint64_t tick);
/* Forget g in c before it is freed (cp_hgen_cut). */
void cp_hgen_uncur(struct cp_hgen_cursor *c, uintptr_t k,
		   const struct cp_hgen *g);

/*
 * cp_hgen_push - make g (its born and val set, older unset) the newest
 * generation of k in *tp: a new key claims a slot (capped tables through
 * cp_htab_claim_capped(), rebuilding *tp when tombstones take the room;
 * the caller then publishes the new *tp).  Under the owner's lock.
 * Returns 0, or -ENOSPC when the table has no room (g not linked).
 */
int cp_hgen_push(struct cp_htab **tp, uintptr_t k, struct cp_hgen *g);

/*
 * cp_hgen_cut - remove generation g, in the list of k in t, from it; a
 * list left empty removes k.  The caller frees g, which no lookup can
 * reach once the flusher, the only one to look up old generations, moved
 * on.  Under the owner's lock; constant time.  Returns true when g was
 * the newest or had a newer one (in a list).
 */
bool cp_hgen_cut(struct cp_htab *t, uintptr_t k, struct cp_hgen *g);

#endif
