/*
 * calibrate.c - commprof-calibrate: measure the parameters of the models
 * of models.md (LMO, log3P, Hockney, LogGP, PLogP) on the ranks it runs
 * on and write them to a parameter file (src/common/cp_params.h).
 *
 *   mpirun -np N commprof-calibrate -o FILE [--quick] [--reps K]
 *                                   [--lmo-bytes M] [--series FILE]
 *                                   [--slow-us US] [--lmo-stat mean|min]
 *                                   [--progress]
 *
 * Order (models.md "LMO"): thresholds from scatter and gather rows, then
 * the LMO series at a size below S, then kappa; log3P and LogGP between
 * ranks 0 and 1; tau-Lop's Ring experiments (calib_taulop.c).  Output on
 * rank 0's stdout; exit 0, 1 (failure), 2 (usage).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/cp_baseline.h"
#include "analysis/cp_err.h"
#include "analysis/cp_lmo.h"
#include "analysis/cp_log3p.h"
#include "src/calib/calib.h"
#include "src/common/cp_params.h"

/* What is measured, by mode. */
struct plan {
	int nrow;		/* threshold row sizes */
	double row[64];		/* bytes */
	int ns, nd;		/* log3P sizes, strides */
	double sizes[16];	/* bytes */
	double strides[8];	/* bytes between doubles */
	int m, nrep;		/* log3P samples, repetitions */
	int lg_samp, lg_burst, lg_big;	/* LogGP */
};

/* Measurements and results, on rank 0. */
struct res {
	double *scat, *gath;			/* [nrow] */
	double *rt0, *o2o, *o2t, *o2t0;		/* LMO series */
	int msg_bytes;				/* M */
	double t_mem[16], t00[16], t01[16];	/* log3P */
	double t00sd[16 * 8], t01sd[16 * 8];
	double *os, *or_, *rtt, *bs, *bbs;	/* LogGP */
	struct cp_lmo lmo;
	struct cp_lmo_thresh th;
	struct cp_log3p l3;
	bool l3_ok;
};

static void plan_init(struct plan *p, bool quick)
{
	static const double qs[] = { 64, 1024, 8192, 32768 };
	static const double fs[] = { 8, 64, 512, 1024, 2048, 4096, 8192,
				     16384, 65536, 131072 };
	static const double st[] = { 16, 64, 256, 1024 };
	int i;

	p->nrow = quick ? 12 : 40;
	for (i = 0; i < p->nrow; i++)
		p->row[i] = (i + 1) * (quick ? 1024 : 512);
	p->ns = quick ? 4 : 10;
	memcpy(p->sizes, quick ? qs : fs, p->ns * sizeof(double));
	p->nd = quick ? 3 : 4;
	memcpy(p->strides, st, p->nd * sizeof(double));
	p->m = quick ? 5 : 20;
	p->nrep = quick ? 20 : 101;
	p->lg_samp = quick ? 10 : 50;
	p->lg_burst = 20;
	p->lg_big = quick ? 16384 : 65536;
}

#define USAGE "usage: mpirun -np N commprof-calibrate -o FILE [--quick] " \
	"[--reps K] [--lmo-bytes M] [--series FILE] [--slow-us US] " \
	"[--lmo-stat mean|min] [--progress]\n"

static int usage(int rank, const char *what)
{
	if (rank == 0)
		fprintf(stderr, "commprof-calibrate: %s\n" USAGE, what);
	return 2;
}

/* --help: on stdout, before MPI_Init, so that it needs no mpirun. */
static int help(void)
{
	fputs(USAGE "\n"
	      "Measures the model parameters of the machine it runs on (N >= 2\n"
	      "ranks) and writes them to FILE (see commprof-params(5)).\n"
	      "  -o FILE            the parameter file to write\n"
	      "  --quick            fewer sizes and repetitions (a smoke run)\n"
	      "  --reps K           repetitions per measurement, 2 to 1000\n"
	      "  --lmo-bytes M      LMO's message size M in bytes\n"
	      "  --series FILE      also write LMO's raw series to FILE\n"
	      "  --slow-us US       rerun a series whose median is US (default\n"
	      "                     50) plus 2% above its minimum\n"
	      "  --lmo-stat mean|min  statistic of LMO's repetitions\n"
	      "  --progress         a progress line on stderr\n"
	      "  --help, -h         this text\n"
	      "See commprof-calibrate(1).\n", stdout);
	return fflush(stdout) ? 1 : 0;
}

static int parse_args(struct calib *c, int argc, char **argv,
		      const char **out)
{
	char *end;
	long k;
	int i;

	*out = NULL;
	c->reps = 0;
	c->slow_s = 50e-6;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			*out = argv[++i];
		} else if (!strcmp(argv[i], "--quick")) {
			c->quick = true;
		} else if (!strcmp(argv[i], "--progress")) {
			c->tty = true;
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			k = strtol(argv[++i], &end, 10);
			if (*end || k < 2 || k > 1000)
				return usage(c->rank, "--reps: 2 to 1000");
			c->reps = (int)k;
		} else if (!strcmp(argv[i], "--lmo-bytes") && i + 1 < argc) {
			k = strtol(argv[++i], &end, 10);
			if (*end || k < 1 || k > (1 << 24))
				return usage(c->rank,
					     "--lmo-bytes: 1 to 16777216");
			c->lmo_bytes = (int)k;
		} else if (!strcmp(argv[i], "--series") && i + 1 < argc) {
			c->series = argv[++i];
		} else if (!strcmp(argv[i], "--lmo-stat") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "min"))
				c->lmo_stat = CP_LMO_STAT_MIN;
			else if (strcmp(argv[i], "mean"))
				return usage(c->rank, "--lmo-stat: mean or min");
		} else if (!strcmp(argv[i], "--slow-us") && i + 1 < argc) {
			k = strtol(argv[++i], &end, 10);
			if (*end || k < 0 || k > 1000000)
				return usage(c->rank, "--slow-us: 0 to 1000000");
			c->slow_s = k * 1e-6;
		} else {
			return usage(c->rank, "bad argument");
		}
	}
	if (!*out)
		return usage(c->rank, "missing -o FILE");
	if (!c->reps)
		c->reps = c->quick ? 5 : 10;
	return 0;
}

/* More ranks on this host than online CPUs, anywhere: warn once. */
static bool check_oversub(struct calib *c)
{
	MPI_Comm node;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int local, over, any = 0;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
			    MPI_INFO_NULL, &node);
	MPI_Comm_size(node, &local);
	MPI_Comm_free(&node);
	over = cpus > 0 && local > cpus;
	MPI_Allreduce(&over, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (any && c->rank == 0)
		printf("warning: oversubscribed: %d ranks on a host with %ld "
		       "online CPUs; waiting ranks steal cores, timings are "
		       "distorted\n", local, cpus);
	return any;
}

/* Library, date, hosts and the rank-to-host map into p (rank 0). */
static void describe(struct calib *c, struct cp_params *p)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING], me[MPI_MAX_PROCESSOR_NAME];
	char *all = NULL;
	int len, i, h;
	time_t now = time(NULL);

	memset(me, 0, sizeof(me));
	MPI_Get_processor_name(me, &len);
	if (c->rank == 0 && !(all = calloc(c->n, sizeof(me))))
		calib_fatal("out of memory");
	MPI_Gather(me, sizeof(me), MPI_CHAR, all, sizeof(me), MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	if (c->rank)
		return;
	MPI_Get_library_version(lib, &len);
	lib[strcspn(lib, "\n")] = '\0';
	while (len > 0 && lib[strlen(lib) - 1] == ' ')
		lib[strlen(lib) - 1] = '\0';
	snprintf(p->mpi_library, sizeof(p->mpi_library), "%s", lib);
	strftime(p->date, sizeof(p->date), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime(&now));
	p->nhosts = 0;
	for (i = 0; i < c->n; i++) {
		char *nm = all + (size_t)i * sizeof(me);

		nm[strcspn(nm, " \t")] = '\0';
		for (h = 0; h < p->nhosts; h++)
			if (!strcmp(p->hosts[h], nm))
				break;
		if (h == p->nhosts && !(p->hosts[p->nhosts++] = strdup(nm)))
			calib_fatal("out of memory");
		p->rank_host[i] = h;
	}
	free(all);
}

static void print_thresholds(const struct res *r, int lmo_bytes)
{
	printf("thresholds: S %.0f B, M1 %.0f B, M2 %.0f B (%d gather "
	       "breaks); lmo message size M = %d B%s\n", r->th.s_bytes,
	       r->th.m1_bytes, r->th.m2_bytes, r->th.gather_breaks,
	       r->msg_bytes, lmo_bytes ? " (--lmo-bytes)" : "");
	printf("gather between M1 and M2: random escalation levels, not "
	       "predicted\n");
}

/* Thresholds S, M1, M2 and the size M of the LMO series (< S). */
static void run_thresholds(struct calib *c, const struct plan *pl,
			   struct res *r)
{
	int rc, k;

	calib_scatter_row(c, pl->row, pl->nrow, r->scat);
	calib_gather_row(c, pl->row, pl->nrow, r->gath);
	r->msg_bytes = 1024;
	if (c->rank == 0) {
		cp_lmo_thresh_init(&r->th);
		rc = cp_lmo_scatter_thresh(pl->row, r->scat, pl->nrow, 0,
					   CP_STATS_LEVEL, &r->th);
		if (rc)
			printf("thresholds: S failed: %s\n", cp_err_str(rc));
		rc = cp_lmo_gather_thresh(pl->row, r->gath, pl->nrow, 0,
					  CP_STATS_LEVEL, &r->th);
		if (rc)
			printf("thresholds: M1, M2 failed: %s\n",
			       cp_err_str(rc));
		/* half-way below S: clear of the protocol switch */
		k = r->th.s_idx >= 0 ? r->th.s_idx / 2 : -1;
		if (k >= 0)
			r->msg_bytes = (int)pl->row[k];
		/* slow links: M/beta must stand well above the noise of
		 * the fixed delays, which half of S may not give */
		if (c->lmo_bytes)
			r->msg_bytes = c->lmo_bytes;
		calib_progress_end(c);
		print_thresholds(r, c->lmo_bytes);
	}
	MPI_Bcast(&r->msg_bytes, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

static double *alloc0(struct calib *c, size_t n)
{
	double *p;

	if (c->rank)
		return NULL;
	p = calloc(n + 1, sizeof(double));
	if (!p)
		calib_fatal("out of memory");
	return p;
}

/* --series: every LMO sample, one a line: "rt0 I J R T_S", "o2o I J R
 * T_S" (I initiates), "o2t ROOT A B R T_S", "o2t0 ROOT A B R T_S", so
 * that the estimates can be checked against the data they came from
 * (rank 0). */
static void write_series(const struct calib *c, const struct res *r,
			 const struct calib_sched *s, int nk)
{
	static const char *const tag[] = { "rt0", "o2o", "o2t", "o2t0" };
	const double *t[CALIB_NKINDS] = { r->rt0, r->o2o, r->o2t, r->o2t0 };
	FILE *f = fopen(c->series, "w");
	int k, e, q, m;

	if (!f) {
		printf("lmo: %s: %s; no series written\n", c->series,
		       strerror(errno));
		return;
	}
	fprintf(f, "# commprof-calibrate lmo series, M = %d B\n",
		r->msg_bytes);
	for (k = 0; k < nk; k++)
		for (e = 0; e < s[k].nexp; e++)
			for (q = 0; q < c->reps; q++) {
				fprintf(f, "%s", tag[k]);
				for (m = 0; m < s[k].size; m++)
					fprintf(f, " %d",
						s[k].memb[e * s[k].size + m]);
				fprintf(f, " %d %.9e\n", q,
					t[k][(size_t)e * c->reps + q]);
			}
	if (fclose(f))
		printf("lmo: %s: write failed\n", c->series);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The experiment of t (nexp x reps) whose median stands furthest above
 * its minimum, beyond 2% of the minimum: the slow mode of a crowded
 * host lifts most repetitions of small messages by 200-280 us.  Returns
 * that excess in s (<= 0: none) and the experiment in *worst. */
static double slow_excess(const double *t, int nexp, int reps, int *worst)
{
	double *v = malloc(reps * sizeof(double)), best = -INFINITY, x;
	int e;

	if (!v)
		calib_fatal("out of memory");
	*worst = 0;
	for (e = 0; e < nexp; e++) {
		memcpy(v, t + (size_t)e * reps, reps * sizeof(double));
		qsort(v, reps, sizeof(double), cmp_dbl);
		x = v[reps / 2] - v[0] - 0.02 * v[0];
		if (x > best) {
			best = x;
			*worst = e;
		}
	}
	free(v);
	return best;
}

#define SLOW_TRIES 3

/* The LMO series by CALIB_* kind, as the output names them. */
static const char *const nm[CALIB_NKINDS] = { "empty roundtrips",
	"one-to-one", "one-to-two", "empty one-to-two" };

/* One LMO series, run again (up to SLOW_TRIES in all) while rank 0 sees
 * the slow mode in it; the try with the smallest excess is kept. */
static void run_series(struct calib *c, const struct calib_sched *s,
		       int bytes, double *t, double *wall, double *seq)
{
	size_t len = (size_t)s->nexp * c->reps;
	double *best = NULL, bx = INFINITY, x = 0;
	int again, tr, w = 0, *m;

	for (tr = 1; tr <= SLOW_TRIES; tr++) {
		calib_sched_run(c, s, bytes, c->reps, t, wall, seq);
		again = 0;
		if (c->rank == 0 && c->slow_s > 0) {
			x = slow_excess(t, s->nexp, c->reps, &w);
			if (x < bx) {
				bx = x;
				if (!best)
					best = malloc(len * sizeof(double));
				if (!best)
					calib_fatal("out of memory");
				memcpy(best, t, len * sizeof(double));
			}
			again = x > c->slow_s && tr < SLOW_TRIES;
			m = s->memb + (size_t)w * s->size;
			if (x > c->slow_s)
				printf("lmo %s: slow mode: a median %.0f us "
				       "above its minimum (+2%%), ranks %d %d"
				       "%s; %s\n", nm[s->kind], x * 1e6, m[0],
				       m[1], s->size == 3 ? " ..." : "",
				       again ? "series run again" :
				       "kept the calmest try");
		}
		MPI_Bcast(&again, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (!again)
			break;
	}
	if (best && bx < x)
		memcpy(t, best, len * sizeof(double));
	free(best);
}

/* The LMO series in rounds; prints what the rounds saved. */
static void run_lmo(struct calib *c, struct res *r, struct calib_sched *s)
{
	double *t[CALIB_NKINDS], wall[CALIB_NKINDS] = { 0 };
	double seq[CALIB_NKINDS] = { 0 }, tw = 0, ts = 0;
	int k, nk = c->n > 2 ? CALIB_NKINDS : 2, ne = 0, nr = 0;

	for (k = 0; k < nk; k++) {
		t[k] = alloc0(c, (size_t)s[k].nexp * c->reps);
		run_series(c, &s[k], r->msg_bytes, t[k], &wall[k], &seq[k]);
		ne += s[k].nexp;
		nr += s[k].nrounds;
		tw += wall[k];
		ts += seq[k];
	}
	r->rt0 = t[0];
	r->o2o = t[1];
	r->o2t = nk > 2 ? t[2] : NULL;
	r->o2t0 = nk > 3 ? t[3] : NULL;
	if (c->rank)
		return;
	calib_progress_end(c);
	if (c->series)
		write_series(c, r, s, nk);
	for (k = 0; k < nk; k++)
		printf("lmo %-16s: %3d experiments in %3d rounds x %d reps, "
		       "wall %.6f s, one after another %.6f s\n", nm[k],
		       s[k].nexp, s[k].nrounds, c->reps, wall[k], seq[k]);
	printf("lmo experiments: %d in %d rounds, wall time %.6f s; "
	       "one after another %.6f s (saving %.0f%%)\n", ne, nr, tw, ts,
	       ts > 0 ? 100 * (1 - tw / ts) : 0);
	if (c->n == 2)
		printf("lmo: 2 ranks, no triplets: assumed C_0 = C_1 and "
		       "t_0 = t_1 = 0 (assume lmo.n2 C_equal t_zero)\n");
}

static void estimate_lmo(struct calib *c, struct res *r)
{
	struct cp_lmo_meas in = { c->n, r->msg_bytes, c->reps, c->reps,
				  c->reps, r->rt0, r->o2o, r->o2t, c->reps,
				  r->o2t0, c->lmo_stat };
	int *peers = calloc(c->n, sizeof(int)), i, rc;

	if (!peers)
		calib_fatal("out of memory");
	rc = cp_lmo_estimate(&in, CP_STATS_LEVEL, &r->lmo);
	if (rc && rc != -CP_ENUM) {
		printf("lmo: estimate failed: %s\n", cp_err_str(rc));
		cp_lmo_alloc(&r->lmo, c->n);
	}
	if (r->lmo.flags & CP_LMO_F_STAT_MIN)
		printf("lmo: each experiment stood for by the minimum of its "
		       "repetitions; no intervals (assume lmo.stat min)\n");
	if (r->lmo.flags & CP_LMO_F_T_MEASURED)
		printf("lmo: t_i from the one-to-two less its measured empty "
		       "run, not less 2C_i (assume lmo.t fixed_measured)\n");
	if (r->lmo.flags & CP_LMO_F_T_CLAMPED) {
		printf("lmo: t_i below 0 within its interval, set to 0 "
		       "(assume lmo.t clamped):");
		for (i = 0; i < c->n; i++)
			if (r->lmo.t_spb[i].val == 0 && r->lmo.t_spb[i].n)
				printf(" %d", i);
		printf("\n");
	}
	for (i = 1; i < c->n; i++)
		peers[i - 1] = i;
	if (!isnan(r->th.m1_bytes) && !isnan(r->th.m2_bytes)) {
		rc = cp_lmo_kappa(&r->lmo, 0, peers, c->n - 1, CP_STATS_LEVEL,
				  &r->th);
		if (rc && rc != -CP_ENUM)
			printf("lmo: kappa failed: %s\n", cp_err_str(rc));
	}
	free(peers);
}

/* ---- from the results to the parameter file (rank 0) ---- */

static const char cause_neg[] = "negative derived value (noise)";
static const char cause_nonfinite[] = "non-finite estimate";
static const char cause_noci[] = "value outside its interval";

static void put(struct cp_pval *v, const struct cp_est *e)
{
	memset(v, 0, sizeof(*v));
	if (e->fail || !isfinite(e->val) || !isfinite(e->lo) ||
	    isnan(e->hi) || !(e->lo <= e->val && e->val <= e->hi)) {
		v->state = CP_PV_FAIL;
		snprintf(v->fail, sizeof(v->fail), "%s", e->fail ? e->fail :
			 isfinite(e->val) ? cause_noci : cause_nonfinite);
		return;
	}
	v->state = CP_PV_OK;
	v->val = e->val;
	v->lo = e->lo;
	v->hi = e->hi;
	v->n = e->n;
}

/* A value without an interval of its own (a table entry, a threshold):
 * the interval is the point; negative or non-finite values fail. */
static void put_exact(struct cp_pval *v, double x, int n)
{
	struct cp_est e = { x, x, x, 0, 0, n, NULL };

	if (!isfinite(x))
		e.fail = cause_nonfinite;
	else if (x < 0)
		e.fail = cause_neg;
	put(v, &e);
}

static void fill_lmo(struct calib *c, const struct res *r,
		     struct cp_params *p)
{
	int i, j, k;

	put_exact(&p->lmo_msg_bytes, r->msg_bytes, 0);
	for (i = 0; i < c->n; i++) {
		put(&p->lmo_c_s[i], &r->lmo.c_s[i]);
		put(&p->lmo_t_spb[i], &r->lmo.t_spb[i]);
		for (j = i + 1; j < c->n; j++) {
			k = cp_lmo_pair_idx(c->n, i, j);
			put(&p->lmo_beta_Bps[i * c->n + j],
			    &r->lmo.beta_Bps[k]);
			p->lmo_beta_Bps[j * c->n + i] =
				p->lmo_beta_Bps[i * c->n + j];
		}
	}
	if (c->n == 2)
		p->assume |= CP_PARAMS_A_N2;
	if (r->lmo.flags & CP_LMO_F_T_MEASURED)
		p->assume |= CP_PARAMS_A_T_FIXED;
	if (r->lmo.flags & CP_LMO_F_T_CLAMPED)
		p->assume |= CP_PARAMS_A_T_CLAMPED;
	if (r->lmo.flags & CP_LMO_F_STAT_MIN)
		p->assume |= CP_PARAMS_A_STAT_MIN;
	if (!isnan(r->th.s_bytes))
		put_exact(&p->lmo_s_bytes, r->th.s_bytes, 0);
	if (!isnan(r->th.m1_bytes))
		put_exact(&p->lmo_m1_bytes, r->th.m1_bytes, 0);
	if (!isnan(r->th.m2_bytes))
		put_exact(&p->lmo_m2_bytes, r->th.m2_bytes, 0);
	if (isnan(r->th.m1_bytes) || isnan(r->th.m2_bytes))
		return;
	for (k = 0; k < 2; k++) {
		put(&p->lmo_kappa1_spb[k], &r->th.kappa1_spb[k]);
		put(&p->lmo_kappa2_spb[k], &r->th.kappa2_spb[k]);
	}
}

/* Derive log3P and print the predicted-vs-measured remote strided
 * table with mu (003, 4.1). */
static void do_log3p(const struct plan *pl, struct res *r,
		     struct cp_params *p)
{
	struct cp_log3p_meas in = { pl->ns, pl->nd, pl->sizes, pl->strides,
				    r->t_mem, r->t00, r->t01, r->t00sd };
	struct cp_log3p_pred pr;
	int is, id, rc, n = pl->m * pl->nrep;
	double mu;

	memcpy(p->l3_size_bytes, pl->sizes, pl->ns * sizeof(double));
	memcpy(p->l3_stride_bytes, pl->strides, pl->nd * sizeof(double));
	rc = cp_log3p_derive(&in, &r->l3);
	if (rc) {
		printf("log3p: derive failed: %s\n", cp_err_str(rc));
		return;
	}
	r->l3_ok = true;
	printf("log3p remote strided, predicted o_mw + l_mw + o_net vs "
	       "measured (us):\n%10s %8s %10s %10s %7s\n", "size", "stride",
	       "predicted", "measured", "mu");
	for (is = 0; is < pl->ns; is++) {
		put_exact(&p->l3_t_mem_s[is], r->l3.t_mem_s[is], n);
		put_exact(&p->l3_o_mw_s[is], r->l3.o_mw_s[is], n);
		put_exact(&p->l3_o_net_s[is], r->l3.o_net_s[is], n);
		for (id = 0; id < pl->nd; id++) {
			put_exact(&p->l3_l_mw_s[is * pl->nd + id],
				  r->l3.l_mw_s[is * pl->nd + id], n);
			cp_log3p_eval(&r->l3, pl->sizes[is],
					 pl->strides[id], &pr);
			if (cp_stats_mu(r->t01sd[is * pl->nd + id], pr.t_s,
					&mu))
				mu = NAN;
			printf("%10.0f %8.0f %10.2f %10.2f %7.3f\n",
			       pl->sizes[is], pl->strides[id], pr.t_s * 1e6,
			       r->t01sd[is * pl->nd + id] * 1e6, mu);
		}
	}
	if (r->l3.nneg)
		printf("log3p: %d derived values negative (noise): written "
		       "as failed\n", r->l3.nneg);
}

static double mean_of(const double *x, int n)
{
	double m = NAN;

	cp_stats_mean(x, (size_t)n, &m);
	return m;
}

/* Hockney over one-way times (empty roundtrip halves, then log3P's
 * remote contiguous half roundtrips); PLogP and LogGP. */
static void do_baselines(const struct plan *pl, struct res *r,
			 struct cp_params *p, int reps)
{
	struct cp_loggp_meas lm = { r->os, pl->lg_samp, r->or_, pl->lg_samp,
				    r->rtt, pl->lg_samp, r->bs, pl->lg_samp,
				    pl->lg_burst, r->bbs, pl->lg_samp,
				    pl->lg_big };
	double x[17], y[17], rtt[17], rt0 = mean_of(r->rt0, reps);
	struct cp_hockney h;
	struct cp_loggp lg;
	struct cp_plogp pg;
	int i, n = pl->ns + 1;

	x[0] = 0;
	y[0] = rt0 / 2;
	rtt[0] = rt0;
	for (i = 0; i < pl->ns; i++) {
		x[i + 1] = pl->sizes[i];
		y[i + 1] = r->t01[i];
		rtt[i + 1] = 2 * r->t01[i];
	}
	if (cp_hockney_fit(x, y, n, CP_STATS_LEVEL, &h) != -CP_EINVAL) {
		put(&p->hockney_alpha_s, &h.alpha_s);
		put(&p->hockney_beta_spb, &h.beta_spb);
	}
	if (cp_loggp_fit(&lm, CP_STATS_LEVEL, &lg) != -CP_EINVAL) {
		put(&p->loggp_l_s, &lg.l_s);
		put(&p->loggp_o_s, &lg.o_s);
		put(&p->loggp_os_s, &lg.os_s);
		put(&p->loggp_or_s, &lg.or_s);
		put(&p->loggp_g_s, &lg.g_s);
		put(&p->loggp_gb_spb, &lg.gb_spb);
	}
	memcpy(p->plogp_size_bytes, x, n * sizeof(double));
	i = cp_plogp_from_rtt(mean_of(r->bs, pl->lg_samp) / pl->lg_burst, x,
			      rtt, n, &pg);
	if (i && i != -CP_ENUM) {
		printf("plogp: failed: %s\n", cp_err_str(i));
		return;
	}
	put_exact(&p->plogp_l_s, pg.l_s, pl->lg_samp + reps);
	for (i = 0; i < n; i++)
		put_exact(&p->plogp_g_s[i], pg.g_s[i], pl->lg_samp);
	cp_plogp_free(&pg);
}

static int finish(struct calib *c, const struct plan *pl, struct res *r,
		  struct cp_params *p, FILE *f, const char *path)
{
	int rc;

	calib_progress_end(c);
	estimate_lmo(c, r);
	fill_lmo(c, r, p);
	do_log3p(pl, r, p);
	do_baselines(pl, r, p, c->reps);
	printf("parameters (95%% intervals):\n");
	cp_params_print(p, stdout);
	rc = cp_params_write(p, f);
	if (fclose(f) || rc) {
		fprintf(stderr, "commprof-calibrate: %s: write failed\n",
			path);
		return 1;
	}
	printf("wrote %s; total wall time %.3f s\n", path,
	       MPI_Wtime() - c->t0_s);
	return 0;
}

/* Rank 0 opens the output first, so that a bad path costs no run. */
static FILE *open_out(struct calib *c, const char *path)
{
	FILE *f = NULL;
	int ok = 1;

	if (c->rank == 0) {
		f = fopen(path, "w");
		if (!f) {
			char msg[128];

			snprintf(msg, sizeof(msg), "%s", strerror(errno));
			msg[0] = (char)tolower((unsigned char)msg[0]);
			fprintf(stderr, "commprof-calibrate: %s: %s\n", path,
				msg);
			ok = 0;
		}
	}
	MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return ok ? (c->rank ? stdin : f) : NULL;
}

static void alloc_res(struct calib *c, const struct plan *pl, struct res *r)
{
	int n = pl->lg_samp;

	r->scat = alloc0(c, pl->nrow);
	r->gath = alloc0(c, pl->nrow);
	r->os = alloc0(c, n);
	r->or_ = alloc0(c, n);
	r->rtt = alloc0(c, n);
	r->bs = alloc0(c, n);
	r->bbs = alloc0(c, n);
}

static void free_res(struct res *r)
{
	free(r->scat);
	free(r->gath);
	free(r->rt0);
	free(r->o2o);
	free(r->o2t);
	free(r->o2t0);
	free(r->os);
	free(r->or_);
	free(r->rtt);
	free(r->bs);
	free(r->bbs);
	cp_lmo_free(&r->lmo);
	cp_log3p_free(&r->l3);
}

static int calibrate(struct calib *c, const char *path, FILE *f)
{
	struct calib_sched s[CALIB_NKINDS] = { 0 };
	struct cp_params p = { 0 };
	struct plan pl;
	struct res r = { 0 };
	int k, nk = c->n > 2 ? CALIB_NKINDS : 2, rc = 0;
	bool over;

	plan_init(&pl, c->quick);
	over = check_oversub(c);
	c->units_total = 2 * pl.nrow + pl.ns + 1 + calib_taulop_units(c);
	for (k = 0; k < nk; k++) {
		if (calib_sched_build(&s[k], k, c->n))
			calib_fatal("out of memory");
		c->units_total += s[k].nrounds;
	}
	if (c->rank == 0 && cp_params_alloc(&p, c->n, c->n, pl.ns, pl.nd,
					    pl.ns + 1))
		calib_fatal("out of memory");
	if (over)
		p.assume |= CP_PARAMS_A_OVERSUB;
	describe(c, &p);
	if (c->rank == 0)
		printf("commprof-calibrate: %d ranks on %d host(s), %s, "
		       "%d reps; %s\n", c->n, p.nhosts,
		       c->quick ? "quick" : "full", c->reps, p.mpi_library);
	alloc_res(c, &pl, &r);
	run_thresholds(c, &pl, &r);
	run_lmo(c, &r, s);
	if (c->rank < 2) {
		calib_log3p(c, pl.sizes, pl.ns, pl.strides, pl.nd, pl.m,
			    pl.nrep, r.t_mem, r.t00, r.t01, r.t00sd,
			    r.t01sd);
		calib_loggp(c, pl.lg_samp, pl.lg_burst, pl.lg_big, r.os,
			    r.or_, r.rtt, r.bs, r.bbs);
	}
	calib_idle_barrier();
	calib_taulop(c, &p);
	if (c->rank == 0)
		rc = finish(c, &pl, &r, &p, f, path);
	for (k = 0; k < nk; k++)
		calib_sched_free(&s[k]);
	free_res(&r);
	cp_params_clear(&p);
	return rc;
}

int main(int argc, char **argv)
{
	struct calib c = { 0 };
	const char *path;
	FILE *f;
	int rc;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return help();
	MPI_Init(&argc, &argv);
	cp_stats_init();
	c.t0_s = MPI_Wtime();
	MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c.n);
	rc = parse_args(&c, argc, argv, &path);
	if (!rc && c.n < 2)
		rc = usage(c.rank, "needs at least 2 ranks");
	if (rc)
		goto out;
	f = open_out(&c, path);
	if (!f) {
		rc = 1;
		goto out;
	}
	/* Open MPI hands the ranks a pipe as stderr even when mpirun's is
	 * a terminal: --progress forces the line */
	c.tty = c.rank == 0 && (c.tty || isatty(2));
	rc = calibrate(&c, path, f);
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
out:
	MPI_Finalize();
	return rc;
}
