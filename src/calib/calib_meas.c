/*
 * calib_meas.c - measurements of commprof-calibrate besides the LMO
 * sweep and log3P: scatter and gather size rows for the thresholds and
 * the LogGP samples (LMO paper; README "References").
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_stats.h"
#include "src/calib/calib.h"

#define TAG_ROW		81
#define TAG_LG		83

/* Median of x[0..n-1] (n >= 1); x is reordered by the copy only. */
static double median(const double *x, int n)
{
	double m = x[0];

	cp_stats_median(x, (size_t)n, &m);
	return m;
}

/* One timed linear scatter (gather) of bytes per rank; the slowest
 * rank's time from the barrier on, on rank 0. */
static double row_once(struct calib *c, char *buf, int bytes, bool gather,
		       MPI_Request *req)
{
	double t0, dt, mx = 0;
	int i;

	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	if (c->rank == 0 && !gather) {
		for (i = 1; i < c->n; i++)
			MPI_Send(buf, bytes, MPI_BYTE, i, TAG_ROW,
				 MPI_COMM_WORLD);
	} else if (c->rank == 0) {
		for (i = 1; i < c->n; i++)
			MPI_Irecv(buf + (size_t)i * bytes, bytes, MPI_BYTE, i,
				  TAG_ROW, MPI_COMM_WORLD, &req[i - 1]);
		MPI_Waitall(c->n - 1, req, MPI_STATUSES_IGNORE);
	} else if (!gather) {
		MPI_Recv(buf, bytes, MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
	} else {
		MPI_Send(buf, bytes, MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD);
	}
	dt = MPI_Wtime() - t0;
	MPI_Reduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	return mx;
}

static void row(struct calib *c, const double *sizes, int nrow, double *t_s,
		bool gather)
{
	int maxb = (int)sizes[nrow - 1], i, r;
	char *buf = calloc((size_t)maxb * c->n + 1, 1);
	MPI_Request *req = calloc((size_t)c->n, sizeof(*req));
	double *x = calloc((size_t)c->reps, sizeof(double));

	if (!buf || !req || !x)
		calib_fatal("out of memory");
	for (i = 0; i < nrow; i++) {
		/* warm-up */
		row_once(c, buf, (int)sizes[i], gather, req);
		for (r = 0; r < c->reps; r++)
			x[r] = row_once(c, buf, (int)sizes[i], gather, req);
		if (c->rank == 0)
			t_s[i] = median(x, c->reps);
		calib_progress(c, gather ? "gather" : "scatter",
			       i + (gather ? nrow : 0), 2 * nrow);
	}
	free(buf);
	free(req);
	free(x);
}

void calib_scatter_row(struct calib *c, const double *sizes, int nrow,
		       double *t_s)
{
	row(c, sizes, nrow, t_s, false);
}

void calib_gather_row(struct calib *c, const double *sizes, int nrow,
		      double *t_s)
{
	row(c, sizes, nrow, t_s, true);
}

/* Rank 0: time of one send of bytes (or of a burst of count sends and
 * the empty acknowledgement of the last); rank 1 receives. */
static double lg_burst(struct calib *c, char *buf, int bytes, int count)
{
	double t0;
	int i;

	if (c->rank == 1) {
		for (i = 0; i < count; i++)
			MPI_Recv(buf, bytes, MPI_BYTE, 0, TAG_LG,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(buf, 0, MPI_BYTE, 0, TAG_LG, MPI_COMM_WORLD);
		return 0;
	}
	t0 = MPI_Wtime();
	for (i = 0; i < count; i++)
		MPI_Send(buf, bytes, MPI_BYTE, 1, TAG_LG, MPI_COMM_WORLD);
	MPI_Recv(buf, 0, MPI_BYTE, 1, TAG_LG, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	return MPI_Wtime() - t0;
}

/* Rank 0: o_s samples, each one send of a back-to-back row. */
static void lg_send(struct calib *c, char *buf, int nsamp, double *os)
{
	double t0;
	int j;

	for (j = 0; j < nsamp; j++) {
		if (c->rank == 1) {
			MPI_Recv(buf, 8, MPI_BYTE, 0, TAG_LG, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			continue;
		}
		t0 = MPI_Wtime();
		MPI_Send(buf, 8, MPI_BYTE, 1, TAG_LG, MPI_COMM_WORLD);
		os[j] = MPI_Wtime() - t0;
	}
}

/* Rank 0: o_r samples, receives posted once the message is there. */
static void lg_recv(struct calib *c, char *buf, int nsamp, double *or_)
{
	double t0;
	int j, flag;

	for (j = 0; j < nsamp; j++) {
		if (c->rank == 1) {
			MPI_Recv(buf, 0, MPI_BYTE, 0, TAG_LG, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, 8, MPI_BYTE, 0, TAG_LG, MPI_COMM_WORLD);
			continue;
		}
		MPI_Send(buf, 0, MPI_BYTE, 1, TAG_LG, MPI_COMM_WORLD);
		do
			MPI_Iprobe(1, TAG_LG, MPI_COMM_WORLD, &flag,
				   MPI_STATUS_IGNORE);
		while (!flag);
		t0 = MPI_Wtime();
		MPI_Recv(buf, 8, MPI_BYTE, 1, TAG_LG, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		or_[j] = MPI_Wtime() - t0;
	}
}

void calib_loggp(struct calib *c, int nsamp, int burst, int big,
		 double *os, double *or_, double *rtt, double *bs,
		 double *bbs)
{
	char *buf = calloc((size_t)big + 8, 1);
	int j;

	if (!buf)
		calib_fatal("out of memory");
	lg_burst(c, buf, 8, burst);		/* warm-up */
	lg_send(c, buf, nsamp, os);
	lg_burst(c, buf, 0, 1);			/* drain the row */
	lg_recv(c, buf, nsamp, or_);
	for (j = 0; j < nsamp; j++) {
		if (c->rank == 1) {
			lg_burst(c, buf, 8, 1);
			continue;
		}
		rtt[j] = lg_burst(c, buf, 8, 1);
	}
	for (j = 0; j < nsamp; j++) {
		double t = lg_burst(c, buf, 8, burst);

		if (c->rank == 0)
			bs[j] = t;
	}
	lg_burst(c, buf, big, burst);		/* warm-up */
	for (j = 0; j < nsamp; j++) {
		double t = lg_burst(c, buf, big, burst);

		if (c->rank == 0)
			bbs[j] = t;
	}
	calib_progress(c, NULL, 1, 1);
	free(buf);
}
