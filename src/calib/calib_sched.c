/*
 * calib_sched.c - LMO experiments of commprof-calibrate: empty
 * roundtrips, one-to-one and one-to-two (LMO paper), scheduled in
 * rounds so that experiments sharing no process run at the same time
 * (LMO paper, section 4), or one at a time on a machine (kernel) with
 * fewer CPUs than ranks, where concurrent experiments would take each
 * other's cores.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_lmo.h"
#include "src/calib/calib.h"

#define TAG_GO		71
#define TAG_REPLY	72

/* Members of experiment e, in the analysis order of kind. */
static void fill_members(struct calib_sched *s, int n)
{
	int i, j, k, e = 0;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			if (s->size == 2) {
				e = cp_lmo_pair_idx(n, i, j);
				s->memb[2 * e] = i;
				s->memb[2 * e + 1] = j;
				continue;
			}
			for (k = j + 1; k < n; k++) {
				int t[3] = { i, j, k }, r;

				for (r = 0; r < 3; r++) {
					e = cp_lmo_o2t_idx(n, t[r],
							   t[(r + 1) % 3],
							   t[(r + 2) % 3]);
					s->memb[3 * e] = t[r];
					s->memb[3 * e + 1] = t[(r + 1) % 3];
					s->memb[3 * e + 2] = t[(r + 2) % 3];
				}
			}
		}
}

/* Greedy rounds: one pass over the remaining experiments per round;
 * serial: one experiment per round. */
static int make_rounds(struct calib_sched *s, int n, bool serial)
{
	char *done = calloc((size_t)s->nexp, 1), *busy = malloc(n);
	int placed = 0, e, k, ok;

	if (!done || !busy) {
		free(done);
		free(busy);
		return -1;
	}
	while (placed < s->nexp) {
		memset(busy, 0, n);
		s->round_start[s->nrounds++] = placed;
		for (e = 0; e < s->nexp; e++) {
			if (done[e])
				continue;
			for (ok = 1, k = 0; k < s->size; k++)
				ok &= !busy[s->memb[e * s->size + k]];
			if (!ok)
				continue;
			for (k = 0; k < s->size; k++)
				busy[s->memb[e * s->size + k]] = 1;
			done[e] = 1;
			s->order[placed++] = e;
			if (serial)
				break;
		}
	}
	s->round_start[s->nrounds] = placed;
	free(done);
	free(busy);
	return 0;
}

int calib_sched_build(struct calib_sched *s, int kind, int n, bool serial)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->size = kind == CALIB_O2T ? 3 : 2;
	s->nexp = s->size == 3 ? cp_lmo_no2t(n) : cp_lmo_npairs(n);
	s->memb = calloc((size_t)s->nexp * s->size + 1, sizeof(int));
	s->order = calloc((size_t)s->nexp + 1, sizeof(int));
	s->round_start = calloc((size_t)s->nexp + 2, sizeof(int));
	if (!s->memb || !s->order || !s->round_start ||
	    (fill_members(s, n), make_rounds(s, n, serial))) {
		calib_sched_free(s);
		return -1;
	}
	return 0;
}

void calib_sched_free(struct calib_sched *s)
{
	free(s->memb);
	free(s->order);
	free(s->round_start);
	memset(s, 0, sizeof(*s));
}

/* One repetition of experiment m (members) as process me; returns the
 * initiator's time, 0 on the others.  The initiator writes its message
 * first (calib_touch), untimed.  Every wait is calib_wait's: on a
 * crowded host the processes that wait yield their cores to the one
 * that sends. */
static double run_one(const struct calib *c, const struct calib_sched *s,
		      const int *m, int me, char *buf, int bytes)
{
	int out = s->kind == CALIB_RT0 ? 0 : bytes;
	MPI_Request req[2];
	int k;
	double t0;

	if (me != 0) {
		MPI_Irecv(buf, out, MPI_BYTE, m[0], TAG_GO, MPI_COMM_WORLD,
			  req);
		calib_wait(c, 1, req);
		MPI_Send(buf, 0, MPI_BYTE, m[0], TAG_REPLY, MPI_COMM_WORLD);
		return 0;
	}
	calib_touch(buf, (size_t)out);
	/* both messages of a one-to-two are posted at once: with blocking
	 * sends the second would wait until the first had drained into a
	 * socket buffer, and the root would pay part of the first link's
	 * transfer too, which the model gives to the link alone */
	t0 = MPI_Wtime();
	for (k = 1; k < s->size; k++)
		MPI_Isend(buf, out, MPI_BYTE, m[k], TAG_GO, MPI_COMM_WORLD,
			  &req[k - 1]);
	calib_wait(c, s->size - 1, req);
	for (k = 1; k < s->size; k++)
		MPI_Irecv(buf, 0, MPI_BYTE, m[k], TAG_REPLY, MPI_COMM_WORLD,
			  &req[k - 1]);
	calib_wait(c, s->size - 1, req);
	return MPI_Wtime() - t0;
}

void calib_sched_run(struct calib *c, const struct calib_sched *s,
		     int bytes, int reps, char *buf, double *t_s)
{
	size_t len = (size_t)s->nexp * reps;
	double *mine = calloc(len + 1, sizeof(double));
	int rd, q, e, k, r, me;
	const int *m;

	if (!mine)
		calib_fatal("out of memory");
	for (rd = 0; rd < s->nrounds; rd++) {
		for (q = s->round_start[rd]; q < s->round_start[rd + 1]; q++) {
			e = s->order[q];
			m = s->memb + (size_t)e * s->size;
			for (me = -1, k = 0; k < s->size; k++)
				if (m[k] == c->rank)
					me = k;
			if (me < 0)
				continue;
			/* two processes on a crowded host: a CPU each */
			if (s->size == 2)
				calib_pin(c, me);
			run_one(c, s, m, me, buf, bytes);	/* warm-up */
			for (r = 0; r < reps; r++)
				mine[(size_t)e * reps + r] =
					run_one(c, s, m, me, buf, bytes);
			if (s->size == 2)
				calib_unpin(c);
		}
		/* ranks done with their round sleep, not poll: a
		 * polling rank takes a core from one still measuring */
		calib_idle_barrier();
	}
	MPI_Reduce(mine, t_s, (int)len, MPI_DOUBLE, MPI_SUM, 0,
		   MPI_COMM_WORLD);
	free(mine);
}
