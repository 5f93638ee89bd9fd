/*
 * calib_run.c - what every part of commprof-calibrate shares while it
 * runs: the fatal end, the progress bar, the barrier of idle ranks, the
 * touch of a message's data, and estimates into parameters.  Uses
 * nothing else of the calibrator; the measurements (calib_sched.c,
 * calib_lmo.c, calib_log3p.c, calib_meas.c) and the driver
 * (calibrate.c) use it.
 */
#define _GNU_SOURCE
#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/cp_stats.h"
#include "src/calib/calib.h"

#define BAR	24	/* characters of the bar */

void calib_fatal(const char *what)
{
	fprintf(stderr, "commprof-calibrate: %s\n", what);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

void calib_phase(struct calib *c, const char *name, double weight)
{
	double now = MPI_Wtime();

	/* what each phase took, on the output a user keeps */
	if (c->rank == 0 && c->phase)
		printf("phase %s: %.1f s\n", c->phase, now - c->phase_t0);
	c->phase_t0 = now;
	c->phase_base += c->phase_weight;
	c->phase_weight = weight;
	c->phase = name;
	calib_progress(c, NULL, 0, 1);
}

void calib_progress(struct calib *c, const char *detail, double done,
		    double total)
{
	double el, left, f;
	char bar[BAR + 1];
	int i, k;

	if (!c->tty)
		return;
	f = c->phase_base + c->phase_weight *
	    (total > 0 && done < total ? done / total : 1);
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	k = (int)(f * BAR + 0.5);
	for (i = 0; i < BAR; i++)
		bar[i] = i < k ? '#' : '.';
	bar[BAR] = '\0';
	el = MPI_Wtime() - c->t0_s;
	left = f > 0.02 ? el * (1 - f) / f : 0;
	fprintf(stderr, "\r[%s] %3.0f%%  %-14.14s %-22.22s ~%3.0f s left ",
		bar, 100 * f, c->phase ? c->phase : "", detail ? detail : "",
		left);
}

void calib_progress_end(struct calib *c)
{
	if (c->tty)
		fprintf(stderr, "\r%79s\r", "");
}

void calib_nap_barrier(MPI_Comm comm, long nap_us)
{
	struct timespec ts = { nap_us / 1000000, nap_us % 1000000 * 1000 };
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(comm, &req);
	if (nap_us <= 0) {
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		return;
	}
	for (;;) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&ts, NULL);
	}
}

void calib_idle_barrier_on(MPI_Comm comm)
{
	calib_nap_barrier(comm, CALIB_IDLE_NAP_US);
}

void calib_idle_barrier(void)
{
	calib_idle_barrier_on(MPI_COMM_WORLD);
}

void calib_wait(const struct calib *c, int n, MPI_Request *reqs)
{
	int done = 0;

	if (!c->crowded) {
		MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
		return;
	}
	for (;;) {
		MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
		if (done)
			return;
		sched_yield();
	}
}

/* The CPUs this process may run on, as at its first pin. */
static cpu_set_t cpus_all;
static int cpus_known;

void calib_pin(const struct calib *c, int slot)
{
	cpu_set_t one;
	int i, k = -1, n;

	if (!c->crowded)
		return;
	if (!cpus_known)
		cpus_known = sched_getaffinity(0, sizeof(cpus_all),
					       &cpus_all) ? -1 : 1;
	n = cpus_known > 0 ? CPU_COUNT(&cpus_all) : 0;
	if (n < 2)
		return;
	for (i = 0; i < CPU_SETSIZE && k < slot % n; i++)
		if (CPU_ISSET(i, &cpus_all) && ++k == slot % n)
			break;
	CPU_ZERO(&one);
	CPU_SET(i, &one);
	sched_setaffinity(0, sizeof(one), &one);
}

void calib_unpin(const struct calib *c)
{
	if (c->crowded && cpus_known > 0)
		sched_setaffinity(0, sizeof(cpus_all), &cpus_all);
}

void calib_touch(char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i += 64)
		buf[i]++;
	__asm__ volatile("" ::: "memory");
}

static const char cause_neg[] = "negative derived value (noise)";
static const char cause_nonfinite[] = "non-finite estimate";
static const char cause_noci[] = "value outside its interval";

void calib_put(struct cp_pval *v, const struct cp_est *e, bool inf_ok)
{
	bool fin = isfinite(e->val) || (inf_ok && e->val == INFINITY &&
					e->hi == INFINITY);

	memset(v, 0, sizeof(*v));
	if (e->fail || !fin || isnan(e->lo) || isnan(e->hi) ||
	    !(e->lo <= e->val && e->val <= e->hi)) {
		v->state = CP_PV_FAIL;
		snprintf(v->fail, sizeof(v->fail), "%s", e->fail ? e->fail :
			 fin ? cause_noci : cause_nonfinite);
		return;
	}
	v->state = CP_PV_OK;
	v->val = e->val;
	v->lo = e->lo;
	v->hi = e->hi;
	v->n = e->n;
	if (e->ambig)
		snprintf(v->ambig, sizeof(v->ambig), "%s", e->ambig);
}

double calib_quantile(const double *x, int n, double q)
{
	double v;

	return n < 1 || cp_stats_percentile(x, (size_t)n, q, &v) ? NAN : v;
}

void calib_put_range(struct cp_pval *v, double x, double lo, double hi,
		     int n)
{
	struct cp_est e = { .val = x, .lo = lo, .hi = hi, .n = n };

	if (!isfinite(x))
		e.fail = cause_nonfinite;
	else if (x < 0)
		e.fail = cause_neg;
	calib_put(v, &e, false);
}

int calib_node_ranks(MPI_Comm comm)
{
	MPI_Comm node;
	int n;

	MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
			    &node);
	MPI_Comm_size(node, &n);
	MPI_Comm_free(&node);
	return n;
}
