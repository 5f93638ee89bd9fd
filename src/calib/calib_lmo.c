/*
 * calib_lmo.c - LMO from size sweeps (analysis/cp_lmo_ls.h): every
 * experiment of the LMO paper at every size of a sweep, the regimes found in
 * it and checked against the limits the MPI library reports, and the
 * estimates of each regime by constrained least squares.
 */
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "src/calib/calib.h"

#define MAXSIZES	64
#define SLOW_TRIES	3
#define REFINE_STEPS	8		/* sizes measured per break at most */
#define REFINE_MAX	(256 << 10)	/* breaks refined up to this size */

/* The LMO series by CALIB_* kind, as the output names them. */
static const char *const nm[CALIB_NKINDS] = { "empty roundtrips",
	"one-to-one", "one-to-two" };

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void add_size(double *s, int *n, double x)
{
	int i;

	if (*n >= MAXSIZES || !(x > 0))
		return;
	for (i = 0; i < *n; i++)
		if (s[i] == x)
			return;
	s[(*n)++] = x;
}

/* 64 B, 96 B, 128 B, ... up to max (two sizes per doubling; one, 64 B,
 * 128 B, ..., when sparse), and the sizes 128 B below each limit and at
 * it, increasing. */
static int sweep_sizes(const struct calib_lmo *l, double max, bool sparse,
		       double *s)
{
	int n = 0, k, i;

	for (k = 0; 64 * pow(2, k / 2.0) <= max * 1.0001; k++)
		if (k % 2 == 0 || !sparse)
			add_size(s, &n, k % 2 ? 96 * pow(2, (k - 1) / 2) :
				 64 * pow(2, k / 2));
	for (i = 0; i < l->nlim; i++) {
		if (l->lim[i].bytes > max || l->lim[i].bytes < 512)
			continue;
		add_size(s, &n, l->lim[i].bytes - 128);
		add_size(s, &n, l->lim[i].bytes);
	}
	qsort(s, (size_t)n, sizeof(double), cmp_dbl);
	return n;
}

/* The library's limits on every rank (the names on rank 0 only). */
static void share_limits(struct calib *c, struct calib_lmo *l)
{
	double v[16];
	int i;

	if (c->rank == 0)
		l->nlim = calib_limits(l->lim, 16);
	MPI_Bcast(&l->nlim, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (i = 0; i < l->nlim; i++)
		v[i] = l->lim[i].bytes;
	MPI_Bcast(v, l->nlim, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	for (i = 0; i < l->nlim; i++)
		l->lim[i].bytes = v[i];
}

/* An experiment's time at a size: the LMO_Q quantile of its
 * repetitions (the LMO paper takes their mean; a slow spell of a crowded host
 * lifts most repetitions of a message by up to milliseconds, and the
 * low quantile is the undisturbed time while it leans less on one lucky
 * repetition than the minimum). */
#define LMO_Q	0.1

/* Each experiment's value val[e] and spread sd[e] (median less value:
 * how far its repetitions scatter above it) of t (nexp x reps).  Returns
 * the largest excess of a median over twice its value (<= 0: none), the
 * mark of a slow spell that lifted most repetitions. */
static double slow_excess(const double *t, int nexp, int reps, double *val,
			  double *sd)
{
	double best = -INFINITY, med;
	int e;

	for (e = 0; e < nexp; e++) {
		val[e] = calib_quantile(t + (size_t)e * reps, reps, LMO_Q);
		med = calib_quantile(t + (size_t)e * reps, reps, 0.5);
		sd[e] = med - val[e];
		best = fmax(best, med > 2 * val[e] ? med - val[e] : -1);
	}
	return best;
}

/* Series s at bytes, run again (up to SLOW_TRIES in all) while rank 0
 * sees a slow spell in it (a median twice its value and --slow-us above
 * it) and the calibration is younger than 45 s (5 s quick): a crowded
 * host would otherwise repeat without end; val, sd (rank 0) get the
 * values and spreads of the calmest try, raw (if not NULL) its
 * repetitions. */
static void run_series(struct calib *c, const struct calib_sched *s,
		       int bytes, char *buf, double *val, double *sd,
		       double *raw)
{
	size_t len = (size_t)s->nexp * c->reps;
	double *t = NULL, *m = NULL, *d = NULL, bx = INFINITY, x;
	int again, tr;

	if (c->rank == 0) {
		t = malloc((len + 1) * sizeof(double));
		m = malloc(((size_t)s->nexp + 1) * sizeof(double));
		d = malloc(((size_t)s->nexp + 1) * sizeof(double));
		if (!t || !m || !d)
			calib_fatal("out of memory");
	}
	for (tr = 1; tr <= SLOW_TRIES; tr++) {
		calib_sched_run(c, s, bytes, c->reps, buf, t);
		again = 0;
		if (c->rank == 0) {
			x = slow_excess(t, s->nexp, c->reps, m, d);
			if (x < bx || tr == 1) {
				bx = x;
				memcpy(val, m, (size_t)s->nexp *
				       sizeof(double));
				memcpy(sd, d, (size_t)s->nexp *
				       sizeof(double));
				if (raw)
					memcpy(raw, t, len * sizeof(double));
			}
			again = c->slow_s > 0 && x > c->slow_s &&
				tr < SLOW_TRIES &&
				MPI_Wtime() - c->t0_s < (c->quick ? 5 : 45);
			if (again)
				printf("lmo %s at %d B: slow spell (a median "
				       "twice the 10%% quantile, %.0f us above "
				       "it); again\n", nm[s->kind], bytes,
				       x * 1e6);
		}
		MPI_Bcast(&again, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (!again)
			break;
	}
	free(t);
	free(m);
	free(d);
}

/* --series: the repetitions behind the medians, one a line (rank 0). */
struct raw {
	FILE *f;
	double *t;		/* [len] scratch */
};

static void raw_write(const struct calib *c, struct raw *w,
		      const struct calib_sched *s, int bytes)
{
	static const char *const tag[] = { "rt0", "o2o", "o2t" };
	int e, q, k;

	if (!w->f)
		return;
	for (e = 0; e < s->nexp; e++)
		for (q = 0; q < c->reps; q++) {
			fprintf(w->f, "%s", tag[s->kind]);
			for (k = 0; k < s->size; k++)
				fprintf(w->f, " %d",
					s->memb[e * s->size + k]);
			if (s->kind != CALIB_RT0)
				fprintf(w->f, " %d", bytes);
			fprintf(w->f, " %d %.9e\n", q,
				w->t[(size_t)e * c->reps + q]);
		}
}

/* Largest one-way time of a size's one-to-one values (rank 0). */
static double slowest(const double *o2o, const double *rt0, int np)
{
	double x = 0;
	int p;

	for (p = 0; p < np; p++)
		x = fmax(x, o2o[p] - rt0[p] / 2);
	return x;
}

static void lmo_alloc(struct calib *c, struct calib_lmo *l, int n)
{
	int np = cp_lmo_npairs(c->n), n2t = cp_lmo_no2t(c->n);

	if (c->rank)
		return;
	/* room for two passes */
	l->rt0 = calloc(2 * (size_t)np + 1, sizeof(double));
	l->o2o = calloc(2 * (size_t)n * np + 1, sizeof(double));
	l->o2t = calloc(2 * (size_t)n * n2t + 1, sizeof(double));
	l->rt0_sd = calloc(2 * (size_t)np + 1, sizeof(double));
	l->o2o_sd = calloc(2 * (size_t)n * np + 1, sizeof(double));
	l->o2t_sd = calloc(2 * (size_t)n * n2t + 1, sizeof(double));
	if (!l->rt0 || !l->o2o || !l->o2t || !l->rt0_sd || !l->o2o_sd ||
	    !l->o2t_sd)
		calib_fatal("out of memory");
}

/* Rank 0: the second pass's cells not measured (NAN) until they are. */
static void pass2_clear(const struct calib *c, struct calib_lmo *l)
{
	size_t np = cp_lmo_npairs(c->n), n2t = cp_lmo_no2t(c->n), i;
	size_t n = (size_t)l->nsizes;

	if (c->rank)
		return;
	for (i = 0; i < np; i++)
		l->rt0[np + i] = NAN;
	for (i = n * np; i < 2 * n * np; i++)
		l->o2o[i] = NAN;
	for (i = n * n2t; i < 2 * n * n2t; i++)
		l->o2t[i] = NAN;
}

/* Sweep size is into the cells of pass ps. */
static void one_size(struct calib *c, struct calib_lmo *l,
		     struct calib_sched *s, struct raw *w, char *buf, int ps,
		     int is)
{
	size_t np = cp_lmo_npairs(c->n), n2t = cp_lmo_no2t(c->n);
	size_t k = (size_t)ps * l->nsizes + is;
	double *raw = w->f ? w->t : NULL;
	int b = (int)l->size_bytes[is];

	run_series(c, &s[CALIB_O2O], b, buf, l->o2o ? l->o2o + k * np : NULL,
		   l->o2o_sd ? l->o2o_sd + k * np : NULL, raw);
	raw_write(c, w, &s[CALIB_O2O], b);
	if (c->n > 2) {
		run_series(c, &s[CALIB_O2T], b, buf,
			   l->o2t ? l->o2t + k * n2t : NULL,
			   l->o2t_sd ? l->o2t_sd + k * n2t : NULL, raw);
		raw_write(c, w, &s[CALIB_O2T], b);
	}
}

/* The second pass: the empty roundtrips, then the sizes from the
 * largest down, while the calibration is younger than PASS2_S (the
 * same sizes measured at another time: the rows of both passes go into
 * each regime's system, and how far the host moved between them into
 * its intervals). */
static void pass2(struct calib *c, struct calib_lmo *l,
		  struct calib_sched *s, struct raw *w, char *buf)
{
	size_t np = cp_lmo_npairs(c->n);
	double lim = c->t0_s + (c->quick ? 3 : 25);
	int is, go;
	char what[40];

	pass2_clear(c, l);
	for (is = l->nsizes; is >= 0; is--) {
		go = c->rank == 0 && MPI_Wtime() < lim;
		MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (!go)
			return;
		if (is == l->nsizes) {
			run_series(c, &s[CALIB_RT0], 0, buf,
				   l->rt0 ? l->rt0 + np : NULL,
				   l->rt0_sd ? l->rt0_sd + np : NULL,
				   w->f ? w->t : NULL);
			raw_write(c, w, &s[CALIB_RT0], 0);
			l->npass = 2;
			continue;
		}
		snprintf(what, sizeof(what), "again %d B",
			 (int)l->size_bytes[is]);
		calib_progress(c, what, l->nsizes - is, l->nsizes);
		one_size(c, l, s, w, buf, 1, is);
		l->npass2++;
	}
}

/* The sweep, size by size, until a size of at least min_bytes has its
 * slowest one-to-one above max_s or comes after budget_s of sweep.  On
 * a crowded host a 64-B message took more than 5 ms and the sweep
 * stopped there, with one regime and no log3P grid.  (A link of 100
 * Mbit/s takes the default max_s, 20 ms, at its min_bytes, 256 KiB.) */
static void sweep(struct calib *c, struct calib_lmo *l,
		  struct calib_sched *s, struct raw *w, double max_s,
		  double min_bytes, double budget_s)
{
	double t0_s = MPI_Wtime();
	int np = cp_lmo_npairs(c->n), is, stop = 0;
	char *buf = malloc((size_t)l->size_bytes[l->nsizes - 1] + 1);
	double *raw = w->f ? w->t : NULL;
	char what[32];

	if (!buf)
		calib_fatal("out of memory");
	l->npass = 1;
	run_series(c, &s[CALIB_RT0], 0, buf, l->rt0, l->rt0_sd, raw);
	raw_write(c, w, &s[CALIB_RT0], 0);
	for (is = 0; is < l->nsizes && !stop; is++) {
		snprintf(what, sizeof(what), "%d B", (int)l->size_bytes[is]);
		calib_progress(c, what, is, l->nsizes);
		one_size(c, l, s, w, buf, 0, is);
		if (c->rank == 0)
			stop = l->size_bytes[is] >= min_bytes &&
			       (slowest(l->o2o + is * np, l->rt0, np) > max_s ||
				MPI_Wtime() - t0_s > budget_s);
		MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
	}
	l->nsizes = is;
	pass2(c, l, s, w, buf);
	free(buf);
}

static void print_regimes(const struct calib_lmo *l)
{
	const struct cp_lmo_regimes *r = &l->reg;
	int k, i;

	printf("lmo limits reported by the MPI library:");
	for (i = 0; i < l->nlim; i++)
		printf(" %s=%.0f", l->lim[i].name, l->lim[i].bytes);
	printf("%s\n", l->nlim ? "" : " none (no MPI_T variable)");
	printf("lmo regimes: %d\n", r->nreg);
	for (k = 0; k < r->nreg; k++) {
		printf("  regime %d: %.0f B", k, r->first_bytes[k]);
		if (k + 1 < r->nreg)
			printf(" to %.0f B", r->first_bytes[k + 1] - 1);
		else
			printf(" and more");
		printf(", %d sizes measured (%.0f to %.0f B)", r->hi_idx[k] -
		       r->lo_idx[k] + 1 + !k, k ? l->size_bytes[r->lo_idx[k]] :
		       0.0, l->size_bytes[r->hi_idx[k]]);
		if (k)
			printf(", starts at %s", !strcmp(r->source[k], "data") ?
			       "a break in the data, no reported limit" :
			       r->source[k]);
		printf("\n");
	}
	for (i = 0; i < r->nunseen; i++)
		printf("lmo: limit %s=%.0f: no break in the data there\n",
		       r->unseen[i].name, r->unseen[i].bytes);
}

/* Regimes and estimates (rank 0). */
static void estimate(struct calib *c, struct calib_lmo *l)
{
	struct cp_lmo_sweep sw = { c->n, l->nsizes, l->size_bytes, l->npass,
				   l->rt0, l->o2o, c->n > 2 ? l->o2t : NULL,
				   l->rt0_sd, l->o2o_sd, l->o2t_sd };
	int k, rc;

	rc = cp_lmo_regimes_find(&sw, l->lim, l->nlim, &l->reg);
	if (rc) {
		printf("lmo: regimes failed: %s\n", cp_err_str(rc));
		return;
	}
	print_regimes(l);
	if (c->n == 2)
		printf("lmo: 2 ranks, no triplets: each regime's sums C_0 + C_1 "
		       "and t_0 + t_1 + 1/beta_01 are measured and predict "
		       "with; their split is assumed (assume lmo.n2 "
		       "split_assumed)\n");
	for (k = 0; k < l->reg.nreg; k++) {
		rc = cp_lmo_fit_regime(&sw, &l->reg, k, CP_STATS_LEVEL,
				       &l->est[k]);
		if (rc && rc != -CP_ENUM) {
			printf("lmo regime %d: estimate failed: %s\n", k,
			       cp_err_str(rc));
			cp_lmo_alloc(&l->est[k], c->n);
			l->est[k].first_bytes = l->reg.first_bytes[k];
		}
		if (l->est[k].ndropped)
			printf("lmo regime %d: %d measured times left out as "
			       "outliers\n", k, l->est[k].ndropped);
		if (l->est[k].flags & CP_LMO_F_NOSPLIT)
			printf("lmo regime %d: C, t, beta not determined; "
			       "the links' sums stand\n", k);
	}
	l->ok = true;
}

/* Pair p's one-way time at bytes by regime estimate m; NAN when the
 * link's sums are unusable there. */
static double fit_at(const struct cp_lmo *m, int p, double bytes)
{
	double t;
	int i, j;

	for (i = 0; i < m->n; i++)
		for (j = i + 1; j < m->n; j++)
			if (cp_lmo_pair_idx(m->n, i, j) == p)
				return cp_lmo_predict_p2p(m, i, j, bytes, &t) ?
				       NAN : t;
	return NAN;
}

/* Rank 0: do the one-to-one values val (one per pair) at bytes lie with
 * regime k (1) or k - 1 (0)?  By the squared log distance to each fit,
 * summed over the links both price; -1 when none does. */
static int upper_side(const struct calib_lmo *l, int np, int k,
		      const double *val, double bytes)
{
	double d = 0, t, lo, hi;
	int p, used = 0;

	for (p = 0; p < np; p++) {
		t = cp_lmo_oneway(val[p], l->rt0[p]);
		lo = fit_at(&l->est[k - 1], p, bytes);
		hi = fit_at(&l->est[k], p, bytes);
		if (!(t > 0 && lo > 0 && hi > 0))
			continue;
		d += pow(log(t / lo), 2) - pow(log(t / hi), 2);
		used++;
	}
	return used ? d > 0 : -1;
}

/*
 * A break the data showed, with no limit of the library's at it, lies
 * somewhere between the last sweep size of regime k - 1 and the first of
 * regime k, up to 1.5 times apart: MPICH 4's shared-memory eager path
 * ends just above 8 KiB, its break was put at the sweep's 12 KiB, and
 * 11 KB messages were priced by the eager regime 2.8 times too fast.
 * So each such break up to REFINE_MAX is bisected: the one-to-one
 * experiment at the middle size goes with the regime whose fit is
 * nearer (in log), until the two sides are within 1/64 of each other (64
 * B at least) or after REFINE_STEPS sizes; regime k then starts at the
 * smallest size found in it.  So is a break matched to an eager limit
 * that is itself the first size of the upper regime, down to 8 B: the
 * library counts its headers in the limit (Open MPI's ob1 sends eagerly
 * up to btl_eager_limit - sizeof(mca_pml_ob1_hdr_t), pml_ob1_sendreq.h),
 * so the upper protocol starts a header below it (4095 B went by
 * rendezvous under vader's limit of 4096).  Rank 0 decides; collective.
 */
static void refine_breaks(struct calib *c, struct calib_lmo *l,
			  struct calib_sched *s)
{
	int np = cp_lmo_npairs(c->n), nreg = 0, k, steps, side, ok;
	double a = 0, b = 0, go, *val = NULL, *sd = NULL;
	bool data = false;
	char *buf = malloc(REFINE_MAX + 1);

	if (c->rank == 0) {
		nreg = l->ok ? l->reg.nreg : 0;
		val = malloc(((size_t)np + 1) * sizeof(double));
		sd = malloc(((size_t)np + 1) * sizeof(double));
	}
	if (!buf || (c->rank == 0 && (!val || !sd)))
		calib_fatal("out of memory");
	MPI_Bcast(&nreg, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (k = 1; k < nreg; k++) {
		ok = 0;
		if (c->rank == 0) {
			a = l->size_bytes[l->reg.hi_idx[k - 1]];
			b = l->size_bytes[l->reg.lo_idx[k]];
			data = !strcmp(l->reg.source[k], "data");
			ok = (data || l->reg.first_bytes[k] == b) &&
			     b <= REFINE_MAX;
		}
		for (steps = 0;; steps++) {
			go = -1;
			if (ok && steps < REFINE_STEPS &&
			    b - a > (data ? fmax(64, a / 64) : 8)) {
				go = 8 * round((a + b) / 16);
				go = go > a && go < b ? go : -1;
			}
			MPI_Bcast(&go, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
			if (go < 0)
				break;
			run_series(c, &s[CALIB_O2O], (int)go, buf, val, sd,
				   NULL);
			if (c->rank != 0)
				continue;
			side = upper_side(l, np, k, val, go);
			if (side < 0)
				ok = 0;
			else if (side)
				b = go;
			else
				a = go;
		}
		if (c->rank != 0 || !steps)
			continue;
		printf("lmo regime %d: break refined by %d sizes between the "
		       "sweep's %.0f and %.0f B: from %.0f B (%.0f B with "
		       "regime %d)\n", k, steps,
		       l->size_bytes[l->reg.hi_idx[k - 1]],
		       l->size_bytes[l->reg.lo_idx[k]], b, a, k - 1);
		l->reg.first_bytes[k] = b;
		l->est[k].first_bytes = b;
		l->below[k] = a;
	}
	MPI_Bcast(&l->reg.nreg, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Bcast(l->reg.first_bytes, CP_LMO_MAXREG, MPI_DOUBLE, 0,
		  MPI_COMM_WORLD);
	MPI_Bcast(l->below, CP_LMO_MAXREG, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	free(buf);
	free(val);
	free(sd);
}

void calib_lmo_run(struct calib *c, struct calib_lmo *l)
{
	struct calib_sched s[CALIB_NKINDS];
	struct raw w = { NULL, NULL };
	double size[MAXSIZES], t0 = MPI_Wtime();
	int k, nk = c->n > 2 ? 3 : 2;

	memset(l, 0, sizeof(*l));
	share_limits(c, l);
	/* c->sparse: one size per doubling, up to 256 KiB.  A
	 * one-to-two's three processes share two CPUs there, and where the
	 * library's waiting processes spin (MPICH) its repetitions wait
	 * for time slices whatever the size: 0.43 s a size on 4 ranks of 2
	 * CPUs, 13 s of sweep in a 21-s quick calibration */
	l->nsizes = sweep_sizes(l, c->sparse ? 256 << 10 : c->quick ?
				1 << 20 : 4 << 20, c->sparse, size);
	l->size_bytes = malloc((size_t)l->nsizes * sizeof(double));
	if (!l->size_bytes)
		calib_fatal("out of memory");
	memcpy(l->size_bytes, size, (size_t)l->nsizes * sizeof(double));
	lmo_alloc(c, l, l->nsizes);
	for (k = 0; k < nk; k++)
		if (calib_sched_build(&s[k], k, c->n, c->crowded))
			calib_fatal("out of memory");
	if (c->rank == 0 && c->series) {
		w.f = fopen(c->series, "w");
		w.t = malloc(((size_t)cp_lmo_no2t(c->n) + c->n * c->n) *
			     c->reps * sizeof(double));
		if (!w.f)
			printf("lmo: %s: %s; no series written\n", c->series,
			       strerror(errno));
		else
			fprintf(w.f, "# commprof-calibrate lmo sweep: kind, "
				"ranks, bytes, repetition, seconds\n");
	}
	/* a default 4-rank calibration within 2 minutes on a crowded 2-core
	 * host; --quick sweeps to 1 MiB, whose sizes cost little there */
	sweep(c, l, s, &w, c->quick ? 5e-3 : 20e-3,
	      c->quick ? 65536 : 262144, c->quick ? INFINITY : 40);
	if (c->rank == 0) {
		calib_progress_end(c);
		printf("lmo experiments: %d %s in %d rounds, then at each "
		       "size", s[0].nexp, nm[0], s[0].nrounds);
		for (k = 1; k < nk; k++)
			printf("%s %d %s in %d rounds", k > 1 ? " and" : "",
			       s[k].nexp, nm[k], s[k].nrounds);
		printf("\n");
	}
	if (w.f && fclose(w.f))
		printf("lmo: %s: write failed\n", c->series);
	free(w.t);
	if (c->rank == 0) {
		printf("lmo sweep: %d sizes from %.0f to %.0f B, %d "
		       "repetitions of every experiment at each, %s, %d sizes "
		       "in a second pass; %.1f s\n", l->nsizes,
		       l->size_bytes[0], l->size_bytes[l->nsizes - 1],
		       c->reps, c->crowded ?
		       "one experiment at a time (fewer CPUs than ranks)" :
		       "disjoint experiments at once", l->npass2,
		       MPI_Wtime() - t0);
		estimate(c, l);
	}
	refine_breaks(c, l, s);
	for (k = 0; k < nk; k++)
		calib_sched_free(&s[k]);
}

void calib_lmo_fill(const struct calib *c, const struct calib_lmo *l,
		    struct cp_params *p)
{
	int k, i, j, q, n = c->n;
	size_t a, b;

	memcpy(p->lmo_size_bytes, l->size_bytes,
	       (size_t)l->nsizes * sizeof(double));
	for (k = 0; k < l->reg.nreg; k++) {
		const struct cp_lmo *m = &l->est[k];

		p->lmo_first_bytes[k] = l->reg.first_bytes[k];
		if (k)
			snprintf(p->lmo_source[k], sizeof(p->lmo_source[k]),
				 "%s", l->reg.source[k]);
		for (i = 0; i < n; i++) {
			calib_put(&p->lmo_c_s[k * n + i], &m->c_s[i], false);
			calib_put(&p->lmo_t_spb[k * n + i], &m->t_spb[i],
				  false);
			for (j = i + 1; j < n; j++) {
				q = cp_lmo_pair_idx(n, i, j);
				a = ((size_t)k * n + i) * n + j;
				b = ((size_t)k * n + j) * n + i;
				calib_put(&p->lmo_beta_Bps[a],
					  &m->beta_Bps[q], true);
				calib_put(&p->lmo_csum_s[a], &m->csum_s[q],
					  false);
				calib_put(&p->lmo_tsum_spb[a], &m->tsum_spb[q],
					  false);
				p->lmo_beta_Bps[b] = p->lmo_beta_Bps[a];
				p->lmo_csum_s[b] = p->lmo_csum_s[a];
				p->lmo_tsum_spb[b] = p->lmo_tsum_spb[a];
			}
		}
		if (m->flags & CP_LMO_F_N2)
			p->assume |= CP_PARAMS_A_N2;
	}
}

void calib_lmo_free(struct calib_lmo *l)
{
	int k;

	for (k = 0; k < CP_LMO_MAXREG; k++)
		cp_lmo_free(&l->est[k]);
	free(l->size_bytes);
	free(l->rt0);
	free(l->o2o);
	free(l->o2t);
	free(l->rt0_sd);
	free(l->o2o_sd);
	free(l->o2t_sd);
	memset(l, 0, sizeof(*l));
}
