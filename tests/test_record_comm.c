/*
 * test_record_comm.c - the wrapped calls tests/test_record_c.c does not
 * make: every other way to make a communicator and MPI_Comm_disconnect,
 * the nonblocking collectives, the neighbour collectives on cartesian,
 * graph and distributed graph communicators, MPI_Rsend_init and
 * MPI_Cancel.  Writes, per rank, the rows commprof must record
 * (tests/record_manifest.h); tests/test_record_c.sh runs it under the
 * preload on 2 and 3 ranks and compares (tests/record_check.py).
 *
 * A call that makes a communicator records no row: it registers the
 * communicator, whose id counts the communicators with the same members
 * this rank made before.  So each such call makes two, a and b; world
 * rank 0 uses a first, then every member uses b, and the rows on b carry
 * one label: a call that stopped registering makes rank 0 give b another
 * id than the other ranks do.
 *
 * usage: test_record_comm MANIFEST_DIR
 */
#include <stdint.h>
#include <string.h>

#include "record_manifest.h"

/* A barrier on a communicator of size cs, rows flagged fl. */
#define XBF(cs, fl) \
	ex(__LINE__ + 1, 0, "MPI_Barrier", NONE, NONE, NONE, cs, 0, -1, \
	   &L_NONE, fl)

static const char *nv = "nonblock,varblock";

static char sbuf[1 << 16] __attribute__((aligned(16)));
static char rbuf[1 << 16] __attribute__((aligned(16)));

/* Size a row on c reports: the remote group's for an intercommunicator. */
static int row_size(MPI_Comm c)
{
	int inter = 0, n = 0;

	MPI_Comm_test_inter(c, &inter);
	if (inter)
		MPI_Comm_remote_size(c, &n);
	else
		MPI_Comm_size(c, &n);
	return n;
}

/*
 * pair - a and b were made, in this order, by the call name on the same
 * members: world rank 0 sends to MPI_PROC_NULL on a, then every member
 * enters a barrier on b.  Rows on an intercommunicator are labelled only
 * on a side of two or more ranks (the two sides see different groups).
 */
static void pair(const char *name, MPI_Comm a, MPI_Comm b)
{
	char la[64], lb[64];
	int inter = 0, local = 0, n = row_size(b);
	const char *fl;

	MPI_Comm_test_inter(b, &inter);
	MPI_Comm_size(b, &local);
	snprintf(la, sizeof(la), "%s-a", name);
	snprintf(lb, sizeof(lb), "%s-b", name);
	label = !inter || local > 1 ? la : NULL;
	if (wrank == 0) {
		fl = inter ? "procnull,inter" : "procnull";
		ex(__LINE__ + 1, 0, "MPI_Send", -2, NONE, 90, n, 10, 0, &L_B, fl);
		MPI_Send(sbuf, 10, MPI_BYTE, MPI_PROC_NULL, 90, a);
	}
	label = !inter || local > 1 ? lb : NULL;
	XBF(n, inter ? "inter" : "");
	MPI_Barrier(b);
	label = NULL;
}

/* Dup with info, split by type (reversed: its rank 0 is world's last),
 * create from a reversed group, create_group of world ranks 0 and 1. */
static void comm_make(void)
{
	MPI_Comm a, b;
	MPI_Group wg, g;
	int ranks[64], i, last = wsize - 1;

	MPI_Comm_dup_with_info(w, MPI_INFO_NULL, &a);
	MPI_Comm_dup_with_info(w, MPI_INFO_NULL, &b);
	pair("dup_with_info", a, b);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);

	MPI_Comm_split_type(w, MPI_COMM_TYPE_SHARED, wsize - wrank,
			    MPI_INFO_NULL, &a);
	MPI_Comm_split_type(w, MPI_COMM_TYPE_SHARED, wsize - wrank,
			    MPI_INFO_NULL, &b);
	pair("split_type", a, b);
	XC("MPI_Bcast", last, wsize, 2503, &L_B, "");
	MPI_Bcast(sbuf, 2503, MPI_BYTE, 0, b);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);

	MPI_Comm_group(w, &wg);
	for (i = 0; i < wsize; i++)
		ranks[i] = wsize - 1 - i;
	MPI_Group_incl(wg, wsize, ranks, &g);
	MPI_Comm_create(w, g, &a);
	MPI_Comm_create(w, g, &b);
	pair("create", a, b);
	if (wrank == 0) {	/* world 1 is rank wsize - 2 of b */
		X("MPI_Send", 1, NONE, 91, wsize, 2605, &L_B, "");
		MPI_Send(sbuf, 2605, MPI_BYTE, wsize - 2, 91, b);
	} else if (wrank == 1) {
		X("MPI_Recv", 0, NONE, 91, wsize, 2605, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, last, 91, b, MPI_STATUS_IGNORE);
	}
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
	MPI_Group_free(&g);

	ranks[0] = 0;
	ranks[1] = 1;
	MPI_Group_incl(wg, 2, ranks, &g);
	if (wrank < 2) {
		MPI_Comm_create_group(w, g, 7, &a);
		MPI_Comm_create_group(w, g, 8, &b);
		pair("create_group", a, b);
		MPI_Comm_free(&a);
		MPI_Comm_free(&b);
	}
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
}

/* Intercommunicator of world's last rank and the others, and its merge;
 * peers of an intercommunicator are ranks of the remote group. */
static void comm_inter(void)
{
	MPI_Comm loc, a, b, ma, mb;
	int last = wsize - 1, right = wrank == last;

	MPI_Comm_split(w, right, wrank, &loc);
	MPI_Intercomm_create(loc, 0, w, right ? 0 : last, 5, &a);
	MPI_Intercomm_create(loc, 0, w, right ? 0 : last, 6, &b);
	pair("intercomm_create", a, b);
	if (wrank == 0) {	/* remote rank 0 is world's last */
		X("MPI_Send", last, NONE, 92, 1, 2707, &L_B, "inter");
		MPI_Send(sbuf, 2707, MPI_BYTE, 0, 92, b);
	} else if (right) {
		X("MPI_Recv", 0, NONE, 92, last, 2707, &L_B, "recv,inter");
		MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 92, b, MPI_STATUS_IGNORE);
	}
	MPI_Intercomm_merge(a, right, &ma);
	MPI_Intercomm_merge(a, right, &mb);
	pair("intercomm_merge", ma, mb);
	XC("MPI_Reduce", last, wsize, 2816, &L_D, "");
	MPI_Reduce(sbuf, rbuf, 352, MPI_DOUBLE, MPI_SUM, last, mb);
	MPI_Comm_free(&ma);
	MPI_Comm_free(&mb);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
	MPI_Comm_free(&loc);
}

/* A communicator whose handle is reused after MPI_Comm_disconnect must
 * not keep the old one's id and ranks.  The old one is reversed. */
static void comm_disconnect(void)
{
	MPI_Comm a, b[4];
	uintptr_t old;
	int i, n, k = -1;

	MPI_Comm_split(w, 0, wsize - wrank, &a);
	label = "disconnect-a";
	XB(wsize);
	MPI_Barrier(a);
	old = (uintptr_t)a;
	MPI_Comm_disconnect(&a);
	for (n = 0; n < 4 && k < 0; n++) {
		MPI_Comm_dup(w, &b[n]);
		if ((uintptr_t)b[n] == old)
			k = n;
	}
	if (k < 0) {
		printf("test_record_comm: no handle reused, disconnect "
		       "unchecked\n");
		k = 0;
	}
	label = "disconnect-b";
	if (wrank == 0) {
		X("MPI_Send", 1, NONE, 93, wsize, 2909, &L_B, "");
		MPI_Send(sbuf, 2909, MPI_BYTE, 1, 93, b[k]);
	} else if (wrank == 1) {
		X("MPI_Recv", 0, NONE, 93, wsize, 2909, &L_B, "recv");
		MPI_Recv(rbuf, 4096, MPI_BYTE, 0, 93, b[k], MPI_STATUS_IGNORE);
	}
	label = NULL;
	for (i = 0; i < n; i++)
		MPI_Comm_free(&b[i]);
}

/* Blocks of the v and w neighbour collectives, per neighbour. */
static int nc[64], nd[64], mc[64], md[64];
static MPI_Aint nad[64], mad[64];
static MPI_Datatype nty[64];

/* This rank sends base + i elements of t to its neighbour i and receives
 * base from each: right where every rank has one out-neighbour. */
static void nbr_blocks(int base, MPI_Datatype t, int tsize)
{
	for (int i = 0; i < 64; i++) {
		nc[i] = base + i;
		mc[i] = base;
		nd[i] = md[i] = 128 * i;
		nad[i] = mad[i] = (MPI_Aint)128 * i * tsize;
		nty[i] = t;
	}
}

/* Cart_sub of a 2-D cart, and neighbour collectives on a periodic ring
 * (2 neighbours). */
static void comm_cart(void)
{
	MPI_Comm c2, ring, a, b;
	MPI_Request rq;
	int dims[2] = { wsize, 1 }, per[2] = { 1, 0 }, keep[2] = { 1, 0 };
	int n = wsize;

	MPI_Cart_create(w, 2, dims, per, 0, &c2);
	MPI_Cart_sub(c2, keep, &a);
	MPI_Cart_sub(c2, keep, &b);
	pair("cart_sub", a, b);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
	MPI_Comm_free(&c2);

	MPI_Cart_create(w, 1, dims, per, 0, &ring);
	for (int i = 0; i < 2; i++) {
		mc[i] = 71;
		md[i] = 128 * i;
	}
	XC("MPI_Neighbor_allgatherv", NONE, n, 284, &L_I, "");
	MPI_Neighbor_allgatherv(sbuf, 71, MPI_INT, rbuf, mc, md, MPI_INT, ring);
	XC("MPI_Ineighbor_allgather", NONE, n, 308, &L_I, "nonblock");
	MPI_Ineighbor_allgather(sbuf, 77, MPI_INT, rbuf, 77, MPI_INT, ring,
				&rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	XC("MPI_Ineighbor_alltoall", NONE, n, 324, &L_I, "nonblock");
	MPI_Ineighbor_alltoall(sbuf, 81, MPI_INT, rbuf, 81, MPI_INT, ring, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Comm_free(&ring);
}

/* A star: world rank 0 has every other rank as neighbour, each of them
 * rank 0 only; a v collective's bytes sum over this rank's neighbours. */
static void comm_graph(void)
{
	MPI_Comm a, b;
	MPI_Request rq;
	int index[64], edges[128], i, e = 0, deg, tot = 0;

	for (i = 1; i < wsize; i++)
		edges[e++] = i;
	index[0] = e;
	for (i = 1; i < wsize; i++) {
		edges[e++] = 0;
		index[i] = e;
	}
	MPI_Graph_create(w, wsize, index, edges, 0, &a);
	MPI_Graph_create(w, wsize, index, edges, 0, &b);
	pair("graph_create", a, b);
	deg = wrank ? 1 : wsize - 1;
	nbr_blocks(90, MPI_INT, 4);
	if (wrank)		/* rank 0 sends 90 + i to its i-th, rank i + 1 */
		mc[0] = 90 + wrank - 1;
	for (i = 0; i < deg; i++)
		tot += nc[i];
	XC("MPI_Ineighbor_alltoallv", NONE, wsize, 4 * tot, &L_I, nv);
	MPI_Ineighbor_alltoallv(sbuf, nc, nd, MPI_INT, rbuf, mc, md, MPI_INT, b,
				&rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	for (i = 0; i < deg; i++)
		mc[i] = 93;
	XC("MPI_Ineighbor_allgatherv", NONE, wsize, 372, &L_I, "nonblock");
	MPI_Ineighbor_allgatherv(sbuf, 93, MPI_INT, rbuf, mc, md, MPI_INT, b,
				 &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);
}

/* Distributed graphs, both a ring r -> r + 1: given whole by rank 0, and
 * given by each rank as its own neighbours. */
static void comm_dist_graph(void)
{
	MPI_Comm a, b;
	MPI_Request rq;
	int src[64], deg[64], dst[64], wt[64], i, n = 0, from, to;

	/* weights of 1, not MPI_UNWEIGHTED: gcc takes that sentinel for an
	 * array of size 0 and warns */
	for (i = 0; i < 64; i++)
		wt[i] = 1;
	if (wrank == 0)
		for (n = 0; n < wsize; n++) {
			src[n] = n;
			deg[n] = 1;
			dst[n] = (n + 1) % wsize;
		}
	MPI_Dist_graph_create(w, n, src, deg, dst, wt, MPI_INFO_NULL, 0, &a);
	MPI_Dist_graph_create(w, n, src, deg, dst, wt, MPI_INFO_NULL, 0, &b);
	pair("dist_graph_create", a, b);
	nbr_blocks(95, MPI_DOUBLE, 8);
	XC("MPI_Ineighbor_alltoallw", NONE, wsize, 760, &L_NONE, nv);
	MPI_Ineighbor_alltoallw(sbuf, nc, nad, nty, rbuf, mc, mad, nty, b, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Comm_free(&a);
	MPI_Comm_free(&b);

	from = (wrank + wsize - 1) % wsize;
	to = (wrank + 1) % wsize;
	MPI_Dist_graph_create_adjacent(w, 1, &from, wt, 1, &to, wt,
				       MPI_INFO_NULL, 0, &a);
	MPI_Dist_graph_create_adjacent(w, 1, &from, wt, 1, &to, wt,
				       MPI_INFO_NULL, 0, &b);
	pair("dist_graph_create_adjacent", a, b);
	nbr_blocks(97, MPI_INT, 4);
	XC("MPI_Neighbor_alltoallw", NONE, wsize, 388, &L_NONE, "varblock");
	MPI_Neighbor_alltoallw(sbuf, nc, nad, nty, rbuf, mc, mad, nty, b);
	for (i = 0; i < 2; i++)
		MPI_Comm_free(i ? &b : &a);
}

/* Every nonblocking collective on world, each completed before the next,
 * with per-process blocks of distinct sizes (ints: 4 bytes). */
static void nb_collectives(void)
{
	int sc[64], sd[64], rc[64], rd[64], i, n = wsize, r = wrank, tot = 0;
	MPI_Datatype ty[64];
	MPI_Request q;
	MPI_Status *st = MPI_STATUS_IGNORE;

	for (i = 0; i < n; i++) {
		sc[i] = 20 + i;		/* Iscatterv: rank i gets 20 + i */
		rc[i] = 40 + i;		/* Igatherv: rank i gives 40 + i */
		sd[i] = rd[i] = 128 * i;
		ty[i] = MPI_INT;
	}
	XC("MPI_Iscatter", 1, n, 412, &L_I, "nonblock");
	MPI_Iscatter(sbuf, 103, MPI_INT, rbuf, 103, MPI_INT, 1, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Iscatterv", 0, n, 4 * (20 + r), &L_I, nv);
	MPI_Iscatterv(sbuf, sc, sd, MPI_INT, rbuf, 20 + r, MPI_INT, 0, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Igather", 1, n, 420, &L_I, "nonblock");
	MPI_Igather(sbuf, 105, MPI_INT, rbuf, 105, MPI_INT, 1, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Igatherv", 0, n, 4 * (40 + r), &L_I, nv);
	MPI_Igatherv(sbuf, 40 + r, MPI_INT, rbuf, rc, rd, MPI_INT, 0, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Iallgather", NONE, n, 428, &L_I, "nonblock");
	MPI_Iallgather(sbuf, 107, MPI_INT, rbuf, 107, MPI_INT, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Iallgatherv", NONE, n, 4 * (40 + r), &L_I, nv);
	MPI_Iallgatherv(sbuf, 40 + r, MPI_INT, rbuf, rc, rd, MPI_INT, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Ialltoall", NONE, n, 436, &L_I, "nonblock");
	MPI_Ialltoall(sbuf, 109, MPI_INT, rbuf, 109, MPI_INT, w, &q);
	MPI_Wait(&q, st);
	/* rank r sends 60 + r + i ints to rank i: the row has its total */
	for (i = 0; i < n; i++) {
		sc[i] = rc[i] = 60 + r + i;
		tot += sc[i];
	}
	XC("MPI_Ialltoallv", NONE, n, 4 * tot, &L_I, nv);
	MPI_Ialltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, w, &q);
	MPI_Wait(&q, st);
	for (i = 0; i < n; i++)
		sd[i] = rd[i] = 4 * 128 * i;	/* bytes for the w form */
	XC("MPI_Ialltoallw", NONE, n, 4 * tot, &L_NONE, nv);
	MPI_Ialltoallw(sbuf, sc, sd, ty, rbuf, rc, rd, ty, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Ireduce", 1, n, 888, &L_D, "nonblock");
	MPI_Ireduce(sbuf, rbuf, 111, MPI_DOUBLE, MPI_SUM, 1, w, &q);
	MPI_Wait(&q, st);
	for (i = 0; i < n; i++)
		rc[i] = 70 + i;
	XC("MPI_Ireduce_scatter", NONE, n, 4 * (70 + r), &L_I, nv);
	MPI_Ireduce_scatter(sbuf, rbuf, rc, MPI_INT, MPI_SUM, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Ireduce_scatter_block", NONE, n, 452, &L_I, "nonblock");
	MPI_Ireduce_scatter_block(sbuf, rbuf, 113, MPI_INT, MPI_SUM, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Iscan", NONE, n, 460, &L_I, "nonblock");
	MPI_Iscan(sbuf, rbuf, 115, MPI_INT, MPI_SUM, w, &q);
	MPI_Wait(&q, st);
	XC("MPI_Iexscan", NONE, n, 468, &L_I, "nonblock");
	MPI_Iexscan(sbuf, rbuf, 117, MPI_INT, MPI_SUM, w, &q);
	MPI_Wait(&q, st);
}

static MPI_Request rs_rq;	/* the persistent ready send's request */

/* One side of a persistent ready send: side 1, the receive, is started
 * before a barrier; side 0, the ready send, after it. */
static void rsend_side(int side)
{
	const char *op = side ? "MPI_Recv_init" : "MPI_Rsend_init";
	const char *fl = side ? "recv,persistent" : "persistent";
	int il;

	if (wrank != side)
		return;
	if (side) {
		il = __LINE__ + 1;
		MPI_Recv_init(rbuf, 4096, MPI_BYTE, 0, 97, w, &rs_rq);
	} else {
		il = __LINE__ + 1;
		MPI_Rsend_init(sbuf, 2333, MPI_BYTE, 1, 97, w, &rs_rq);
	}
	MPI_Start(&rs_rq);
	ex(__LINE__ - 1, il, op, 1 - side, NONE, 97, wsize, 2333, -1, &L_B, fl);
}

/* MPI_Rsend_init, and a receive cancelled then freed: never completed,
 * its row says both. */
static void p2p_rsend_cancel(void)
{
	const char *fl = "recv,nonblock,cancelled,notdone";
	MPI_Request rq;

	rsend_side(1);
	XB(wsize);
	MPI_Barrier(w);
	rsend_side(0);
	if (wrank < 2) {
		MPI_Wait(&rs_rq, MPI_STATUS_IGNORE);
		MPI_Request_free(&rs_rq);
	}
	if (wrank != 0)
		return;
	X("MPI_Irecv", 1, NONE, 98, wsize, 4096, &L_B, fl);
	MPI_Irecv(rbuf, 4096, MPI_BYTE, 1, 98, w, &rq);
	MPI_Cancel(&rq);
	MPI_Request_free(&rq);
}

int main(int argc, char **argv)
{
	if (manifest_init(&argc, &argv, "test_record_comm"))
		return 2;
	memset(sbuf, 1, sizeof(sbuf));

	comm_make();
	comm_inter();
	comm_disconnect();
	comm_cart();
	comm_graph();
	comm_dist_graph();
	nb_collectives();
	p2p_rsend_cancel();

	return manifest_close("test_record_comm");
}
