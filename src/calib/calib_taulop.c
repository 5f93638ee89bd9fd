/*
 * calib_taulop.c - the Ring experiments of tau-Lop (tau-Lop paper section 5.2;
 * analysis/cp_taulop_fit.h says how o and L come out of them) and the
 * costs of a local reduction and of a fresh page, into the tau-Lop
 * section of the parameter file (src/common/cp_tl_params.h).
 *
 * Channel 0 (shared memory) is measured among the ranks of the host
 * that has the most: a ping-pong for tau = 1, rings of 2..n of them,
 * then rings of all n in which each rank sends to its d next ones
 * (tau = n*d, d up to n - 1, the most concurrent round a linear
 * alltoall has).  Channel 1 (network) is measured when the job spans
 * hosts, among one rank per host: a ping-pong, rings of 2..h hosts and
 * rings of all h in which each sends to its d next ones (an alltoall's
 * round over the network).
 * Ranks not in an experiment wait for it inside MPI_Barrier, as ranks
 * not in a collective's round wait inside the collective: with more
 * ranks than CPUs on a host the experiments then time what an
 * application of as many ranks meets (man/commprof-calibrate.1).  The
 * network channel's on a crowded machine (hosts that share a kernel, as
 * the test bed's) wait asleep instead, and its participants wait
 * yielding the CPU, which the hosts' links need (the bed's delay line).
 * So do the shared memory channel's on a crowded host where the
 * library's waiting processes keep their CPU (pick_wait).
 * Every experiment runs three times: as the paper's loop, which gives L;
 * once all the loops are done, with each sender writing its messages
 * first, which gives Lw, the L of point-to-point messages
 * (run_written); in shared memory, as rounds that start together after
 * a barrier, which gives Ls, the L of collectives' rounds (run_synced).
 * Last, the first two participants exchange messages of
 * every size after quiet gaps of 10 us to 4 ms (run_gaps), which gives
 * Lg, what a message takes more after such a gap.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "analysis/cp_err.h"
#include "analysis/cp_taulop.h"
#include "analysis/cp_taulop_fit.h"
#include "src/calib/calib.h"
#include "src/common/cp_clock.h"
#include "src/common/cp_tl_params.h"

#define MAXTAU 64

/* One channel's experiments. */
struct tl_exp {
	int chan;
	int n;			/* participants */
	int me;			/* my index among them, -1 none */
	int *world;		/* [n] their world ranks */
	int ntau;
	double tau[MAXTAU];
	int deg[MAXTAU];
	double *ring;		/* [(is * ntau + it) * reps + r], rank 0 */
	double *lw;		/* the same with written messages
				 * (run_written), rank 0 */
	double *ls;		/* the same in rounds that start
				 * together (run_synced), rank 0 */
	double *isend;		/* [is * reps + r], rank 0 */
	double *gap;		/* [(is * NGAP + ig) * reps + r]: what an
				 * exchange took more after gaps[ig],
				 * rank 0 (run_gaps) */
	int nexp, ncut;		/* experiments run, with fewer iterations */
	/* the network channel on a crowded machine (the test bed's hosts
	 * on one kernel): its participants wait yielding and the others
	 * asleep (calib_wait, calib_idle_barrier), else NULL */
	const struct calib *yield;
};

static const double sizes_full[] = { 0, 256, 1024, 4000, 8192, 16384,
				     32768, 65536, 131072, 262144, 524288,
				     1048576 };
static const double sizes_quick[] = { 0, 1024, 8192, 65536, 524288 };

#define MAXSIZES	48	/* the grid and two sizes per regime */

/* The quiet gaps after which messages are timed again (run_gaps): on
 * the machines we measured the extra time of a 28-KiB exchange grew
 * from 30 us to 3 ms of gap and no further. */
static const double gaps[] = { 1e-5, 1e-4, 1e-3, 4e-3 };
#define NGAP		((int)(sizeof(gaps) / sizeof(gaps[0])))
#define GAP_ITERS	3	/* exchanges per gap and repetition */
#define GAP_NAP_US	100	/* the sleep of the ranks out of them */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The sizes of the Ring experiments: the fixed grid, and on both sides of
 * every boundary of the LMO sweep's regimes inside it (first[k], and the
 * last size of regime k - 1: below[k] where a break was refined, else
 * first[k] - 1), so that L is never interpolated across a protocol's
 * jump: with Open MPI's eager limit of 4 KiB between 4000 and 8192 B, a
 * 4096-B transfer on 2 ranks was priced 0.5 us where it took 2.  Sorted,
 * each once; returns their number.
 */
static int plan_sizes(bool quick, const double *first, const double *below,
		      int nreg, double *out)
{
	const double *base = quick ? sizes_quick : sizes_full;
	int nb = quick ? 5 : 12, n = 0, i, k;
	double top = base[nb - 1], v[2];

	for (i = 0; i < nb; i++)
		out[n++] = base[i];
	for (k = 1; k < nreg && first; k++) {
		if (!(first[k] > 0) || first[k] > top)
			continue;
		v[0] = first[k];
		v[1] = below && below[k] > 0 && below[k] < first[k] ?
		       below[k] : first[k] - 1;
		for (i = 0; i < 2 && n < MAXSIZES; i++)
			out[n++] = v[i];
	}
	qsort(out, (size_t)n, sizeof(*out), cmp_dbl);
	for (i = k = 0; i < n; i++)
		if (!k || out[i] != out[k - 1])
			out[k++] = out[i];
	return k;
}

static int iters_for(double bytes, bool quick)
{
	int n = bytes <= 16384 ? 20 : bytes <= 262144 ? 8 : 3;

	return quick ? (n + 1) / 2 : n;
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		calib_fatal("out of memory");
	return p;
}

/* e's participants: the ranks for which in is true, in world order
 * (collective over MPI_COMM_WORLD). */
static void members(struct calib *c, struct tl_exp *e, int in)
{
	int *all = xcalloc((size_t)c->n, sizeof(int)), i;

	MPI_Allgather(&in, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
	e->world = xcalloc((size_t)c->n, sizeof(int));
	e->n = 0;
	e->me = -1;
	for (i = 0; i < c->n; i++)
		if (all[i]) {
			if (i == c->rank)
				e->me = e->n;
			e->world[e->n++] = i;
		}
	free(all);
}

/* The ranks of the host with the most ranks (the lowest leader on a
 * tie), in world order. */
static void pick_node(struct calib *c, struct tl_exp *e)
{
	MPI_Comm node;
	int local, lrank, in[2], out[2];

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			    MPI_INFO_NULL, &node);
	MPI_Comm_size(node, &local);
	MPI_Comm_rank(node, &lrank);
	in[0] = local;
	in[1] = c->rank;
	MPI_Bcast(&in[1], 1, MPI_INT, 0, node);	/* the node's leader */
	MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
	MPI_Comm_free(&node);
	e->chan = CP_TL_SHM;
	/* every rank says whether it lives on the chosen node */
	members(c, e, in[1] == out[1]);
}

/* One rank per host (the lowest of each), in world order. */
static void pick_hosts(struct calib *c, struct tl_exp *e)
{
	MPI_Comm node;
	int lrank;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			    MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &lrank);
	MPI_Comm_free(&node);
	e->chan = CP_TL_NET;
	e->yield = c->crowded ? c : NULL;
	members(c, e, lrank == 0);
}

/* tau 1..n with one message per process, then n*d. */
static void plan_taus(struct tl_exp *e)
{
	int t, d;

	e->ntau = 0;
	for (t = 1; t <= e->n && e->ntau < MAXTAU; t++) {
		e->tau[e->ntau] = t;
		e->deg[e->ntau++] = 1;
	}
	for (d = 2; d < e->n && e->ntau < MAXTAU; d++) {
		e->tau[e->ntau] = (double)e->n * d;
		e->deg[e->ntau++] = d;
	}
}

/* Wait for q[0..n) as e's experiments do: spinning (MPI_Waitall), or
 * yielding the CPU between polls (e->yield). */
static void exp_wait(const struct tl_exp *e, int n, MPI_Request *q)
{
	if (e->yield)
		calib_wait(e->yield, n, q);
	else
		MPI_Waitall(n, q, MPI_STATUSES_IGNORE);
}

/* The barrier before a repetition of e's: the ranks out of the
 * experiment wait in it (inside MPI_Barrier, or asleep: e->yield). */
static void exp_barrier(const struct tl_exp *e)
{
	if (e->yield)
		calib_idle_barrier();
	else
		MPI_Barrier(MPI_COMM_WORLD);
}

/* The barrier before a round that starts together (run_synced): inside
 * MPI_Barrier, or (e->yield) the round's participants (in) yielding
 * between polls and the others asleep. */
static void round_barrier(const struct tl_exp *e, bool in)
{
	MPI_Request q;

	if (!e->yield) {
		MPI_Barrier(MPI_COMM_WORLD);
	} else if (!in) {
		calib_idle_barrier();
	} else {
		MPI_Ibarrier(MPI_COMM_WORLD, &q);
		exp_wait(e, 1, &q);
	}
}

/* One ping-pong iteration between participants 0 and 1; the caller's
 * MPI_Isend duration into *isend (index 0 only). */
static void pingpong(const struct tl_exp *e, char *sb, char *rb, int m,
		     double *isend)
{
	MPI_Request q;
	double t;

	if (e->me == 0) {
		t = MPI_Wtime();
		MPI_Isend(sb, m, MPI_BYTE, e->world[1], 0, MPI_COMM_WORLD,
			  &q);
		*isend = MPI_Wtime() - t;
		exp_wait(e, 1, &q);
		MPI_Irecv(rb, m, MPI_BYTE, e->world[1], 0, MPI_COMM_WORLD,
			  &q);
		exp_wait(e, 1, &q);
	} else {
		MPI_Irecv(rb, m, MPI_BYTE, e->world[0], 0, MPI_COMM_WORLD,
			  &q);
		exp_wait(e, 1, &q);
		MPI_Isend(sb, m, MPI_BYTE, e->world[0], 0, MPI_COMM_WORLD,
			  &q);
		exp_wait(e, 1, &q);
	}
}

/* One message of m bytes from participant 0 to 1 (e->me 0 or 1):
 * blocking calls, as the rounds were always timed, or (e->yield) posted
 * and waited for yielding. */
static void one_way(const struct tl_exp *e, char *sb, char *rb, int m)
{
	int peer = e->world[1 - e->me];
	MPI_Request q;

	if (!e->yield) {
		if (!e->me)
			MPI_Send(sb, m, MPI_BYTE, peer, 4, MPI_COMM_WORLD);
		else
			MPI_Recv(rb, m, MPI_BYTE, peer, 4, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		return;
	}
	if (!e->me)
		MPI_Isend(sb, m, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &q);
	else
		MPI_Irecv(rb, m, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &q);
	exp_wait(e, 1, &q);
}

/* One ring iteration among the first k participants, d messages each:
 * all receives posted, then all sends, as a linear alltoall does. */
static void ring(const struct tl_exp *e, int k, int d, char *sb, char *rb,
		 int m)
{
	MPI_Request q[2 * MAXTAU];
	int j, nq = 0;

	for (j = 1; j <= d; j++)
		MPI_Irecv(rb + (size_t)j * m, m, MPI_BYTE,
			  e->world[(e->me + k - j) % k], 1, MPI_COMM_WORLD,
			  &q[nq++]);
	for (j = 1; j <= d; j++)
		MPI_Isend(sb + (size_t)j * m, m, MPI_BYTE,
			  e->world[(e->me + j) % k], 1, MPI_COMM_WORLD,
			  &q[nq++]);
	exp_wait(e, nq, q);
}

/* Most time for the repetitions of one experiment (quick: half): where
 * an iteration is slow, fewer iterations per repetition, at least
 * EXP_ITERS.  Under MPICH with 4 ranks on 2 cores, where the waiting
 * ranks spun (before pick_wait), an iteration took 1 to 4 ms whatever
 * its size, and the Rings 47 s of a default calibration of 125 to 136
 * s; on a core each, the longest experiment (tau = 12 at 1 MiB, Open
 * MPI: 11 repetitions of 3 iterations of 0.68 ms) takes about 22 ms.
 * Slow links are cut too: a MiB at 100 Mbit/s on the test bed takes 84
 * ms an iteration. */
#define EXP_S		0.1
#define EXP_ITERS	2

/* The iterations of the repetitions after the warm-up, whose time per
 * iteration w the first participant (world rank root) measured: as many
 * as fill EXP_S, at most iters.  Collective. */
static int fit_iters(int iters, int reps, double w, int root, bool quick)
{
	int n = iters;
	double budget = quick ? EXP_S / 2 : EXP_S;

	if (w > 0 && reps * iters * w > budget)
		n = (int)(budget / (reps * w));
	n = n < EXP_ITERS ? EXP_ITERS : n > iters ? iters : n;
	MPI_Bcast(&n, 1, MPI_INT, root, MPI_COMM_WORLD);
	return n;
}

/* A sender writing len bytes it will send, as an application packs
 * them: a byte of every cache line. */
static void write_msg(char *p, size_t len)
{
	size_t j;

	for (j = 0; j < len; j += 64)
		p[j]++;
}

/* Whether this process takes part in an experiment of k processes (k
 * = 1: the ping-pong of participants 0 and 1). */
static bool taking_part(const struct tl_exp *e, int k)
{
	return e->me >= 0 && e->me < (k < 2 ? 2 : k);
}

/* What a participant sends in an experiment of k processes and d
 * messages of m bytes: pingpong()'s message, or ring()'s d (from sb's
 * second block on), into *len bytes from the return. */
static char *sent_bytes(char *sb, int k, int d, int m, size_t *len)
{
	*len = (size_t)(k < 2 ? 1 : d) * m;
	return sb + (size_t)(k < 2 ? 0 : 1) * m;
}

/*
 * An experiment (k processes, d messages each of m bytes, iters a
 * repetition as the loop had) again, each sender writing its messages before
 * every iteration, as an application packs or computes what it sends:
 * a buffer sent unchanged stays in the caches of both processes, and a
 * loop of 28-KiB exchanges took 6.7 us an iteration with it, 8.9 us with
 * a byte of each cache line written first (2 ranks, Open MPI's vader).
 * The writing is not timed: each iteration is timed alone on the first
 * participant, the mean of iters per repetition into t[] (NULL: not
 * the first).  The point-to-point messages' L comes from these times.
 * Collective.
 */
static void run_written(const struct tl_exp *e, int k, int d, int m,
			int reps, int iters, char *sb, char *rb, double *t)
{
	size_t len;
	char *msg = sent_bytes(sb, k, d, m, &len);
	double t0, sum;
	int r, i;

	for (r = -1; r < reps; r++) {
		exp_barrier(e);
		if (!taking_part(e, k))
			continue;
		for (i = 0, sum = 0; i < iters; i++) {
			write_msg(msg, len);
			t0 = MPI_Wtime();
			if (k < 2) {
				double unused;

				pingpong(e, sb, rb, m, &unused);
			} else {
				ring(e, k, d, sb, rb, m);
			}
			sum += MPI_Wtime() - t0;
		}
		if (r >= 0 && t)
			t[r] = sum / iters / (k < 2 ? 2 : 1);
	}
}

/*
 * An experiment (k processes, d messages each of m bytes; k = 1: one
 * message from participant 0 to 1) again as rounds that start together,
 * as a collective's rounds do after a barrier: each iteration after a
 * barrier of all ranks (round_barrier), each sender writing its
 * messages first, timed from the last participant's start to the last
 * one's end on the host's clock (the shared memory channel's
 * participants share a host), as the library times a collective.
 * After a repetition of EXP_ITERS to warm up, whose time bounds the
 * iterations as in run_exp (a barrier of 4 ranks on 2 CPUs took
 * milliseconds under MPICH), the median of a repetition's iterations
 * into t[r] on world rank 0 (t NULL elsewhere).
 * Collective.
 */
static void run_synced(const struct tl_exp *e, int k, int d, int m,
		       int reps, int iters, bool quick, char *sb, char *rb,
		       double *t)
{
	bool in = taking_part(e, k);
	size_t len;
	char *msg = sent_bytes(sb, k, d, m, &len);
	double *x = xcalloc(4 * (size_t)iters, sizeof(double));
	double *y = x + 2 * iters, w0;
	/* the warm-up: enough iterations to time one */
	int r, i, n = iters < EXP_ITERS ? iters : EXP_ITERS;

	for (r = -1; r < reps; r++) {
		w0 = MPI_Wtime();
		for (i = 0; i < n; i++) {
			if (in)
				write_msg(msg, len);
			round_barrier(e, in);
			x[2 * i] = x[2 * i + 1] = 0;
			if (!in)
				continue;
			x[2 * i] = cp_clock_s();
			if (k < 2)
				one_way(e, sb, rb, m);
			else
				ring(e, k, d, sb, rb, m);
			x[2 * i + 1] = cp_clock_s();
		}
		MPI_Reduce(x, y, 2 * n, MPI_DOUBLE, MPI_MAX, 0,
			   MPI_COMM_WORLD);
		if (r < 0) {
			n = fit_iters(iters, reps, (MPI_Wtime() - w0) / n, 0,
				      quick);
			continue;
		}
		if (!t)
			continue;
		for (i = 0; i < n; i++)
			y[i] = y[2 * i + 1] - y[2 * i];
		cp_stats_median(y, n, &t[r]);
	}
	free(x);
}

/* The processes of experiment it: a ring's, or 1 for the ping-pong. */
static int exp_procs(const struct tl_exp *e, int it)
{
	return e->deg[it] > 1 ? e->n : (int)e->tau[it];
}

/* Experiment it of size m, c->reps times after one warm-up: on the
 * experiment's first participant, the time per iteration into t[] and
 * (tau = 1) the median MPI_Isend duration into o[].  Returns the
 * iterations of a repetition. */
static int run_exp(struct calib *c, struct tl_exp *e, int it, int m,
		   int reps, char *sb, char *rb, double *t, double *o)
{
	int k = exp_procs(e, it);
	int iters = iters_for(m, c->quick), n0 = iters, r, i;
	bool in = taking_part(e, k);
	double t0, w = 0, *is = xcalloc((size_t)iters, sizeof(double));

	for (r = -1; r < reps; r++) {
		exp_barrier(e);
		if (r == 0)
			iters = fit_iters(iters, reps, w, e->world[0],
					  c->quick);
		if (!in)
			continue;
		t0 = MPI_Wtime();
		for (i = 0; i < iters; i++) {
			if (k == 1)
				pingpong(e, sb, rb, m, &is[i]);
			else
				ring(e, k, e->deg[it], sb, rb, m);
		}
		if (r < 0 && !e->me)
			w = (MPI_Wtime() - t0) / iters;
		if (e->me || r < 0)
			continue;
		t[r] = (MPI_Wtime() - t0) / iters / (k == 1 ? 2 : 1);
		if (k == 1) {
			qsort(is, (size_t)iters, sizeof(double), cmp_dbl);
			o[r] = is[iters / 2];
		}
	}
	free(is);
	e->nexp++;
	e->ncut += iters < n0;
	return iters;
}

/* One exchange of m bytes with the other of participants 0 and 1 (as
 * a halo exchange: receive posted, send, wait), gap seconds after both
 * left a Sendrecv, the send buffer written in the gap: its time from
 * the receive's post to the wait's exit. */
static double gap_exchange(const struct tl_exp *e, char *sb, char *rb, int m,
			   double gap)
{
	int peer = e->world[1 - e->me];
	char out = 0, in;
	MPI_Request q[2];
	double t;

	MPI_Sendrecv(&out, 1, MPI_CHAR, peer, 2, &in, 1, MPI_CHAR, peer, 2,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	t = MPI_Wtime() + gap;
	write_msg(sb, (size_t)m);
	while (MPI_Wtime() < t)
		;	/* outside MPI, touching nothing more */
	t = MPI_Wtime();
	MPI_Irecv(rb, m, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &q[0]);
	MPI_Isend(sb, m, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &q[1]);
	exp_wait(e, 2, q);
	return MPI_Wtime() - t;
}

/* One repetition at size m: the median of GAP_ITERS exchanges at gap 0
 * into med[0], after gaps[g - 1] into med[g]. */
static void gap_medians(const struct tl_exp *e, char *sb, char *rb, int m,
			double *med)
{
	double x[GAP_ITERS];
	int g, i;

	for (g = 0; g <= NGAP; g++) {
		for (i = 0; i < GAP_ITERS; i++)
			x[i] = gap_exchange(e, sb, rb, m, g ? gaps[g - 1] : 0);
		cp_stats_median(x, GAP_ITERS, &med[g]);
	}
}

/*
 * The quiet gaps: for every size, each repetition times GAP_ITERS
 * exchanges right after the last (gap 0) and after each of gaps[], on
 * participants 0 and 1, and keeps the median of each; the difference of
 * a gap's median to gap 0's is a sample of what the gap adds (one
 * repetition's, so that slow spells fall on both).  The other ranks
 * sleep meanwhile: spinning in a barrier they took the CPUs of 3 ranks
 * on 2 (MPICH), and exchanges after 4 ms took 0.7 to 2.5 ms more or 3
 * ms less.  Participant 0's samples reach rank 0 in e->gap.
 * Collective.
 */
static void run_gaps(struct calib *c, struct tl_exp *e, const double *sizes,
		     int ns, int reps, int nstep, char *sb, char *rb)
{
	size_t n = (size_t)ns * NGAP * reps;
	double *v = xcalloc(n, sizeof(double)), med[NGAP + 1];
	bool in = e->me == 0 || e->me == 1;
	int is, r, g;

	for (is = 0; is < ns; is++) {
		for (r = -1; in && r < reps; r++) {
			gap_medians(e, sb, rb, (int)sizes[is], med);
			for (g = 1; r >= 0 && e->me == 0 && g <= NGAP; g++)
				v[((size_t)is * NGAP + g - 1) * reps + r] =
					med[g] - med[0];
		}
		/* the other ranks asleep, leaving the CPUs to the two
		 * that time */
		calib_nap_barrier(MPI_COMM_WORLD, in ? 0 : GAP_NAP_US);
		calib_progress(c, "quiet gaps", nstep - ns + is + 1, nstep);
	}
	/* only participant 0 wrote: a sum keeps its samples' signs */
	e->gap = c->rank ? NULL : xcalloc(n, sizeof(double));
	MPI_Reduce(v, e->gap, (int)n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	free(v);
}

/* Iterations of the ring of empty messages that pick_wait times each
 * way, after WAIT_WARM untimed ones. */
#define WAIT_ITERS	30
#define WAIT_WARM	3
#define WAIT_TRIES	3	/* each way, alternating; the fastest counts */

/* The time of WAIT_ITERS iterations of a ring of empty messages on all
 * of e's processes (participant 0's; 0 elsewhere).  Their sum, not a
 * median: the kernel's time slices that a spinning process costs the
 * others fall on few iterations. */
static double ring_time(const struct tl_exp *e)
{
	double t0 = 0;
	char sb[8], rb[8];
	int i;

	exp_barrier(e);
	for (i = -WAIT_WARM; i < WAIT_ITERS && e->me >= 0; i++) {
		if (!i)
			t0 = MPI_Wtime();
		ring(e, e->n, 1, sb, rb, 0);
	}
	return e->me == 0 ? MPI_Wtime() - t0 : 0;
}

/*
 * How the shared memory channel's processes wait on a crowded host (c):
 * WAIT_ITERS iterations of a ring of empty messages on all of them,
 * timed waiting in MPI_Waitall and yielding the CPU between polls
 * (calib_wait), WAIT_TRIES times each way, so that one slow spell does
 * not decide.  Where yielding's fastest is at least twice as fast, the
 * library's waiting processes keep their CPU until the kernel takes it
 * (MPICH 4 with 3 or 4 ranks on 2 CPUs: 52 to 108 ms spinning, 0.03
 * to 6.2 ms yielding; the experiments took 85 of a calibration's 150
 * s), and e's experiments wait yielding, their idle ranks asleep, as
 * the network channel's do on such a machine.  A library that yields
 * by itself when oversubscribed keeps MPI_Waitall (Open MPI, 4 ranks:
 * 27 to 39 us waiting in it, 71 to 110 us yielding).  Collective.
 */
static void pick_wait(struct calib *c, struct tl_exp *e)
{
	double t[2] = { INFINITY, INFINITY };	/* spinning, yielding */
	bool use;
	int i;

	if (!c->crowded)
		return;
	for (i = 0; i < 2 * WAIT_TRIES; i++) {
		e->yield = i % 2 ? c : NULL;
		t[i % 2] = fmin(t[i % 2], ring_time(e));
	}
	MPI_Bcast(t, 2, MPI_DOUBLE, e->world[0], MPI_COMM_WORLD);
	use = t[1] > 0 && t[0] >= 2 * t[1];
	e->yield = use ? c : NULL;
	if (!c->rank)
		printf("tau-Lop channel 0: %d rings of empty messages on %d "
		       "processes took %.0f us waiting in MPI_Waitall, %.0f "
		       "us yielding between polls: the experiments wait %s\n",
		       WAIT_ITERS, e->n, t[0] * 1e6, t[1] * 1e6,
		       use ? "yielding, their idle ranks asleep" :
		       "in MPI_Waitall and MPI_Barrier");
}

/* Every experiment of e over the sizes; results reach rank 0. */
static void run_chan(struct calib *c, struct tl_exp *e, const double *sizes,
		     int ns, int reps)
{
	size_t nring = (size_t)ns * e->ntau * reps, nis = (size_t)ns * reps;
	double *ring = xcalloc(nring, sizeof(double));
	double *isend = xcalloc(nis, sizeof(double));
	double *lw = xcalloc(nring, sizeof(double));
	int *iters = xcalloc((size_t)ns * e->ntau, sizeof(int));
	/* progress: rings, written, rounds together (shared memory), gaps */
	int nstep = (e->chan == CP_TL_SHM ? 4 : 3) * ns;
	int maxd = 1, is, it;
	size_t big;
	char *sb, *rb;

	for (it = 0; it < e->ntau; it++)
		if (e->deg[it] > maxd)
			maxd = e->deg[it];
	big = (size_t)sizes[ns - 1] * (maxd + 1) + 64;
	sb = xcalloc(big, 1);
	rb = xcalloc(big, 1);
	memset(sb, 1, big);	/* fault the pages in before timing */
	memset(rb, 2, big);
	for (is = 0; is < ns; is++) {
		for (it = 0; it < e->ntau; it++)
			iters[is * e->ntau + it] =
				run_exp(c, e, it, (int)sizes[is], reps, sb, rb,
					ring + ((size_t)is * e->ntau + it) *
					reps, isend + (size_t)is * reps);
		calib_progress(c, e->chan ? "network rings" :
			       "shared memory rings", is + 1, nstep);
	}
	/* the written messages after all of the loop's, which are timed
	 * as they were before written ones existed */
	for (is = 0; is < ns; is++) {
		for (it = 0; it < e->ntau; it++)
			run_written(e, exp_procs(e, it), e->deg[it],
				    (int)sizes[is], reps,
				    iters[is * e->ntau + it], sb, rb,
				    e->me ? NULL : lw + ((size_t)is *
							 e->ntau + it) * reps);
		calib_progress(c, "written messages", ns + is + 1, nstep);
	}
	/* rounds that start together: shared memory, one host's clock;
	 * world rank 0 keeps the times */
	if (e->chan == CP_TL_SHM && !c->rank)
		e->ls = xcalloc(nring, sizeof(double));
	for (is = 0; e->chan == CP_TL_SHM && is < ns; is++) {
		for (it = 0; it < e->ntau; it++)
			run_synced(e, exp_procs(e, it), e->deg[it],
				   (int)sizes[is], reps,
				   iters[is * e->ntau + it], c->quick, sb, rb,
				   e->ls ? e->ls + ((size_t)is * e->ntau +
						    it) * reps : NULL);
		calib_progress(c, "rounds after barrier",
			       2 * ns + is + 1, nstep);
	}
	run_gaps(c, e, sizes, ns, reps, nstep, sb, rb);
	free(iters);
	free(sb);
	free(rb);
	/* the first participant measured; rank 0 collects */
	e->ring = c->rank ? NULL : xcalloc(nring, sizeof(double));
	e->isend = c->rank ? NULL : xcalloc(nis, sizeof(double));
	e->lw = c->rank ? NULL : xcalloc(nring, sizeof(double));
	MPI_Reduce(lw, e->lw, (int)nring, MPI_DOUBLE, MPI_MAX, 0,
		   MPI_COMM_WORLD);
	free(lw);
	MPI_Reduce(ring, e->ring, (int)nring, MPI_DOUBLE, MPI_MAX, 0,
		   MPI_COMM_WORLD);
	MPI_Reduce(isend, e->isend, (int)nis, MPI_DOUBLE, MPI_MAX, 0,
		   MPI_COMM_WORLD);
	free(ring);
	free(isend);
}

/* The cost of MPI_Reduce_local (MPI_SUM of doubles), every rank of the
 * node at once as in a collective's round; rank 0's medians.  Both
 * buffers are written first: an untouched calloc'ed input maps every
 * page to the kernel's one zero page, which stays in the cache (a
 * reduction then measured 0.014 ns/B). */
static void run_red(struct calib *c, double *bytes, double *t_s, int *n)
{
	static const int sz[] = { 4096, 32768, 131072, 524288, 1048576 };
	int k, r, i, reps = c->quick ? 5 : 11, iters = 4;
	double *x = xcalloc(1048576 / 8, sizeof(double));
	double *y = xcalloc(1048576 / 8, sizeof(double)), v[16], t0;

	for (i = 0; i < 1048576 / 8; i++) {
		x[i] = 1.0 + i * 1e-9;
		y[i] = 0.5;
	}

	*n = (int)(sizeof(sz) / sizeof(sz[0]));
	for (k = 0; k < *n; k++) {
		for (r = -1; r < reps; r++) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
			for (i = 0; i < iters; i++)
				MPI_Reduce_local(x, y, sz[k] / 8, MPI_DOUBLE,
						 MPI_SUM);
			if (r >= 0)
				v[r] = (MPI_Wtime() - t0) / iters;
		}
		qsort(v, (size_t)reps, sizeof(double), cmp_dbl);
		bytes[k] = sz[k];
		t_s[k] = v[reps / 2];
	}
	free(x);
	free(y);
}

/*
 * The first touch of fresh pages (what Open MPI's scratch buffers cost
 * when glibc gave their pages back at the last call's free): between two
 * barriers every rank of the job at once, as in a collective, maps 16 to
 * 512 pages of its own (no huge pages), writes one byte of each and
 * unmaps them; rank 0's medians of the time between the barriers, whose
 * slope over the pages is the cost of a page with all ranks faulting
 * (4 ranks on 2 CPUs: twice one rank's).  pages, t_s: out, *n points.
 */
static void run_page(struct calib *c, double *pages, double *t_s, int *n)
{
	static const int np[] = { 16, 64, 128, 256, 512 };
	int k, r, reps = c->quick ? 5 : 11;
	double v[16], t0;
	size_t i, len;
	char *m;

	*n = (int)(sizeof(np) / sizeof(np[0]));
	for (k = 0; k < *n; k++) {
		len = (size_t)np[k] * (size_t)CP_TL_PAGE;
		for (r = -1; r < reps; r++) {
			MPI_Barrier(MPI_COMM_WORLD);
			t0 = MPI_Wtime();
			m = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (m == MAP_FAILED)
				calib_fatal("out of memory");
#ifdef MADV_NOHUGEPAGE
			madvise(m, len, MADV_NOHUGEPAGE);
#endif
			for (i = 0; i < len; i += (size_t)CP_TL_PAGE)
				((volatile char *)m)[i] = 1;
			munmap(m, len);
			MPI_Barrier(MPI_COMM_WORLD);
			if (r >= 0)
				v[r] = MPI_Wtime() - t0;
		}
		qsort(v, (size_t)reps, sizeof(double), cmp_dbl);
		pages[k] = np[k];
		t_s[k] = v[reps / 2];
	}
}

/* ---- from estimates to the file (rank 0) ---- */

static void pval(struct cp_pval *v, const struct cp_est *e)
{
	memset(v, 0, sizeof(*v));
	if (e->fail || !isfinite(e->val)) {
		v->state = CP_PV_FAIL;
		snprintf(v->fail, sizeof(v->fail), "%s",
			 e->fail ? e->fail : "non-finite estimate");
		return;
	}
	v->state = CP_PV_OK;
	v->val = e->val;
	v->lo = e->lo < e->val ? e->lo : e->val;
	v->hi = e->hi > e->val ? e->hi : e->val;
	v->n = e->n;
}

/* A table of L(m, tau) in us, with o(m) when with_o. */
static void print_table(const struct tl_exp *e, const double *sizes, int ns,
			const struct cp_taulop_fit *f, bool with_o)
{
	int is, it;

	printf("%10s", "size");
	if (with_o)
		printf(" %8s", "o");
	for (it = 0; it < e->ntau; it++)
		printf(" %6s%-3g", "tau=", e->tau[it]);
	putchar('\n');
	for (is = 0; is < ns; is++) {
		printf("%10.0f", sizes[is]);
		if (with_o)
			printf(" %8.2f", f->o_s[is].val * 1e6);
		for (it = 0; it < e->ntau; it++) {
			const struct cp_est *l = &f->l_s[is * e->ntau + it];

			if (l->fail)
				printf(" %9s", "failed");
			else
				printf(" %9.2f", l->val * 1e6);
		}
		putchar('\n');
	}
}

static void print_chan(const struct tl_exp *e, const double *sizes, int ns,
		       const struct cp_taulop_fit *f)
{
	printf("tau-Lop channel %d (%s) on %d ranks: o and L(m, tau) in "
	       "us\n", e->chan, e->chan ? "network" : "shared memory", e->n);
	print_table(e, sizes, ns, f, true);
	if (f->flags & CP_TLFIT_CLAMPED)
		printf("tau-Lop: some L below 0 within noise, set to 0\n");
	if (e->ncut)
		printf("tau-Lop channel %d: %d of %d experiments with fewer "
		       "iterations, to bound their time (slow iterations: "
		       "ranks waiting for a CPU)\n", e->chan, e->ncut,
		       e->nexp);
}

/* Another table of L from times[] (another run of the Rings) by the
 * fit of L from the same o(m), into out[]: name says which in a failure,
 * title heads the table printed. */
static void fill_alt(const struct tl_exp *e, const struct cp_taulop_meas *loop,
		     const double *times, bool from_last, struct cp_pval *out,
		     const char *name, const char *title)
{
	struct cp_taulop_meas in = *loop;
	struct cp_taulop_fit f;
	int i, rc;

	if (!times)
		return;
	in.ring_s = times;
	in.from_last = from_last;
	rc = cp_taulop_fit(&in, CP_STATS_LEVEL, &f);
	if (rc) {
		printf("tau-Lop channel %d: the fit of %s failed: %s\n",
		       e->chan, name, cp_err_str(rc));
		return;
	}
	for (i = 0; i < in.nsizes * in.ntau; i++)
		pval(&out[i], &f.l_s[i]);
	printf("tau-Lop channel %d: L(m, tau) of %s, in us\n", e->chan, title);
	print_table(e, in.size_bytes, in.nsizes, &f, false);
	cp_taulop_fit_free(&f);
}

/* What a message takes more after each quiet gap: per size and gap the
 * median of the repetitions' samples (run_gaps), with its
 * distribution-free interval, as the Rings' experiments. */
static void fill_gaps(struct cp_tl_params *tl, const struct tl_exp *e,
		      const double *sizes, int ns, int reps)
{
	struct cp_tl_chan_params *ch = &tl->ch[e->chan];
	struct cp_est est;
	int is, g, rc;

	if (cp_tl_params_alloc_gaps(tl, e->chan, NGAP))
		calib_fatal("out of memory");
	memcpy(ch->gap_s, gaps, sizeof(gaps));	/* NGAP of them */
	printf("tau-Lop channel %d: what an exchange takes more after a "
	       "quiet gap outside MPI than right after the last, in us\n",
	       e->chan);
	printf("%10s", "size");
	for (g = 0; g < NGAP; g++)
		printf(" %6s%-4g", "gap=", gaps[g] * 1e6);
	putchar('\n');
	for (is = 0; is < ns; is++) {
		printf("%10.0f", sizes[is]);
		for (g = 0; g < NGAP; g++) {
			memset(&est, 0, sizeof(est));
			rc = cp_taulop_median_ci(e->gap + ((size_t)is *
							   NGAP + g) * reps,
						 reps, CP_STATS_LEVEL, &est);
			if (rc)
				est.fail = cp_err_str(rc);
			pval(&ch->lg_s[is * NGAP + g], &est);
			if (est.fail)
				printf(" %10s", "failed");
			else
				printf(" %10.2f", est.val * 1e6);
		}
		putchar('\n');
	}
}

static void fill_chan(struct cp_params *p, const struct tl_exp *e,
		      const double *sizes, int ns, int reps, int hops)
{
	struct cp_taulop_meas in = { ns, sizes, e->ntau, e->tau, e->deg,
				     reps, e->ring, reps, e->isend, hops,
				     false };
	struct cp_tl_params *tl = cp_tl_params_get(p);
	struct cp_taulop_fit f;
	int is, it, rc;

	if (!tl || cp_tl_params_alloc_chan(tl, e->chan, ns, e->ntau))
		calib_fatal("out of memory");
	rc = cp_taulop_fit(&in, CP_STATS_LEVEL, &f);
	if (rc) {
		printf("tau-Lop channel %d: fit failed: %s\n", e->chan,
		       cp_err_str(rc));
		tl->ch[e->chan].nsizes = 0;
		return;
	}
	memcpy(tl->ch[e->chan].size_bytes, sizes, sizeof(double) * ns);
	memcpy(tl->ch[e->chan].tau, e->tau, sizeof(double) * e->ntau);
	tl->ch[e->chan].ranks = e->n;
	for (is = 0; is < ns; is++) {
		pval(&tl->ch[e->chan].o_s[is], &f.o_s[is]);
		for (it = 0; it < e->ntau; it++)
			pval(&tl->ch[e->chan].l_s[is * e->ntau + it],
			     &f.l_s[is * e->ntau + it]);
	}
	print_chan(e, sizes, ns, &f);
	cp_taulop_fit_free(&f);
	fill_alt(e, &in, e->lw, false, tl->ch[e->chan].lw_s,
		 "written messages", "messages written just before they are "
		 "sent (the point-to-point messages' L)");
	/* run_synced: shared memory only */
	fill_alt(e, &in, e->ls, true, tl->ch[e->chan].ls_s,
		 "rounds that start together", "rounds that start together "
		 "after a barrier, messages written first (the collectives' "
		 "L)");
	fill_gaps(tl, e, sizes, ns, reps);
}

/* A cost per unit of a local operation (cp_taulop_fit_unit) through
 * (x, t) into v; e: the estimate, for the caller to print. */
static void fill_unit(const double *x, const double *t, int n,
		      struct cp_pval *v, struct cp_est *e)
{
	int rc;

	memset(e, 0, sizeof(*e));
	rc = cp_taulop_fit_unit(x, t, n, CP_STATS_LEVEL, e);
	if (rc && !e->fail)
		e->fail = cp_err_str(rc);
	e->n = n;
	pval(v, e);
}

/* The local costs: a reduction per byte, a fresh page. */
static void fill_local(struct cp_params *p, const double *rb,
		       const double *rt, int nred, const double *pb,
		       const double *pt, int npage)
{
	struct cp_tl_params *tl = cp_tl_params_get(p);
	struct cp_est e;

	if (!tl)
		calib_fatal("out of memory");
	fill_unit(rb, rt, nred, &tl->red_spb, &e);
	if (!e.fail)
		printf("tau-Lop: local reduction %.4f ns/B (MPI_SUM of "
		       "doubles)\n", e.val * 1e9);
	fill_unit(pb, pt, npage, &tl->page_s, &e);
	if (!e.fail)
		printf("tau-Lop: fresh page %.3f us (first touch of %.0f B, "
		       "every rank at once)\n", e.val * 1e6, CP_TL_PAGE);
}

static void free_exp(struct tl_exp *e)
{
	free(e->world);
	free(e->ring);
	free(e->isend);
	free(e->lw);
	free(e->ls);
	free(e->gap);
}

void calib_taulop(struct calib *c, const double *first, const double *below,
		  int nreg, struct cp_params *p)
{
	double sizes[MAXSIZES];
	/* c->sparse: 5 repetitions (see fit_iters) */
	int ns = plan_sizes(c->quick, first, below, nreg, sizes), nred;
	int reps = c->sparse ? 5 : c->quick ? 7 : 11;
	struct tl_exp e[2];
	double rb[8], rt[8], pb[8], pt[8];
	int k, npage;

	memset(e, 0, sizeof(e));
	pick_node(c, &e[0]);
	pick_hosts(c, &e[1]);
	if (e[0].n >= 2)
		pick_wait(c, &e[0]);
	for (k = 0; k < 2; k++) {
		plan_taus(&e[k]);
		if (e[k].n >= 2)
			run_chan(c, &e[k], sizes, ns, reps);
	}
	run_red(c, rb, rt, &nred);
	run_page(c, pb, pt, &npage);
	if (c->rank == 0) {
		calib_progress_end(c);
		for (k = 0; k < 2; k++)
			if (e[k].n >= 2)
				fill_chan(p, &e[k], sizes, ns, reps,
					  k ? 1 : 2);
		if (e[0].n < 2)
			printf("tau-Lop: no host runs 2 ranks: shared memory "
			       "channel not measured\n");
		fill_local(p, rb, rt, nred, pb, pt, npage);
	}
	for (k = 0; k < 2; k++)
		free_exp(&e[k]);
}
