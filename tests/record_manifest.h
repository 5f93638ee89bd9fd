/*
 * record_manifest.h - what a recording test program writes down before
 * each MPI call: the row commprof must record for it, one line per row
 * in MANIFEST_DIR/expect-<world rank>.tsv (format: tests/record_check.py).
 * Shared by tests/test_record_c.c and tests/test_record_comm.c; each
 * program has its own copy of these statics.
 */
#ifndef RECORD_MANIFEST_H
#define RECORD_MANIFEST_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

#define NONE INT_MIN		/* the CSV field is empty */
#define ANYV (INT_MIN + 1)	/* any value is accepted */

/* Expected layout columns: contiguous, block_bytes, stride_bytes, nblocks,
 * as CSV text; "*" accepts anything. */
struct lay {
	const char *contig, *block, *stride, *nblocks;
};

/* predefined types: one contiguous block of the type's size */
static const struct lay L_B = { "1", "1", "1", "1" };	/* BYTE */
static const struct lay L_I = { "1", "4", "4", "1" };	/* INT */
static const struct lay L_D = { "1", "8", "8", "1" };	/* DOUBLE, LONG */
static const struct lay L_NONE = { "-", "-", "-", "-" };	/* no type */

static FILE *mf;
static int wrank, wsize;
static MPI_Comm w;		/* MPI_COMM_WORLD, short for one-line calls */
static const char *label;	/* communicator label of the next rows */

static void fld(int v)
{
	if (v == NONE)
		fputs("-\t", mf);
	else if (v == ANYV)
		fputs("*\t", mf);
	else
		fprintf(mf, "%d\t", v);
}

/*
 * ex - append one expected row: its call's line (and an alternative line
 * alt, 0 for none), op, peer and root as world ranks, tag, comm_size,
 * bytes (bytes2: another accepted value, or -1), layout, and the flags
 * that must be set (comma separated names, "" for none checked).  The
 * row carries the current label: rows of one label, on every rank, must
 * share one communicator id, rows of two labels must not.
 */
static void ex(int line, int alt, const char *op, int peer, int root,
	       int tag, int csize, long bytes, long bytes2,
	       const struct lay *l, const char *flags)
{
	fprintf(mf, "%s\t", op);
	fld(peer);
	fld(root);
	fld(tag);
	fld(csize);
	if (bytes == ANYV)
		fputs("*\t", mf);
	else if (bytes2 >= 0)
		fprintf(mf, "%ld/%ld\t", bytes, bytes2);
	else
		fprintf(mf, "%ld\t", bytes);
	fprintf(mf, "%s\t%s\t%s\t%s\t", l->contig, l->block, l->stride,
		l->nblocks);
	if (alt)
		fprintf(mf, "%d/%d\t", line, alt);
	else
		fprintf(mf, "%d\t", line);
	fprintf(mf, "%s\t%s\n", flags[0] ? flags : "-", label ? label : "-");
}

/*
 * An expectation sits on one line; its call starts on the next line (a
 * wrapped call's return address belongs to its first line).  E2() is for
 * a call that makes two rows, the first of two expectations above it.
 */
#define X(op, peer, root, tag, cs, bytes, l, fl) \
	ex(__LINE__ + 1, 0, op, peer, root, tag, cs, bytes, -1, l, fl)
#define E2(op, peer, tag, bytes, l, fl) \
	ex(__LINE__ + 2, 0, op, peer, NONE, tag, wsize, bytes, -1, l, fl)
/* A collective on a communicator of size cs. */
#define XC(op, root, cs, bytes, l, fl) \
	ex(__LINE__ + 1, 0, op, NONE, root, NONE, cs, bytes, -1, l, fl)
/* A barrier: no data, no datatype. */
#define XB(cs) \
	ex(__LINE__ + 1, 0, "MPI_Barrier", NONE, NONE, NONE, cs, 0, -1, \
	   &L_NONE, "")

/*
 * manifest_init - check the command line of program name (one argument,
 * the manifest directory), MPI_Init, set w, wrank and wsize and open this
 * rank's manifest.  Returns 0, or 2 after a usage line (no MPI_Init);
 * aborts the job when the manifest cannot be written.
 */
static int manifest_init(int *argc, char ***argv, const char *name)
{
	char path[4096];

	if (*argc != 2) {
		fprintf(stderr, "usage: %s MANIFEST_DIR\n", name);
		return 2;
	}
	MPI_Init(argc, argv);
	w = MPI_COMM_WORLD;
	MPI_Comm_rank(w, &wrank);
	MPI_Comm_size(w, &wsize);
	snprintf(path, sizeof(path), "%s/expect-%d.tsv", (*argv)[1], wrank);
	mf = fopen(path, "w");
	if (!mf) {
		perror(path);
		MPI_Abort(w, 2);
	}
	return 0;
}
/* manifest_close - close the manifest, MPI_Finalize, and on rank 0 say
 * "name: N ranks done" (what the test script expects).  Returns 0. */
static int manifest_close(const char *name)
{
	fclose(mf);
	MPI_Finalize();
	if (wrank == 0)
		printf("%s: %d ranks done\n", name, wsize);
	return 0;
}

#endif
