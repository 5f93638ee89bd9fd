/*
 * cp_layout.h - datatype layouts (src/lib/cp_layout.c): what one element
 * of a committed MPI datatype looks like in memory (contiguous, strided,
 * irregular).  A type is decoded when it is committed (on the
 * application's thread, outside the hot path); the flusher looks a
 * record's handle up as it was when the call was made (cp_layout_at),
 * stores the table (db/cp_db.h), and the predictions read each layout's
 * shape.
 *
 * A layout index is what every recorded row carries.  Index 0 is the
 * "unknown" layout (undecodable type, MPI_DATATYPE_NULL, table full).
 * Identical layouts (same numbers and same description) share one index,
 * so a type created and freed in a loop costs one entry, not one per
 * iteration.  Entries are never removed before cp_layout_fini(): rows
 * already recorded refer to them.
 */
#ifndef CP_LAYOUT_H
#define CP_LAYOUT_H

#include <stdint.h>
#include <mpi.h>

struct cp_db_layout;

/* struct cp_event.layout of a call that has no datatype. */
#define CP_LAYOUT_NONE UINT32_MAX

/*
 * cp_layout_init - set up the handle table and decode the predefined
 * datatypes.  Call once, after PMPI_Init (it makes PMPI calls).  Returns
 * 0, or -ENOMEM (then every cp_layout_get() answers index 0 with the
 * right size, through the slow path).
 */
int cp_layout_init(void);

/*
 * cp_layout_get - index of the layout of committed type t as it is now
 * (decoded at first sight, makes PMPI calls: the application's threads
 * only); *size_out gets MPI_Type_size in bytes.  Lock-free when t is
 * known.  Cannot fail: an undecodable type maps to the "unknown" layout
 * index 0.
 */
uint32_t cp_layout_get(MPI_Datatype t, uint64_t *size_out);

/*
 * cp_layout_n - index of the layout of a message of count elements whose
 * element has layout idx (from cp_layout_get or cp_layout_at): idx when
 * copies of the element one extent apart do not interleave, else that of
 * the count elements together (a resized column sent with count 4
 * touches 32-byte blocks), derived from the element's runs kept at its
 * decoding, once per (idx, count) while cached, under the table lock; no
 * MPI call, so the flusher may ask after the type was freed.  Cannot fail
 * (idx when memory or the table runs out).
 */
uint32_t cp_layout_n(uint32_t idx, uint64_t count);

/* cp_layout_get_n - cp_layout_n(cp_layout_get(t, size_out), count): the
 * layout of a message of count elements of committed type t.  *size_out
 * gets MPI_Type_size of one element.  Cannot fail (index 0: unknown). */
uint32_t cp_layout_get_n(MPI_Datatype t, uint64_t count, uint64_t *size_out);

/* cp_layout_drop - the application is freeing datatype t: a type later
 * committed at the same handle is decoded afresh.  Cannot fail. */
void cp_layout_drop(MPI_Datatype t);

/* cp_layout_note - decode t now (after MPI_Type_commit or MPI_Type_dup),
 * so that the flusher knows it from now on.  Cannot fail. */
static inline void cp_layout_note(MPI_Datatype t)
{
	uint64_t size;

	(void)cp_layout_get(t, &size);
}

/*
 * cp_layout_at - index of the layout that handle t named at tick (the
 * tick of a record, cp_ticks()) and *size_out its size in bytes; index 0
 * and size 0 for a handle not known then.  Lock-free, no MPI call: the
 * flusher's lookup.  Cannot fail.
 */
uint32_t cp_layout_at(MPI_Datatype t, uint64_t tick, uint64_t *size_out);

/*
 * cp_layout_retire - the flusher read the retire record of t, made at
 * tick (MPI_Type_free) in its drain number cycle: what t named then may
 * be cut by cp_layout_gc(cycle') for any cycle' >= cycle.  Cannot fail.
 */
void cp_layout_retire(MPI_Datatype t, uint64_t tick, uint64_t cycle);

/* cp_layout_gc - cut the generations retired in drains up to cycle: no
 * record can still need them.  The flusher's.  Cannot fail. */
void cp_layout_gc(uint64_t cycle);

/*
 * cp_layout_count - how many layout entries exist so far, index 0
 * included: valid indices are 0 .. count - 1.  0 before cp_layout_init().
 * Cannot fail; lock-free.
 */
uint32_t cp_layout_count(void);

/*
 * cp_layout_describe - copy entry `index` into *out.  out->desc points to
 * storage owned by this module, valid until cp_layout_fini().  Index 0
 * describes the unknown layout: sizes, block, stride and nblocks -1,
 * desc "unknown".  Returns 0, or -EINVAL for an index not below
 * cp_layout_count().  Thread-safe.
 */
int cp_layout_describe(uint32_t index, struct cp_db_layout *out);

/*
 * cp_layout_shape - what the models need of layout `index`, lock-free for
 * the hot path: 0 contiguous, CP_SHAPE_IRREGULAR when no single block
 * size and stride describe it (or unknown), else stride_bytes << 32 |
 * block_bytes.  index must come from cp_layout_get() or cp_layout_at() (or
 * be CP_LAYOUT_NONE, which answers CP_SHAPE_IRREGULAR).  Cannot fail.
 */
#define CP_SHAPE_IRREGULAR UINT64_MAX
uint64_t cp_layout_shape(uint32_t index);

/*
 * cp_layout_fini - free the table and every entry (descriptions too).
 * No other cp_layout_* call may run concurrently or later, except a new
 * cp_layout_init().  Cannot fail.
 */
void cp_layout_fini(void);

#endif
