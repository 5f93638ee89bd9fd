/*
 * cp_sample.h - sampling by message identity (COMMPROF_SAMPLE), so that
 * the sender and the receiver of a message keep or leave out the same
 * messages and the matching still pairs what was kept.
 *
 * A message is named by its channel (job-wide communicator id, world
 * ranks of sender and receiver, tag) and its place in that channel: the
 * k-th message of a channel, counting from 0 in post order on each side,
 * which MPI's non-overtaking rule makes the same message on both sides.
 * A collective call is named by its communicator and its instance: the
 * k-th collective call of a rank on that communicator.  Both names hash
 * to 64 bits, and a row is kept when its hash falls in the sampled share
 * (cp_sample_keep): every rank decides alike without talking.
 *
 * The place k comes from a table of counters (struct cp_seqtab), one per
 * channel or communicator, kept by whoever sees a rank's rows in post
 * order (the library's flusher).  Plain libc.
 */
#ifndef CP_SAMPLE_H
#define CP_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

/* The sender and receiver of a collective's key (no world rank is < 0). */
#define CP_SAMPLE_COLL	(-1)

/* A channel, or a communicator's collectives (sender = receiver =
 * CP_SAMPLE_COLL, tag 0). */
struct cp_seqkey {
	uint32_t comm;		/* job-wide communicator id */
	int32_t sender;		/* world rank, or CP_SAMPLE_COLL */
	int32_t receiver;	/* world rank, or CP_SAMPLE_COLL */
	int32_t tag;		/* resolved tag; 0 for collectives */
};

/*
 * cp_sample_hash - the identity hash of the seq-th message of channel k
 * (or the seq-th collective call on k.comm).  The same inputs give the
 * same hash on every rank, host and run.  Cannot fail.
 */
uint64_t cp_sample_hash(const struct cp_seqkey *k, uint64_t seq);

/*
 * cp_sample_keep - whether the row of identity hash h is kept when one in
 * every n is sampled (n <= 1 keeps every row).  The kept share tends to
 * 1/n over many messages.  Cannot fail.
 */
static inline bool cp_sample_keep(uint64_t h, uint64_t n)
{
	return n <= 1 || h % n == 0;
}

/* Counters of places per key; opaque. */
struct cp_seqtab;

/* cp_seqtab_new - an empty table, or NULL when out of memory. */
struct cp_seqtab *cp_seqtab_new(void);

/*
 * cp_seqtab_next - the place of the next message of channel k (0 the
 * first time k is seen, then 1, 2, ...) into *seq.  Returns 0, or
 * -ENOMEM (the table could not grow; *seq unset, the table unchanged).
 */
int cp_seqtab_next(struct cp_seqtab *t, const struct cp_seqkey *k,
		   uint64_t *seq);

/* cp_seqtab_free - free t (may be NULL).  Cannot fail. */
void cp_seqtab_free(struct cp_seqtab *t);

#endif
