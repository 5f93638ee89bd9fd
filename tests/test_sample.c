/*
 * test_sample.c - sampling by message identity (src/common/cp_sample.h)
 * without MPI: the places per channel count from 0 on their own, a
 * table that grows keeps every count, the hash names a message and
 * nothing else, the kept share is near 1/N, and a sender and a receiver
 * that see a channel's messages in the same order, among different
 * other traffic, keep exactly the same messages.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "src/common/cp_sample.h"
#include "tests/test_analysis.h"

static struct cp_seqkey key(uint32_t comm, int32_t s, int32_t r, int32_t tag)
{
	struct cp_seqkey k = { .comm = comm, .sender = s, .receiver = r,
			       .tag = tag };

	return k;
}

static void check_places(void)
{
	struct cp_seqtab *t = cp_seqtab_new();
	struct cp_seqkey a = key(7, 0, 1, 3), b = key(7, 1, 0, 3);
	uint64_t p[4] = { 9, 9, 9, 9 };
	bool ok = true;
	int i;

	ta_check(t != NULL, "a new table");
	cp_seqtab_next(t, &a, &p[0]);
	cp_seqtab_next(t, &a, &p[1]);
	cp_seqtab_next(t, &b, &p[2]);
	cp_seqtab_next(t, &a, &p[3]);
	ta_check(p[0] == 0 && p[1] == 1 && p[2] == 0 && p[3] == 2,
		 "places per channel: a 0 1, b 0, a 2 (got %llu %llu %llu "
		 "%llu)", (unsigned long long)p[0], (unsigned long long)p[1],
		 (unsigned long long)p[2], (unsigned long long)p[3]);
	/* 5000 channels, three messages each, interleaved: the table grows
	 * many times and loses no count */
	for (int round = 0; round < 3; round++)
		for (i = 0; i < 5000; i++) {
			struct cp_seqkey k = key(1, i, i + 1, i % 7);
			uint64_t q;

			if (cp_seqtab_next(t, &k, &q) || q != (uint64_t)round)
				ok = false;
		}
	ta_check(ok, "5000 channels x 3 messages: places 0, 1, 2 each");
	cp_seqtab_next(t, &a, &p[0]);
	ta_check(p[0] == 3, "the first channel after growing: place 3 "
		 "(got %llu)", (unsigned long long)p[0]);
	cp_seqtab_free(t);
	cp_seqtab_free(NULL);
}

static void check_hash(void)
{
	struct cp_seqkey k = key(3, 2, 5, 11), o;
	uint64_t h = cp_sample_hash(&k, 4);
	int differ = 0;

	ta_check(h == cp_sample_hash(&k, 4), "the hash is a function");
	differ += cp_sample_hash(&k, 5) != h;
	o = key(4, 2, 5, 11);
	differ += cp_sample_hash(&o, 4) != h;
	o = key(3, 5, 2, 11);
	differ += cp_sample_hash(&o, 4) != h;	/* the other direction */
	o = key(3, 2, 5, 12);
	differ += cp_sample_hash(&o, 4) != h;
	ta_check(differ == 4, "place, communicator, direction and tag each "
		 "change the hash (%d of 4)", differ);
	ta_check(cp_sample_keep(h, 1) && cp_sample_keep(h + 1, 0),
		 "N = 1 (and 0) keeps every row");
}

/* Share of n messages of one channel kept at one in every `every`. */
static double kept_share(uint64_t every, uint64_t n)
{
	struct cp_seqkey k = key(0, 0, 1, 0);
	uint64_t i, kept = 0;

	for (i = 0; i < n; i++)
		kept += cp_sample_keep(cp_sample_hash(&k, i), every);
	return (double)kept / (double)n;
}

static void check_share(void)
{
	double s10 = kept_share(10, 200000), s3 = kept_share(3, 200000);

	/* binomial: sd of the share 0.00067 at 1/10, 0.001 at 1/3 */
	ta_check(s10 > 0.097 && s10 < 0.103, "1 in 10: %.4f kept", s10);
	ta_check(s3 > 0.328 && s3 < 0.339, "1 in 3: %.4f kept", s3);
}

/* One side of a job: the places it gives the messages of the channel
 * of interest, among other traffic of its own. */
static void side(struct cp_seqkey c, struct cp_seqkey other, int others,
		 bool *kept, int n)
{
	struct cp_seqtab *t = cp_seqtab_new();
	uint64_t p;
	int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < (i * others) % 5; j++)
			cp_seqtab_next(t, &other, &p);
		cp_seqtab_next(t, &c, &p);
		kept[i] = cp_sample_keep(cp_sample_hash(&c, p), 4);
	}
	cp_seqtab_free(t);
}

static void check_both_ends(void)
{
	struct cp_seqkey c = key(9, 2, 3, 1);
	bool snd[1000], rcv[1000];
	int i, same = 0, kept = 0;

	/* the sender also talks to rank 7, the receiver hears from 5 */
	side(c, key(9, 2, 7, 1), 3, snd, 1000);
	side(c, key(9, 5, 3, 1), 2, rcv, 1000);
	for (i = 0; i < 1000; i++) {
		same += snd[i] == rcv[i];
		kept += snd[i];
	}
	ta_check(same == 1000 && kept > 200 && kept < 300, "sender and "
		 "receiver keep the same %d of 1000 messages (agree on %d)",
		 kept, same);
}

int main(void)
{
	check_places();
	check_hash();
	check_share();
	check_both_ends();
	return ta_done("test_sample");
}
