/*
 * cp_comm.c - communicator cache: for each communicator the group-rank to
 * world-rank map, its size, the caller's rank and a job-wide id.
 *
 * Built once, when the communicator is created (wrapped creation calls) or
 * at first sight (communicators made by paths we do not wrap), and dropped
 * before MPI_Comm_free.  Readers on the hot path never lock: the table is
 * open addressing with atomic keys; writers serialise on a mutex.  Entries
 * are never freed before finalize, so a reader racing a drop still reads
 * valid memory.
 *
 * The id must be equal on every member without communication: it is a
 * hash of the member world ranks and of how many communicators with the
 * same members this rank has created before (creation is collective, so
 * every member counts alike).  World is 0, self is 1.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/cp_comm.h"
#include "src/lib/cp_compiler.h"

#define NSLOT 4096		/* power of two; a full table maps to unknown */
#define NHIST 256		/* membership hashes remembered for the id */

struct slot {
	_Atomic(uintptr_t) key;	/* MPI_Comm handle value, 0 empty, 1 gone */
	struct cp_comm_info *ci;
};

struct retired {
	struct retired *next;
	struct cp_comm_info *ci;
};

static struct slot tab[NSLOT];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct retired *retired;
static struct cp_comm_info world_ci, self_ci, unknown_ci = {
	.id = UINT32_MAX, .size = -1, .me = -1,
};
static int32_t self_map[1];
static uint64_t hist_key[NHIST];
static uint32_t hist_n[NHIST];

static inline uint32_t slot_of(uintptr_t k)
{
	return (uint32_t)((k >> 4) * 0x9E3779B97F4A7C15ull >> 40) &
	       (NSLOT - 1);
}

int cp_comm_init(void)
{
	int rank, size;

	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	world_ci = (struct cp_comm_info){ .id = 0, .size = size, .me = rank };
	self_map[0] = rank;
	self_ci = (struct cp_comm_info){ .id = 1, .size = 1, .me = 0,
					 .world = self_map };
	return 0;
}

static uint64_t fnv(const int32_t *r, int n)
{
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < n; i++) {
		h ^= (uint32_t)r[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* Job-wide id from the members; under lock. */
static uint32_t comm_id(const int32_t *world, int n, int inter)
{
	uint64_t h = fnv(world, n) ^ (inter ? 0x5bd1e995u : 0);
	uint32_t k = (uint32_t)(h % NHIST), id;

	if (hist_key[k] != h) {
		hist_key[k] = h;
		hist_n[k] = 0;
	}
	id = (uint32_t)(h ^ (h >> 32)) + 0x9E3779B9u * hist_n[k]++;
	return id < 2 ? id + 2 : id;	/* 0 and 1 are world and self */
}

/* How many neighbours comm's topology sends to (neighbour collectives). */
static int out_degree(MPI_Comm comm, int me)
{
	int topo = MPI_UNDEFINED, n = 0, in = 0, out = 0, w = 0;

	if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
		return 0;
	if (topo == MPI_CART && PMPI_Cartdim_get(comm, &n) == MPI_SUCCESS)
		return 2 * n;
	if (topo == MPI_GRAPH &&
	    PMPI_Graph_neighbors_count(comm, me, &n) == MPI_SUCCESS)
		return n;
	if (topo == MPI_DIST_GRAPH &&
	    PMPI_Dist_graph_neighbors_count(comm, &in, &out, &w) ==
		    MPI_SUCCESS)
		return out;
	return 0;
}

/* Build the info of comm: MPI calls, under lock.  NULL on failure. */
static struct cp_comm_info *comm_build(MPI_Comm comm)
{
	MPI_Group g = MPI_GROUP_NULL, wg = MPI_GROUP_NULL;
	struct cp_comm_info *ci = NULL;
	int inter = 0, n = 0, me = 0, *idx = NULL;
	int32_t *map = NULL;

	if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
		return NULL;
	if (inter ? PMPI_Comm_remote_group(comm, &g) :
		    PMPI_Comm_group(comm, &g))
		return NULL;
	if (PMPI_Group_size(g, &n) || PMPI_Comm_rank(comm, &me) ||
	    PMPI_Comm_group(MPI_COMM_WORLD, &wg))
		goto out;
	ci = calloc(1, sizeof(*ci));
	map = calloc(n ? n : 1, sizeof(*map));
	idx = calloc(n ? n : 1, sizeof(*idx));
	if (!ci || !map || !idx)
		goto fail;
	for (int i = 0; i < n; i++)
		idx[i] = i;
	if (PMPI_Group_translate_ranks(g, n, idx, wg, (int *)map))
		goto fail;
	ci->size = n;
	ci->me = me;
	ci->inter = inter;
	ci->outdeg = inter ? 0 : out_degree(comm, me);
	ci->world = map;
	ci->id = comm_id(map, n, inter);
	goto out;
fail:
	free(ci);
	free(map);
	ci = NULL;
out:
	free(idx);
	if (g != MPI_GROUP_NULL)
		PMPI_Group_free(&g);
	if (wg != MPI_GROUP_NULL)
		PMPI_Group_free(&wg);
	return ci;
}

static const struct cp_comm_info *lookup(uintptr_t k)
{
	for (uint32_t i = slot_of(k), n = 0; n < NSLOT; n++) {
		uintptr_t s = atomic_load_explicit(&tab[i].key,
						   memory_order_acquire);
		if (s == k)
			return tab[i].ci;
		if (s == 0)
			return NULL;
		i = (i + 1) & (NSLOT - 1);
	}
	return NULL;
}

/* Insert under lock; returns the info now cached for k. */
static const struct cp_comm_info *insert(uintptr_t k, MPI_Comm comm)
{
	const struct cp_comm_info *have = lookup(k);
	struct cp_comm_info *ci;
	struct retired *r;

	if (have)
		return have;
	ci = comm_build(comm);
	if (!ci)
		return &unknown_ci;
	for (uint32_t i = slot_of(k), n = 0; n < NSLOT; n++) {
		uintptr_t s = atomic_load(&tab[i].key);

		if (s == 0 || s == 1) {
			tab[i].ci = ci;
			atomic_store_explicit(&tab[i].key, k,
					      memory_order_release);
			return ci;
		}
		i = (i + 1) & (NSLOT - 1);
	}
	/* table full: keep the info alive, uncached */
	r = malloc(sizeof(*r));
	if (r) {
		r->ci = ci;
		r->next = retired;
		retired = r;
		return ci;
	}
	free((void *)ci->world);
	free(ci);
	return &unknown_ci;
}

static CP_COLD const struct cp_comm_info *comm_miss(MPI_Comm comm)
{
	const struct cp_comm_info *ci;

	pthread_mutex_lock(&lock);
	ci = insert((uintptr_t)comm, comm);
	pthread_mutex_unlock(&lock);
	return ci;
}

const struct cp_comm_info *cp_comm_get(MPI_Comm comm)
{
	const struct cp_comm_info *ci;

	if (cp_likely(comm == MPI_COMM_WORLD))
		return &world_ci;
	if (comm == MPI_COMM_SELF)
		return &self_ci;
	if (comm == MPI_COMM_NULL)
		return &unknown_ci;
	ci = lookup((uintptr_t)comm);
	return ci ? ci : comm_miss(comm);
}

void cp_comm_new(MPI_Comm comm)
{
	if (comm == MPI_COMM_NULL || comm == MPI_COMM_WORLD ||
	    comm == MPI_COMM_SELF)
		return;
	(void)comm_miss(comm);
}

void cp_comm_drop(MPI_Comm comm)
{
	uintptr_t k = (uintptr_t)comm;
	struct retired *r;

	if (comm == MPI_COMM_NULL || comm == MPI_COMM_WORLD ||
	    comm == MPI_COMM_SELF)
		return;
	pthread_mutex_lock(&lock);
	for (uint32_t i = slot_of(k), n = 0; n < NSLOT; n++) {
		uintptr_t s = atomic_load(&tab[i].key);

		if (s == 0)
			break;
		if (s == k) {
			r = malloc(sizeof(*r));
			if (r) {	/* readers may still hold ci */
				r->ci = tab[i].ci;
				r->next = retired;
				retired = r;
			}
			atomic_store(&tab[i].key, 1);
			break;
		}
		i = (i + 1) & (NSLOT - 1);
	}
	pthread_mutex_unlock(&lock);
}
