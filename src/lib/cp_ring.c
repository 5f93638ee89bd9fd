/*
 * cp_ring.c - per-thread rings of raw records (src/lib/cp_ring.h): a
 * thread's ring made at its first recorded call, the cold half of a
 * claim, and the records of a call that found its ring full, counted
 * where the call was made.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/cp_agg.h"
#include "src/lib/cp_derive.h"
#include "src/lib/cp_ring.h"

_Static_assert(sizeof(struct cp_raw) == 64, "a record is one cache line");
_Static_assert(CP_RK_NKINDS <= 16, "a record kind is 4 bits of CP_W0");

__thread struct cp_ring *cp_my_ring
	__attribute__((tls_model("initial-exec")));
static _Atomic(struct cp_ring *) rings;
static _Atomic int nthreads;
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;

/* Slots kept back for completion records: a request whose completion
 * finds no room stays pending to the end (a wrong "not done" row), while
 * a post that finds none is only counted. */
static uint64_t reserve(const struct cp_ring *r)
{
	return (r->mask + 1) / 16;
}

CP_COLD struct cp_ring *cp_ring_attach(void)
{
	size_t cap = cp_env.ring, len = sizeof(struct cp_ring) +
					 cap * sizeof(struct cp_raw);
	struct cp_ring *r;

	if (posix_memalign((void **)&r, 64, len))
		return NULL;
	/* fault the pages in now, once, not one per 64 calls on the first
	 * pass (measured: about 30 ns a call more until the ring wrapped) */
	memset(r, 0, len);
	r->mask = cap - 1;
	r->room = cap - reserve(r);
	r->thread = atomic_fetch_add(&nthreads, 1);
	pthread_mutex_lock(&ring_lock);
	r->next = atomic_load(&rings);
	atomic_store(&rings, r);
	pthread_mutex_unlock(&ring_lock);
	cp_my_ring = r;
	return r;
}

struct cp_ring *cp_ring_slow(void)
{
	struct cp_ring *r = cp_my_ring;

	if (!atomic_load_explicit(&cp_active, memory_order_relaxed))
		return NULL;
	if (r)
		return r->nested ? NULL : r;
	return cp_ring_attach();
}

/* The n records of the spill slots, counted where the call was made. */
static void spilled(struct cp_ring *r, unsigned n)
{
	const struct cp_comm_info *ci;
	struct cp_event ev;
	uint64_t size;

	for (unsigned i = 0; i < n && i < CP_SPILL_SLOTS; i++) {
		const struct cp_raw *s = &r->spill[i];
		unsigned k = CP_W0_KIND(s->w0);

		if (!cp_derive_has_row(k) || k == CP_RK_PSEND ||
		    k == CP_RK_PRECV)
			continue;
		atomic_store_explicit(&r->spilled, atomic_load_explicit(
			&r->spilled, memory_order_relaxed) + 1,
			memory_order_relaxed);
		if (CP_W0_FL(s->w0) & CP_RF_HALF)	/* a row, not a call */
			continue;
		cp_derive_now(s, &ev, &ci, &size);
		cp_agg_spill(r, &ev);
	}
}

int cp_ring_full(struct cp_ring *r, unsigned n, bool done, int rc)
{
	uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint64_t t = atomic_load_explicit(&r->tail, memory_order_acquire);
	uint64_t cap = r->mask + 1, end = t + cap - (done ? 0 : reserve(r));
	uint64_t pad = 0;

	r->room = t + cap - reserve(r);
	/* n consecutive slots must not wrap: pad to the start */
	if (n > 1 && (h & r->mask) + n > cap)
		pad = cap - (h & r->mask);
	if (h + pad + n > end) {
		spilled(r, n);
		return rc;
	}
	for (uint64_t i = 0; i < pad; i++)
		r->slot[(h + i) & r->mask].w0 = CP_W0(0, 0, CP_RK_PAD, 0);
	memcpy(&r->slot[(h + pad) & r->mask], r->spill, n * sizeof(*r->spill));
	atomic_store_explicit(&r->head, h + pad + n, memory_order_release);
	return rc;
}

struct cp_ring *cp_ring_list(void)
{
	return atomic_load(&rings);
}

int cp_ring_threads(void)
{
	return atomic_load(&nthreads);
}

uint64_t cp_ring_dropped(void)
{
	uint64_t n = 0;

	for (struct cp_ring *r = atomic_load(&rings); r; r = r->next)
		n += atomic_load_explicit(&r->spilled, memory_order_relaxed);
	return n;
}
