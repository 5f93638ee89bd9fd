/*
 * test_vec.c - src/lib/cp_vec.c without MPI: the same counts get the
 * same id and different ones a different id, whichever was put last
 * (each thread remembers its last id and skips the table for a repeat);
 * what cp_vec_get hands back is what was put; counts it must refuse
 * (negative, none, more ranks than a schedule takes) get 0; threads
 * putting at once agree on every id.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "src/lib/cp_vec.h"
#include "tests/test_analysis.h"

#define NTHREADS 4
#define NARRAYS 199	/* prime: every thread's order is a permutation */

static int same_back(uint32_t id, const int64_t *v, int n)
{
	int got = -1;
	const int64_t *w = cp_vec_get(id, &got);

	return w && got == n && !memcmp(v, w, sizeof(*v) * (size_t)n);
}

/* array k of NARRAYS: k + 1 ranks, rank i's count k * i */
static int array_of(int k, int64_t *v)
{
	for (int i = 0; i <= k; i++)
		v[i] = (int64_t)k * i;
	return k + 1;
}

static uint32_t ids[NTHREADS][NARRAYS];

static void *putter(void *arg)
{
	int t = (int)(intptr_t)arg;
	int64_t v[NARRAYS];

	/* each thread its own order, each array twice in a row */
	for (int j = 0; j < NARRAYS; j++) {
		int k = (j * (2 * t + 1)) % NARRAYS, n = array_of(k, v);

		ids[t][k] = cp_vec_put(v, n);
		if (cp_vec_put(v, n) != ids[t][k])
			ids[t][k] = 0;
	}
	return NULL;
}

int main(void)
{
	int64_t a[] = { 1, 2, 3, 4 }, b[] = { 1, 2, 3, 5 }, c[] = { 1, 2, 3 };
	int64_t neg[] = { 1, -1 }, big[CP_COLL_MAXP + 1] = { 0 }, v[NARRAYS];
	pthread_t th[NTHREADS];
	uint32_t ia, ib, ic;
	int ok;

	ia = cp_vec_put(a, 4);
	ta_check(ia >= 1, "first array: id %u", ia);
	ta_check(cp_vec_put(a, 4) == ia, "the same counts again: the same id");
	ib = cp_vec_put(b, 4);
	ta_check(ib >= 1 && ib != ia, "one count differs: another id (%u)", ib);
	ta_check(cp_vec_put(a, 4) == ia && cp_vec_put(b, 4) == ib,
		 "back and forth: each its own id");
	ic = cp_vec_put(c, 3);
	ta_check(ic >= 1 && ic != ia && ic != ib,
		 "a prefix of the last counts: another id (%u)", ic);
	ta_check(cp_vec_put(a, 3) == ic, "equal counts from another array: "
		 "the id of the first");
	ta_check(same_back(ia, a, 4) && same_back(ib, b, 4) &&
		 same_back(ic, c, 3), "cp_vec_get gives back what was put");
	a[3] = 9;
	ta_check(cp_vec_put(a, 4) != ia &&
		 same_back(ia, (const int64_t[]){ 1, 2, 3, 4 }, 4),
		 "the caller's array changed after the put: the entry did not");
	{
		int wa[] = { 1, 2, 3, 4 }, wc[] = { 1, 2, 3 }, wn[] = { 1, -1 };

		ta_check(cp_vec_put_int(wa, 4) == ia &&
			 cp_vec_put_int(wa, 4) == ia &&
			 cp_vec_put_int(wc, 3) == ic,
			 "int counts: the ids of the same int64 counts, "
			 "repeated or not");
		wa[3] = 9;
		ta_check(cp_vec_put_int(wa, 4) == cp_vec_put(a, 4),
			 "int counts changed after their put: the new "
			 "counts' id");
		ta_check(cp_vec_put_int(wn, 2) == 0 &&
			 cp_vec_put_int(NULL, 2) == 0, "int counts: a "
			 "negative one or none: 0");
	}
	ta_check(cp_vec_put(neg, 2) == 0, "a negative count: 0");
	ta_check(cp_vec_put(NULL, 2) == 0 && cp_vec_put(c, 0) == 0,
		 "no counts: 0");
	ta_check(cp_vec_put(big, CP_COLL_MAXP + 1) == 0 &&
		 cp_vec_put(big, CP_COLL_MAXP) >= 1,
		 "more ranks than CP_COLL_MAXP: 0, exactly as many: an id");
	ta_check(cp_vec_get(0, &ok) == NULL &&
		 cp_vec_get(CP_VEC_MAX + 1, &ok) == NULL,
		 "cp_vec_get of id 0 or one never given: NULL");

	for (int t = 0; t < NTHREADS; t++)
		pthread_create(&th[t], NULL, putter, (void *)(intptr_t)t);
	for (int t = 0; t < NTHREADS; t++)
		pthread_join(th[t], NULL);
	ok = 1;
	for (int k = 0; k < NARRAYS; k++) {
		int n = array_of(k, v);

		for (int t = 0; t < NTHREADS; t++)
			ok &= ids[t][k] >= 1 && ids[t][k] == ids[0][k];
		ok &= same_back(ids[0][k], v, n) && cp_vec_put(v, n) == ids[0][k];
	}
	ta_check(ok, "%d threads, %d arrays each in its own order: one id per "
		 "array, its counts", NTHREADS, NARRAYS);
	return ta_done("test_vec");
}
