/*
 * sample_keep.c - which rows of a rank COMMPROF_SAMPLE=N would keep, by
 * the library's rule (src/lib/cp_flush.c, sampled()): a message or a
 * collective call by the hash of its identity and place
 * (src/common/cp_sample.h), any other row one in every N.
 *
 * usage: sample_keep N < rows
 * Each input line is one row of a rank, in the order the flusher saw
 * them: "comm sender receiver tag" for a row with an identity (sender
 * and receiver -1 and tag 0 for a collective call), "-" for any other.
 * Each output line is 1 (kept) or 0.  Exit 1 on bad input or memory.
 * Used by tests/test_sample_mu.sh to sample a run after the fact.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "src/common/cp_sample.h"

int main(int argc, char **argv)
{
	struct cp_seqtab *t = cp_seqtab_new();
	struct cp_seqkey k;
	char line[256];
	uint64_t n, place, seen = 0;
	int keep;

	if (argc != 2 || !t) {
		fprintf(stderr, "usage: sample_keep N < rows\n");
		return 1;
	}
	n = strtoull(argv[1], NULL, 10);
	for (; fgets(line, sizeof(line), stdin); seen++) {
		if (line[0] == '-') {
			keep = seen % n == 0;
		} else if (sscanf(line, "%" SCNu32 " %" SCNd32 " %" SCNd32
				  " %" SCNd32, &k.comm, &k.sender, &k.receiver,
				  &k.tag) == 4 && !cp_seqtab_next(t, &k, &place)) {
			keep = cp_sample_keep(cp_sample_hash(&k, place), n);
		} else {
			fprintf(stderr, "sample_keep: bad row: %s", line);
			cp_seqtab_free(t);
			return 1;
		}
		printf("%d\n", keep);
	}
	cp_seqtab_free(t);
	return 0;
}
