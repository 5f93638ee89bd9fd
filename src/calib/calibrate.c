/*
 * calibrate.c - commprof-calibrate: measure the parameters of the models
 * of README "References" (LMO, log3P, Hockney, LogGP, PLogP) on the ranks it
 * runs on and write them to a parameter file (src/common/cp_params.h).
 *
 *   mpirun -np N commprof-calibrate -o FILE [--quick] [--reps K]
 *                                   [--samples M] [--series FILE]
 *                                   [--slow-us US] [--progress]
 *
 * Order (LMO paper): thresholds from scatter and gather rows; the
 * LMO size sweep, its regimes and estimates (calib_lmo.c); kappa; log3P
 * (calib_log3p.c) and LogGP between ranks 0 and 1; tau-Lop's Ring
 * experiments (calib_taulop.c); PlogPT's pair and tree
 * (calib_plogpt.c); the baselines.  The same message is
 * timed before, between and after the phases (calib_gauge.c), to tell
 * whether the host kept its speed.  Output on rank 0's
 * stdout; exit 0, 1 (failure), 2 (usage).
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
#include "src/calib/calib.h"

#define HOCKNEY_MAX	131072.0	/* largest size of Hockney's fit */
#define PLOGP_EMPTY_MAX	4096.0	/* sizes that bound the empty message */

/* What is measured besides LMO and log3P, by mode. */
struct plan {
	int nrow;		/* threshold row sizes */
	double row[64];		/* bytes */
	int lg_samp, lg_burst, lg_big;	/* LogGP */
};

/* Measurements and results, on rank 0. */
struct res {
	double *scat, *gath;			/* [nrow] */
	double *os, *or_, *rtt, *bs, *bbs;	/* LogGP */
	struct cp_lmo_thresh th;
	struct calib_lmo lmo;
	struct calib_l3 l3;
	struct calib_gauge gauge;
};

static void plan_init(struct plan *p, bool quick)
{
	int i;

	p->nrow = quick ? 12 : 40;
	for (i = 0; i < p->nrow; i++)
		p->row[i] = (i + 1) * (quick ? 1024 : 512);
	p->lg_samp = quick ? 10 : 50;
	p->lg_burst = 20;
	p->lg_big = quick ? 16384 : 65536;
}

#define USAGE "usage: mpirun -np N commprof-calibrate -o FILE [--quick] " \
	"[--reps K] [--samples M] [--series FILE] [--slow-us US] " \
	"[--progress]\n"

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
	      "  --quick            a first look, not for predictions to rely\n"
	      "                     on: fewer sizes, repetitions and samples\n"
	      "  --reps K           repetitions of each LMO experiment and\n"
	      "                     threshold row size, 3 to 1000 (default 11)\n"
	      "  --samples M        log3P samples per table value, 5 to 10000\n"
	      "                     (default 100)\n"
	      "  --series FILE      also write LMO's raw series to FILE\n"
	      "  --slow-us US       an LMO median US (default 50) above its\n"
	      "                     time, besides twice it, is a slow spell\n"
	      "  --progress         the progress bar even off a terminal\n"
	      "  --help, -h         this text\n"
	      "See commprof-calibrate(1).\n", stdout);
	return fflush(stdout) ? 1 : 0;
}

/* A number of --name from s into *v, lo..hi. */
static bool num_arg(const char *s, long lo, long hi, int *v)
{
	char *end;
	long k = strtol(s, &end, 10);

	if (*end || !*s || k < lo || k > hi)
		return false;
	*v = (int)k;
	return true;
}

static int parse_args(struct calib *c, int argc, char **argv,
		      const char **out)
{
	int i, us = 50;

	*out = NULL;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			*out = argv[++i];
		} else if (!strcmp(argv[i], "--quick")) {
			c->quick = true;
		} else if (!strcmp(argv[i], "--progress")) {
			c->tty = true;
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			if (!num_arg(argv[++i], 3, 1000, &c->reps))
				return usage(c->rank, "--reps: 3 to 1000");
		} else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
			if (!num_arg(argv[++i], 5, 10000, &c->samples))
				return usage(c->rank,
					     "--samples: 5 to 10000");
		} else if (!strcmp(argv[i], "--series") && i + 1 < argc) {
			c->series = argv[++i];
		} else if (!strcmp(argv[i], "--slow-us") && i + 1 < argc) {
			if (!num_arg(argv[++i], 0, 1000000, &us))
				return usage(c->rank, "--slow-us: 0 to 1000000");
		} else {
			char what[160], key[112];

			/* an option that takes a value, given none */
			snprintf(key, sizeof(key), " %.100s ", argv[i]);
			snprintf(what, sizeof(what), "%s '%.100s'",
				 strstr(" -o --reps --samples --series "
					"--slow-us ", key) ?
				 "missing the value of" : "bad argument",
				 argv[i]);
			return usage(c->rank, what);
		}
	}
	if (!*out)
		return usage(c->rank, "missing -o FILE");
	c->slow_s = us * 1e-6;
	if (!c->reps)
		c->reps = c->quick ? 5 : 11;
	if (!c->samples)
		c->samples = c->quick ? 10 : 100;
	return 0;
}

/* The ranks that share this process's CPUs, itself included: those
 * running on its kernel (the same boot_id; the hosts that containers or
 * network namespaces make on one machine are one machine to its
 * scheduler, whatever their names), or, where some rank cannot read its
 * kernel's boot_id, on_node, those of its MPI node.  Collective. */
static int ranks_on_kernel(int on_node)
{
	char id[40] = "", *all = NULL;
	int n, i, ok, allok, same = 0;
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

	if (f) {
		if (!fgets(id, sizeof(id), f))
			id[0] = '\0';
		fclose(f);
	}
	id[strcspn(id, "\n")] = '\0';
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	ok = id[0] && (all = malloc((size_t)n * sizeof(id)));
	MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!allok) {
		free(all);
		return on_node;
	}
	MPI_Allgather(id, sizeof(id), MPI_CHAR, all, sizeof(id), MPI_CHAR,
		      MPI_COMM_WORLD);
	for (i = 0; i < n; i++)
		same += !strcmp(all + (size_t)i * sizeof(id), id);
	free(all);
	return same;
}

/* Anywhere, more ranks than CPUs on one machine (c->crowded: waiting
 * processes yield, experiments run one at a time), or on one
 * MPI node (c->sparse with --quick; a node's ranks share a kernel, so
 * a crowded node is a crowded machine).  Warns once. */
static void check_oversub(struct calib *c)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int node = calib_node_ranks(MPI_COMM_WORLD), kern = ranks_on_kernel(node);
	int mine[3], any[3];

	mine[0] = cpus > 0 && kern > cpus;
	mine[1] = cpus > 0 && node > cpus;
	mine[2] = kern;
	MPI_Allreduce(mine, any, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	c->crowded = any[0];
	c->sparse = c->quick && any[1];
	if (c->crowded && c->rank == 0)
		printf("warning: oversubscribed: %d ranks on a machine with "
		       "%ld online CPUs; waiting ranks steal cores, timings "
		       "are distorted; waiting processes yield, experiments "
		       "run one at a time\n", any[2], cpus);
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

/* Thresholds S, M1, M2 (rank 0 estimates). */
static void run_thresholds(struct calib *c, const struct plan *pl,
			   struct res *r)
{
	int rc;

	calib_phase(c, "thresholds", 0.08);
	calib_scatter_row(c, pl->row, pl->nrow, r->scat);
	calib_gather_row(c, pl->row, pl->nrow, r->gath);
	cp_lmo_thresh_init(&r->th);
	if (c->rank)
		return;
	rc = cp_lmo_scatter_thresh(pl->row, r->scat, pl->nrow, 0,
				   CP_STATS_LEVEL, &r->th);
	if (rc)
		printf("thresholds: S failed: %s\n", cp_err_str(rc));
	rc = cp_lmo_gather_thresh(pl->row, r->gath, pl->nrow, 0,
				  CP_STATS_LEVEL, &r->th);
	if (rc)
		printf("thresholds: M1, M2 failed: %s\n", cp_err_str(rc));
	calib_progress_end(c);
	printf("thresholds: S %.0f B, M1 %.0f B, M2 %.0f B (%d gather "
	       "breaks)\n", r->th.s_bytes, r->th.m1_bytes, r->th.m2_bytes,
	       r->th.gather_breaks);
	printf("gather between M1 and M2: random escalation levels, not "
	       "predicted\n");
}

/* kappa1 with the regime of the small gathers' last size, kappa2 with
 * the regime of M2 (rank 0). */
static void estimate_kappa(struct calib *c, struct res *r)
{
	const struct calib_lmo *l = &r->lmo;
	int *peers = calloc(c->n, sizeof(int)), i, rc, ks, kl;

	if (!peers)
		calib_fatal("out of memory");
	for (i = 1; i < c->n; i++)
		peers[i - 1] = i;
	if (l->ok && !isnan(r->th.m1_bytes) && !isnan(r->th.m2_bytes)) {
		ks = cp_lmo_regime_of(l->reg.first_bytes, l->reg.nreg,
				      r->th.m1_bytes);
		kl = cp_lmo_regime_of(l->reg.first_bytes, l->reg.nreg,
				      r->th.m2_bytes);
		rc = cp_lmo_kappa(&l->est[ks], &l->est[kl], 0, peers,
				  c->n - 1, CP_STATS_LEVEL, &r->th);
		if (rc && rc != -CP_ENUM)
			printf("lmo: kappa failed: %s\n", cp_err_str(rc));
	}
	free(peers);
}

static void fill_thresholds(const struct res *r, struct cp_params *p)
{
	int k;

	if (!isnan(r->th.s_bytes))
		calib_put_range(&p->lmo_s_bytes, r->th.s_bytes, r->th.s_bytes,
				r->th.s_bytes, 0);
	if (!isnan(r->th.m1_bytes))
		calib_put_range(&p->lmo_m1_bytes, r->th.m1_bytes,
				r->th.m1_bytes, r->th.m1_bytes, 0);
	if (!isnan(r->th.m2_bytes))
		calib_put_range(&p->lmo_m2_bytes, r->th.m2_bytes,
				r->th.m2_bytes, r->th.m2_bytes, 0);
	if (isnan(r->th.m1_bytes) || isnan(r->th.m2_bytes))
		return;
	for (k = 0; k < 2; k++) {
		calib_put(&p->lmo_kappa1_spb[k], &r->th.kappa1_spb[k], false);
		calib_put(&p->lmo_kappa2_spb[k], &r->th.kappa2_spb[k], false);
	}
}

static void put_pt(struct cp_pval *v, double x, int n)
{
	calib_put_range(v, x, x, x, n);
}

/* Hockney over the one-way times of log3P's remote contiguous table
 * (the empty message at 0 B); PLogP's g(m) from the roundtrips of the
 * same sizes; LogGP. */
static void do_baselines(const struct plan *pl, struct res *r,
			 struct cp_params *p)
{
	struct cp_loggp_meas lm = { r->os, pl->lg_samp, r->or_, pl->lg_samp,
				    r->rtt, pl->lg_samp, r->bs, pl->lg_samp,
				    pl->lg_burst, r->bbs, pl->lg_samp,
				    pl->lg_big };
	const struct calib_l3 *l = &r->l3;
	int i, n = l->ns + 1, nh = 0, low;
	double *x = calloc((size_t)n, sizeof(double)), *y, *rtt;
	struct cp_hockney h;
	struct cp_loggp lg;
	struct cp_plogp pg;

	y = calloc((size_t)n, sizeof(double));
	rtt = calloc((size_t)n, sizeof(double));
	if (!x || !y || !rtt)
		calib_fatal("out of memory");
	/* the empty message as log3P timed it, the time its one-way
	 * values are taken from (the same statistic, the same minutes):
	 * LogGP's empty roundtrips, timed apart, once caught a slow spell
	 * that put PLogP's L above the one-way times and failed g(m) at 16
	 * sizes of 37 (a 4-rank calibration on 2 CPUs, 2026-11-30); theirs
	 * only when log3P failed */
	y[0] = l->ok && l->half_rt0 > 0 ? l->half_rt0 :
	       calib_quantile(r->rtt, pl->lg_samp, CALIB_Q) / 2;
	/* the sizes even when log3P failed: PLogP's failed entries are
	 * written at them, and a file with sizes 0 0 ... is unreadable */
	for (i = 0; i < l->ns; i++)
		x[i + 1] = l->sizes[i];
	for (i = 0; i < l->ns && l->ok; i++) {
		y[i + 1] = l->t01[0][i];
		rtt[i + 1] = 2 * y[i + 1];
		nh += x[i + 1] <= HOCKNEY_MAX;
	}
	/* an empty message is not slower than the small ones (a guard:
	 * log3P's one-way times are its roundtrips less this one's half,
	 * the least of three, so that they are seldom below it) */
	for (i = 0, low = -1; i < l->ns && l->ok &&
	     x[i + 1] <= PLOGP_EMPTY_MAX; i++)
		if (y[i + 1] > 0 && y[i + 1] < y[0]) {
			y[0] = y[i + 1];
			low = i + 1;
		}
	rtt[0] = 2 * y[0];
	if (low > 0)
		printf("baselines: the empty message's one-way time %.3f us, "
		       "lowered to the %.0f-B one's\n", y[0] * 1e6, x[low]);
	else
		printf("baselines: the empty message's one-way time %.3f us "
		       "(%s)\n", y[0] * 1e6, l->ok && l->half_rt0 > 0 ?
		       "log3P's" : "LogGP's empty roundtrips");
	/* Hockney's line over the sizes to 128 KiB, as before the tables
	 * reached 4 MiB: least squares over all of them would be the line
	 * of the largest and leave no start-up time */
	if (l->ok && cp_hockney_fit(x, y, nh + 1, CP_STATS_LEVEL, &h) !=
	    -CP_EINVAL) {
		calib_put(&p->hockney_alpha_s, &h.alpha_s, false);
		calib_put(&p->hockney_beta_spb, &h.beta_spb, false);
	}
	if (cp_loggp_fit(&lm, CP_STATS_LEVEL, &lg) != -CP_EINVAL) {
		printf("baselines: LogGP from %d samples, %d of them slow "
		       "(preempted) and left out\n", 5 * pl->lg_samp,
		       lg.dropped);
		calib_put(&p->loggp_l_s, &lg.l_s, false);
		calib_put(&p->loggp_o_s, &lg.o_s, false);
		calib_put(&p->loggp_os_s, &lg.os_s, false);
		calib_put(&p->loggp_or_s, &lg.or_s, false);
		calib_put(&p->loggp_g_s, &lg.g_s, false);
		calib_put(&p->loggp_gb_spb, &lg.gb_spb, false);
	}
	memcpy(p->plogp_size_bytes, x, (size_t)n * sizeof(double));
	i = l->ok ? cp_plogp_from_rtt(calib_quantile(r->bs, pl->lg_samp,
						     CALIB_Q) / pl->lg_burst,
				      x, rtt, n, &pg) :
	    -CP_EINVAL;
	if (i && i != -CP_ENUM) {
		printf("plogp: failed: %s\n", cp_err_str(i));
	} else {
		if (pg.g0_meas_s > pg.g_s[0])
			printf("plogp: g(0) of the bursts %.3f us is above the "
			       "empty message's one-way time: capped there, "
			       "L = 0\n", pg.g0_meas_s * 1e6);
		put_pt(&p->plogp_l_s, pg.l_s, pl->lg_samp);
		for (i = 0; i < n; i++)
			put_pt(&p->plogp_g_s[i], pg.g_s[i], pl->lg_samp);
		cp_plogp_free(&pg);
	}
	free(x);
	free(y);
	free(rtt);
}

/* The file just written, read back as the library and commprof read
 * it: a value the reader refuses would leave every run unpredicted. */
static int read_back(const char *path)
{
	struct cp_params *q = NULL;
	char err[256];

	if (cp_params_load(path, &q, err, sizeof(err)) < 0) {
		fprintf(stderr, "commprof-calibrate: %s: written but not "
			"readable (a bug of ours): %s\n", path, err);
		return 1;
	}
	cp_params_free(q);
	return 0;
}

static int finish(struct calib *c, const struct plan *pl, struct res *r,
		  struct cp_params *p, FILE *f, const char *path)
{
	int rc;

	calib_progress_end(c);
	calib_lmo_fill(c, &r->lmo, p);
	fill_thresholds(r, p);
	calib_l3_fill(&r->l3, p);
	do_baselines(pl, r, p);
	calib_gauge_fill(&r->gauge, p);
	printf("parameters (95%% intervals):\n");
	cp_params_print(p, stdout);
	rc = cp_params_write(p, f);
	if (fclose(f) || rc) {
		fprintf(stderr, "commprof-calibrate: %s: write failed\n",
			path);
		return 1;
	}
	if (read_back(path))
		return 1;
	printf("wrote %s; total wall time %.1f s\n", path,
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
	free(r->os);
	free(r->or_);
	free(r->rtt);
	free(r->bs);
	free(r->bbs);
	calib_lmo_free(&r->lmo);
	calib_l3_free(&r->l3);
	calib_gauge_free(&r->gauge);
}

/* The parameter file's tables, once the grids are known (rank 0). */
static void params_alloc(struct calib *c, const struct res *r,
			 struct cp_params *p)
{
	struct cp_params_dims d = { c->n, c->n, r->lmo.ok ? r->lmo.reg.nreg :
				    0, r->lmo.nsizes, r->l3.ns, r->l3.nss,
				    r->l3.nb, r->l3.ng, r->l3.ns + 1 };
	unsigned assume = p->assume;
	char lib[sizeof(p->mpi_library)], date[sizeof(p->date)];
	char **hosts = p->hosts;
	int *map = p->rank_host, nh = p->nhosts;

	memcpy(lib, p->mpi_library, sizeof(lib));
	memcpy(date, p->date, sizeof(date));
	if (cp_params_alloc(p, &d))
		calib_fatal("out of memory");
	free(p->hosts);
	free(p->rank_host);
	p->hosts = hosts;
	p->rank_host = map;
	p->nhosts = nh;
	p->assume = assume;
	memcpy(p->mpi_library, lib, sizeof(lib));
	memcpy(p->date, date, sizeof(date));
}

static int calibrate(struct calib *c, const char *path, FILE *f)
{
	struct cp_params p = { 0 };
	struct plan pl;
	struct res r;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	plan_init(&pl, c->quick);
	check_oversub(c);
	if (c->rank == 0 && (!(p.hosts = calloc(c->n, sizeof(char *))) ||
			     !(p.rank_host = calloc(c->n, sizeof(int)))))
		calib_fatal("out of memory");
	p.nranks = c->n;
	p.assume = (c->crowded ? CP_PARAMS_A_OVERSUB : 0) |
		   (c->quick ? CP_PARAMS_A_QUICK : 0);
	describe(c, &p);
	if (c->rank == 0)
		printf("commprof-calibrate: %d ranks on %d host(s), %s, "
		       "%d reps, %d samples; %s\n", c->n, p.nhosts,
		       c->quick ? "quick (a first look, not for accuracy)" :
		       "full", c->reps, c->samples, p.mpi_library);
	alloc_res(c, &pl, &r);
	calib_gauge(c, &r.gauge);
	run_thresholds(c, &pl, &r);
	calib_phase(c, "lmo sweep", 0.28);
	calib_lmo_run(c, &r.lmo);
	calib_gauge(c, &r.gauge);
	if (c->rank == 0)
		estimate_kappa(c, &r);
	calib_phase(c, "log3p", 0.46);
	calib_l3_run(c, r.lmo.size_bytes, r.lmo.nsizes, r.lmo.reg.first_bytes,
		     r.lmo.below, r.lmo.reg.nreg, &r.gauge, &r.l3);
	calib_gauge(c, &r.gauge);
	calib_phase(c, "loggp", 0.04);
	if (c->rank < 2)
		calib_loggp(c, pl.lg_samp, pl.lg_burst, pl.lg_big, r.os,
			    r.or_, r.rtt, r.bs, r.bbs);
	calib_idle_barrier();
	if (c->rank == 0)
		params_alloc(c, &r, &p);
	/* after params_alloc, which would drop the tau-Lop section */
	calib_phase(c, "tau-lop", 0.10);
	calib_taulop(c, r.lmo.reg.first_bytes, r.lmo.below, r.lmo.reg.nreg,
		     &p);
	calib_phase(c, "plogpt", 0.04);
	calib_plogpt(c, &p);
	calib_gauge(c, &r.gauge);
	calib_phase(c, "write", 0);
	if (c->rank == 0)
		rc = finish(c, &pl, &r, &p, f, path);
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
	 * a terminal: --progress forces the bar */
	c.tty = c.rank == 0 && (c.tty || isatty(2));
	rc = calibrate(&c, path, f);
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
out:
	MPI_Finalize();
	return rc;
}
