/*
 * calib_run.c - what every part of commprof-calibrate shares while it
 * runs: the fatal end, the progress line and the barrier of idle ranks.
 * Uses nothing else of the calibrator; the experiments (calib_sched.c),
 * the other measurements (calib_meas.c) and the driver (calibrate.c)
 * use it.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "src/calib/calib.h"

void calib_fatal(const char *what)
{
	fprintf(stderr, "commprof-calibrate: %s\n", what);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

void calib_progress(struct calib *c, const char *what, int units)
{
	double el, left;
	int pct;

	c->units_done += units;
	if (!c->tty || c->units_total <= 0)
		return;
	el = MPI_Wtime() - c->t0_s;
	pct = 100 * c->units_done / c->units_total;
	left = c->units_done ? el * (c->units_total - c->units_done) /
		c->units_done : 0;
	fprintf(stderr, "\r%-28.28s %3d%%  ~%.0f s left   ", what,
		pct > 100 ? 100 : pct, left > 0 ? left : 0);
}

void calib_progress_end(struct calib *c)
{
	if (c->tty)
		fprintf(stderr, "\r%50s\r", "");
}

void calib_idle_barrier(void)
{
	struct timespec ts = { 0, 1000000 };
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	for (;;) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&ts, NULL);
	}
}
