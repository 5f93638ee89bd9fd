/*
 * test_record_xthread.c - requests posted on one thread and completed on
 * another (MPI_THREAD_MULTIPLE): each lives in its thread's ring, and
 * the flusher, which reads the rings one after the other, may read a
 * completion before its post; every row must still get its bytes, its
 * peer (from the status, for MPI_ANY_SOURCE) and no "not done" flag.
 * Writes, per rank, the rows commprof must record
 * (tests/record_manifest.h); tests/test_record_c.sh runs it under the
 * preload on 2 and 3 ranks and compares (tests/record_check.py).
 *
 * Ranks 0 and 1: the main thread posts NREQ receives (every fourth from
 * MPI_ANY_SOURCE) and NREQ sends to the other rank, distinct sizes by
 * tag; a second thread completes them all with one MPI_Waitall.  Without
 * MPI_THREAD_MULTIPLE it says so and records nothing to check.
 *
 * usage: test_record_xthread MANIFEST_DIR
 */
#include <pthread.h>
#include <string.h>

#include "record_manifest.h"

#define NREQ 16

static char sbuf[1 << 16] __attribute__((aligned(16)));
static char rbuf[1 << 16] __attribute__((aligned(16)));
static MPI_Request rq[2 * NREQ];

static void *complete(void *arg)
{
	(void)arg;
	MPI_Waitall(2 * NREQ, rq, MPI_STATUSES_IGNORE);
	return NULL;
}

static void posts(void)
{
	int o = 1 - wrank, i, src, in, out;
	const char *fl;
	pthread_t th;

	for (i = 0; i < NREQ; i++) {
		src = i % 4 ? o : MPI_ANY_SOURCE;
		fl = i % 4 ? "recv,nonblock" : "recv,nonblock,anysrc";
		in = 200 + 10 * i + o;	/* what the other rank sends */
		X("MPI_Irecv", o, NONE, 600 + i, wsize, in, &L_B, fl);
		MPI_Irecv(rbuf + 1024 * i, 1024, MPI_BYTE, src, 600 + i, w,
			  &rq[i]);
	}
	for (i = 0; i < NREQ; i++) {
		out = 200 + 10 * i + wrank;
		X("MPI_Isend", o, NONE, 600 + i, wsize, out, &L_B, "nonblock");
		MPI_Isend(sbuf, out, MPI_BYTE, o, 600 + i, w, &rq[NREQ + i]);
	}
	pthread_create(&th, NULL, complete, NULL);
	pthread_join(th, NULL);
}

int main(int argc, char **argv)
{
	char path[4096];
	int provided;

	if (argc != 2) {
		fprintf(stderr, "usage: test_record_xthread MANIFEST_DIR\n");
		return 2;
	}
	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	w = MPI_COMM_WORLD;
	MPI_Comm_rank(w, &wrank);
	MPI_Comm_size(w, &wsize);
	snprintf(path, sizeof(path), "%s/expect-%d.tsv", argv[1], wrank);
	mf = fopen(path, "w");
	if (!mf) {
		perror(path);
		MPI_Abort(w, 2);
	}
	memset(sbuf, 1, sizeof(sbuf));
	if (provided < MPI_THREAD_MULTIPLE) {
		if (wrank == 0)
			printf("test_record_xthread: no "
			       "MPI_THREAD_MULTIPLE, unchecked\n");
	} else if (wrank < 2) {
		posts();
	}
	return manifest_close("test_record_xthread");
}
