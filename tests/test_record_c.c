/*
 * test_record_c.c - makes known MPI calls and writes, per rank, the rows
 * commprof must record for them: tests/test_record_c.sh runs it under the
 * preload, exports the database and compares (tests/record_check.py).
 *
 * Every point-to-point call has its own size so that a swapped row fails.
 * Point-to-point runs between world ranks 0 and 1; the collectives run on
 * all ranks (2 or more).  Each expectation names the source line of its
 * call (see X() in record_manifest.h).  The manifest format is in
 * tests/record_check.py.
 *
 * usage: test_record_c MANIFEST_DIR
 */
#include <string.h>

#include "record_manifest.h"

static const struct lay L_VEC = { "0", "8", "1024", "16" };
static const struct lay L_CON = { "1", "800", "800", "1" };	/* 100 dbl */
static const struct lay L_ANY = { "*", "*", "*", "*" };

static char sbuf[1 << 16] __attribute__((aligned(16)));
static char rbuf[1 << 16] __attribute__((aligned(16)));
static char bsend_buf[1 << 16];

/* Blocking sends of every mode, receives with and without status and
 * with wildcards, both directions. */
static void p2p_blocking(void)
{
	MPI_Status st;
	MPI_Request rq;

	if (wrank == 0) {
		X("MPI_Send", 1, NONE, 11, wsize, 101, &L_B, "");
		MPI_Send(sbuf, 101, MPI_BYTE, 1, 11, w);
		X("MPI_Ssend", 1, NONE, 12, wsize, 203, &L_B, "");
		MPI_Ssend(sbuf, 203, MPI_BYTE, 1, 12, w);
		X("MPI_Bsend", 1, NONE, 13, wsize, 305, &L_B, "");
		MPI_Bsend(sbuf, 305, MPI_BYTE, 1, 13, w);
		XB(wsize);
		MPI_Barrier(w);
		X("MPI_Rsend", 1, NONE, 14, wsize, 407, &L_B, "");
		MPI_Rsend(sbuf, 407, MPI_BYTE, 1, 14, w);
		X("MPI_Send", 1, NONE, 15, wsize, 509, &L_B, "");
		MPI_Send(sbuf, 509, MPI_BYTE, 1, 15, w);
		X("MPI_Recv", 1, NONE, 16, wsize, 611, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, 1, 16, w, &st);
		/* 17 ints arrive where 1000 were allowed */
		X("MPI_Recv", 1, NONE, 17, wsize, 68, &L_I, "recv");
		MPI_Recv(rbuf, 1000, MPI_INT, 1, 17, w, MPI_STATUS_IGNORE);
	} else if (wrank == 1) {
		X("MPI_Recv", 0, NONE, 11, wsize, 101, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 11, w, MPI_STATUS_IGNORE);
		X("MPI_Recv", 0, NONE, 12, wsize, 203, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 12, w, &st);
		X("MPI_Recv", 0, NONE, 13, wsize, 305, &L_B, "recv,anysrc");
		MPI_Recv(rbuf, 4096, MPI_BYTE, MPI_ANY_SOURCE, 13, w, &st);
		X("MPI_Irecv", 0, NONE, 14, wsize, 407, &L_B, "recv,nonblock");
		MPI_Irecv(rbuf, 4096, MPI_BYTE, 0, 14, w, &rq);
		XB(wsize);
		MPI_Barrier(w);
		MPI_Wait(&rq, &st);
		/* both wildcards, status ignored: source and tag resolved */
		X("MPI_Recv", 0, NONE, 15, wsize, 509, &L_B, "recv,anysrc");
		MPI_Recv(rbuf, 4096, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, w,
			MPI_STATUS_IGNORE);
		X("MPI_Send", 0, NONE, 16, wsize, 611, &L_B, "");
		MPI_Send(sbuf, 611, MPI_BYTE, 0, 16, w);
		X("MPI_Send", 0, NONE, 17, wsize, 68, &L_I, "");
		MPI_Send(sbuf, 17, MPI_INT, 0, 17, w);
	} else {
		XB(wsize);
		MPI_Barrier(w);
	}
}

/* The four nonblocking send modes, completed by one Waitall. */
static void p2p_isend(void)
{
	MPI_Request rq[4];

	if (wrank == 0) {
		XB(wsize);
		MPI_Barrier(w);
		X("MPI_Isend", 1, NONE, 21, wsize, 713, &L_B, "nonblock");
		MPI_Isend(sbuf, 713, MPI_BYTE, 1, 21, w, &rq[0]);
		X("MPI_Ibsend", 1, NONE, 22, wsize, 815, &L_B, "nonblock");
		MPI_Ibsend(sbuf, 815, MPI_BYTE, 1, 22, w, &rq[1]);
		X("MPI_Issend", 1, NONE, 23, wsize, 917, &L_B, "nonblock");
		MPI_Issend(sbuf, 917, MPI_BYTE, 1, 23, w, &rq[2]);
		X("MPI_Irsend", 1, NONE, 24, wsize, 1019, &L_B, "nonblock");
		MPI_Irsend(sbuf, 1019, MPI_BYTE, 1, 24, w, &rq[3]);
		MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
	} else if (wrank == 1) {
		/* the ready send needs its receive posted first */
		X("MPI_Irecv", 0, NONE, 24, wsize, 1019, &L_B, "recv,nonblock");
		MPI_Irecv(rbuf + 8192, 4096, MPI_BYTE, 0, 24, w, &rq[3]);
		XB(wsize);
		MPI_Barrier(w);
		X("MPI_Recv", 0, NONE, 21, wsize, 713, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 21, w, MPI_STATUS_IGNORE);
		X("MPI_Recv", 0, NONE, 22, wsize, 815, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 22, w, MPI_STATUS_IGNORE);
		X("MPI_Recv", 0, NONE, 23, wsize, 917, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 23, w, MPI_STATUS_IGNORE);
		MPI_Wait(&rq[3], MPI_STATUS_IGNORE);
	} else {
		XB(wsize);
		MPI_Barrier(w);
	}
}

#define NIR 12		/* receives completed by the completion forms */

/* Rank 1 posts NIR receives (two on ANY_SOURCE) and completes them with
 * every Wait and Test form; rank 0 sends sizes 1100 + 11 * i. */
static void p2p_completion(void)
{
	MPI_Request rq[NIR];
	MPI_Status sts[NIR];
	int i, flag, idx, n, outc, ids[NIR];

	if (wrank == 0) {
		for (i = 0; i < NIR; i++) {
			int b = 1100 + 11 * i;

			X("MPI_Send", 1, NONE, 30 + i, wsize, b, &L_B, "");
			MPI_Send(sbuf, 1100 + 11 * i, MPI_BYTE, 1, 30 + i, w);
		}
		return;
	}
	if (wrank != 1)
		return;
	for (i = 0; i < NIR; i++) {
		int src = (i == 3 || i == 7) ? MPI_ANY_SOURCE : 0;

		const char *fl = src ? "recv,nonblock,anysrc" : "recv,nonblock";

		X("MPI_Irecv", 0, NONE, 30 + i, wsize, 1100 + 11 * i, &L_B, fl);
		MPI_Irecv(rbuf + 4096 * (i % 8), 4096, MPI_BYTE, src, 30 + i, w,
			&rq[i]);
	}
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	for (flag = 0; !flag;)
		MPI_Test(&rq[1], &flag, &sts[1]);
	MPI_Waitall(2, &rq[2], MPI_STATUSES_IGNORE);
	for (n = 0; n < 2; n++)
		MPI_Waitany(2, &rq[4], &idx, &sts[0]);
	for (n = 0; n < 2; n += outc)
		MPI_Waitsome(2, &rq[6], &outc, ids, sts);
	for (flag = 0; !flag;)
		MPI_Testall(2, &rq[8], &flag, MPI_STATUSES_IGNORE);
	for (n = 0; n < 1;) {
		MPI_Testany(1, &rq[10], &idx, &flag, MPI_STATUS_IGNORE);
		n += flag && idx != MPI_UNDEFINED;
	}
	for (n = 0; n < 1; n += outc)
		MPI_Testsome(1, &rq[11], &outc, ids, sts);
}

/* Sendrecv, Sendrecv_replace, matched probes, Probe and Iprobe. */
static void p2p_misc(void)
{
	MPI_Message msg;
	MPI_Request rq;
	MPI_Status st;
	int o = 1 - wrank, flag, sb = wrank ? 1403 : 1301;
	const char *rh = "recv,half";	/* receive half of a Sendrecv */

	if (wrank > 1)
		return;
	/* rank 0 sends 1301 and receives 1403 bytes, rank 1 the reverse:
	 * one row for the send and one for the receive, same callsite */
	E2("MPI_Sendrecv", o, 51 + wrank, sb, &L_B, "");
	X("MPI_Sendrecv", o, NONE, 52 - wrank, wsize, 2704 - sb, &L_B, rh);
	MPI_Sendrecv(sbuf, sb, MPI_BYTE, o, 51 + wrank, rbuf,
		4096, MPI_BYTE, o, 52 - wrank, w, &st);
	E2("MPI_Sendrecv_replace", o, 54 - wrank, 604, &L_I, "");
	X("MPI_Sendrecv_replace", o, NONE, 53 + wrank, wsize, 604, &L_I, rh);
	MPI_Sendrecv_replace(rbuf, 151, MPI_INT, o, 54 - wrank, o, 53 + wrank,
		w, MPI_STATUS_IGNORE);
	if (wrank == 0) {
		X("MPI_Send", 1, NONE, 61, wsize, 1505, &L_B, "");
		MPI_Send(sbuf, 1505, MPI_BYTE, 1, 61, w);
		X("MPI_Send", 1, NONE, 62, wsize, 1607, &L_B, "");
		MPI_Send(sbuf, 1607, MPI_BYTE, 1, 62, w);
		X("MPI_Send", 1, NONE, 63, wsize, 1709, &L_B, "");
		MPI_Send(sbuf, 1709, MPI_BYTE, 1, 63, w);
		X("MPI_Send", 1, NONE, 64, wsize, 1811, &L_B, "");
		MPI_Send(sbuf, 1811, MPI_BYTE, 1, 64, w);
		return;
	}
	X("MPI_Mprobe", 0, NONE, 61, wsize, ANYV, &L_ANY, "");
	MPI_Mprobe(MPI_ANY_SOURCE, 61, w, &msg, &st);
	X("MPI_Mrecv", 0, NONE, 61, ANYV, 1505, &L_B, "recv");
	MPI_Mrecv(rbuf, 4096, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
	for (flag = 0; !flag;) {
		/* unsuccessful probes may not know peer and tag */
		X("MPI_Improbe", ANYV, NONE, ANYV, wsize, ANYV, &L_ANY, "");
		MPI_Improbe(0, 62, w, &flag, &msg, &st);
	}
	X("MPI_Imrecv", 0, NONE, 62, ANYV, 1607, &L_B, "recv,nonblock");
	MPI_Imrecv(rbuf, 4096, MPI_BYTE, &msg, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	X("MPI_Probe", 0, NONE, 63, wsize, ANYV, &L_ANY, "");
	MPI_Probe(0, 63, w, &st);
	X("MPI_Recv", 0, NONE, 63, wsize, 1709, &L_B, "recv");
	MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 63, w, MPI_STATUS_IGNORE);
	for (flag = 0; !flag;) {
		X("MPI_Iprobe", ANYV, NONE, ANYV, wsize, ANYV, &L_ANY, "");
		MPI_Iprobe(MPI_ANY_SOURCE, 64, w, &flag, &st);
	}
	X("MPI_Recv", 0, NONE, 64, wsize, 1811, &L_B, "recv");
	MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 64, w, MPI_STATUS_IGNORE);
}

/* The rows of the first n persistent requests, started on line sl. */
static void persist_expect(int sl, const int *il, int n)
{
	static const char *const sops[3] = {
		"MPI_Send_init", "MPI_Ssend_init", "MPI_Bsend_init"
	};

	for (int i = 0; i < n; i++) {
		const char *op = wrank ? "MPI_Recv_init" : sops[i];
		const char *fl = wrank ? "recv,persistent" : "persistent";

		if (wrank && i == 2)
			fl = "recv,persistent,anysrc";
		ex(sl, il[i], op, 1 - wrank, NONE, 71 + i, wsize,
		   1913 + 102 * i, -1, &L_B, fl);
	}
}

/* Persistent requests: 3 rounds of Start, 2 of Startall.  A row's
 * callsite may be its init call or its start call. */
static void p2p_persistent(void)
{
	MPI_Request rq[3];
	int il[3], k;

	if (wrank > 1)
		return;
	if (wrank == 0) {
		il[0] = __LINE__ + 1;
		MPI_Send_init(sbuf, 1913, MPI_BYTE, 1, 71, w, &rq[0]);
		il[1] = __LINE__ + 1;
		MPI_Ssend_init(sbuf, 2015, MPI_BYTE, 1, 72, w, &rq[1]);
		il[2] = __LINE__ + 1;
		MPI_Bsend_init(sbuf, 2117, MPI_BYTE, 1, 73, w, &rq[2]);
	} else {
		il[0] = __LINE__ + 1;
		MPI_Recv_init(rbuf, 4096, MPI_BYTE, 0, 71, w, &rq[0]);
		il[1] = __LINE__ + 1;
		MPI_Recv_init(rbuf + 4096, 4096, MPI_BYTE, 0, 72, w, &rq[1]);
		il[2] = __LINE__ + 1;
		MPI_Recv_init(rbuf + 8192, 4096, MPI_BYTE, MPI_ANY_SOURCE, 73,
			w, &rq[2]);
	}
	for (k = 0; k < 5; k++) {
		if (k < 3) {
			MPI_Start(&rq[0]);
			persist_expect(__LINE__ - 1, il, 1);
			MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		} else {
			MPI_Startall(3, rq);
			persist_expect(__LINE__ - 1, il, 3);
			MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
		}
	}
	for (k = 0; k < 3; k++)
		MPI_Request_free(&rq[k]);
}

/* MPI_PROC_NULL, zero counts, a strided vector, its duplicate (usable
 * without a commit of its own) and a contiguous type. */
static void p2p_special(void)
{
	MPI_Datatype vec, con, dup;
	const char *pn = "procnull";

	/* bytes: what the call asked for, or the 0 that moved */
	ex(__LINE__ + 1, 0, "MPI_Send", -2, NONE, 81, wsize, 10, 0, &L_B, pn);
	MPI_Send(sbuf, 10, MPI_BYTE, MPI_PROC_NULL, 81, w);
	X("MPI_Recv", -2, NONE, ANYV, wsize, 0, &L_B, "procnull,recv");
	MPI_Recv(rbuf, 10, MPI_BYTE, MPI_PROC_NULL, 82, w, MPI_STATUS_IGNORE);

	MPI_Type_vector(16, 1, 128, MPI_DOUBLE, &vec);
	MPI_Type_commit(&vec);
	MPI_Type_contiguous(100, MPI_DOUBLE, &con);
	MPI_Type_commit(&con);
	MPI_Type_dup(vec, &dup);
	if (wrank == 0) {
		X("MPI_Send", 1, NONE, 83, wsize, 0, &L_I, "zero");
		MPI_Send(sbuf, 0, MPI_INT, 1, 83, w);
		X("MPI_Send", 1, NONE, 84, wsize, 128, &L_VEC, "");
		MPI_Send(sbuf, 1, vec, 1, 84, w);
		X("MPI_Send", 1, NONE, 85, wsize, 800, &L_CON, "");
		MPI_Send(sbuf, 1, con, 1, 85, w);
		X("MPI_Send", 1, NONE, 86, wsize, 256, &L_VEC, "");
		MPI_Send(sbuf, 2, vec, 1, 86, w);
		X("MPI_Send", 1, NONE, 87, wsize, 128, &L_VEC, "");
		MPI_Send(sbuf, 1, dup, 1, 87, w);
	} else if (wrank == 1) {
		X("MPI_Recv", 0, NONE, 83, wsize, 0, &L_I, "zero,recv");
		MPI_Recv(rbuf, 0, MPI_INT, 0, 83, w, MPI_STATUS_IGNORE);
		X("MPI_Recv", 0, NONE, 84, wsize, 128, &L_D, "recv");
		MPI_Recv(rbuf, 16, MPI_DOUBLE, 0, 84, w, MPI_STATUS_IGNORE);
		X("MPI_Recv", 0, NONE, 85, wsize, 800, &L_CON, "recv");
		MPI_Recv(rbuf, 1, con, 0, 85, w, MPI_STATUS_IGNORE);
		X("MPI_Recv", 0, NONE, 86, wsize, 256, &L_VEC, "recv");
		MPI_Recv(sbuf + 32768, 2, vec, 0, 86, w, MPI_STATUS_IGNORE);
		X("MPI_Recv", 0, NONE, 87, wsize, 128, &L_D, "recv");
		MPI_Recv(rbuf, 16, MPI_DOUBLE, 0, 87, w, MPI_STATUS_IGNORE);
	}
	MPI_Type_free(&dup);
	MPI_Type_free(&vec);
	MPI_Type_free(&con);
}

/* A communicator with the world order reversed: its rank r is world rank
 * size - 1 - r, so untranslated peers and roots fail. */
static void split_comm(void)
{
	MPI_Comm c;
	int root_w = wsize - 1;	/* world rank of rank 0 of c */

	MPI_Comm_split(w, 0, wsize - wrank, &c);
	if (wrank == 0) {
		/* world 1 is rank wsize - 2 of c */
		X("MPI_Send", 1, NONE, 93, wsize, 2219, &L_B, "");
		MPI_Send(sbuf, 2219, MPI_BYTE, wsize - 2, 93, c);
	} else if (wrank == 1) {
		X("MPI_Recv", 0, NONE, 93, wsize, 2219, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, wsize - 1, 93, c,
			MPI_STATUS_IGNORE);
	}
	XC("MPI_Bcast", root_w, wsize, 2321, &L_B, "");
	MPI_Bcast(sbuf, 2321, MPI_BYTE, 0, c);
	XC("MPI_Reduce", root_w, wsize, 104, &L_D, "");
	MPI_Reduce(sbuf, rbuf, 13, MPI_DOUBLE, MPI_SUM, 0, c);
	XC("MPI_Gather", wsize - 2, wsize, 116, &L_I, "");
	MPI_Gather(sbuf, 29, MPI_INT, rbuf, 29, MPI_INT, 1, c);
	MPI_Comm_free(&c);
}

/* Every blocking collective, two nonblocking ones and neighbour
 * collectives on a periodic ring, with per-process blocks of distinct
 * sizes (ints: 4 bytes). */
static void collectives(void)
{
	int sc[64], sd[64], rc[64], rd[64], i, n = wsize, r = wrank;
	int tot = 0;
	MPI_Datatype ty[64];
	MPI_Request rq[2];
	MPI_Comm cart;
	int dims[1] = { wsize }, per[1] = { 1 };
	/* neighbour blocks: 67 ints to the left, 69 to the right, so a rank
	 * receives 69 from its left and 67 from its right */
	int nc[2] = { 67, 69 }, nd[2] = { 0, 67 };
	int mc[2] = { 69, 67 }, md[2] = { 0, 69 };
	long *lb = (long *)rbuf;

	for (i = 0; i < n; i++) {
		sc[i] = 10 + i;
		sd[i] = 100 * i;
		rc[i] = 10 + r;
		rd[i] = 100 * i;
		ty[i] = MPI_INT;
	}
	XB(n);
	MPI_Barrier(w);
	XC("MPI_Bcast", 0, n, 2423, &L_B, "");
	MPI_Bcast(sbuf, 2423, MPI_BYTE, 0, w);
	XC("MPI_Scatter", 1, n, 100, &L_I, "");
	MPI_Scatter(sbuf, 25, MPI_INT, rbuf, 25, MPI_INT, 1, w);
	/* rank r receives 10 + r ints */
	XC("MPI_Scatterv", 0, n, 4 * (10 + r), &L_I, "varblock");
	MPI_Scatterv(sbuf, sc, sd, MPI_INT, rbuf, 10 + r, MPI_INT, 0, w);
	XC("MPI_Gather", 1, n, 108, &L_I, "");
	MPI_Gather(sbuf, 27, MPI_INT, rbuf, 27, MPI_INT, 1, w);
	for (i = 0; i < n; i++)
		rc[i] = 30 + i;
	XC("MPI_Gatherv", 0, n, 4 * (30 + r), &L_I, "varblock");
	MPI_Gatherv(sbuf, 30 + r, MPI_INT, rbuf, rc, sd, MPI_INT, 0, w);
	XC("MPI_Allgather", NONE, n, 132, &L_I, "");
	MPI_Allgather(sbuf, 33, MPI_INT, rbuf, 33, MPI_INT, w);
	XC("MPI_Allgatherv", NONE, n, 4 * (30 + r), &L_I, "varblock");
	MPI_Allgatherv(sbuf, 30 + r, MPI_INT, rbuf, rc, sd, MPI_INT, w);
	XC("MPI_Alltoall", NONE, n, 148, &L_I, "");
	MPI_Alltoall(sbuf, 37, MPI_INT, rbuf, 37, MPI_INT, w);
	/* rank r sends 40 + r + i ints to rank i: the row has its total */
	for (i = 0, tot = 0; i < n; i++) {
		sc[i] = 40 + r + i;
		rc[i] = 40 + i + r;
		tot += sc[i];
	}
	XC("MPI_Alltoallv", NONE, n, 4 * tot, &L_I, "varblock");
	MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, w);
	for (i = 0; i < n; i++) {
		sd[i] *= 4;
		rd[i] *= 4;
	}
	/* one datatype per peer: no single layout */
	XC("MPI_Alltoallw", NONE, n, 4 * tot, &L_NONE, "varblock");
	MPI_Alltoallw(sbuf, sc, sd, ty, rbuf, rc, rd, ty, w);
	XC("MPI_Reduce", 1, n, 360, &L_D, "");
	MPI_Reduce(sbuf, rbuf, 45, MPI_DOUBLE, MPI_SUM, 1, w);
	XC("MPI_Allreduce", NONE, n, 376, &L_D, "");
	MPI_Allreduce(sbuf, rbuf, 47, MPI_DOUBLE, MPI_SUM, w);
	for (i = 0; i < 49; i++)
		lb[i] = i + r;
	XC("MPI_Allreduce", NONE, n, 392, &L_D, "inplace");
	MPI_Allreduce(MPI_IN_PLACE, lb, 49, MPI_LONG, MPI_SUM, w);
	for (i = 0; i < 49; i++)
		if (lb[i] != (long)n * i + (long)n * (n - 1) / 2) {
			fprintf(stderr, "in-place allreduce: wrong result\n");
			MPI_Abort(w, 3);
		}
	for (i = 0; i < n; i++)
		rc[i] = 50 + i;
	XC("MPI_Reduce_scatter", NONE, n, 4 * (50 + r), &L_I, "varblock");
	MPI_Reduce_scatter(sbuf, rbuf, rc, MPI_INT, MPI_SUM, w);
	XC("MPI_Reduce_scatter_block", NONE, n, 212, &L_I, "");
	MPI_Reduce_scatter_block(sbuf, rbuf, 53, MPI_INT, MPI_SUM, w);
	XC("MPI_Scan", NONE, n, 220, &L_I, "");
	MPI_Scan(sbuf, rbuf, 55, MPI_INT, MPI_SUM, w);
	XC("MPI_Exscan", NONE, n, 228, &L_I, "");
	MPI_Exscan(sbuf, rbuf, 57, MPI_INT, MPI_SUM, w);
	XC("MPI_Ibcast", 0, n, 236, &L_I, "nonblock");
	MPI_Ibcast(sbuf, 59, MPI_INT, 0, w, &rq[0]);
	XC("MPI_Iallreduce", NONE, n, 244, &L_I, "nonblock");
	MPI_Iallreduce(sbuf + 8192, rbuf + 8192, 61, MPI_INT, MPI_SUM, w,
		&rq[1]);
	MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);

	MPI_Cart_create(w, 1, dims, per, 0, &cart);
	XC("MPI_Neighbor_allgather", NONE, n, 252, &L_I, "");
	MPI_Neighbor_allgather(sbuf, 63, MPI_INT, rbuf, 63, MPI_INT, cart);
	XC("MPI_Neighbor_alltoall", NONE, n, 260, &L_I, "");
	MPI_Neighbor_alltoall(sbuf, 65, MPI_INT, rbuf, 65, MPI_INT, cart);
	/* a 1-D cart has 2 neighbours: bytes is the total of both blocks */
	XC("MPI_Neighbor_alltoallv", NONE, n, 4 * (67 + 69), &L_I, "varblock");
	MPI_Neighbor_alltoallv(sbuf, nc, nd, MPI_INT, rbuf, mc, md, MPI_INT, cart);
	MPI_Comm_free(&cart);
}

int main(int argc, char **argv)
{
	if (manifest_init(&argc, &argv, "test_record_c"))
		return 2;
	memset(sbuf, 1, sizeof(sbuf));
	MPI_Buffer_attach(bsend_buf, sizeof(bsend_buf));

	p2p_blocking();
	p2p_isend();
	p2p_completion();
	p2p_misc();
	p2p_persistent();
	p2p_special();
	split_comm();
	collectives();

	return manifest_close("test_record_c");
}
