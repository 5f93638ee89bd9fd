/*
 * cp_comm.c - communicator registry: for each communicator the group-rank
 * to world-rank map, its size, the caller's rank and a job-wide id, as
 * they were at each tick.
 *
 * Built once, when the communicator is created (wrapped creation calls)
 * or at first sight on an application thread (cp_comm_get: communicators
 * made by paths we do not wrap).  The handle table is a src/lib/cp_htab.h
 * table of generations (struct cp_hgen) whose values point to the infos:
 * a communicator created at the handle of a freed one is a new
 * generation, and the flusher decodes a record made before with the old
 * one (cp_comm_at).  Readers never lock; writers serialise on a mutex.
 * Infos are never freed before the process ends, so a request pending on
 * a freed communicator, or a reader racing a cut, still reads valid
 * memory.
 *
 * The id must be equal on every member without communication: it is a
 * hash of the member world ranks and of how many communicators with the
 * same members this rank has created before (creation is collective, so
 * every member counts alike).  World is 0, self is 1.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/cp_comm.h"
#include "src/lib/cp_compiler.h"
#include "src/lib/cp_htab.h"
#include "src/lib/cp_time.h"

#define NSLOT 4096		/* power of two; a full table maps to unknown */
#define NHIST 256		/* membership hashes remembered for the id */

struct retired {
	struct retired *next;
	struct cp_comm_info *ci;
};

static struct cp_htab *tab;	/* handle -> struct cp_comm_info * */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct retired *retired;
static struct cp_comm_info world_ci, self_ci, unknown_ci = {
	.id = UINT32_MAX, .size = -1, .me = -1,
};
static int32_t self_map[1];
static uint64_t hist_key[NHIST];
static uint32_t hist_n[NHIST];

int cp_comm_init(void)
{
	int rank, size;

	if (!tab)
		tab = cp_htab_new(NSLOT, NSLOT, 0);
	if (!tab)
		return -ENOMEM;
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

/* The info of group g (remote group when inter), own rank me: MPI
 * calls, under lock.  NULL on failure.  Frees g. */
static struct cp_comm_info *group_build(MPI_Group g, int me, int inter)
{
	MPI_Group wg = MPI_GROUP_NULL;
	struct cp_comm_info *ci = NULL;
	int n = 0, *idx = NULL;
	int32_t *map = NULL;

	if (PMPI_Group_size(g, &n) || PMPI_Comm_group(MPI_COMM_WORLD, &wg))
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

/* Build the info of comm: MPI calls, under lock.  NULL on failure. */
static struct cp_comm_info *comm_build(MPI_Comm comm)
{
	struct cp_comm_info *ci;
	MPI_Group g;
	int inter = 0, me = 0;

	if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
	    PMPI_Comm_rank(comm, &me) != MPI_SUCCESS)
		return NULL;
	if (inter ? PMPI_Comm_remote_group(comm, &g) :
		    PMPI_Comm_group(comm, &g))
		return NULL;
	ci = group_build(g, me, inter);
	if (ci && !inter)
		ci->outdeg = out_degree(comm, me);
	return ci;
}

/* Build the info of window w from its group.  NULL on failure. */
static struct cp_comm_info *win_build(MPI_Win w)
{
	MPI_Group g;
	int me = 0;

	if (PMPI_Win_get_group(w, &g) != MPI_SUCCESS)
		return NULL;
	if (PMPI_Group_rank(g, &me) != MPI_SUCCESS) {
		PMPI_Group_free(&g);
		return NULL;
	}
	return group_build(g, me, 0);
}

static void keep(struct cp_comm_info *ci)
{
	struct retired *r = malloc(sizeof(*r));

	if (!r)
		return;		/* the info leaks: memory, not a fault */
	r->ci = ci;
	r->next = retired;
	retired = r;
}

/* Register comm (or window win, when comm is MPI_COMM_NULL) as made
 * now; under lock.  Returns its info, or &unknown_ci. */
static const struct cp_comm_info *insert(uintptr_t k, MPI_Comm comm,
					 MPI_Win win)
{
	struct cp_hgen *g = tab ? cp_hgen_now(tab, k) : NULL;
	struct cp_comm_info *ci;

	if (g && !atomic_load(&g->freed))
		return (const struct cp_comm_info *)(uintptr_t)g->val;
	if (!tab || !cp_htab_key_ok(k))
		return &unknown_ci;
	ci = comm != MPI_COMM_NULL ? comm_build(comm) : win_build(win);
	if (!ci)
		return &unknown_ci;
	keep(ci);
	g = calloc(1, sizeof(*g));
	if (!g)
		return ci;
	g->val = (uintptr_t)ci;
	g->born = cp_ticks();
	if (cp_hgen_push(&tab, k, g))
		free(g);	/* table full: this call's info, uncached */
	return ci;
}

static CP_COLD const struct cp_comm_info *comm_miss(MPI_Comm comm)
{
	const struct cp_comm_info *ci;

	pthread_mutex_lock(&lock);
	ci = insert((uintptr_t)comm, comm, MPI_WIN_NULL);
	pthread_mutex_unlock(&lock);
	return ci;
}

static const struct cp_comm_info *fixed(MPI_Comm comm)
{
	if (comm == MPI_COMM_WORLD)
		return &world_ci;
	if (comm == MPI_COMM_SELF)
		return &self_ci;
	if (comm == MPI_COMM_NULL || !tab || !cp_htab_key_ok((uintptr_t)comm))
		return &unknown_ci;
	return NULL;
}

const struct cp_comm_info *cp_comm_get(MPI_Comm comm)
{
	const struct cp_comm_info *ci = fixed(comm);
	struct cp_hgen *g;

	if (ci)
		return ci;
	g = cp_hgen_now(tab, (uintptr_t)comm);
	if (g && !atomic_load_explicit(&g->freed, memory_order_relaxed))
		return (const struct cp_comm_info *)(uintptr_t)g->val;
	return comm_miss(comm);
}

/* The flusher's cursor into the generations (cp_comm_at, _retire). */
static struct cp_hgen_cursor cur;

const struct cp_comm_info *cp_comm_at(MPI_Comm comm, uint64_t tick)
{
	const struct cp_comm_info *ci = fixed(comm);
	struct cp_hgen *g;

	if (ci)
		return ci;
	g = cp_hgen_at_cur(tab, &cur, (uintptr_t)comm, tick);
	return g ? (const struct cp_comm_info *)(uintptr_t)g->val
		 : &unknown_ci;
}

void cp_comm_new(MPI_Comm comm)
{
	if (fixed(comm))
		return;
	(void)comm_miss(comm);
}

/* The handle k is being freed: one made later at it is a new
 * generation. */
static void mark_freed(uintptr_t k)
{
	struct cp_hgen *g;

	pthread_mutex_lock(&lock);
	g = cp_hgen_now(tab, k);
	if (g)
		atomic_store(&g->freed, 1);
	pthread_mutex_unlock(&lock);
}

void cp_comm_drop(MPI_Comm comm)
{
	if (!fixed(comm))
		mark_freed((uintptr_t)comm);
}

/* Generations whose communicator was freed, to cut once no record can
 * need them (the flusher's alone). */
static struct gone {
	uintptr_t k;
	struct cp_hgen *g;	/* g->retired: when it may be cut */
} *gone;
static size_t gone_n, gone_cap;

void cp_comm_retire(MPI_Comm comm, uint64_t tick, uint64_t cycle)
{
	struct cp_hgen *g;
	struct gone *n;

	if (fixed(comm))
		return;
	g = cp_hgen_at_cur(tab, &cur, (uintptr_t)comm, tick);
	if (!g)
		return;
	if (g->retired) {		/* listed: its grace starts again */
		g->retired = cycle;
		return;
	}
	if (gone_n == gone_cap) {
		size_t cap = gone_cap ? 2 * gone_cap : 64;

		n = realloc(gone, cap * sizeof(*n));
		if (!n)
			return;		/* kept: costs memory only */
		gone = n;
		gone_cap = cap;
	}
	g->retired = cycle;
	gone[gone_n++] = (struct gone){ (uintptr_t)comm, g };
}

void cp_comm_gc(uint64_t cycle)
{
	size_t i, j = 0;

	for (i = 0; i < gone_n; i++) {
		bool cut;

		if (gone[i].g->retired > cycle) {
			gone[j++] = gone[i];
			continue;
		}
		pthread_mutex_lock(&lock);
		cut = cp_hgen_cut(tab, gone[i].k, gone[i].g);
		pthread_mutex_unlock(&lock);
		if (cut) {
			cp_hgen_uncur(&cur, gone[i].k, gone[i].g);
			free(gone[i].g);	/* its info stays (keep()) */
		}
	}
	gone_n = j;
}

/*
 * Windows share the communicators' table: their handles never equal a
 * communicator's (distinct objects in Open MPI; MPICH keeps the object
 * kind in the handle's bits), and a window's group maps its ranks to
 * world ranks exactly as a communicator's does.
 */
void cp_win_new(MPI_Win win)
{
	if (win == MPI_WIN_NULL)
		return;
	pthread_mutex_lock(&lock);
	(void)insert((uintptr_t)win, MPI_COMM_NULL, win);
	pthread_mutex_unlock(&lock);
}

void cp_win_drop(MPI_Win win)
{
	if (win != MPI_WIN_NULL && tab && cp_htab_key_ok((uintptr_t)win))
		mark_freed((uintptr_t)win);
}

const struct cp_comm_info *cp_win_at(MPI_Win win, uint64_t tick)
{
	struct cp_hgen *g;

	if (win == MPI_WIN_NULL || !tab || !cp_htab_key_ok((uintptr_t)win))
		return &unknown_ci;
	if (tick == UINT64_MAX) {
		g = cp_hgen_now(tab, (uintptr_t)win);
		if (g && atomic_load(&g->freed))
			g = NULL;
	} else {
		g = cp_hgen_at_cur(tab, &cur, (uintptr_t)win, tick);
	}
	return g ? (const struct cp_comm_info *)(uintptr_t)g->val
		 : &unknown_ci;
}
