/*
 * cp_req.c - requests matched in the flusher (contract in
 * src/lib/cp_req.h).
 *
 * Each posted request is an instance in a hash table keyed by its handle
 * value, chained per bucket: a handle has one instance at a time, except
 * when a completion on another thread is read late.  Completions that
 * found no instance wait in a short list for one drain.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "src/common/cp_row.h"
#include "src/lib/cp_comm.h"
#include "src/lib/cp_req.h"
#include "src/lib/cp_tau.h"

struct inst {
	struct inst *next;	/* in its bucket */
	uintptr_t req;		/* the handle */
	uint64_t made;		/* ticks: the post, or the persistent
				 * request's making */
	uint64_t type_bytes;	/* one element, for a received count */
	const struct cp_comm_info *ci;
	int persist, active;
	struct cp_event ev;	/* the call; ev.t0: post or last Start */
	struct inst *half;	/* an Isendrecv's receive half (in no
				 * bucket), or NULL */
};

/* A completion read before its post. */
struct orphan {
	uintptr_t req;
	uint64_t t0, t1, cycle;
	MPI_Status st;
	bool has_st;
};

static struct inst **bucket;
static size_t nbucket, ninst;
static struct inst *spare;	/* freed instances, reused */
static struct orphan *orphans;
static size_t norphan, orphan_cap;

static size_t slot_of(uintptr_t req)
{
	return (size_t)(((uint64_t)req * 0x9E3779B97F4A7C15ull) >> 32) &
	       (nbucket - 1);
}

static bool grow(void)
{
	size_t nb = nbucket ? 2 * nbucket : 1024, i;
	struct inst **b = calloc(nb, sizeof(*b)), *x, *nx;
	size_t old = nbucket;
	struct inst **ob = bucket;

	if (!b)
		return false;
	bucket = b;
	nbucket = nb;
	for (i = 0; i < old; i++)
		for (x = ob[i]; x; x = nx) {
			nx = x->next;
			x->next = bucket[slot_of(x->req)];
			bucket[slot_of(x->req)] = x;
		}
	free(ob);
	return true;
}

/* The newest instance of req made at or before tick t; *pp: the link
 * that points to it. */
static struct inst *find(uintptr_t req, uint64_t t, struct inst ***pp)
{
	struct inst **p, *best = NULL, **bestp = NULL;

	if (!nbucket)
		return NULL;
	for (p = &bucket[slot_of(req)]; *p; p = &(*p)->next)
		if ((*p)->req == req && (*p)->made <= t &&
		    (!best || (*p)->made > best->made)) {
			best = *p;
			bestp = p;
		}
	if (pp)
		*pp = bestp;
	return best;
}

static void drop(struct inst **p)
{
	struct inst *x = *p;

	*p = x->next;
	if (x->half) {
		x->half->next = spare;
		spare = x->half;
	}
	x->next = spare;
	spare = x;
	ninst--;
}

static struct inst *new_inst(void)
{
	struct inst *x = spare;

	if (x)
		spare = x->next;
	else
		x = malloc(sizeof(*x));
	return x;
}

/* Instance x's event completed in [t0, t1] with status st, into ev. */
static void complete1(const struct inst *x, const MPI_Status *st,
		      uint64_t t0, uint64_t t1, struct cp_event *ev)
{
	*ev = x->ev;
	ev->dur = t1 - ev->t0;
	ev->incall = t1 - t0;
	if (!st)
		return;
	if (cp_status_cancelled(st))
		ev->flags |= CP_F_CANCELLED;
	/* an Isendrecv's receive half stays as posted: MPICH 4.0 completes
	 * the request with an empty status (source 0, tag 0, no bytes) */
	if ((ev->flags & CP_F_RECV) && !(ev->flags & CP_F_HALF))
		cp_event_status(ev, x->ci, st, x->type_bytes);
}

/* The row of instance x (and of its half) completed in [t0, t1] with
 * status st. */
static void complete(struct inst *x, const MPI_Status *st, uint64_t t0,
		     uint64_t t1, struct cp_req_row *out)
{
	out->ci = x->ci;
	complete1(x, st, t0, t1, &out->ev);
	out->has_half = x->half != NULL;
	if (x->half)
		complete1(x->half, st, t0, t1, &out->half);
}

/* Take the earliest orphan of x's handle read after x was made. */
static int adopt(struct inst *x, struct inst **p, struct cp_req_row *out)
{
	size_t i, best = norphan;

	for (i = 0; i < norphan; i++)
		if (orphans[i].req == x->req && orphans[i].t1 >= x->made &&
		    (best == norphan || orphans[i].t1 < orphans[best].t1))
			best = i;
	if (best == norphan)
		return 0;
	complete(x, orphans[best].has_st ? &orphans[best].st : NULL,
		 orphans[best].t0, orphans[best].t1, out);
	orphans[best] = orphans[--norphan];
	if (x->persist)
		x->active = 0;
	else
		drop(p);
	return 1;
}

int cp_req_post(MPI_Request req, uint64_t made, const struct cp_event *ev,
		const struct cp_comm_info *ci, uint64_t type_bytes,
		int persist, struct cp_req_row *out)
{
	uintptr_t k = (uintptr_t)req;
	struct inst *x;

	if (req == MPI_REQUEST_NULL)
		return 0;
	if ((ninst + 1) * 2 > nbucket && !grow())
		return 0;
	if (!(x = new_inst()))
		return 0;
	*x = (struct inst){ .req = k, .made = made, .type_bytes = type_bytes,
			    .ci = ci, .persist = persist, .active = !persist,
			    .ev = *ev, .half = NULL };
	x->next = bucket[slot_of(k)];
	bucket[slot_of(k)] = x;
	ninst++;
	return !persist && norphan ? adopt(x, &bucket[slot_of(k)], out) : 0;
}

int cp_req_post_half(MPI_Request req, uint64_t made,
		     const struct cp_event *ev, const struct cp_comm_info *ci,
		     uint64_t type_bytes, struct cp_req_row *out)
{
	struct inst *x = find((uintptr_t)req, made, NULL), *h;

	if (!x || x->made != made || x->persist || x->half)
		return cp_req_post(req, made, ev, ci, type_bytes, 0, out);
	if (!(h = new_inst()))
		return 0;
	*h = (struct inst){ .req = x->req, .made = made,
			    .type_bytes = type_bytes, .ci = ci, .active = 1,
			    .ev = *ev };
	x->half = h;
	return 0;
}

void cp_req_start(MPI_Request req, uint64_t t, struct cp_tau *tau)
{
	struct inst *x = find((uintptr_t)req, t, NULL);

	if (!x || !x->persist)
		return;
	x->ev.t0 = t;
	x->active = 1;
	/* each start of a send or receive is a message; a persistent
	 * collective's (no tag) is none */
	if (x->ev.tag != CP_TAG_NONE)
		cp_tau_post(tau, &x->ev);
}

static void orphan(uintptr_t req, const MPI_Status *st, uint64_t t0,
		   uint64_t t1, uint64_t cycle)
{
	struct orphan *o;

	if (norphan == orphan_cap) {
		size_t cap = orphan_cap ? 2 * orphan_cap : 64;

		o = realloc(orphans, cap * sizeof(*o));
		if (!o)
			return;
		orphans = o;
		orphan_cap = cap;
	}
	o = &orphans[norphan++];
	*o = (struct orphan){ .req = req, .t0 = t0, .t1 = t1, .cycle = cycle,
			      .has_st = st != NULL };
	if (st)
		o->st = *st;
}

int cp_req_done(MPI_Request req, const MPI_Status *st, uint64_t t0,
		uint64_t t1, uint64_t cycle, struct cp_req_row *out)
{
	struct inst **p, *x;

	if (req == MPI_REQUEST_NULL)
		return 0;
	x = find((uintptr_t)req, t1, &p);
	if (!x || (!x->persist && !x->active)) {
		orphan((uintptr_t)req, st, t0, t1, cycle);
		return 0;
	}
	if (!x->active)		/* an inactive persistent request */
		return 0;
	complete(x, st, t0, t1, out);
	if (x->persist)
		x->active = 0;
	else
		drop(p);
	return 1;
}

void cp_req_cancel(MPI_Request req, uint64_t t)
{
	struct inst *x = find((uintptr_t)req, t, NULL);

	if (x && x->active) {
		x->ev.flags |= CP_F_CANCELLED;
		if (x->half)
			x->half->ev.flags |= CP_F_CANCELLED;
	}
}

/* The row of active instance x (and its half), never seen completing,
 * ended at t. */
static void notdone(const struct inst *x, uint64_t t, struct cp_req_row *out)
{
	out->ev = x->ev;
	out->ci = x->ci;
	out->ev.dur = t - x->ev.t0;
	out->ev.flags |= CP_F_NOTDONE;
	out->has_half = x->half != NULL;
	if (x->half) {
		out->half = x->half->ev;
		out->half.dur = t - x->half->ev.t0;
		out->half.flags |= CP_F_NOTDONE;
	}
}

int cp_req_free(MPI_Request req, uint64_t t, struct cp_req_row *out)
{
	struct inst **p, *x = find((uintptr_t)req, t, &p);
	int row = 0;

	if (!x)
		return 0;
	if (x->active) {
		notdone(x, t, out);
		row = 1;
	}
	drop(p);
	return row;
}

void cp_req_age(uint64_t cycle)
{
	size_t i = 0;

	while (i < norphan)
		if (orphans[i].cycle < cycle)
			orphans[i] = orphans[--norphan];
		else
			i++;
}

int cp_req_pending(uint64_t now, struct cp_req_row *out)
{
	for (size_t i = 0; i < nbucket; i++) {
		struct inst **p = &bucket[i];

		while (*p) {
			if ((*p)->active) {
				notdone(*p, now, out);
				drop(p);
				return 1;
			}
			drop(p);
		}
	}
	norphan = 0;
	return 0;
}
