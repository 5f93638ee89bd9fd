/*
 * cp_sample.c - identity hashes and the counters of places per channel
 * (src/common/cp_sample.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "src/common/cp_sample.h"

/* The finaliser of splitmix64: every input bit moves every output bit, so
 * that h % n is even for any n. */
static uint64_t cp_sample_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

uint64_t cp_sample_hash(const struct cp_seqkey *k, uint64_t seq)
{
	uint64_t a = (uint64_t)k->comm << 32 | (uint32_t)k->tag;
	uint64_t b = (uint64_t)(uint32_t)k->sender << 32 |
		     (uint32_t)k->receiver;

	return cp_sample_mix(a ^ cp_sample_mix(b ^ cp_sample_mix(
		seq + UINT64_C(0x9e3779b97f4a7c15))));
}

struct cp_seqent {
	struct cp_seqkey k;
	uint64_t next;		/* 1 + place of the next message; 0: free */
};

/* Open addressing, linear probing; a slot is taken when next > 0. */
struct cp_seqtab {
	struct cp_seqent *e;
	uint32_t mask;		/* slots - 1, a power of two */
	uint32_t used;
};

struct cp_seqtab *cp_seqtab_new(void)
{
	struct cp_seqtab *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->e = calloc(64, sizeof(*t->e));
	if (!t->e) {
		free(t);
		return NULL;
	}
	t->mask = 63;
	return t;
}

static bool cp_seqkey_eq(const struct cp_seqkey *a, const struct cp_seqkey *b)
{
	return a->comm == b->comm && a->sender == b->sender &&
	       a->receiver == b->receiver && a->tag == b->tag;
}

static uint32_t cp_seqtab_home(const struct cp_seqtab *t,
			       const struct cp_seqkey *k)
{
	return (uint32_t)cp_sample_hash(k, 0) & t->mask;
}

static struct cp_seqent *cp_seqtab_slot(struct cp_seqtab *t,
					const struct cp_seqkey *k)
{
	uint32_t i = cp_seqtab_home(t, k);

	while (t->e[i].next && !cp_seqkey_eq(&t->e[i].k, k))
		i = (i + 1) & t->mask;
	return &t->e[i];
}

/* Twice the slots, every entry moved.  Returns 0 or -ENOMEM. */
static int cp_seqtab_grow(struct cp_seqtab *t)
{
	struct cp_seqtab n = { .mask = 2 * t->mask + 1, .used = t->used };
	uint32_t i;

	n.e = calloc((size_t)n.mask + 1, sizeof(*n.e));
	if (!n.e)
		return -ENOMEM;
	for (i = 0; i <= t->mask; i++)
		if (t->e[i].next)
			*cp_seqtab_slot(&n, &t->e[i].k) = t->e[i];
	free(t->e);
	*t = n;
	return 0;
}

int cp_seqtab_next(struct cp_seqtab *t, const struct cp_seqkey *k,
		   uint64_t *seq)
{
	struct cp_seqent *s = cp_seqtab_slot(t, k);

	if (!s->next) {
		/* at most half full: probes stay short */
		if (2 * (t->used + 1) > t->mask + 1) {
			if (cp_seqtab_grow(t))
				return -ENOMEM;
			s = cp_seqtab_slot(t, k);
		}
		s->k = *k;
		s->next = 1;
		t->used++;
	}
	*seq = s->next++ - 1;
	return 0;
}

void cp_seqtab_free(struct cp_seqtab *t)
{
	if (!t)
		return;
	free(t->e);
	free(t);
}
