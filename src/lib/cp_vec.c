/*
 * cp_vec.c - interned count arrays (cp_vec.h): an open-addressing table
 * of ids by hash, each array copied once into a block of its own, so
 * that what cp_vec_get hands out never moves.  The table and the entry
 * array are allocated at the first put (their untouched pages cost
 * nothing).
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "src/lib/cp_vec.h"

#define NSLOT (2 * (CP_VEC_MAX + 1))	/* at most half full */

struct entry {
	uint64_t hash;
	int n;
	int64_t *v;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *ent;	/* [CP_VEC_MAX], id - 1 */
static uint16_t *slot;		/* [NSLOT]: id, 0 free */
static uint32_t nent;
static uint64_t ncounts;
static int broken;		/* no memory for the table: every put 0 */

/* FNV-1a over the counts and their number. */
static uint64_t hash_of(const int64_t *v, int n)
{
	uint64_t h = 14695981039346656037ull ^ (uint64_t)n;
	int i;

	for (i = 0; i < n; i++) {
		h ^= (uint64_t)v[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* The id of v (n counts, hash h), a new one if it is not there; 0 when
 * full.  Under the lock. */
static uint32_t intern(const int64_t *v, int n, uint64_t h)
{
	size_t k = (size_t)(h % NSLOT);
	struct entry *e;
	int64_t *copy;

	if (!ent && !broken) {
		ent = calloc(CP_VEC_MAX, sizeof(*ent));
		slot = calloc(NSLOT, sizeof(*slot));
		if (!ent || !slot) {
			free(ent);
			free(slot);
			ent = NULL;
			slot = NULL;
			broken = 1;
		}
	}
	if (broken)
		return 0;
	for (; slot[k]; k = (k + 1) % NSLOT) {
		e = &ent[slot[k] - 1];
		if (e->hash == h && e->n == n &&
		    !memcmp(e->v, v, sizeof(*v) * (size_t)n))
			return slot[k];
	}
	if (nent >= CP_VEC_MAX || ncounts + (uint64_t)n > CP_VEC_MAXCOUNTS)
		return 0;
	copy = malloc(sizeof(*v) * (size_t)n);
	if (!copy)
		return 0;
	memcpy(copy, v, sizeof(*v) * (size_t)n);
	e = &ent[nent];
	e->hash = h;
	e->n = n;
	e->v = copy;
	ncounts += (uint64_t)n;
	slot[k] = (uint16_t)++nent;
	return nent;
}

/* Each thread's last id and its entry's counts: a loop that calls with
 * the same counts compares them once and takes neither the hash nor the
 * lock.  Entries never change or move, so reading them needs no lock. */
static __thread struct {
	uint32_t id;
	int n;
	const int64_t *v;
} last __attribute__((tls_model("initial-exec")));

/* v[0..n-1] == w[0..n-1]: a loop, cheaper than memcmp's call for the
 * few ranks of most communicators. */
static int same(const int64_t *v, const int64_t *w, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i] != w[i])
			return 0;
	return 1;
}

uint32_t cp_vec_put(const int64_t *v, int n)
{
	uint32_t id;
	uint64_t h;
	int i;

	if (!v || n < 1 || n > CP_COLL_MAXP)
		return 0;
	if (last.id && last.n == n && same(last.v, v, n))
		return last.id;
	for (i = 0; i < n; i++)
		if (v[i] < 0)
			return 0;
	h = hash_of(v, n);
	pthread_mutex_lock(&lock);
	id = intern(v, n, h);
	if (id) {
		last.id = id;
		last.n = n;
		last.v = ent[id - 1].v;
	}
	pthread_mutex_unlock(&lock);
	return id;
}

uint32_t cp_vec_put_int(const int *w, int n)
{
	int64_t v[CP_COLL_MAXP];
	int i;

	if (!w || n < 1 || n > CP_COLL_MAXP)
		return 0;
	if (last.id && last.n == n) {
		for (i = 0; i < n && last.v[i] == w[i]; i++)
			;
		if (i == n)
			return last.id;
	}
	for (i = 0; i < n; i++)
		v[i] = w[i];
	return cp_vec_put(v, n);
}

const int64_t *cp_vec_get(uint32_t id, int *n)
{
	const int64_t *v = NULL;

	pthread_mutex_lock(&lock);
	if (id >= 1 && id <= nent) {
		v = ent[id - 1].v;
		*n = ent[id - 1].n;
	}
	pthread_mutex_unlock(&lock);
	return v;
}
