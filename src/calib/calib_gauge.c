/*
 * calib_gauge.c - whether the host kept its speed while
 * commprof-calibrate measured it: the same message between ranks 0 and
 * 1, timed at several moments of the calibration.
 *
 * Why: a model calibrated in one spell of a host's speed predicts
 * another spell as far off as the spells differ, whatever the model.  On
 * the 2-vCPU virtual machines of this project's CI, the one-way time of
 * 256 KiB between two ranks bound to their cores sits near 40 or near
 * 120 us (now and then 24 us) in spells of seconds, on an otherwise idle
 * machine; the LMO sweep takes 0.3 s and lands in one spell.  A
 * moment's value is its fastest one-way time (half a roundtrip): what
 * the host can do then, not how often something else ran.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_stats.h"
#include "src/calib/calib.h"

#define TAG_GAUGE	85
#define TAG_STOP	86
#define MIN_TRIPS	3	/* roundtrips of a moment, however slow */

/* Rank 0: roundtrips for window_s (at least MIN_TRIPS after one
 * warm-up), then the stop; returns the fastest one-way time. */
static double lead(char *buf, double window_s)
{
	double t0, t, best = INFINITY, w0;
	int k;

	w0 = MPI_Wtime();
	for (k = 0; k <= MIN_TRIPS || MPI_Wtime() - w0 < window_s; k++) {
		t0 = MPI_Wtime();
		MPI_Send(buf, CALIB_GAUGE_BYTES, MPI_BYTE, 1, TAG_GAUGE,
			 MPI_COMM_WORLD);
		MPI_Recv(buf, CALIB_GAUGE_BYTES, MPI_BYTE, 1, TAG_GAUGE,
			 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		t = (MPI_Wtime() - t0) / 2;
		if (k)
			best = fmin(best, t);
	}
	MPI_Send(buf, 0, MPI_BYTE, 1, TAG_STOP, MPI_COMM_WORLD);
	return best;
}

/* Rank 1: answers every message until the stop. */
static void follow(char *buf)
{
	MPI_Status st;

	for (;;) {
		MPI_Recv(buf, CALIB_GAUGE_BYTES, MPI_BYTE, 0, MPI_ANY_TAG,
			 MPI_COMM_WORLD, &st);
		if (st.MPI_TAG == TAG_STOP)
			return;
		MPI_Send(buf, CALIB_GAUGE_BYTES, MPI_BYTE, 0, TAG_GAUGE,
			 MPI_COMM_WORLD);
	}
}

/* One buffer for all moments, its pages written once, so that the
 * moments differ by the host alone and not by where the allocator took
 * the pages from. */
void calib_gauge_pair(struct calib *c, struct calib_gauge *g)
{
	double t;

	if (c->rank < 2 && !g->buf) {
		g->buf = malloc(CALIB_GAUGE_BYTES);
		if (!g->buf)
			calib_fatal("out of memory");
		memset(g->buf, 1, CALIB_GAUGE_BYTES);
	}
	if (c->rank == 0) {
		t = lead(g->buf, c->quick ? 0.05 : 0.2);
		if (g->n < CALIB_GAUGE_MAX)
			g->t_s[g->n++] = t;
	} else if (c->rank == 1) {
		follow(g->buf);
	}
}

/* Pinned as LMO's and log3P's experiments are on a host with fewer
 * CPUs than ranks (calib_pin), so that the gauge times what they time. */
void calib_gauge(struct calib *c, struct calib_gauge *g)
{
	if (c->rank < 2)
		calib_pin(c, c->rank);
	calib_gauge_pair(c, g);
	if (c->rank < 2)
		calib_unpin(c);
	calib_idle_barrier();
}

void calib_gauge_free(struct calib_gauge *g)
{
	free(g->buf);
	g->buf = NULL;
}

void calib_gauge_fill(const struct calib_gauge *g, struct cp_params *p)
{
	double s[CALIB_GAUGE_MAX] = { 0 }, lo = INFINITY, hi = 0, med = NAN;
	int i;

	if (g->n < 2) {
		printf("gauge: %d moment(s), nothing to compare\n", g->n);
		return;
	}
	printf("gauge: %d B between ranks 0 and 1, fastest one-way time at "
	       "%d moments (us):", CALIB_GAUGE_BYTES, g->n);
	for (i = 0; i < g->n; i++) {
		s[i] = g->t_s[i];
		lo = fmin(lo, s[i]);
		hi = fmax(hi, s[i]);
		printf(" %.1f", s[i] * 1e6);
	}
	cp_stats_median(s, (size_t)g->n, &med);
	calib_put_range(&p->calib_gauge_s, med, lo, hi, g->n);
	if (hi > CALIB_GAUGE_STEADY * lo) {
		p->assume |= CP_PARAMS_A_UNSTEADY;
		printf("\nwarning: the host changed speed by %.2fx while it "
		       "was measured (assume unsteady): predictions of a run "
		       "in another spell can be off by as much; calibrate "
		       "again on a quiet host\n", hi / lo);
	} else {
		printf("; steady within %.2fx\n", hi / lo);
	}
}
