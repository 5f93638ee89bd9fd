/*
 * cp_tau.h - the concurrency of a point-to-point message as its own
 * rank sees it, for tau-Lop (tau || T(m)): how many messages of the
 * calling thread were in flight with it, itself included.  A blocking
 * send or receive meets the nonblocking ones still pending (a halo
 * exchange's Irecv, then its Send: 2); a Sendrecv's halves are two; a
 * nonblocking message adds the ones started while it was pending.
 * Counters per thread, no atomics: a request completed on another
 * thread than its post leaves the poster's count one high until it
 * posts no more (tau is then overestimated for that thread).
 */
#ifndef CP_TAU_H
#define CP_TAU_H

#include <stdint.h>

#include "src/lib/cp_event.h"

/* Messages this thread started, and its nonblocking ones pending
 * (defined in src/lib/cp_req.c). */
extern __thread uint32_t cp_xfer_started
	__attribute__((tls_model("initial-exec")));
extern __thread uint32_t cp_xfer_pending
	__attribute__((tls_model("initial-exec")));

static inline uint16_t cp_tau_clamp(uint32_t t)
{
	return t > UINT16_MAX ? UINT16_MAX : (uint16_t)t;
}

/* A blocking message; extra: 1 for a half of a Sendrecv, else 0. */
static inline void cp_tau_blocking(struct cp_event *ev, int extra)
{
	ev->tau = cp_tau_clamp(1 + cp_xfer_pending + (uint32_t)extra);
	cp_xfer_started++;
}

/* A nonblocking message posted (or a persistent one started). */
static inline void cp_tau_post(struct cp_event *ev)
{
	ev->tau = cp_tau_clamp(1 + cp_xfer_pending);
	ev->tau_mark = cp_xfer_started++;
	cp_xfer_pending++;
}

/* The nonblocking message of ev completed (or was dropped): what
 * started while it was pending counts with it.  No-op for events that
 * are not messages (tau 0). */
static inline void cp_tau_done(struct cp_event *ev)
{
	if (!ev->tau)
		return;
	if (cp_xfer_pending)
		cp_xfer_pending--;
	ev->tau = cp_tau_clamp(ev->tau + (cp_xfer_started - ev->tau_mark -
					  1));
}

#endif
