/*
 * cp_raw.h - the raw record of one MPI call, as a generated wrapper
 * writes it into its thread's ring (src/lib/cp_ring.h) on the hot path
 * and as the flusher reads it (src/lib/cp_derive.h): the record kinds,
 * their flags, the first word and the 64-byte slot.  Nothing but the
 * format: the writer and the reader both depend on it, not on each
 * other.
 */
#ifndef CP_RAW_H
#define CP_RAW_H

#include <stdint.h>
#include <mpi.h>

/* What a record holds (CP_W0 kind); each record is one slot. */
enum cp_rkind {
	CP_RK_PAD,		/* nothing: a slot skipped */
	CP_RK_SEND,		/* blocking send: u.p */
	CP_RK_RECV,		/* blocking receive: u.r, status in place */
	CP_RK_ISEND,		/* nonblocking send posted: u.p, req */
	CP_RK_IRECV,		/* nonblocking receive posted: u.p, req */
	CP_RK_PSEND,		/* persistent send made (rows at Start) */
	CP_RK_PRECV,		/* persistent receive made */
	CP_RK_PROBE,		/* probe: u.pr; CP_RF_DONE when found */
	CP_RK_COLL,		/* blocking collective: u.c */
	CP_RK_ICOLL,		/* nonblocking collective posted: u.c, req */
	CP_RK_START,		/* a persistent request started: u.q */
	CP_RK_ITEM,		/* a request completed: u.d (the completion
				 * call's row follows as a CP_RK_DONE) */
	CP_RK_DONE,		/* a completion call: u.d; with CP_RF_ITEM it
				 * also completed u.d.req itself */
	CP_RK_FREE,		/* MPI_Request_free, with CP_RF_CANCEL
				 * MPI_Cancel: u.q */
	CP_RK_RETIRE,		/* a datatype, with CP_RF_COMM a
				 * communicator, is being freed: u.x */
	CP_RK_XFER,		/* one-sided or file call: u.o */
	CP_RK_NKINDS		/* no more than 16: CP_W0 keeps 4 bits */
};

/* Record flags (CP_W0 flags). */
#define CP_RF_FORTRAN	0x01	/* called through a Fortran binding */
#define CP_RF_HALF	0x02	/* receive half of a Sendrecv */
#define CP_RF_ANYSRC	0x04	/* blocking receive posted MPI_ANY_SOURCE */
#define CP_RF_ANYTAG	0x08	/* blocking receive posted MPI_ANY_TAG */
#define CP_RF_DONE	0x10	/* probe found; CP_RK_DONE: with an item */
#define CP_RF_ITEM	CP_RF_DONE
/* Flags of one kind only: the same bits mean something else elsewhere. */
#define CP_RF_CANCEL	0x02	/* CP_RK_FREE: it is MPI_Cancel */
#define CP_RF_COMM	0x02	/* CP_RK_RETIRE: the handle is a
				 * communicator, not a datatype */
/* CP_RK_XFER keeps clear of CP_RF_FORTRAN and CP_RF_HALF, which every
 * row kind is read for */
#define CP_RF_XWIN	0x04	/* CP_RK_XFER: u.o.obj is a window */
#define CP_RF_XTARGET	0x08	/* CP_RK_XFER: u.o.target is set */
#define CP_RF_XSTATUS	0x10	/* CP_RK_XFER: u.o.st_bytes is set */
#define CP_RF_PCOLL	0x04	/* CP_RK_ICOLL: a persistent collective
				 * made (rows at Start) */
#define CP_RF_LARGE	0x10	/* SEND, RECV, ISEND, IRECV, PSEND, PRECV,
				 * COLL, ICOLL: made through an MPI-4
				 * large-count binding (MPI_X_c); u.p's
				 * count_hi holds the count's high half
				 * (XFER has no bit left: u.o.large) */

/*
 * The first word of a record: the return address (47 bits: the user half
 * of x86-64, where code always lies, so it needs no mask there), the call
 * id, the kind and the flags.
 */
#define CP_W0_SITE_BITS 47
#define CP_W0_SITE_MASK ((UINT64_C(1) << CP_W0_SITE_BITS) - 1)
#if defined(__x86_64__)
#define CP_W0_SITE_IN(site) ((uint64_t)(uintptr_t)(site))
#else
#define CP_W0_SITE_IN(site) ((uint64_t)(uintptr_t)(site) & CP_W0_SITE_MASK)
#endif
#define CP_W0(site, call, kind, fl) \
	(CP_W0_SITE_IN(site) | (uint64_t)(call) << 47 | \
	 (uint64_t)(kind) << 55 | (uint64_t)(fl) << 59)
#define CP_W0_SITE(w)	((uintptr_t)((w) & CP_W0_SITE_MASK))
#define CP_W0_CALL(w)	((unsigned)((w) >> 47) & 0xff)
#define CP_W0_KIND(w)	((unsigned)((w) >> 55) & 0xf)
#define CP_W0_FL(w)	((unsigned)((w) >> 59))

/*
 * Per-process block of a collective as the wrapper saw it: n elements of
 * type (the flusher derives bytes and layout), or, with CP_BLK_BYTES, n
 * bytes already summed over several types (alltoallw: no one layout).
 */
#define CP_BLK_BYTES	0x10000	/* n is bytes, type is none */
/* The bits from here up hold the id of the call's interned count array
 * (src/lib/cp_vec.h), 0 for none: allgatherv and reduce_scatter. */
#define CP_BLK_VEC_SHIFT 17
struct cp_blk {
	MPI_Datatype type;	/* element type, MPI_DATATYPE_NULL: none */
	uint64_t n;		/* elements (bytes with CP_BLK_BYTES) */
	uint32_t flags;		/* CP_F_INPLACE, CP_F_VARBLOCK, CP_BLK_BYTES,
				 * the count array's id */
	int32_t root;		/* root as passed, or CP_PEER_NONE */
};

/* One slot: 64 bytes, one cache line. */
struct cp_raw {
	uint64_t w0;		/* CP_W0() */
	uint64_t t0, t1;	/* ticks (cp_ticks()) around the real call */
	union {
		struct {		/* SEND, ISEND, IRECV, PSEND, PRECV */
			MPI_Comm comm;
			MPI_Datatype type;
			int32_t count, peer, tag;	/* as passed */
			int32_t count_hi;	/* CP_RF_LARGE only: the
						 * count's high 32 bits */
			MPI_Request req;	/* the request made */
		} p;
		struct {		/* RECV */
			MPI_Comm comm;
			MPI_Datatype type;
			MPI_Status st;
		} r;
		struct {		/* PROBE */
			MPI_Comm comm;
			int32_t src, tag;	/* as passed */
			MPI_Status st;
		} pr;
		struct {		/* COLL, ICOLL */
			MPI_Comm comm;
			struct cp_blk b;
			MPI_Request req;
		} c;
		struct {		/* ITEM, DONE */
			MPI_Request req;	/* the request as passed in */
			MPI_Status st;
			int32_t n;	/* DONE: ITEM records just before */
		} d;
		struct {		/* START, FREE */
			MPI_Request req;
		} q;
		struct {		/* RETIRE */
			uintptr_t handle;
		} x;
		struct {		/* XFER */
			uintptr_t obj;		/* MPI_Win or MPI_File */
			MPI_Datatype type;	/* MPI_DATATYPE_NULL: none */
			int32_t count;		/* elements, as passed */
			int32_t target;		/* rank in the window */
			uint64_t st_bytes;	/* bytes the status says */
			int32_t count_hi;	/* large only: the count's
						 * high 32 bits */
			uint32_t large;		/* 1: an MPI_X_c binding (no
						 * CP_RF_ bit is left) */
		} o;
	} u;
} __attribute__((aligned(64)));

/* The count a large-count binding passed, from its two halves. */
static inline int64_t cp_raw_count64(int32_t lo, int32_t hi)
{
	return (int64_t)((uint64_t)(uint32_t)hi << 32 | (uint32_t)lo);
}

#endif
