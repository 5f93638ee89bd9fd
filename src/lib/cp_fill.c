/*
 * cp_fill.c - from what a wrapper saw (struct cp_call) to a recorded event:
 * world ranks, bytes, layout, flags.  Runs on the hot path after the real
 * MPI call returned: table lookups and arithmetic only.
 */
#include "config.h"

#include "src/common/cp_row.h"
#include "src/lib/cp_build.h"
#include "src/lib/cp_comm.h"
#include "src/lib/cp_event.h"
#include "src/lib/cp_flush.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_pred_rt.h"
#include "src/lib/cp_req.h"
#include "src/lib/cp_tau.h"
#include "pmpi/cp_calls_gen.h"

/* 1 for the halves of a Sendrecv, which run at once. */
static inline int sendrecv(const struct cp_call *c)
{
	return c->call == CP_CALL_MPI_Sendrecv ||
	       c->call == CP_CALL_MPI_Sendrecv_replace;
}

static inline void ev_base(struct cp_event *ev, const struct cp_call *c,
			   const struct cp_comm_info *ci)
{
	ev->t0 = c->t0;
	ev->dur = c->t1 - c->t0;
	ev->incall = 0;
	ev->site = c->site;
	ev->peer = CP_PEER_NONE;
	ev->root = CP_PEER_NONE;
	ev->tag = c->tag;
	ev->comm_size = ci->size;
	ev->comm = ci->id;
	ev->call = (uint16_t)c->call;
	ev->flags = (uint16_t)(c->flags | (ci->inter ? CP_F_INTER : 0));
	ev->pred_flags = 0;
	ev->tau = 0;
	ev->tau_mark = 0;
}

static inline void ev_type(struct cp_event *ev, MPI_Datatype t, int count)
{
	uint64_t size = 0;

	ev->layout = cp_layout_get(t, &size);
	ev->count = count > 0 ? (uint64_t)count : 0;
	ev->bytes = ev->count * size;
	if (count == 0)
		ev->flags |= CP_F_ZERO;
}

static inline void ev_peer(struct cp_event *ev, const struct cp_comm_info *ci,
			   int peer)
{
	ev->peer = cp_world_rank(ci, peer);
	if (peer == MPI_PROC_NULL)
		ev->flags |= CP_F_PROCNULL;
}

void cp_rec_send(const struct cp_call *c)
{
	const struct cp_comm_info *ci = cp_comm_get(c->comm);
	struct cp_event ev;

	ev_base(&ev, c, ci);
	ev_type(&ev, c->type, c->count);
	ev_peer(&ev, ci, c->peer);
	cp_tau_blocking(&ev, sendrecv(c));
	cp_pred_maybe(&ev, ci);
	cp_record(&ev);
}

static void recv_event(struct cp_event *ev, const struct cp_call *c,
		       const struct cp_comm_info *ci)
{
	ev_base(ev, c, ci);
	ev_type(ev, c->type, c->count);
	ev_peer(ev, ci, c->peer);
	ev->flags |= CP_F_RECV;
	if (c->peer == MPI_ANY_SOURCE)
		ev->flags |= CP_F_ANYSRC;
	if (c->tag == MPI_ANY_TAG)
		ev->flags |= CP_F_ANYTAG;
}

void cp_rec_recv(const struct cp_call *c, const MPI_Status *st)
{
	const struct cp_comm_info *ci = cp_comm_get(c->comm);
	struct cp_event ev;
	uint64_t size = 0;

	recv_event(&ev, c, ci);
	if (ev.count)
		size = ev.bytes / ev.count;
	else
		(void)cp_layout_get(c->type, &size);
	cp_event_status(&ev, ci, st, size);
	cp_tau_blocking(&ev, sendrecv(c));
	cp_pred_maybe(&ev, ci);
	cp_record(&ev);
}

void cp_rec_probe(const struct cp_call *c, int found, const MPI_Status *st)
{
	const struct cp_comm_info *ci = cp_comm_get(c->comm);
	struct cp_event ev;

	ev_base(&ev, c, ci);
	ev.layout = CP_LAYOUT_NONE;
	ev.count = 0;
	ev.bytes = 0;
	ev_peer(&ev, ci, c->peer);
	if (c->peer == MPI_ANY_SOURCE)
		ev.flags |= CP_F_ANYSRC;
	if (c->tag == MPI_ANY_TAG)
		ev.flags |= CP_F_ANYTAG;
	if (found)
		cp_event_status(&ev, ci, st, 1);
	cp_record(&ev);
}

static void coll_event(struct cp_event *ev, const struct cp_call *c,
		       const struct cp_blk *b, const struct cp_comm_info *ci)
{
	ev_base(ev, c, ci);
	ev->bytes = b->bytes;
	ev->count = b->count;
	ev->layout = b->layout;
	ev->flags |= b->flags;
	if (c->root != CP_PEER_NONE)
		ev->root = cp_world_rank(ci, c->root);
}

void cp_rec_coll(const struct cp_call *c, const struct cp_blk *b)
{
	const struct cp_comm_info *ci = cp_comm_get(c->comm);
	struct cp_event ev;

	coll_event(&ev, c, b, ci);
	cp_pred_maybe(&ev, ci);
	cp_record(&ev);
}

void cp_post_send(const struct cp_call *c, MPI_Request req, int persist)
{
	const struct cp_comm_info *ci = cp_comm_get(c->comm);
	struct cp_event ev;

	ev_base(&ev, c, ci);
	ev_type(&ev, c->type, c->count);
	ev_peer(&ev, ci, c->peer);
	ev.flags |= persist ? CP_F_PERSIST : CP_F_NONBLOCK;
	if (!persist)
		cp_tau_post(&ev);
	cp_req_track(req, &ev, persist, ci);
}

void cp_post_recv(const struct cp_call *c, MPI_Request req, int persist)
{
	const struct cp_comm_info *ci = cp_comm_get(c->comm);
	struct cp_event ev;

	recv_event(&ev, c, ci);
	ev.flags |= persist ? CP_F_PERSIST : CP_F_NONBLOCK;
	if (!persist)
		cp_tau_post(&ev);
	cp_req_track(req, &ev, persist, ci);
}

void cp_post_coll(const struct cp_call *c, const struct cp_blk *b,
		  MPI_Request req)
{
	const struct cp_comm_info *ci = cp_comm_get(c->comm);
	struct cp_event ev;

	coll_event(&ev, c, b, ci);
	ev.flags |= CP_F_NONBLOCK;
	cp_req_track(req, &ev, 0, ci);
}
