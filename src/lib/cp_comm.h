/*
 * cp_comm.h - communicator cache (src/lib/cp_comm.c): for each
 * communicator its size, the caller's rank, the group-rank to world-rank
 * map and a job-wide id, found without a lock on the hot path.
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

/* Look up (building on first sight, out of line) a communicator.  Never
 * NULL: an unusable communicator maps to a placeholder with size -1. */
const struct cp_comm_info *cp_comm_get(MPI_Comm comm);
/* Forget a communicator (before MPI_Comm_free/disconnect).  Cannot
 * fail. */
void cp_comm_drop(MPI_Comm comm);
/* Register a communicator just created (called after the creating
 * call).  Cannot fail: one that cannot be built is looked up again. */
void cp_comm_new(MPI_Comm comm);

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
