/*
 * test_record_reuse.c - datatypes and communicators freed and made again
 * between calls, so that MPI hands their handles out again: every row
 * must carry the layout or communicator of its own call, not of the
 * object that holds the handle by the time the flusher reads the row.
 * Writes, per rank, the rows commprof must record
 * (tests/record_manifest.h); tests/test_record_c.sh runs it under the
 * preload on 2 and 3 ranks and compares (tests/record_check.py).
 *
 * The loops run in microseconds, much faster than the flusher drains
 * (every millisecond at least), so most rows are read after their
 * handle was reused: a row decoded with what the handle means at the
 * time of reading gets the next iteration's stride or communicator
 * size.  Each loop counts how often the handle came back; it prints
 * "unchecked" when MPI never reused one.
 *
 * usage: test_record_reuse MANIFEST_DIR
 */
#include <stdint.h>
#include <string.h>

#include "record_manifest.h"

#define ROUNDS 64

static char sbuf[1 << 16] __attribute__((aligned(16)));

/* 4 ints, every (2 + i % 5)-th: a stride of its own per iteration */
static void types(void)
{
	struct lay l = { "0", "4", NULL, "4" };
	char stride[16];
	MPI_Datatype t;
	uintptr_t prev = 0;
	int i, reused = 0;

	for (i = 0; i < ROUNDS; i++) {
		MPI_Type_vector(4, 1, 2 + i % 5, MPI_INT, &t);
		MPI_Type_commit(&t);
		reused += (uintptr_t)t == prev;
		prev = (uintptr_t)t;
		snprintf(stride, sizeof(stride), "%d", 4 * (2 + i % 5));
		l.stride = stride;
		ex(__LINE__ + 2, 0, "MPI_Send", -2, NONE, 300 + i, wsize, 16, 0,
		   &l, "procnull");
		MPI_Send(sbuf, 1, t, MPI_PROC_NULL, 300 + i, w);
		MPI_Type_free(&t);
	}
	if (!reused)
		printf("test_record_reuse: no datatype handle reused, "
		       "unchecked\n");
}

/* Even iterations: a communicator of every rank; odd ones: of this rank
 * alone.  Each is its own label: one id per communicator made. */
static void comms(void)
{
	char lab[32];
	MPI_Comm c;
	uintptr_t prev = 0;
	int i, reused = 0, self;

	for (i = 0; i < ROUNDS; i++) {
		self = i % 2;
		MPI_Comm_split(w, self ? wrank : 0, wrank, &c);
		reused += (uintptr_t)c == prev;
		prev = (uintptr_t)c;
		/* a communicator of one rank has an id of its own per rank */
		if (self)
			snprintf(lab, sizeof(lab), "self-%d-%d", wrank, i);
		else
			snprintf(lab, sizeof(lab), "all-%d", i);
		label = lab;
		ex(__LINE__ + 2, 0, "MPI_Send", -2, NONE, 400 + i,
		   self ? 1 : wsize, 10, 0, &L_B, "procnull");
		MPI_Send(sbuf, 10, MPI_BYTE, MPI_PROC_NULL, 400 + i, c);
		label = NULL;
		MPI_Comm_free(&c);
	}
	if (!reused)
		printf("test_record_reuse: no communicator handle reused, "
		       "unchecked\n");
}

int main(int argc, char **argv)
{
	if (manifest_init(&argc, &argv, "test_record_reuse"))
		return 2;
	types();
	comms();
	return manifest_close("test_record_reuse");
}
