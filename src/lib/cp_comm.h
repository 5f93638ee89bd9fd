/*
 * cp_comm.h - communicator registry (src/lib/cp_comm.c): for each
 * communicator its size, the caller's rank, the group-rank to world-rank
 * map and a job-wide id, as they were at each tick: the flusher decodes a
 * record's handle as it was when the call was made, even once the
 * communicator was freed and its handle reused.
 */
#ifndef CP_COMM_H
#define CP_COMM_H

#include <stdint.h>
#include <mpi.h>

#include "src/common/cp_row.h"

struct cp_comm_info {
	uint32_t id;		/* job-wide id, equal on every member */
	int32_t size;		/* group size (remote group if inter) */
	int32_t me;		/* own rank in the (local) group */
	int32_t inter;		/* 1 for an intercommunicator */
	int32_t outdeg;		/* neighbours a topology sends to, else 0 */
	const int32_t *world;	/* group rank -> world rank, NULL = identity */
};

/* After PMPI_Init: world, self and the handle table.  Returns 0, or
 * -ENOMEM (then the caller warns and records nothing). */
int cp_comm_init(void);

/* A communicator as it is now, built at first sight (out of line: PMPI
 * calls, so the application's threads only).  Never NULL: an unusable
 * communicator maps to a placeholder with size -1.  Lock-free when
 * known. */
const struct cp_comm_info *cp_comm_get(MPI_Comm comm);
/* The communicator handle comm named at tick (a record's, cp_ticks());
 * the placeholder (size -1) for one not known then.  Lock-free, no MPI
 * call: the flusher's lookup.  Never NULL. */
const struct cp_comm_info *cp_comm_at(MPI_Comm comm, uint64_t tick);
/* The application is freeing comm (MPI_Comm_free, _disconnect): one
 * created later at the same handle is built afresh.  Cannot fail. */
void cp_comm_drop(MPI_Comm comm);
/* Register a communicator just created (called after the creating
 * call).  Cannot fail: one that cannot be built is built again at its
 * next cp_comm_get(). */
void cp_comm_new(MPI_Comm comm);
/* The flusher read the retire record of comm, made at tick, in its drain
 * number cycle: what comm named then may be cut by cp_comm_gc(cycle')
 * for any cycle' >= cycle.  Cannot fail. */
void cp_comm_retire(MPI_Comm comm, uint64_t tick, uint64_t cycle);
/* Cut the generations retired in drains up to cycle.  The flusher's.
 * Cannot fail. */
void cp_comm_gc(uint64_t cycle);

/* Register window win just created (after the creating call): its
 * group, as cp_comm_new() a communicator's; MPI calls.  Cannot fail: one
 * that cannot be built maps to the placeholder. */
void cp_win_new(MPI_Win win);
/* The application is freeing win (MPI_Win_free); its retire record is
 * read by cp_comm_retire() with the handle as a communicator's.  Cannot
 * fail. */
void cp_win_drop(MPI_Win win);
/* The window handle win named at tick (the flusher's, lock-free, no MPI
 * call), or now when tick is UINT64_MAX (any thread); the placeholder
 * (size -1) for one not known.  Never built here: a handle that is no
 * communicator must not reach MPI's communicator calls.  Never NULL. */
const struct cp_comm_info *cp_win_at(MPI_Win win, uint64_t tick);

/* World rank of rank r of ci, or CP_PEER_* for MPI_PROC_NULL,
 * MPI_ANY_SOURCE and a rank outside the group. */
static inline int32_t cp_world_rank(const struct cp_comm_info *ci, int r)
{
	if (r == MPI_PROC_NULL)
		return CP_PEER_PROCNULL;
	if (r == MPI_ANY_SOURCE)
		return CP_PEER_ANY;
	if (r < 0 || r >= ci->size)
		return CP_PEER_NONE;
	return ci->world ? ci->world[r] : r;
}

#endif
