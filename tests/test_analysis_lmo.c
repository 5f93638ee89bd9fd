/*
 * test_analysis_lmo.c - analysis/cp_lmo_ls and cp_lmo without MPI.  Size
 * sweeps of the LMO experiments are synthesized from known parameters in
 * two protocol regimes (an eager one up to 4000 B, a rendezvous one from
 * 4096 B, as Open MPI's shared memory has them), with link latency that
 * the root of a one-to-two pays once, and 2% noise per measured cell
 * (fixed seed).  Checked: the regime boundary is found and matched to the
 * reported limit, an unmatched limit is listed as unseen; every link's
 * sums C_i + C_j and t_i + t_j + 1/beta_ij and, with 3 or more ranks,
 * every C_i, t_i and 1/beta_ij of each regime are inside their
 * intervals, in the right order; 95% intervals cover about 95% over many
 * draws; on 2 ranks the sums hold and the split is marked ambiguous; a
 * cell measured in a slow spell is dropped as an outlier; cells not
 * measured are skipped; S, M1, M2 and kappa from scatter and gather
 * rows, and the predictions (one draw; large gathers within 2% in each
 * of 100 draws of the gather row).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/cp_err.h"
#include "analysis/cp_lmo.h"
#include "analysis/cp_lmo_ls.h"
#include "tests/test_analysis.h"

/* Single draws are checked against 99.9% intervals: with dozens of
 * parameters at 95%, some would miss on a correct estimator.  The 95%
 * level is checked by its coverage over many draws. */
#define LEVEL 0.999
#define NOISE 0.02		/* relative noise of one measured cell */
#define BOUND 4096.0		/* first size of the second regime */
#define MAXN 6

static const double sizes[] = { 64, 128, 256, 512, 1024, 2048, 3072, 3968,
				BOUND, 6144, 8192, 16384, 32768, 65536,
				131072, 262144, 524288, 1048576 };
#define NS ((int)(sizeof(sizes) / sizeof(sizes[0])))

struct truth {
	int n;
	double c[2][MAXN];	/* per regime, s */
	double t[2][MAXN];	/* s/B */
	double ib[2][15];	/* s/B, by cp_lmo_pair_idx */
	double h[MAXN];		/* s, link latency shares, paid once by
				 * the root of a one-to-two */
};

static int reg_of(double mb)
{
	return mb >= BOUND;
}

static double ib_of(const struct truth *p, int r, int i, int j)
{
	return p->ib[r][cp_lmo_pair_idx(p->n, i, j)];
}

/* The one-way time of a message i -> j of M bytes. */
static double oneway(const struct truth *p, int i, int j, double mb)
{
	int r = reg_of(mb);

	return p->c[r][i] + p->c[r][j] + p->h[i] + p->h[j] +
	       (p->t[r][i] + p->t[r][j] + ib_of(p, r, i, j)) * mb;
}

/* Root i sends M to a and b, both reply empty: the root's second send
 * costs it C_i + t_i*M more, the latencies overlap. */
static double o2t(const struct truth *p, int i, int a, int b, double mb)
{
	double x = oneway(p, i, a, mb) + oneway(p, a, i, 0);
	double y = oneway(p, i, b, mb) + oneway(p, b, i, 0);
	int r = reg_of(mb);

	return p->c[r][i] + p->t[r][i] * mb + (x > y ? x : y);
}

struct data {
	double *rt0, *o2o, *o2t;
	struct cp_lmo_sweep sw;
};

static double noisy(gsl_rng *g, double v)
{
	return v * (1 + gsl_ran_gaussian(g, NOISE));
}

static void synth(gsl_rng *g, const struct truth *p, struct data *d)
{
	int n = p->n, np = cp_lmo_npairs(n), n2t = cp_lmo_no2t(n);
	int i, j, k, s, q;

	d->rt0 = malloc(np * sizeof(double));
	d->o2o = malloc(NS * np * sizeof(double));
	d->o2t = malloc((NS * n2t + 1) * sizeof(double));
	if (!d->rt0 || !d->o2o || !d->o2t)
		exit(1);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			q = cp_lmo_pair_idx(n, i, j);
			d->rt0[q] = noisy(g, 2 * oneway(p, i, j, 0));
			for (s = 0; s < NS; s++)
				d->o2o[s * np + q] = noisy(g,
					oneway(p, i, j, sizes[s]) +
					oneway(p, j, i, 0));
		}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = j + 1; k < n; k++) {
				if (i == j || i == k)
					continue;
				q = cp_lmo_o2t_idx(n, i, j, k);
				for (s = 0; s < NS; s++)
					d->o2t[s * n2t + q] = noisy(g,
						o2t(p, i, j, k, sizes[s]));
			}
	d->sw = (struct cp_lmo_sweep){ n, NS, sizes, 1, d->rt0, d->o2o,
				       n > 2 ? d->o2t : NULL, NULL, NULL, NULL };
}

static void data_free(struct data *d)
{
	free(d->rt0);
	free(d->o2o);
	free(d->o2t);
}

/* Eager: small fixed costs; rendezvous: a handshake, faster copies.
 * Links all different, so that their order is a check. */
static void truth_init(struct truth *p, int n, gsl_rng *g)
{
	int i, np = cp_lmo_npairs(n);

	memset(p, 0, sizeof(*p));
	p->n = n;
	for (i = 0; i < n; i++) {
		p->c[0][i] = (0.2 + 0.1 * i) * 1e-6;
		p->c[1][i] = (1.0 + 0.3 * i) * 1e-6;
		p->t[0][i] = (0.02 + 0.01 * i) * 1e-9;
		p->t[1][i] = (0.01 + 0.004 * i) * 1e-9;
		p->h[i] = (0.1 + 0.05 * gsl_rng_uniform(g)) * 1e-6;
	}
	for (i = 0; i < np; i++) {
		p->ib[0][i] = (0.2 + 0.1 * i) * 1e-9;
		p->ib[1][i] = (0.05 + 0.03 * i) * 1e-9;
	}
}

static bool covers(const struct cp_est *e, double v)
{
	return !e->fail && e->lo <= v && v <= e->hi;
}

static const struct cp_lmo_limit lim[] = {
	{ "test_eager_limit", BOUND }, { "test_other_limit", 100000 }
};

static void test_regimes(gsl_rng *g)
{
	struct truth p;
	struct data d;
	struct cp_lmo_regimes r;
	int rc;

	truth_init(&p, 4, g);
	synth(g, &p, &d);
	rc = cp_lmo_regimes_find(&d.sw, lim, 2, &r);
	ta_check(!rc && r.nreg == 2 && r.first_bytes[1] == BOUND &&
		 r.lo_idx[1] == 8 && r.hi_idx[0] == 7,
		 "regimes: 2, the second from 4096 B (got %d, %.0f)", r.nreg,
		 r.nreg > 1 ? r.first_bytes[1] : NAN);
	ta_check(!rc && !strcmp(r.source[1], "test_eager_limit=4096"),
		 "regimes: the break matched the eager limit (%s)",
		 r.source[1]);
	ta_check(!rc && r.nunseen == 1 && r.unseen[0].bytes == 100000,
		 "regimes: the limit of 100000 B no break matched is unseen");
	rc = cp_lmo_regimes_find(&d.sw, NULL, 0, &r);
	ta_check(!rc && r.nreg == 2 && !strcmp(r.source[1], "data"),
		 "regimes without limits: the data's break, source 'data'");
	d.sw.nsizes = 5;
	rc = cp_lmo_regimes_find(&d.sw, lim, 2, &r);
	ta_check(!rc && r.nreg == 1 && r.hi_idx[0] == 4,
		 "a sweep of 5 sizes is one regime");
	data_free(&d);
}

/* Every estimate of both regimes inside its interval. */
static void recover(gsl_rng *g, int n)
{
	struct truth p;
	struct data d;
	struct cp_lmo_regimes r;
	struct cp_lmo m;
	int k, i, j, q, bad = 0, rc, np = cp_lmo_npairs(n);

	truth_init(&p, n, g);
	synth(g, &p, &d);
	rc = cp_lmo_regimes_find(&d.sw, lim, 2, &r);
	ta_check(!rc && r.nreg == 2, "n=%d: 2 regimes", n);
	for (k = 0; !rc && k < r.nreg; k++) {
		rc = cp_lmo_fit_regime(&d.sw, &r, k, LEVEL, &m);
		ta_check(!rc && m.nfail == 0, "n=%d regime %d: estimated, no "
			 "failure (rc %d)", n, k, rc);
		if (rc)
			break;
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				q = cp_lmo_pair_idx(n, i, j);
				bad += !covers(&m.csum_s[q], p.c[k][i] +
					       p.c[k][j] + p.h[i] + p.h[j]);
				bad += !covers(&m.tsum_spb[q], p.t[k][i] +
					       p.t[k][j] + p.ib[k][q]);
				bad += !covers(&m.ib_spb[q], p.ib[k][q]);
				bad += m.ib_spb[q].ambig != NULL;
			}
		for (i = 0; i < n; i++) {
			bad += !covers(&m.c_s[i], p.c[k][i] + p.h[i]);
			bad += !covers(&m.t_spb[i], p.t[k][i]);
		}
		for (q = 1; q < np; q++)
			bad += !(m.ib_spb[q].val > m.ib_spb[q - 1].val);
		ta_check(!bad, "n=%d regime %d: every sum, C_i (with its "
			 "latency share), t_i and 1/beta_ij in its interval, "
			 "links in order (%d misses)", n, k, bad);
		ta_check(m.first_bytes == (k ? BOUND : 0) &&
			 m.hi_bytes == (k ? 1048576 : 3968),
			 "n=%d regime %d: first %.0f, last size %.0f", n, k,
			 m.first_bytes, m.hi_bytes);
		cp_lmo_free(&m);
	}
	data_free(&d);
}

/* 95% intervals of the sums over many draws, 4 ranks. */
static void test_coverage(gsl_rng *g)
{
	struct truth p;
	struct data d;
	struct cp_lmo_regimes r;
	struct cp_lmo m;
	int it, q, hit = 0, all = 0, tot = 0, iters = 150;

	truth_init(&p, 4, g);
	for (it = 0; it < iters; it++) {
		synth(g, &p, &d);
		if (cp_lmo_regimes_find(&d.sw, lim, 2, &r) || r.nreg != 2 ||
		    cp_lmo_fit_regime(&d.sw, &r, 1, 0.95, &m)) {
			data_free(&d);
			continue;
		}
		for (q = 0; q < 6; q++) {
			int i = q < 3 ? 0 : q < 5 ? 1 : 2;
			int j = q < 3 ? q + 1 : q < 5 ? q - 1 : 3;

			hit += covers(&m.tsum_spb[q], p.t[1][i] + p.t[1][j] +
				      p.ib[1][q]);
			all += covers(&m.ib_spb[q], p.ib[1][q]);
			tot++;
		}
		cp_lmo_free(&m);
		data_free(&d);
	}
	ta_check(tot > 800 && hit > 0.90 * tot && hit < 0.995 * tot,
		 "95%% intervals of t_i + t_j + 1/beta_ij cover %d of %d", hit,
		 tot);
	ta_check(all > 0.88 * tot && all < 0.995 * tot,
		 "95%% intervals of 1/beta_ij cover %d of %d", all, tot);
}

static void test_n2(gsl_rng *g)
{
	struct truth p;
	struct data d;
	struct cp_lmo_regimes r;
	struct cp_lmo m;
	double t;
	int k, rc, ok = 1;

	truth_init(&p, 2, g);
	synth(g, &p, &d);
	rc = cp_lmo_regimes_find(&d.sw, lim, 2, &r);
	for (k = 0; !rc && k < r.nreg; k++) {
		rc = cp_lmo_fit_regime(&d.sw, &r, k, LEVEL, &m);
		ok &= !rc && covers(&m.csum_s[0], p.c[k][0] + p.c[k][1] +
				    p.h[0] + p.h[1]) &&
		      covers(&m.tsum_spb[0], p.t[k][0] + p.t[k][1] +
			     p.ib[k][0]);
		ok &= !rc && (m.flags & CP_LMO_F_N2) && m.c_s[0].ambig &&
		      m.t_spb[1].ambig && m.ib_spb[0].ambig &&
		      !m.csum_s[0].ambig && !m.t_spb[0].fail;
		if (!rc && k == 1) {
			rc = cp_lmo_predict_p2p(&m, 1, 0, 700000, &t);
			ta_check(!rc && ta_near(t, oneway(&p, 1, 0, 700000),
						0.03),
				 "n=2: 700 KB predicted %.2f us, true %.2f",
				 t * 1e6, oneway(&p, 1, 0, 700000) * 1e6);
		}
		if (!rc)
			cp_lmo_free(&m);
	}
	ta_check(!rc && r.nreg == 2 && ok, "n=2: both sums in their "
		 "intervals, the split assumed and marked ambiguous");
	data_free(&d);
}

/* A cell three times too slow, and cells not measured. */
static void test_outlier(gsl_rng *g)
{
	struct truth p;
	struct data d;
	struct cp_lmo_regimes r;
	struct cp_lmo m;
	int rc;

	truth_init(&p, 3, g);
	synth(g, &p, &d);
	d.o2o[12 * 3 + 1] *= 3;	/* pair {0, 2} at 32 KB */
	d.o2t[14 * 3 + 2] = NAN;	/* one one-to-two at 128 KB */
	rc = cp_lmo_regimes_find(&d.sw, lim, 2, &r);
	if (!rc)
		rc = cp_lmo_fit_regime(&d.sw, &r, 1, LEVEL, &m);
	ta_check(!rc && m.ndropped >= 1 &&
		 covers(&m.tsum_spb[1], p.t[1][0] + p.t[1][2] + p.ib[1][1]),
		 "a slow cell is dropped (%d rows), the link's sum stays in "
		 "its interval; a missing cell is skipped",
		 rc ? -1 : m.ndropped);
	if (!rc)
		cp_lmo_free(&m);
	r.lo_idx[1] = r.hi_idx[1] = 17;
	rc = cp_lmo_fit_regime(&d.sw, &r, 1, LEVEL, &m);
	ta_check(rc == -CP_ENUM && m.csum_s[0].fail && m.c_s[0].fail &&
		 m.nfail > 0, "a regime of one size: the sums fail with a "
		 "cause (%s)", rc == -CP_ENUM && m.csum_s[0].fail ?
		 m.csum_s[0].fail : "-");
	if (rc == -CP_ENUM)
		cp_lmo_free(&m);
	ta_check(cp_lmo_fit_regime(&d.sw, &r, 2, LEVEL, &m) == -CP_EINVAL,
		 "a regime that does not exist: -CP_EINVAL");
	data_free(&d);
}

/* A bed-like sweep: noise of 40 us on every cell (a scheduler, not the
 * size) besides 1% relative, links of 20 to 90 ns/B.  Given the cells'
 * spreads the fit weighs the large sizes by their small relative noise:
 * every link's per-byte sum within 3% and in its interval; weighted as
 * relative residuals instead, the small cells' noise takes the slope
 * further off. */
static void test_spread(gsl_rng *g)
{
	struct truth p;
	struct data d;
	struct cp_lmo_regimes r;
	struct cp_lmo m, m0;
	double *sd0, *sd1, *sd2, e1 = 0, e0 = 0, tr;
	int i, q, np = 6, n2t = 12, rc, rc0, bad = 0;

	truth_init(&p, 4, g);
	for (q = 0; q < np; q++)
		p.ib[0][q] = p.ib[1][q] = (20 + 14 * q) * 1e-9;
	for (i = 0; i < 4; i++)
		p.h[i] = (25 + 20 * i) * 1e-6;
	synth(g, &p, &d);
	sd0 = malloc(np * sizeof(double));
	sd1 = malloc(NS * np * sizeof(double));
	sd2 = malloc(NS * n2t * sizeof(double));
	for (i = 0; i < np; i++)
		d.rt0[i] += gsl_ran_gaussian(g, 40e-6), sd0[i] = 40e-6;
	for (i = 0; i < NS * np; i++)
		d.o2o[i] += gsl_ran_gaussian(g, 40e-6), sd1[i] = 40e-6;
	for (i = 0; i < NS * n2t; i++)
		d.o2t[i] += gsl_ran_gaussian(g, 40e-6), sd2[i] = 40e-6;
	rc = cp_lmo_regimes_find(&d.sw, NULL, 0, &r);
	r.nreg = 1;
	r.hi_idx[0] = NS - 1;
	rc0 = rc ? rc : cp_lmo_fit_regime(&d.sw, &r, 0, LEVEL, &m0);
	d.sw.rt0_sd = sd0;
	d.sw.o2o_sd = sd1;
	d.sw.o2t_sd = sd2;
	rc = rc ? rc : cp_lmo_fit_regime(&d.sw, &r, 0, LEVEL, &m);
	for (i = 0; !rc && !rc0 && i < 4; i++)
		for (q = i + 1; q < 4; q++) {
			int k = cp_lmo_pair_idx(4, i, q);

			/* the slope of the large sizes (regime 1) */
			tr = p.t[1][i] + p.t[1][q] + p.ib[1][k];
			e1 = fmax(e1, fabs(m.tsum_spb[k].val / tr - 1));
			e0 = fmax(e0, fabs(m0.tsum_spb[k].val / tr - 1));
			bad += !covers(&m.tsum_spb[k], tr);
		}
	ta_check(!rc && !rc0 && e1 < 0.03 && !bad && e1 < e0,
		 "40 us of noise per cell: per-byte sums within %.1f%% given "
		 "the spreads (%d outside their intervals), %.1f%% weighted "
		 "relatively", e1 * 100, bad, e0 * 100);
	if (!rc)
		cp_lmo_free(&m);
	if (!rc0)
		cp_lmo_free(&m0);
	free(sd0);
	free(sd1);
	free(sd2);
	data_free(&d);
}

/* A second pass 6% slower (the host moved): both passes' rows go into
 * the system, the per-byte sums lie between the passes and their
 * intervals widen to hold the middle, where one pass's would not. */
static void test_two_passes(gsl_rng *g)
{
	struct truth p;
	struct data d;
	struct cp_lmo_regimes r;
	struct cp_lmo m1, m2;
	double *rt0, *o2o, *o2t, tr, w1 = 0, w2 = 0;
	int np = 6, n2t = 12, i, q, rc, bad = 0;

	truth_init(&p, 4, g);
	synth(g, &p, &d);
	rt0 = malloc(2 * np * sizeof(double));
	o2o = malloc(2 * NS * np * sizeof(double));
	o2t = malloc(2 * NS * n2t * sizeof(double));
	for (i = 0; i < np; i++)
		rt0[i] = d.rt0[i], rt0[np + i] = 1.06 * d.rt0[i];
	for (i = 0; i < NS * np; i++)
		o2o[i] = d.o2o[i], o2o[NS * np + i] = 1.06 * d.o2o[i];
	for (i = 0; i < NS * n2t; i++)
		o2t[i] = d.o2t[i], o2t[NS * n2t + i] = 1.06 * d.o2t[i];
	rc = cp_lmo_regimes_find(&d.sw, lim, 2, &r);
	rc = rc ? rc : cp_lmo_fit_regime(&d.sw, &r, 1, 0.95, &m1);
	d.sw.npass = 2;
	d.sw.rt0_s = rt0;
	d.sw.o2o_s = o2o;
	d.sw.o2t_s = o2t;
	rc = rc ? rc : cp_lmo_fit_regime(&d.sw, &r, 1, 0.95, &m2);
	for (q = 0; !rc && q < np; q++) {
		int a = q < 3 ? 0 : q < 5 ? 1 : 2;
		int b = q < 3 ? q + 1 : q < 5 ? q - 1 : 3;

		tr = 1.03 * (p.t[1][a] + p.t[1][b] + p.ib[1][q]);
		bad += !covers(&m2.tsum_spb[q], tr);
		w1 += m1.tsum_spb[q].hi - m1.tsum_spb[q].lo;
		w2 += m2.tsum_spb[q].hi - m2.tsum_spb[q].lo;
	}
	ta_check(!rc && !bad && w2 > 1.1 * w1, "a second pass 6%% slower: the "
		 "sums' 95%% intervals hold the middle (%d do not), %.1f "
		 "times as wide as one pass's", bad, w1 > 0 ? w2 / w1 : 0);
	if (!rc) {
		cp_lmo_free(&m1);
		cp_lmo_free(&m2);
	}
	free(rt0);
	free(o2o);
	free(o2t);
	data_free(&d);
}

static void test_indices(void)
{
	int n = 6, i, j, k, seen[60] = { 0 }, ok = 1, x;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			for (k = 0; k < n; k++) {
				if (i == j || i == k || j <= k)
					continue;
				x = cp_lmo_o2t_idx(n, i, j, k);
				ok &= x >= 0 && x < 60 &&
				      x == cp_lmo_o2t_idx(n, i, k, j);
				if (x >= 0 && x < 60)
					seen[x]++;
			}
	for (i = 0; i < 60; i++)
		ok &= seen[i] == 1;
	ta_check(ok && cp_lmo_no2t(6) == 60,
		 "one-to-two indices: a bijection onto 0..59 for n=6");
	ta_check(cp_lmo_pair_idx(6, 0, 1) == 0 && cp_lmo_pair_idx(6, 5, 4) ==
		 14 && cp_lmo_pair_idx(6, 2, 2) == -CP_EINVAL,
		 "pair indices: {0,1} 0, {4,5} 14, {2,2} refused");
}

/* A model of 4 ranks set by hand (one regime), for the thresholds. */
static void hand_model(struct cp_lmo *m, const struct truth *p)
{
	int i, j, q;

	cp_lmo_alloc(m, 4);
	for (i = 0; i < 4; i++) {
		m->c_s[i] = (struct cp_est){ .val = p->c[1][i], .lo = 0,
			.hi = 1, .df = 50 };
		m->t_spb[i] = (struct cp_est){ .val = p->t[1][i], .lo = 0,
			.hi = 1, .se = 1e-13, .df = 50 };
		for (j = i + 1; j < 4; j++) {
			q = cp_lmo_pair_idx(4, i, j);
			m->csum_s[q] = m->c_s[i];
			m->csum_s[q].val = p->c[1][i] + p->c[1][j];
			m->tsum_spb[q] = m->t_spb[i];
			m->tsum_spb[q].val = p->t[1][i] + p->t[1][j] +
					     p->ib[1][q];
		}
	}
}

/* Scatter and gather rows from root 0 to 1..3 of a known model, sizes
 * sb[] 1..48 KB: true times sc[], gc[], measured st[], gt[] (2 us of
 * noise); S after 20 KB; gather linear to 16 KB, flat escalation levels
 * of 0.2 or 0.4 s to 30 KB, linear from 31 KB; kappa1 = 1, kappa2 = 3
 * ns/B (NT0); p: the model. */
static void thresh_rows(gsl_rng *g, struct truth *p, double *sb,
			double *sc, double *st, double *gc, double *gt)
{
	double mx, sm, x, rt, sd = 2e-6;
	int i, k;

	truth_init(p, 4, g);
	p->c[1][3] = 90e-6;	/* peer 3 is the max at every size */
	p->ib[1][cp_lmo_pair_idx(4, 0, 3)] = 30e-9;
	for (i = 0; i < 48; i++) {
		sb[i] = 1024.0 * (i + 1);
		rt = 3 * (p->c[1][0] + p->t[1][0] * sb[i]);
		mx = sm = 0;
		for (k = 1; k < 4; k++) {
			x = p->c[1][k] + p->t[1][k] * sb[i] +
			    sb[i] * ib_of(p, 1, 0, k);
			sm += x;
			mx = x > mx ? x : mx;
		}
		sc[i] = rt + (i <= 19 ? mx : sm);
		st[i] = sc[i] + gsl_ran_gaussian(g, sd);
		if (i <= 15)
			gc[i] = rt + mx + 1e-9 * sb[i];
		else if (i <= 29)
			gc[i] = 0.2 * (1 + gsl_rng_uniform_int(g, 2));
		else
			gc[i] = rt + sm + 3e-9 * sb[i];
		gt[i] = gc[i] + gsl_ran_gaussian(g, sd);
	}
}

/* The rows of thresh_rows: S, M1, M2, kappa and the predictions. */
static void test_thresholds(gsl_rng *g)
{
	struct truth p;
	struct cp_lmo m;
	struct cp_lmo_thresh th;
	const int peers[] = { 1, 2, 3 };
	double sb[48], st[48], gt[48], sc[48], gc[48], t, want;
	int rc;

	thresh_rows(g, &p, sb, sc, st, gc, gt);
	hand_model(&m, &p);
	/* T^(i+1)/T^1 > 10 first at i+1 = 16: M1 = M_15 */
	cp_lmo_thresh_init(&th);
	rc = cp_lmo_scatter_thresh(sb, st, 48, 0, LEVEL, &th);
	ta_check(rc == 0 && abs(th.s_idx - 19) <= 1,
		 "scatter: S at index 19 +-1 (got %d, S = %.0f B)", th.s_idx,
		 th.s_bytes);
	rc = cp_lmo_gather_thresh(sb, gt, 48, 0, LEVEL, &th);
	ta_check(rc == 0 && th.m1_idx == 15 && th.m1_bytes == 16384,
		 "gather: M1 = M_15 = 16384 B (got %d, %.0f)", th.m1_idx,
		 th.m1_bytes);
	ta_check(abs(th.m2_idx - 30) <= 1 && !(th.flags & CP_LMO_T_NO_M2),
		 "gather: M2 starts the last segment at index 30 +-1 (got "
		 "%d, %d breaks)", th.m2_idx, th.gather_breaks);
	rc = cp_lmo_kappa(&m, &m, 0, peers, 3, LEVEL, &th);
	ta_check(rc == 0 && covers(&th.kappa1_spb[CP_LMO_KAPPA_NT0], 1e-9),
		 "kappa1 (minus n*t_0) %.3f ns/B in [%.3f, %.3f] (true 1)",
		 th.kappa1_spb[1].val * 1e9, th.kappa1_spb[1].lo * 1e9,
		 th.kappa1_spb[1].hi * 1e9);
	ta_check(covers(&th.kappa2_spb[CP_LMO_KAPPA_NT0], 3e-9),
		 "kappa2 (minus n*t_0) %.3f ns/B in [%.3f, %.3f] (true 3)",
		 th.kappa2_spb[1].val * 1e9, th.kappa2_spb[1].lo * 1e9,
		 th.kappa2_spb[1].hi * 1e9);
	ta_check(ta_near(th.kappa2_spb[0].val - th.kappa2_spb[1].val,
			 3 * m.t_spb[0].val, 1e-9),
		 "kappa2 as printed = variant + n*t_0");
	rc = cp_lmo_predict_gather(&m, &th, CP_LMO_KAPPA_PRINTED, 0, peers,
				   3, 24576, &t);
	ta_check(rc == -CP_ENOPRED,
		 "gather of 24 KB (between M1 and M2): -CP_ENOPRED");
	want = gc[40];
	rc = cp_lmo_predict_gather(&m, &th, CP_LMO_KAPPA_NT0, 0, peers, 3,
				   sb[40], &t);
	ta_check(rc == 0 && ta_near(t, want, 0.02),
		 "gather of 41 KB predicted %.1f us, true %.1f us", t * 1e6,
		 want * 1e6);
	rc = cp_lmo_predict_gather(&m, &th, CP_LMO_KAPPA_NT0, 0, peers, 3,
				   sb[5], &t);
	ta_check(rc == 0 && ta_near(t, gc[5], 0.02),
		 "gather of 6 KB predicted %.1f us, true %.1f us", t * 1e6,
		 gc[5] * 1e6);
	rc = cp_lmo_predict_scatter(&m, &th, 0, peers, 3, sb[30], &t);
	ta_check(rc == 0 && ta_near(t, sc[30], 1e-9),
		 "scatter of 31 KB (serial) predicted %.1f us, true %.1f",
		 t * 1e6, sc[30] * 1e6);
	rc = cp_lmo_predict_scatter(&m, &th, 0, peers, 3, sb[4], &t);
	ta_check(rc == 0 && ta_near(t, sc[4], 1e-9),
		 "scatter of 5 KB (parallel) predicted %.1f us, true %.1f",
		 t * 1e6, sc[4] * 1e6);
	cp_lmo_free(&m);
}

/* One draw of thresh_rows' gather row, its thresholds and kappas, and
 * the gather of 41 KB: 0 and *t, or the prediction's error; *want the
 * true time. */
static int gather_draw(gsl_rng *g, double *t, double *want)
{
	struct truth p;
	struct cp_lmo m;
	struct cp_lmo_thresh th;
	const int peers[] = { 1, 2, 3 };
	double sb[48], st[48], gt[48], sc[48], gc[48];
	int rc;

	thresh_rows(g, &p, sb, sc, st, gc, gt);
	hand_model(&m, &p);
	*want = gc[40];
	cp_lmo_thresh_init(&th);
	rc = cp_lmo_gather_thresh(sb, gt, 48, 0, LEVEL, &th);
	if (!rc)
		rc = cp_lmo_kappa(&m, &m, 0, peers, 3, LEVEL, &th);
	if (!rc)
		rc = cp_lmo_predict_gather(&m, &th, CP_LMO_KAPPA_NT0, 0,
					   peers, 3, sb[40], t);
	cp_lmo_free(&m);
	return rc;
}

/* 100 draws of gather_draw: every large gather priced within 2% (the
 * least-squares partition left an escalated size at the head of the
 * linear segment in 1 of them, whose line priced the gather below 0,
 * before M2 moved past escalated sizes). */
static void test_gather_draws(gsl_rng *g)
{
	double t, want;
	int i, rc, ok = 0, neg = 0;

	for (i = 0; i < 100; i++) {
		t = NAN;
		rc = gather_draw(g, &t, &want);
		neg += !rc && !(t > 0);
		ok += !rc && ta_near(t, want, 0.02);
	}
	ta_check(ok == 100 && neg == 0,
		 "gather of 41 KB within 2%% in %d of 100 noise draws (%d "
		 "at 0 or less)", ok, neg);
}

/* Hosts of no per-byte cost (every t_i 0): a t_i whose interval reaches
 * 0 is 0 and says why, and each 1/beta_ij, which then holds the rest of
 * its link's sum, still covers its true value. */
static void test_t_zero(gsl_rng *g)
{
	struct truth p;
	struct data d;
	struct cp_lmo_regimes r;
	struct cp_lmo m;
	int k, i, q, rc, taken = 0, bad = 0, n = 4;

	truth_init(&p, n, g);
	memset(p.t, 0, sizeof(p.t));
	synth(g, &p, &d);
	rc = cp_lmo_regimes_find(&d.sw, lim, 2, &r);
	for (k = 0; !rc && k < r.nreg; k++) {
		rc = cp_lmo_fit_regime(&d.sw, &r, k, LEVEL, &m);
		if (rc)
			break;
		for (i = 0; i < n; i++) {
			const struct cp_est *t = &m.t_spb[i];

			if (t->fail || t->lo > 0 || !(t->hi > 0))
				continue;
			taken++;
			bad += t->val != 0 || !t->ambig ||
			       !strstr(t->ambig, "taken as 0");
		}
		for (q = 0; q < cp_lmo_npairs(n); q++)
			bad += !covers(&m.ib_spb[q], p.ib[k][q]);
		cp_lmo_free(&m);
	}
	ta_check(!rc && taken > 0 && !bad, "no per-byte host cost: each of "
		 "%d t_i whose interval reaches 0 taken as 0 and marked, every "
		 "1/beta_ij in its interval (%d misses, rc %d)", taken, bad,
		 rc);
	data_free(&d);
	/* host 1 below 0 per byte (one-to-twos it roots faster per byte
	 * than its slower link alone, as the test bed's slopes gave) */
	truth_init(&p, n, g);
	memset(p.t, 0, sizeof(p.t));
	p.t[0][1] = -0.15e-9;
	p.t[1][1] = -0.04e-9;
	synth(g, &p, &d);
	rc = cp_lmo_regimes_find(&d.sw, lim, 2, &r);
	for (taken = bad = 0, k = 0; !rc && k < r.nreg; k++) {
		rc = cp_lmo_fit_regime(&d.sw, &r, k, LEVEL, &m);
		if (rc)
			break;
		if (!m.t_spb[1].fail && !(m.t_spb[1].hi > 0)) {
			taken++;
			bad += m.t_spb[1].val != 0 || !m.t_spb[1].ambig ||
			       !strstr(m.t_spb[1].ambig, "below 0");
		}
		cp_lmo_free(&m);
	}
	ta_check(!rc && taken > 0 && !bad, "a host below 0 per byte: its "
		 "t_i in %d regimes at 0 with [0, 0] and marked (%d not, rc "
		 "%d)", taken, bad, rc);
	data_free(&d);
}

int main(void)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);

	cp_stats_init();
	gsl_rng_set(g, 2024);
	test_indices();
	test_regimes(g);
	recover(g, 3);
	recover(g, 4);
	recover(g, 6);
	test_coverage(g);
	test_n2(g);
	test_outlier(g);
	test_spread(g);
	test_two_passes(g);
	/* test_thresholds' single draw from its own seed: its checks of S
	 * and M2 within one size hold in 89 of 100 seeds (the rest miss by
	 * 2 or 3 sizes), so a test added before it must not move its draw */
	gsl_rng_set(g, 2024);
	test_thresholds(g);
	test_t_zero(g);
	test_gather_draws(g);
	gsl_rng_free(g);
	return ta_done("test_analysis_lmo");
}
