/*
 * cp_derive.h - from a raw record (src/lib/cp_raw.h) to the call it
 * describes (struct cp_event, src/lib/cp_derive.c): the datatype's layout
 * and bytes, the communicator's id, size and world ranks, the received
 * bytes from the saved status words.  Handles are read as they were when
 * the call was made (the record's t0): a datatype or communicator freed
 * and its handle reused since decodes as the old one.
 *
 * The flusher derives every record; a wrapper whose ring was full derives
 * its own in the spill path (src/lib/cp_ring.c).  No MPI call, no lock,
 * no allocation.
 */
#ifndef CP_DERIVE_H
#define CP_DERIVE_H

#include <stdint.h>

#include "src/lib/cp_event.h"
#include "src/lib/cp_raw.h"

struct cp_comm_info;

/*
 * cp_derive - the call of a SEND, RECV, PROBE, COLL record, or the posted
 * call of an ISEND, IRECV, PSEND, PRECV or ICOLL record (its time is the
 * post's until the request completes: src/lib/cp_req.h), or the
 * completion call's own row of a DONE record (count 0), or the one-sided
 * or file call of an XFER record (no layout; a window's target as a
 * world rank).  *ci: out, the
 * communicator (never NULL; unknown has size -1); *type_bytes: out, the
 * size of one element (0 when there is none).  Cannot fail.
 */
void cp_derive(const struct cp_raw *s, struct cp_event *ev,
	       const struct cp_comm_info **ci, uint64_t *type_bytes);

/* cp_derive_now - cp_derive() of a record the ring had no room for, on
 * the thread that made the call: handles as they are now.  The same
 * outputs. */
void cp_derive_now(const struct cp_raw *s, struct cp_event *ev,
		   const struct cp_comm_info **ci, uint64_t *type_bytes);

/* True when records of kind k (enum cp_rkind) describe a call of their
 * own through cp_derive(): every kind but PAD, START, ITEM, FREE and
 * RETIRE (an XFER record of MPI_Pcontrol is a row of its own too). */
static inline int cp_derive_has_row(unsigned k)
{
	return k == CP_RK_SEND || k == CP_RK_RECV || k == CP_RK_ISEND ||
	       k == CP_RK_IRECV || k == CP_RK_PSEND || k == CP_RK_PRECV ||
	       k == CP_RK_PROBE || k == CP_RK_COLL || k == CP_RK_ICOLL ||
	       k == CP_RK_DONE || k == CP_RK_XFER;
}

#endif
