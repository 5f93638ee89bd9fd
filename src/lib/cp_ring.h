/*
 * cp_ring.h - the per-thread ring that raw records of MPI calls
 * (src/lib/cp_raw.h) are written into (src/lib/cp_ring.c): what the
 * generated wrappers store on the hot path, and what the flusher
 * (src/lib/cp_flush.h) reads.
 *
 * A wrapper claims a slot of its thread's ring before the real call and
 * writes the raw facts in place while they are still in registers: the
 * call id, the handles as passed, count, peer, tag, the return address,
 * the two tick reads and, for a receive, the status words.  Nothing is
 * looked up or derived there: layouts and bytes, communicator ids and
 * world ranks, the pairing of a request's post and completion, and the
 * predictions are the flusher's work (src/lib/cp_derive.h,
 * src/lib/cp_req.h).  A call that finds its ring full is written into the
 * ring's spill slots instead and counted there, by callsite and peer
 * (cp_ring_full(): out of line, after the call), so the aggregates stay
 * complete.
 *
 * One producer per ring (its thread) and one consumer (the flusher): the
 * producer publishes records by a release store of head, the flusher
 * gives slots back by a release store of tail.
 */
#ifndef CP_RING_H
#define CP_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>

#include "pmpi/cp_calls_gen.h"
#include "src/lib/cp_compiler.h"
#include "src/lib/cp_raw.h"
#include "src/lib/cp_state.h"

/* A wrapper's record the ring had no room for: counted by callsite and
 * peer in its thread's spill table (struct cp_sagg), out of line. */
#define CP_SPILL_AGGS	512	/* spill table entries, a power of two */
#define CP_SPILL_SLOTS	2	/* the most slots one wrapper claims */

struct cp_sagg {
	_Atomic uint64_t used;	/* 1 once the key below is published */
	uint64_t site;		/* key: callsite, op, world peer, size class,
				 * layout (as struct cp_db_agg) */
	int32_t op, peer, size_class, layout;
	_Atomic uint64_t count, bytes, ticks, min_ticks, max_ticks;
	uint64_t f_count, f_bytes, f_ticks;	/* the flusher's: folded */
};

/* One thread's messages as the flusher has read them so far
 * (src/lib/cp_tau.h). */
struct cp_tau {
	uint32_t started;	/* messages started */
	uint32_t pending;	/* nonblocking ones not completed */
	uint64_t left;		/* ticks: the last exit of a call that was
				 * not a post; 0 none yet */
	uint64_t left_before;	/* the one before it */
};

struct cp_ring {
	/* first, so that cp_commit() tells them by the ring's address */
	struct cp_raw spill[CP_SPILL_SLOTS];
	/* the producer's line */
	_Atomic uint64_t head;	/* slots published */
	uint64_t room;		/* head may reach it without reading tail */
	uint64_t mask;		/* slots - 1 */
	uint8_t nested;		/* inside a wrapped call: record nothing */
	int32_t thread;		/* per-rank thread index, 0 first */
	struct cp_ring *next;	/* every ring, newest first */
	/* the flusher's line */
	_Atomic uint64_t tail __attribute__((aligned(64)));
	uint64_t f_win;		/* flusher: records read in the current rate
				 * window (cp_flush.c, drain_all) */
	uint64_t f_items;	/* flusher: completions read since the last
				 * completion call's record */
	struct cp_tau f_tau;	/* flusher: the thread's messages */
	/* written by the producer when its ring was full */
	_Atomic uint64_t spilled;	/* rows spilled (dropped) */
	struct cp_sagg sagg[CP_SPILL_AGGS];
	/* spill table full: calls, bytes and ticks by op (CP_CALL_*) */
	_Atomic uint64_t lost_n[CP_CALL_COUNT], lost_bytes[CP_CALL_COUNT];
	_Atomic uint64_t lost_ticks[CP_CALL_COUNT];
	uint64_t f_lost[CP_CALL_COUNT][3];	/* the flusher's: folded */
	struct cp_raw slot[];	/* mask + 1 slots */
};

/* This thread's ring, NULL before its first recorded call. */
extern __thread struct cp_ring *cp_my_ring
	__attribute__((tls_model("initial-exec")));

/* Make the calling thread's ring (COMMPROF_RING slots, every page
 * touched now); NULL when out of memory.  Never waits. */
struct cp_ring *cp_ring_attach(void);
/* The ring to record this call in, out of line: NULL when not recording
 * (before MPI_Init, after MPI_Finalize or a warning, inside a wrapped
 * call); a thread's first call attaches its ring.  Never waits. */
struct cp_ring *cp_ring_slow(void);
/* Cold half of cp_commit(): the call's records went to the spill slots
 * because the ring looked full; if the flusher made room since, they go
 * into the ring, else they are counted by callsite and peer in the
 * thread's spill table and as dropped rows.  done: completion records,
 * which may use the slots kept back for them.  Returns rc. */
int cp_ring_full(struct cp_ring *r, unsigned n, bool done, int rc);

/* True when this call is recorded on the fast path: r exists, is not
 * inside a wrapped call, and recording runs on the TSC (cp_fast). */
static inline bool cp_ring_fast(const struct cp_ring *r)
{
	return cp_likely(r != NULL) && !r->nested &&
	       __atomic_load_n(&cp_fast, __ATOMIC_RELAXED);
}

/* head += n, after the records (release).  One writer: on x86, whose
 * stores stay in order, a plain add is the release store, and one
 * instruction. */
static inline void cp_head_add(struct cp_ring *r, unsigned n)
{
#if defined(__x86_64__)
	__asm__ __volatile__("addq %1, %0" : "+m"(r->head)
			     : "ri"((uint64_t)n) : "memory");
#else
	atomic_store_explicit(&r->head, atomic_load_explicit(
		&r->head, memory_order_relaxed) + n, memory_order_release);
#endif
}

/* The ring to record this call in, or NULL (see cp_ring_slow()). */
static inline struct cp_ring *cp_ring_on(void)
{
	struct cp_ring *r = cp_my_ring;

	return cp_ring_fast(r) ? r : cp_ring_slow();
}

/* n consecutive slots (n <= CP_SPILL_SLOTS) for this call's records: in
 * the ring, or the spill slots when it looks full or the n slots would
 * wrap (cp_commit() sorts that out after the call).  Never NULL, never
 * a call. */
static inline struct cp_raw *cp_claim(struct cp_ring *r, unsigned n)
{
	uint64_t h = atomic_load_explicit(&r->head, memory_order_relaxed);

	if (cp_likely(h + n - 1 < r->room &&
		      (n == 1 || (h & r->mask) + n <= r->mask + 1)))
		return &r->slot[h & r->mask];
	return r->spill;
}

/* The records s[0..n-1] of cp_claim() are complete: published when ok
 * (the call succeeded).  done: completion records.  Returns rc. */
static inline int cp_commit(struct cp_ring *r, struct cp_raw *s, unsigned n,
			    bool done, bool ok, int rc)
{
	if (cp_likely((void *)s != (void *)r)) {
		if (cp_likely(ok))
			cp_head_add(r, n);
		return rc;
	}
	return ok ? cp_ring_full(r, n, done, rc) : rc;
}

/* Every ring, newest first (the flusher's walk). */
struct cp_ring *cp_ring_list(void);
/* Threads that made recorded calls so far. */
int cp_ring_threads(void);
/* Rows that found their ring full, over every ring. */
uint64_t cp_ring_dropped(void);

#endif
