/*
 * cp_tau.h - the concurrency of a point-to-point message as its own
 * thread sees it, for tau-Lop (tau || T(m)): how many messages of the
 * calling thread were in flight with it, itself included.  A blocking
 * send or receive meets the nonblocking ones still pending (a halo
 * exchange's Irecv, then its Send: 2); a Sendrecv's halves are two; a
 * nonblocking message adds the ones started while it was pending.
 * The flusher counts, per ring (one per application thread), as it
 * reads the records in the order the thread made them: no atomics, no
 * hot path.  A request completed on another thread than its post
 * leaves the poster's count one high (tau is then overestimated on
 * that thread); a row the ring had no room for is not counted (tau 0).
 *
 * The same pass gives a message its quiet gap: the time its thread spent
 * outside MPI before it, from the last exit of a call that was not a
 * nonblocking post (a post moves no data: the Irecv, Send, Wait of a
 * halo exchange after a computation all get the computation's time).
 * The two halves of a Sendrecv, one call, get the same gap.
 */
#ifndef CP_TAU_H
#define CP_TAU_H

#include <stdint.h>

#include "src/lib/cp_event.h"
#include "src/lib/cp_ring.h"	/* struct cp_tau */

static inline uint16_t cp_tau_clamp(uint32_t t)
{
	return t > UINT16_MAX ? UINT16_MAX : (uint16_t)t;
}

/* ev's quiet gap: ticks from the last exit before its entry. */
static inline void cp_tau_quiet(const struct cp_tau *t, struct cp_event *ev)
{
	uint64_t l = ev->t0 >= t->left ? t->left : t->left_before;

	ev->quiet = l && ev->t0 >= l ? ev->t0 - l : CP_QUIET_NONE;
}

/* A call of the thread that was not a post, entered at t0 and left at
 * t1: the thread is in MPI until t1. */
static inline void cp_tau_left(struct cp_tau *t, uint64_t t0, uint64_t t1)
{
	if (t0 >= t->left) {
		t->left_before = t->left;
		t->left = t1;
	} else if (t1 > t->left) {
		t->left = t1;	/* a call inside the last (a Sendrecv's
				 * second half) */
	}
}

/* A blocking message of the thread counted by t; extra: 1 for a half of
 * a Sendrecv, else 0. */
static inline void cp_tau_blocking(struct cp_tau *t, struct cp_event *ev,
				   int extra)
{
	ev->tau = cp_tau_clamp(1 + t->pending + (uint32_t)extra);
	cp_tau_quiet(t, ev);
	t->started++;
}

/* A nonblocking message posted (or a persistent one started). */
static inline void cp_tau_post(struct cp_tau *t, struct cp_event *ev)
{
	cp_tau_quiet(t, ev);
	ev->tau = cp_tau_clamp(1 + t->pending);
	ev->tau_mark = t->started++;
	t->pending++;
}

/* The nonblocking message of ev completed (or was freed active): what
 * started while it was pending counts with it.  No-op for rows that are
 * not such messages (tau 0). */
static inline void cp_tau_done(struct cp_tau *t, struct cp_event *ev)
{
	if (!ev->tau)
		return;
	if (t->pending)
		t->pending--;
	ev->tau = cp_tau_clamp(ev->tau + (t->started - ev->tau_mark - 1));
}

#endif
