/*
 * cp_derive.c - from a raw record to the call it describes (contract in
 * src/lib/cp_derive.h).  Table lookups and arithmetic only.
 */
#include "config.h"

#include <stdbool.h>

#include "src/common/cp_row.h"
#include "src/lib/cp_comm.h"
#include "src/lib/cp_derive.h"
#include "src/lib/cp_layout.h"

/* Handles as of a tick, or (UINT64_MAX) as they are now. */
#define NOW UINT64_MAX

static const struct cp_comm_info *comm_of(MPI_Comm c, uint64_t tick)
{
	return tick == NOW ? cp_comm_get(c) : cp_comm_at(c, tick);
}

static uint32_t layout_of(MPI_Datatype t, uint64_t tick, uint64_t *size)
{
	if (tick != NOW)
		return cp_layout_at(t, tick, size);
	*size = 0;
	return cp_layout_get(t, size);
}

/* The kinds whose CP_RF_LARGE bit means a large-count binding (the
 * bit means something else in the others). */
static bool large_kind(unsigned kind)
{
	switch (kind) {
	case CP_RK_SEND: case CP_RK_RECV: case CP_RK_ISEND: case CP_RK_IRECV:
	case CP_RK_PSEND: case CP_RK_PRECV: case CP_RK_COLL: case CP_RK_ICOLL:
		return true;
	default:
		return false;
	}
}

static void base(struct cp_event *ev, const struct cp_raw *s,
		 const struct cp_comm_info *ci)
{
	unsigned fl = CP_W0_FL(s->w0);

	ev->t0 = s->t0;
	ev->dur = s->t1 - s->t0;
	ev->incall = 0;
	ev->site = CP_W0_SITE(s->w0);
	ev->peer = CP_PEER_NONE;
	ev->root = CP_PEER_NONE;
	ev->tag = CP_TAG_NONE;
	ev->comm_size = ci->size;
	ev->comm = ci->id;
	ev->layout = CP_LAYOUT_NONE;
	ev->bytes = 0;
	ev->count = 0;
	ev->call = (uint16_t)CP_W0_CALL(s->w0);
	ev->flags = (uint16_t)((fl & CP_RF_FORTRAN ? CP_F_FORTRAN : 0) |
			       (fl & CP_RF_HALF ? CP_F_HALF : 0) |
			       (ci->inter ? CP_F_INTER : 0));
	if ((fl & CP_RF_LARGE) && large_kind(CP_W0_KIND(s->w0)))
		ev->flags |= CP_F_LARGE;
	ev->pred_flags = 0;
	ev->tau = 0;		/* the flusher counts messages (cp_tau.h) */
	ev->tau_mark = 0;
	ev->quiet = CP_QUIET_NONE;
	ev->vec = 0;
	ev->alg = 0;
}

static void peer_of(struct cp_event *ev, const struct cp_comm_info *ci,
		    int peer)
{
	ev->peer = cp_world_rank(ci, peer);
	if (peer == MPI_PROC_NULL)
		ev->flags |= CP_F_PROCNULL;
}

/* count elements of type: layout, bytes, CP_F_ZERO for a zero count */
static uint64_t typed(struct cp_event *ev, MPI_Datatype type, int64_t count,
		      uint64_t tick)
{
	uint64_t size = 0;

	ev->count = count > 0 ? (uint64_t)count : 0;
	ev->layout = cp_layout_n(layout_of(type, tick, &size), ev->count);
	ev->bytes = ev->count * size;
	if (count == 0)
		ev->flags |= CP_F_ZERO;
	return size;
}

static uint64_t post(struct cp_event *ev, const struct cp_raw *s,
		     const struct cp_comm_info *ci, uint64_t tick,
		     unsigned kind)
{
	int64_t count = s->u.p.count;
	uint64_t size;

	if (CP_W0_FL(s->w0) & CP_RF_LARGE)
		count = cp_raw_count64(s->u.p.count, s->u.p.count_hi);
	size = typed(ev, s->u.p.type, count, tick);
	peer_of(ev, ci, s->u.p.peer);
	ev->tag = s->u.p.tag;
	if (kind == CP_RK_IRECV || kind == CP_RK_PRECV) {
		ev->flags |= CP_F_RECV;
		if (s->u.p.peer == MPI_ANY_SOURCE)
			ev->flags |= CP_F_ANYSRC;
		if (s->u.p.tag == MPI_ANY_TAG)
			ev->flags |= CP_F_ANYTAG;
	}
	if (kind == CP_RK_ISEND || kind == CP_RK_IRECV)
		ev->flags |= CP_F_NONBLOCK;
	else if (kind == CP_RK_PSEND || kind == CP_RK_PRECV)
		ev->flags |= CP_F_PERSIST;
	return size;
}

/* A blocking receive: posted type, the rest from its status. */
static uint64_t recv(struct cp_event *ev, const struct cp_raw *s,
		     const struct cp_comm_info *ci, uint64_t tick)
{
	unsigned fl = CP_W0_FL(s->w0);
	uint64_t size = 0;

	ev->layout = layout_of(s->u.r.type, tick, &size);
	ev->flags |= CP_F_RECV | (fl & CP_RF_ANYSRC ? CP_F_ANYSRC : 0) |
		     (fl & CP_RF_ANYTAG ? CP_F_ANYTAG : 0);
	cp_event_status(ev, ci, &s->u.r.st, size);
	/* the layout of the elements received */
	ev->layout = cp_layout_n(ev->layout, ev->count);
	return size;
}

static void probe(struct cp_event *ev, const struct cp_raw *s,
		  const struct cp_comm_info *ci)
{
	peer_of(ev, ci, s->u.pr.src);
	ev->tag = s->u.pr.tag;
	if (s->u.pr.src == MPI_ANY_SOURCE)
		ev->flags |= CP_F_ANYSRC;
	if (s->u.pr.tag == MPI_ANY_TAG)
		ev->flags |= CP_F_ANYTAG;
	if (CP_W0_FL(s->w0) & CP_RF_DONE)
		cp_event_status(ev, ci, &s->u.pr.st, 1);
}

static uint64_t coll(struct cp_event *ev, const struct cp_raw *s,
		     const struct cp_comm_info *ci, uint64_t tick)
{
	const struct cp_blk *b = &s->u.c.b;
	uint64_t size = 0;

	ev->flags |= (uint16_t)(b->flags & 0xffff);
	ev->vec = b->flags >> CP_BLK_VEC_SHIFT;
	if (b->flags & CP_BLK_BYTES) {
		ev->count = b->n;	/* no one type: elements unknown */
		ev->bytes = b->n;
		if (!ev->bytes)
			ev->flags |= CP_F_ZERO;
	} else if (b->type != MPI_DATATYPE_NULL) {
		ev->layout = layout_of(b->type, tick, &size);
		ev->count = b->n;
		ev->bytes = b->n * size;
		if (!ev->bytes)
			ev->flags |= CP_F_ZERO;
	}
	if (b->root != CP_PEER_NONE)
		ev->root = cp_world_rank(ci, b->root);
	if (CP_W0_KIND(s->w0) == CP_RK_ICOLL)
		ev->flags |= CP_W0_FL(s->w0) & CP_RF_PCOLL ? CP_F_PERSIST :
			     CP_F_NONBLOCK;
	return size;
}

/* A one-sided or file call: what its origin buffer holds (a read: what
 * its status says arrived), the target as a world rank.  Its layout is
 * left out: no model predicts these rows. */
static void xfer(struct cp_event *ev, const struct cp_raw *s,
		 const struct cp_comm_info *ci, uint64_t tick)
{
	unsigned fl = CP_W0_FL(s->w0);
	uint64_t size = 0;

	if (fl & CP_RF_XTARGET)
		peer_of(ev, ci, s->u.o.target);
	if (s->u.o.large)
		ev->flags |= CP_F_LARGE;
	if (s->u.o.type != MPI_DATATYPE_NULL) {
		int64_t count = s->u.o.large ?
			cp_raw_count64(s->u.o.count, s->u.o.count_hi) :
			s->u.o.count;

		(void)layout_of(s->u.o.type, tick, &size);
		ev->count = count > 0 ? (uint64_t)count : 0;
		ev->bytes = ev->count * size;
		if (!ev->bytes)
			ev->flags |= CP_F_ZERO;
	}
	if (fl & CP_RF_XSTATUS) {
		ev->bytes = s->u.o.st_bytes;
		ev->count = size ? ev->bytes / size : 0;
		ev->flags = (uint16_t)((ev->flags & ~CP_F_ZERO) | CP_F_RECV |
				       (ev->bytes ? 0 : CP_F_ZERO));
	}
}

static void derive(const struct cp_raw *s, struct cp_event *ev,
		   const struct cp_comm_info **cip, uint64_t *type_bytes,
		   uint64_t tick)
{
	static const struct cp_comm_info none = {
		.id = UINT32_MAX, .size = -1, .me = -1,
	};
	unsigned kind = CP_W0_KIND(s->w0);
	const struct cp_comm_info *ci = &none;
	uint64_t size = 0;

	switch (kind) {
	case CP_RK_SEND: case CP_RK_ISEND: case CP_RK_IRECV:
	case CP_RK_PSEND: case CP_RK_PRECV:
		ci = comm_of(s->u.p.comm, tick == NOW ? NOW : s->t0);
		base(ev, s, ci);
		size = post(ev, s, ci, tick == NOW ? NOW : s->t0, kind);
		break;
	case CP_RK_RECV:
		ci = comm_of(s->u.r.comm, tick == NOW ? NOW : s->t0);
		base(ev, s, ci);
		size = recv(ev, s, ci, tick == NOW ? NOW : s->t0);
		break;
	case CP_RK_PROBE:
		ci = comm_of(s->u.pr.comm, tick == NOW ? NOW : s->t0);
		base(ev, s, ci);
		probe(ev, s, ci);
		break;
	case CP_RK_COLL: case CP_RK_ICOLL:
		ci = comm_of(s->u.c.comm, tick == NOW ? NOW : s->t0);
		base(ev, s, ci);
		size = coll(ev, s, ci, tick == NOW ? NOW : s->t0);
		break;
	case CP_RK_XFER:
		if (CP_W0_FL(s->w0) & CP_RF_XWIN)
			ci = cp_win_at((MPI_Win)s->u.o.obj,
				       tick == NOW ? UINT64_MAX : s->t0);
		base(ev, s, ci);
		xfer(ev, s, ci, tick == NOW ? NOW : s->t0);
		break;
	default:	/* DONE: the completion call's own row */
		base(ev, s, ci);
		ev->comm_size = -1;
		break;
	}
	*cip = ci;
	*type_bytes = size;
}

void cp_derive(const struct cp_raw *s, struct cp_event *ev,
	       const struct cp_comm_info **ci, uint64_t *type_bytes)
{
	derive(s, ev, ci, type_bytes, 0);
}

void cp_derive_now(const struct cp_raw *s, struct cp_event *ev,
		   const struct cp_comm_info **ci, uint64_t *type_bytes)
{
	derive(s, ev, ci, type_bytes, NOW);
}

void cp_event_status(struct cp_event *ev, const struct cp_comm_info *ci,
		     const MPI_Status *st, uint64_t type_bytes)
{
	uint64_t n;

	if (st->MPI_SOURCE == MPI_PROC_NULL) {
		ev->bytes = 0;
		ev->count = 0;
		ev->peer = CP_PEER_PROCNULL;
		ev->flags |= CP_F_PROCNULL;
		return;
	}
	if (cp_status_bytes(st, &n)) {
		ev->bytes = n;
		ev->count = type_bytes ? n / type_bytes : 0;
	}
	ev->flags &= (uint16_t)~CP_F_ZERO;
	if (ev->bytes == 0)
		ev->flags |= CP_F_ZERO;
	ev->peer = cp_world_rank(ci, st->MPI_SOURCE);
	ev->tag = st->MPI_TAG;
}
