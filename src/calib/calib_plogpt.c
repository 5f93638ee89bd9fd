/*
 * calib_plogpt.c - PlogPT's parameters (PlogPT paper section III-C) into
 * the PlogPT section of the parameter file (src/common/cp_pt_params.h);
 * analysis/cp_plogpt_fit.h turns the times into parameters.
 *
 * The leaves are the hosts, each by its lowest rank, in the order of
 * the file's host list: 2^D hosts (D >= 1) are the leaves of a tree of
 * height D, one host a tree of height 0; any other number of hosts gets
 * no tree (heights not measured, said).
 * Both ends sending, between the pair (leaves 0 and 1; on one host world
 * ranks 0 and 1), at each size m:
 *   g(m)    both post k receives, then send k messages of m bytes to
 *           each other; the time of the whole exchange over k (PLogP's
 *           fast method, both ends sending);
 *   o_s(m)  the MPI_Isend calls of that exchange, per call;
 *   o_r(m)  MPI_Recv of a message that has arrived (MPI_Iprobe says so;
 *           above the library's eager limit only its announcement has),
 *           both having sent one;
 *   L       eq. 1 from empty roundtrips and g(0).
 * Per height h = 1..D, among the leaves of the first height-h subtree:
 *   b(h)    leaf i < 2^(h-1) sends 4 MiB (quick: 1) to leaf i + 2^(h-1), at
 *           once; b(h) is what they sent over the slowest receiver's
 *           time from a common barrier (the sum of the pairs' rates
 *           would count a pair that finished early at its own rate),
 *           the median of the bursts in which no host's TCP timed out
 *           (b_of);
 *   d(h)    h >= 2: leaves 0 and 2^h - 1 time empty roundtrips during
 *           that burst and without it; each loaded one less the median
 *           of the free is a queue's delay, and d(h) is where those
 *           held for two roundtrips pile up highest in most bursts,
 *           above a floor (cp_plogpt_fit_pile, pile_floor: a drop-tail
 *           buffer caps its queue, ours; the burst goes one way).
 *           h = 1 (ours): the subtree's ends are the burst's own
 *           pair, whose roundtrip would wait behind the whole burst
 *           on their one connection;
 *           instead leaves 0 and 2 burst into leaf 1 at once (an
 *           incast: the queue forms in the buffer of leaf 1's edge,
 *           where a real switch drops), and leaf 3 times roundtrips to
 *           leaf 1 through it.  With two hosts (D = 1) d(1) is not
 *           measured, and no RTO is predicted.
 * Every other value is the median of its repetitions (TREE_REPS bursts
 * at each height, --quick too: the bursts are short; as many more when
 * d(h) made no pile or fewer than B_CLEAN_MIN bursts were free of TCP
 * timeouts), with the fastest and slowest as its interval.  Ranks
 * outside an experiment wait in calib_idle_barrier.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_plogpt_fit.h"
#include "analysis/cp_stats.h"
#include "src/calib/calib.h"
#include "src/common/cp_pt_params.h"

#define TAG_PT		91
#define TAG_PING	92
#define TAG_PONG	93
#define BURST_MSG	(1 << 20)	/* b(h): messages of 1 MiB */
#define NPING		20		/* roundtrips without load */
#define TREE_REPS	7		/* bursts a height */
#define B_SLOTS		(2 * TREE_REPS)	/* and as many more, when needed */
#define B_CLEAN_MIN	3		/* bursts without a TCP timeout that
					 * b(h) wants */
#define MAX_K		4		/* b(h): messages a sender */
#define MAX_SRC		2		/* senders into one leaf */

static const double sizes_full[] = { 0, 64, 512, 1448, 4096, 16384, 65536,
				     262144, 1048576 };
static const double sizes_quick[] = { 0, 1448, 16384, 262144 };

/* What was measured, on rank 0. */
struct pt_meas {
	int height;		/* D; -1 no tree */
	int pair[2];		/* world ranks */
	int nleaves;
	int *leaf;		/* [nleaves] world rank of leaf k */
	int ns;
	const double *sizes;
	double *g, *os, *or_;	/* [is * reps + r] */
	double *rtt0;		/* [reps] empty roundtrips */
	double *b;		/* [h * B_SLOTS + r], h = 1..D; NAN: not
				 * timed */
	unsigned char *b_rto;	/* [h * B_SLOTS + r]: a host's TCP timed
				 * out during that burst */
	struct cp_pval d[CP_PT_MAX_HEIGHT + 1];	/* [h], h = 1..D */
	int d_bursts[CP_PT_MAX_HEIGHT + 1];	/* [h]: bursts d(h) read */
	int reps;
};

/* The loaded roundtrips of one height, on the pinger. */
struct pings {
	struct cp_plogpt_delay *s;
	size_t n, cap;
	int bursts;		/* timed so far */
};

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		calib_fatal("out of memory");
	return p;
}

/* The leaves: the lowest rank of each host, in world order. */
static void pick_leaves(struct calib *c, struct pt_meas *m)
{
	MPI_Comm node;
	int lrank, *all = xcalloc((size_t)c->n, sizeof(int)), i, d;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			    MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &lrank);
	MPI_Comm_free(&node);
	lrank = lrank == 0;
	MPI_Allgather(&lrank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
	m->leaf = xcalloc((size_t)c->n, sizeof(int));
	for (i = 0, m->nleaves = 0; i < c->n; i++)
		if (all[i])
			m->leaf[m->nleaves++] = i;
	free(all);
	for (d = 0; (1 << d) < m->nleaves && d < CP_PT_MAX_HEIGHT; d++)
		;
	m->height = (1 << d) == m->nleaves ? d : -1;
	m->pair[0] = m->nleaves > 1 ? m->leaf[0] : 0;
	m->pair[1] = m->nleaves > 1 ? m->leaf[1] : 1;
}

/* Messages of an exchange of m bytes: about 2 MiB, 8 to 64 of them. */
static int burst_count(double m, bool quick)
{
	double k = m > 0 ? 2097152 / m : 64;
	int n = k < 8 ? 8 : k > 64 ? 64 : (int)k;

	return quick ? (n + 1) / 2 : n;
}

/* Both ends of the pair start together: an empty exchange. */
static void sync_pair(int peer)
{
	MPI_Sendrecv(NULL, 0, MPI_BYTE, peer, TAG_PT, NULL, 0, MPI_BYTE, peer,
		     TAG_PT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* One exchange of k messages of m bytes each way: its time over k into
 * *g, the Isend calls per call into *os. */
static void exchange(int peer, char *sb, char *rb, int m, int k,
		     MPI_Request *req, double *g, double *os)
{
	double t0, ts = 0, t;
	int i;

	sync_pair(peer);
	for (i = 0; i < k; i++)
		MPI_Irecv(rb + (size_t)i * m, m, MPI_BYTE, peer, TAG_PT,
			  MPI_COMM_WORLD, &req[k + i]);
	t0 = MPI_Wtime();
	for (i = 0; i < k; i++) {
		t = MPI_Wtime();
		MPI_Isend(sb, m, MPI_BYTE, peer, TAG_PT, MPI_COMM_WORLD,
			  &req[i]);
		ts += MPI_Wtime() - t;
	}
	MPI_Waitall(2 * k, req, MPI_STATUSES_IGNORE);
	*g = (MPI_Wtime() - t0) / k;
	*os = ts / k;
}

/* Both send one message of m bytes; the receive of the peer's, once it
 * is there, timed. */
static double recv_arrived(int peer, char *sb, char *rb, int m)
{
	MPI_Request req;
	double t;
	int flag = 0;

	sync_pair(peer);
	MPI_Isend(sb, m, MPI_BYTE, peer, TAG_PT, MPI_COMM_WORLD, &req);
	while (!flag)
		MPI_Iprobe(peer, TAG_PT, MPI_COMM_WORLD, &flag,
			   MPI_STATUS_IGNORE);
	t = MPI_Wtime();
	MPI_Recv(rb, m, MPI_BYTE, peer, TAG_PT, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	t = MPI_Wtime() - t;
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	return t;
}

/* Empty roundtrip on comm from its first end (first) to peer. */
static double roundtrip(MPI_Comm comm, int peer, bool first)
{
	double t = MPI_Wtime();

	if (first) {
		MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_PING, comm);
		MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_PONG, comm,
			 MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_PING, comm,
			 MPI_STATUS_IGNORE);
		MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_PONG, comm);
	}
	return MPI_Wtime() - t;
}

/* The pair's experiments at every size; the pair's first rank (world
 * rank 0, the lowest of the first host) keeps the times. */
static void run_pair(struct calib *c, struct pt_meas *m)
{
	int me = c->rank == m->pair[0] ? 0 : c->rank == m->pair[1] ? 1 : -1;
	int peer = m->pair[!me], is, r, k, R = m->reps;
	size_t most = 0, big = (size_t)m->sizes[m->ns - 1];
	char *sb, *rb;
	MPI_Request *req;
	double os;

	if (me < 0) {
		calib_idle_barrier();
		return;
	}
	for (is = 0; is < m->ns; is++) {
		k = burst_count(m->sizes[is], c->quick);
		if ((size_t)k * (size_t)m->sizes[is] > most)
			most = (size_t)k * (size_t)m->sizes[is];
	}
	sb = xcalloc(big, 1);
	rb = xcalloc(most, 1);
	req = xcalloc(2 * 64, sizeof(*req));
	calib_touch(sb, big);
	calib_pin(c, me);
	for (r = 0; r < R; r++)
		roundtrip(MPI_COMM_WORLD, peer, !me);	/* warm-up */
	for (r = 0; r < R; r++)
		m->rtt0[r] = roundtrip(MPI_COMM_WORLD, peer, !me);
	for (is = 0; is < m->ns; is++) {
		int sz = (int)m->sizes[is];

		k = burst_count(sz, c->quick);
		exchange(peer, sb, rb, sz, k, req, &m->g[is * R], &os);
		for (r = 0; r < R; r++)
			exchange(peer, sb, rb, sz, k, req, &m->g[is * R + r],
				 &m->os[is * R + r]);
		for (r = 0; r < R; r++)
			m->or_[is * R + r] = recv_arrived(peer, sb, rb, sz);
		calib_progress(c, "pair", is + 1, m->ns + 1);
	}
	calib_unpin(c);
	free(sb);
	free(rb);
	free(req);
	calib_idle_barrier();
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *x, int n)
{
	qsort(x, (size_t)n, sizeof(*x), cmp_dbl);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* The pinger's side of d(h) under load: roundtrips until the ponger
 * says its burst is in, all but that last one appended to pings (NULL:
 * not kept). */
static void ping_loaded(MPI_Comm sub, int q, struct pings *pings)
{
	double t, prev = NAN;
	int done = 0, go = 1, nb = pings ? pings->bursts++ : 0;

	while (!done) {
		t = MPI_Wtime();
		MPI_Send(&go, 1, MPI_INT, q, TAG_PING, sub);
		MPI_Recv(&done, 1, MPI_INT, q, TAG_PONG, sub,
			 MPI_STATUS_IGNORE);
		if (pings && !isnan(prev)) {
			if (pings->n == pings->cap) {
				pings->cap = pings->cap ? 2 * pings->cap : 256;
				pings->s = realloc(pings->s, pings->cap *
						   sizeof(*pings->s));
				if (!pings->s)
					calib_fatal("out of memory");
			}
			pings->s[pings->n].s = prev;
			pings->s[pings->n++].burst = nb;
		}
		prev = MPI_Wtime() - t;
	}
}

/* The ponger's side: answer pings while the burst's receives (req[0..k),
 * slot k for the ping) complete; the time from t0 until they did. */
static double pong_loaded(MPI_Comm sub, int p, MPI_Request *req, int k,
			  double t0)
{
	int go, idx[65], nd, i, left = k, done = 0;
	double t_in = NAN;

	MPI_Irecv(&go, 1, MPI_INT, p, TAG_PING, sub, &req[k]);
	for (;;) {
		MPI_Waitsome(k + 1, req, &nd, idx, MPI_STATUSES_IGNORE);
		for (i = 0; i < nd; i++) {
			if (idx[i] < k && --left == 0)
				t_in = MPI_Wtime() - t0;
			if (idx[i] != k)
				continue;
			done = left == 0;
			MPI_Send(&done, 1, MPI_INT, p, TAG_PONG, sub);
			if (done)
				return t_in;
			MPI_Irecv(&go, 1, MPI_INT, p, TAG_PING, sub, &req[k]);
		}
	}
}

/* One loaded experiment among the first leaves (sub, in leaf order):
 * PlogPT's burst at height h, leaf i < 2^(h-1) into leaf i + 2^(h-1);
 * or, for d(1), an incast (ours): leaves 0 and 2 into leaf 1, so that
 * the queue forms in the buffer of leaf 1's height-1 edge.  Roundtrips
 * between ping and pong (-1: none) time that queue: the subtree's ends
 * at h >= 2; for the incast, leaf 3 to leaf 1 on a connection of their
 * own (at h = 1 the subtree's ends are the burst's own pair, whose
 * roundtrip would wait behind the whole burst on its connection). */
struct load {
	int h;
	bool incast;
	int ping, pong;		/* ranks of sub, or -1 */
};

static int load_dst(const struct load *ld, int i)
{
	int half = 1 << (ld->h - 1);

	if (ld->incast)
		return i == 0 || i == 2 ? 1 : -1;
	return i < half ? i + half : -1;
}

static int load_size(const struct load *ld)
{
	return ld->incast ? 4 : 1 << ld->h;
}

/* The kernel's count of TCP retransmission timeouts (TcpExt
 * TCPTimeouts of /proc/net/netstat, this host's network namespace), -1
 * when it cannot be read (not Linux, no TCP statistics). */
static long tcp_timeouts(void)
{
	char *head = NULL, *val = NULL, *hs, *vs, *h, *v;
	size_t hn = 0, vn = 0;
	long n = -1;
	FILE *f = fopen("/proc/net/netstat", "re");

	if (!f)
		return -1;
	/* pairs of lines, names then values (2195 characters here) */
	while (getline(&head, &hn, f) > 0 && getline(&val, &vn, f) > 0) {
		if (strncmp(head, "TcpExt:", 7) || strncmp(val, "TcpExt:", 7))
			continue;
		h = strtok_r(head, " \n", &hs);
		v = strtok_r(val, " \n", &vs);
		while ((h = strtok_r(NULL, " \n", &hs)) &&
		       (v = strtok_r(NULL, " \n", &vs)))
			if (!strcmp(h, "TCPTimeouts")) {
				n = strtol(v, NULL, 10);
				break;
			}
		break;
	}
	free(head);
	free(val);
	fclose(f);
	return n;
}

/* Run ld once: on sub's rank 0 the rate of the whole burst (its bytes
 * over the slowest receiver's time from a common start) into *b, and
 * into *rto whether the TCP of a host of sub timed out meanwhile (its
 * kernel's count rose: on the tree bed a burst that waited 200 ms for
 * one measured about 70 Mbit/s where the others measured 365); on ping
 * the loaded roundtrips appended to pings. */
static void burst(MPI_Comm sub, const struct load *ld, int k, char *buf,
		  double *b, unsigned char *rto, struct pings *pings)
{
	int me, n = load_size(ld), i, j, nreq = 0, nsend = 0;
	MPI_Request req[MAX_SRC * MAX_K + 1];
	double t0, t[2] = { 0, 0 }, slow[2] = { 0, 0 };
	long c0 = tcp_timeouts(), c1;

	MPI_Comm_rank(sub, &me);
	for (i = 0; i < n; i++) {
		if (load_dst(ld, i) < 0)
			continue;
		nsend++;
		if (load_dst(ld, i) != me)
			continue;
		for (j = 0; j < k; j++, nreq++)
			MPI_Irecv(buf + (size_t)nreq * BURST_MSG, BURST_MSG,
				  MPI_BYTE, i, TAG_PT, sub, &req[nreq]);
	}
	MPI_Barrier(sub);
	t0 = MPI_Wtime();
	if (load_dst(ld, me) >= 0)
		for (j = 0; j < k; j++, nreq++)
			MPI_Isend(buf, BURST_MSG, MPI_BYTE, load_dst(ld, me),
				  TAG_PT, sub, &req[nreq]);
	if (me == ld->ping)
		ping_loaded(sub, ld->pong, pings);
	if (me == ld->pong) {
		t[0] = pong_loaded(sub, ld->ping, req, nreq, t0);
	} else {
		MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
		if (load_dst(ld, me) < 0 && nreq)
			t[0] = MPI_Wtime() - t0;
	}
	/* every rank waits for the slowest: a sender's timeout may fire
	 * after its own sends completed */
	MPI_Barrier(sub);
	c1 = tcp_timeouts();
	t[1] = c0 >= 0 && c1 > c0;
	MPI_Reduce(t, slow, 2, MPI_DOUBLE, MPI_MAX, 0, sub);
	if (me == 0) {
		*b = (double)nsend * k * BURST_MSG / slow[0];
		if (rto)
			*rto = slow[1] > 0;
	}
}

/* The free roundtrips: unloaded empty roundtrips between sub's ranks
 * ping and pong, on ping their median and how far the largest lies above
 * it (what they spread by themselves, no queue). */
struct free_rt {
	double med, spread;
};

static struct free_rt free_rtt(MPI_Comm sub, int ping, int pong)
{
	double s[NPING];
	int me, i;
	struct free_rt f = { NAN, NAN };

	MPI_Comm_rank(sub, &me);
	if (me != ping && me != pong)
		return f;
	for (i = 0; i < NPING; i++)
		s[i] = roundtrip(sub, me == ping ? pong : ping, me == ping);
	f.med = median_of(s, NPING);	/* sorts s */
	f.spread = s[NPING - 1] - f.med;
	return f;
}

/* On ping: d(h)'s pile (cp_plogpt_fit_pile) of the loaded roundtrips
 * less the free median, above floor_s, into v[0..2] (d, lo, hi) and
 * *k; pings kept as they are. */
static int fit_d(const struct pings *pings, double med_s, double floor_s,
		 double v[3], size_t *k)
{
	struct cp_plogpt_delay *q = xcalloc(pings->n, sizeof(*q));
	size_t i;
	int rc;

	for (i = 0; i < pings->n; i++)
		q[i] = (struct cp_plogpt_delay){ .s = pings->s[i].s - med_s,
						 .burst = pings->s[i].burst };
	rc = cp_plogpt_fit_pile(q, pings->n, floor_s, &v[0], &v[1], &v[2], k);
	free(q);
	return rc;
}

/* The rates of height h's bursts timed so far (on sub's rank 0) into
 * x[0..B_SLOTS): those in which no TCP timed out, all when none did;
 * returns how many, *clean how many had no timeout, *all how many. */
static int b_rates(const struct pt_meas *m, int h, double *x, int *clean,
		   int *all)
{
	const double *b = &m->b[h * B_SLOTS];
	const unsigned char *rto = &m->b_rto[h * B_SLOTS];
	int r, n = 0;

	for (r = 0, *all = 0; r < B_SLOTS; r++) {
		*all += !isnan(b[r]);
		if (!isnan(b[r]) && !rto[r])
			x[n++] = b[r];
	}
	*clean = n;
	for (r = 0; !*clean && r < B_SLOTS; r++)
		if (!isnan(b[r]))
			x[n++] = b[r];
	return n;
}

/* Height h's b(h) so far (on sub's rank 0); NAN before the first. */
static double b_now(const struct pt_meas *m, int h)
{
	double x[B_SLOTS];
	int clean, all, n = b_rates(m, h, x, &clean, &all);

	return n ? median_of(x, n) : NAN;
}

/* The floor of d(h)'s pile, on every rank of sub: what the free
 * roundtrips spread by themselves (f.spread, on ping), and at least
 * CP_PLOGPT_PILE_PACKETS packets at b(h) so far (sub's rank 0): a queue
 * that shallow is the flows' own (TCP's first window is 10 packets),
 * and it piles up too where TCP timed out in most incasts (65 to 96 us
 * read on the tree bed, whose buffer drains in 1.75 ms), not a full
 * buffer. */
static double pile_floor(MPI_Comm sub, const struct pt_meas *m, int h,
			 struct free_rt f)
{
	double b = NAN;
	int me;

	MPI_Comm_rank(sub, &me);
	if (me == 0)
		b = b_now(m, h);
	MPI_Bcast(&b, 1, MPI_DOUBLE, 0, sub);
	return fmax(isnan(f.spread) ? 0 : f.spread,
		    b > 0 ? CP_PLOGPT_PILE_PACKETS * CP_PLOGPT_PACKET_BYTES / b
			  : 0);
}

/* Whether the bursts so far left d(h) without a pile above floor_s
 * (decided by the pinger), or b(h) with fewer than B_CLEAN_MIN bursts
 * in which no TCP timed out (where the top buffer of the tree bed
 * drains in 0.66 ms, 0 to 2 of 7 were; by sub's rank 0): then as many
 * more are timed. */
static bool again(MPI_Comm sub, const struct load *ld,
		  const struct pings *pings, struct free_rt f, double floor_s,
		  const struct pt_meas *m, int h)
{
	double v[3];
	size_t k;
	int me, a = 0;

	MPI_Comm_rank(sub, &me);
	if (ld->ping >= 0 && me == ld->ping)
		a = fit_d(pings, f.med, floor_s, v, &k) != 0;
	if (me == 0) {
		double x[B_SLOTS];
		int clean, all;

		b_rates(m, h, x, &clean, &all);
		a |= clean < B_CLEAN_MIN;
	}
	MPI_Allreduce(MPI_IN_PLACE, &a, 1, MPI_INT, MPI_MAX, sub);
	return a;
}

/* d(h) from the loaded roundtrips (pings, on ping) less the free
 * median (f), above floor_s, into *d and the bursts it read into *nb on
 * sub's rank 0. */
static void load_d(MPI_Comm sub, const struct load *ld,
		   const struct pings *pings, struct free_rt f, double floor_s,
		   struct cp_pval *d, int *nb)
{
	/* d, lo, hi; the pile's count, or -1 too few roundtrips, -2 no
	 * pile; bursts */
	double v[5] = { NAN, NAN, NAN, 0, 0 };
	size_t k = 0;
	int me, rc = 0;

	MPI_Comm_rank(sub, &me);
	if (me == ld->ping) {
		rc = fit_d(pings, f.med, floor_s, v, &k);
		v[3] = rc == -CP_EINVAL ? -1 : rc ? -2 : (double)k;
		v[4] = pings->bursts;
	}
	if (ld->ping != 0 && me == ld->ping)
		MPI_Send(v, 5, MPI_DOUBLE, 0, TAG_PT, sub);
	if (ld->ping != 0 && me == 0)
		MPI_Recv(v, 5, MPI_DOUBLE, ld->ping, TAG_PT, sub,
			 MPI_STATUS_IGNORE);
	if (me != 0)
		return;
	*nb = (int)v[4];
	if (v[3] > 0) {
		calib_put_range(d, v[0], v[1], v[2], (int)v[3]);
		return;
	}
	d->state = CP_PV_FAIL;
	snprintf(d->fail, sizeof(d->fail), "%s", v[3] == -1 ?
		 "too few roundtrips timed in the bursts" :
		 "no queue seen by the roundtrips in the bursts");
}

/* b(h) and d(h) for h = 1..D; leaf 0 (world rank 0, the lowest rank of
 * the first host) keeps them.  d(1) needs a third leaf (D >= 2). */
static void run_tree(struct calib *c, struct pt_meas *m)
{
	int k = c->quick ? 1 : MAX_K, h, r, me = -1, i, pass;
	char *buf = NULL;

	for (i = 0; i < m->nleaves; i++)
		if (m->leaf[i] == c->rank)
			me = i;
	if (me >= 0)
		buf = xcalloc((size_t)MAX_SRC * k * BURST_MSG, 1);
	for (h = 1; h <= m->height; h++) {
		struct load ld = { .h = h, .ping = -1, .pong = -1 };
		struct load in = { .h = 1, .incast = true, .ping = 3,
				   .pong = 1 };
		bool d_in = h == 1 && m->height >= 2;
		int w = d_in ? 4 : 1 << h;
		MPI_Comm sub;

		if (h >= 2) {
			ld.ping = 0;
			ld.pong = w - 1;
		}
		MPI_Comm_split(MPI_COMM_WORLD,
			       me >= 0 && me < w ? 0 : MPI_UNDEFINED, me, &sub);
		if (sub != MPI_COMM_NULL) {
			struct load *dl = d_in ? &in : &ld;
			struct pings pings = { 0 };
			struct free_rt rf = { NAN, NAN };
			double b, fl = 0;

			if (dl->ping >= 0)
				rf = free_rtt(sub, dl->ping, dl->pong);
			burst(sub, &ld, k, buf, &b, NULL, NULL); /* warm-up */
			if (d_in)
				burst(sub, &in, k, buf, &b, NULL, NULL);
			/* TREE_REPS bursts, and as many more when those
			 * left d(h) or b(h) short (again()) */
			for (pass = 0; pass < 2; pass++) {
				for (r = 0; r < TREE_REPS; r++) {
					int at = h * B_SLOTS +
						 pass * TREE_REPS + r;

					burst(sub, &ld, k, buf, &m->b[at],
					      &m->b_rto[at],
					      d_in ? NULL : &pings);
					if (d_in)
						burst(sub, &in, k, buf, &b,
						      NULL, &pings);
				}
				fl = pile_floor(sub, m, h, rf);
				if (pass ||
				    !again(sub, dl, &pings, rf, fl, m, h))
					break;
			}
			if (dl->ping >= 0)
				load_d(sub, dl, &pings, rf, fl, &m->d[h],
				       &m->d_bursts[h]);
			free(pings.s);
			MPI_Comm_free(&sub);
		}
		calib_idle_barrier();
		calib_progress(c, "tree", h, m->height);
	}
	free(buf);
}

/* The measured entries of x[0..n) (not NAN) into y[0..64); how many. */
static int measured(const double *x, int n, double *y)
{
	int i, k = 0;

	for (i = 0; i < n && k < 64; i++)
		if (!isnan(x[i]))
			y[k++] = x[i];
	return k;
}

/* The median of x[0..n) into v, the fastest and slowest as its
 * interval; NAN entries (not measured) skipped. */
static void put_med(struct cp_pval *v, const double *x, int n,
		    const char *fail)
{
	double y[64];
	int k = measured(x, n, y);

	if (!k) {
		v->state = CP_PV_FAIL;
		snprintf(v->fail, sizeof(v->fail), "%s", fail);
		return;
	}
	qsort(y, (size_t)k, sizeof(*y), cmp_dbl);
	calib_put_range(v, median_of(y, k), y[0], y[k - 1], k);
}

static void fill_pair(struct cp_pt_params *pt, struct pt_meas *m)
{
	int is, R = m->reps, rc;
	double g[64], l, rtt0;

	for (is = 0; is < m->ns; is++) {
		pt->size_bytes[is] = m->sizes[is];
		put_med(&pt->g_s[is], &m->g[is * R], R, "not measured");
		put_med(&pt->os_s[is], &m->os[is * R], R, "not measured");
		put_med(&pt->or_s[is], &m->or_[is * R], R, "not measured");
		g[is] = pt->g_s[is].val;
	}
	rtt0 = median_of(m->rtt0, R);
	rc = cp_plogpt_fit_l(rtt0, g[0], &l);
	if (rc == -CP_ENUM) {
		pt->l_s.state = CP_PV_FAIL;
		snprintf(pt->l_s.fail, sizeof(pt->l_s.fail),
			 "negative: RTT(0)/2 %.3g s below g(0)", rtt0 / 2);
	} else if (!rc) {
		calib_put_range(&pt->l_s, l, fmax(0, m->rtt0[0] / 2 - g[0]),
				m->rtt0[R - 1] / 2 - g[0], R);
	}
	if (!cp_plogpt_fit_eps_t(m->sizes, g, m->ns, &l))
		calib_put_range(&pt->eps_t_s, l, l, l, R);
}

/* The first and third quartiles of x[0..n), NAN entries skipped; 0
 * (skipped by cp_plogpt_fit_eps_s) when none is left. */
static void quartiles(const double *x, int n, double *q1, double *q3)
{
	double y[64];
	int k = measured(x, n, y);

	if (!k || cp_stats_percentile(y, (size_t)k, 0.25, q1) ||
	    cp_stats_percentile(y, (size_t)k, 0.75, q3))
		*q1 = *q3 = 0;
}

/*
 * b(h): the median of the height's bursts in which no host's TCP timed
 * out (a timeout is PlogPT's RTO, eqs. 8-9, not the links' rate), the
 * fastest and slowest of them as its interval; of every burst when each
 * one timed out (said).  *q1, *q3: the quartiles of the same bursts,
 * for eps_S.
 */
static void b_of(struct cp_pt_params *pt, const struct pt_meas *m, int h,
		 double *q1, double *q3)
{
	double x[B_SLOTS];
	int clean, all, n = b_rates(m, h, x, &clean, &all);

	quartiles(x, n, q1, q3);
	put_med(&pt->b_bps[h], x, n, "no burst measured");
	if (!clean && all)
		printf("plogpt: height %d: TCP timed out in every burst; b(%d) "
		       "from them all\n", h, h);
	printf("plogpt: height %d: %d of %d bursts without a TCP timeout\n",
	       h, clean, all);
}

/* eps_S from the quartiles of the bursts each height's b(h) is taken
 * from and the ends of d(h)'s pile (ours): the slowest and fastest of 7
 * bursts differ by 10 to 50 times in their roundtrips when TCP stalls
 * in one of them, which would leave no switch to see. */
static void fill_tree(struct cp_pt_params *pt, struct pt_meas *m)
{
	double blo[CP_PT_MAX_HEIGHT + 1] = { 0 };
	double bhi[CP_PT_MAX_HEIGHT + 1] = { 0 };
	double dlo[CP_PT_MAX_HEIGHT + 1] = { 0 };
	double dhi[CP_PT_MAX_HEIGHT + 1] = { 0 };
	double b[CP_PT_MAX_HEIGHT + 1] = { 0 }, e;
	int h, R = B_SLOTS;

	for (h = 1; h <= m->height; h++) {
		b_of(pt, m, h, &blo[h], &bhi[h]);
		pt->d_s[h] = m->d[h];
		if (m->d[h].state == CP_PV_OK) {
			dlo[h] = m->d[h].lo;
			dhi[h] = m->d[h].hi;
		} else if (m->d[h].state == CP_PV_UNSET) {
			pt->d_s[h].state = CP_PV_FAIL;
			snprintf(pt->d_s[h].fail, sizeof(pt->d_s[h].fail),
				 "two hosts: no third to time the queue");
		}
		b[h] = pt->b_bps[h].val;
	}
	if (cp_plogpt_fit_cap_b(b, m->height))
		for (h = 2; h <= m->height; h++)
			if (b[h] < pt->b_bps[h].val) {
				printf("plogpt: b(%d) %.4g B/s taken as "
				       "2 b(%d) = %.4g (section III-A)\n", h,
				       pt->b_bps[h].val, h - 1, b[h]);
				/* the interval cut at the cap: the bursts
				 * may all lie above it (a flat table whose
				 * leaf link is slower than the links across) */
				calib_put_range(&pt->b_bps[h], b[h],
						fmin(pt->b_bps[h].lo, b[h]),
						fmin(pt->b_bps[h].hi, b[h]),
						pt->b_bps[h].n);
			}
	e = cp_plogpt_fit_eps_s(blo, bhi, dlo, dhi, m->height);
	calib_put_range(&pt->eps_s, e, CP_PLOGPT_EPS_S_MIN, e, R);
}

static void print_found(const struct cp_pt_params *pt,
			const struct pt_meas *m)
{
	int h;

	printf("plogpt: both ends sending between ranks %d and %d: L %.2f us, "
	       "g(0) %.2f us, g(%.0f) %.2f us\n", m->pair[0], m->pair[1],
	       pt->l_s.val * 1e6, pt->g_s[0].val * 1e6,
	       m->sizes[m->ns - 1], pt->g_s[m->ns - 1].val * 1e6);
	if (m->height < 0)
		printf("plogpt: %d hosts, not a power of two: no tree "
		       "measured\n", m->nleaves);
	for (h = 1; h <= m->height; h++) {
		printf("plogpt: height %d: b %.1f Mbit/s, d ", h,
		       pt->b_bps[h].val * 8e-6);
		if (pt->d_s[h].state == CP_PV_OK)
			printf("%.1f us", pt->d_s[h].val * 1e6);
		else
			printf("failed: %s", pt->d_s[h].fail);
		if (m->d_bursts[h] > TREE_REPS)
			printf(" (from %d bursts)", m->d_bursts[h]);
		printf("\n");
	}
}

void calib_plogpt(struct calib *c, struct cp_params *p)
{
	struct pt_meas m = { 0 };
	struct cp_pt_params *pt;
	int nh;

	m.reps = c->quick ? 3 : 7;
	m.sizes = c->quick ? sizes_quick : sizes_full;
	m.ns = c->quick ? 4 : 9;
	pick_leaves(c, &m);
	nh = m.height > 0 ? m.height + 1 : 1;
	m.g = xcalloc((size_t)m.ns * m.reps, sizeof(double));
	m.os = xcalloc((size_t)m.ns * m.reps, sizeof(double));
	m.or_ = xcalloc((size_t)m.ns * m.reps, sizeof(double));
	m.rtt0 = xcalloc((size_t)m.reps, sizeof(double));
	m.b = xcalloc((size_t)nh * B_SLOTS, sizeof(double));
	m.b_rto = xcalloc((size_t)nh * B_SLOTS, 1);
	for (int i = 0; i < nh * B_SLOTS; i++)
		m.b[i] = NAN;
	run_pair(c, &m);
	run_tree(c, &m);
	if (c->rank == 0) {
		calib_progress_end(c);
		pt = cp_pt_params_get(p);
		if (!pt || cp_pt_params_alloc_sizes(pt, m.ns))
			calib_fatal("out of memory");
		pt->height = m.height;
		pt->pair[0] = m.pair[0];
		pt->pair[1] = m.pair[1];
		fill_pair(pt, &m);
		fill_tree(pt, &m);
		print_found(pt, &m);
	}
	free(m.leaf);
	free(m.g);
	free(m.os);
	free(m.or_);
	free(m.rtt0);
	free(m.b);
	free(m.b_rto);
}
