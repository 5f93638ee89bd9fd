/*
 * test_analysis_log3p.c - analysis/cp_log3p without MPI: the paper's 4.1
 * example (log3P paper: s = 16 KB, d = 1 KB of doubles; o_mw 29, l_mw 420,
 * T_mem 3, o_net 131 us) must give T_00(s,d) = 452 and T_01(s,d) = 580
 * exactly; then the interpolation: exact at table points, monotone per
 * byte between them in size, block and gap, close to a smooth cost law
 * off the grid (blocks of 16, 28 and 40 B, gaps that are no table
 * point), extrapolation beyond the tables with its flags, cells not
 * measured and failed ones bridged by their column, broadcasts,
 * predicates and savings.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/cp_err.h"
#include "analysis/cp_log3p.h"
#include "tests/test_analysis.h"

/* Times in microseconds: the functions are linear in time, and integer
 * microseconds keep every sum exact in double. */
static void test_paper(void)
{
	const double s[] = { 16384 }, b[] = { 8 }, g[] = { 1016 };
	const double tmem[] = { 3 }, t00[] = { 29 + 3 }, t01[] = { 29 + 131 };
	const double t01sd[] = { 580 };
	struct cp_log3p_meas in = { 1, s, tmem, t00, t01, 1, 1, 1, s, b, g,
				    t01sd };
	struct cp_log3p m;
	struct cp_log3p_pred p;
	struct cp_log3p_saving sv;
	double t;
	int rc;

	rc = cp_log3p_derive(&in, &m);
	ta_check(rc == 0 && m.o_mw_s[0] == 29 && m.o_net_s[0] == 131 &&
		 m.l_mw_s[0] == 420 && m.nneg == 0,
		 "4.1: o_mw = T_00 - T_mem = 29, o_net = T_01 - o_mw = 131, "
		 "l_mw = T_01(s,d) - T_01 = 420 (got %g, %g, %g)",
		 m.o_mw_s[0], m.o_net_s[0], m.l_mw_s[0]);
	cp_log3p_eval(&m, 16384, 1024, 8, &p);
	ta_check(p.self_s == 452 && p.flags == 0,
		 "4.1: T_00(s,d) = o_mw + l_mw + T_mem = 452 (got %g)",
		 p.self_s);
	ta_check(p.t_s == 580, "4.1: T_01(s,d) predicted 580 (got %g)",
		 p.t_s);
	ta_check(cp_log3p_mw_dominated(&p) && cp_log3p_lmw_largest(&p),
		 "4.1: middleware dominated (449 > 131), l_mw largest term");
	cp_log3p_eval(&m, 16384, 0, 0, &p);
	ta_check(p.t_s == 160 && p.l_mw_s == 0 && !cp_log3p_mw_dominated(&p),
		 "4.1 contiguous (d = 0): T_01 = 160, not mw dominated");
	cp_log3p_eval(&m, 16384, 1024, 8, &p);
	cp_log3p_eval_bcast_linear(&p, 8, &t);
	ta_check(t == 8 * (29 / 2.0 + 420 / 2.0) + 131,
		 "linear bcast P=8: P*(o_mw/2 + l_mw/2) + o_net = %g", t);
	cp_log3p_eval_bcast_tree(&p, 8, &t);
	ta_check(t == 3 * 580, "tree bcast P=8: 3*(o_mw + l_mw + o_net) = %g",
		 t);
	cp_log3p_eval_bcast_tree(&p, 5, &t);
	ta_check(t == 3 * 580, "tree bcast P=5: h = ceil(log2 5) = 3");
	ta_check(cp_log3p_eval_bcast_tree(&p, 1, &t) == -CP_EINVAL,
		 "bcast with 1 process: -CP_EINVAL");
	cp_log3p_pack_saving(&p, &sv);
	ta_check(sv.manual_s == 0.15 * 580 && sv.manual_lo_s == 0.02 * 580 &&
		 sv.manual_hi_s == 0.5 * 580 && sv.blocked_s == 0.435 * 580,
		 "packing savings 15%% (2..50%%), blocked 43.5%% of 580");
	cp_log3p_eval(&m, 32768, 1024, 8, &p);
	ta_check(p.flags == CP_LOG3P_F_EXTRAP_SIZE && p.o_net_s == 262 &&
		 p.l_mw_s == 840,
		 "32 KB above the one measured size: per-byte costs kept "
		 "(o_net 262, l_mw 840), flagged");
	ta_check(cp_log3p_eval(&m, 1024, 16, 16, &p) == -CP_EINVAL &&
		 cp_log3p_eval(&m, -1, 0, 0, &p) == -CP_EINVAL,
		 "a block as wide as its stride, a negative size: -CP_EINVAL");
	cp_log3p_free(&m);
}

/*
 * A smooth law, in ns: contiguous one-way 500 + 0.1*s + 2*sqrt(s); a
 * strided message of s bytes in blocks of b with gaps g costs per block
 * 4 + 0.05*b + 0.3*sqrt(b) + 0.4*log2(g) + 0.2*sqrt(g) more.  Tables on a
 * grid; off the grid the interpolation must stay within 5% of the law,
 * exact at the points.
 */
static const double S[] = { 256, 1024, 4096, 16384, 65536, 262144 };
static const double B[] = { 8, 16, 64, 256, 1024 };
static const double G[] = { 8, 56, 248, 1016, 8184 };
#define NS 6
#define NB 5
#define NG 5

static double law_contig(double s)
{
	return 500 + 0.1 * s + 2 * sqrt(s);
}

static double law_lmw(double s, double b, double g)
{
	return s / b * (4 + 0.05 * b + 0.3 * sqrt(b) + 0.4 * log2(g) +
			0.2 * sqrt(g));
}

static void grid_tables(struct cp_log3p *m, bool cap)
{
	static double tm[NS], t00[NS], t01[NS], sd[NS * NB * NG];
	struct cp_log3p_meas in = { NS, S, tm, t00, t01, NS, NB, NG, S, B, G,
				    sd };
	int i, j, k;

	for (i = 0; i < NS; i++) {
		tm[i] = 0.05 * S[i];
		t00[i] = tm[i] + 100 + 0.02 * S[i];
		t01[i] = law_contig(S[i]);
		for (j = 0; j < NB; j++)
			for (k = 0; k < NG; k++)
				/* the memory cap: extent s*(b+g)/b <= 8 MB */
				sd[(i * NB + j) * NG + k] =
					cap && S[i] * (B[j] + G[k]) / B[j] >
					8e6 ? NAN : t01[i] +
					law_lmw(S[i], B[j], G[k]);
		}
	if (cp_log3p_derive(&in, m))
		exit(1);
}

static void test_grid(void)
{
	struct cp_log3p m;
	struct cp_log3p_pred p, q;
	int i, j, k, bad = 0, nonmono = 0;
	double s, e, worst = 0;

	grid_tables(&m, false);
	for (i = 0; i < NS; i++)
		for (j = 0; j < NB; j++)
			for (k = 0; k < NG; k++) {
				cp_log3p_eval(&m, S[i], B[j] + G[k], B[j], &p);
				bad += !ta_near(p.t_s, law_contig(S[i]) +
						law_lmw(S[i], B[j], G[k]),
						1e-12) || p.flags;
			}
	ta_check(!bad, "every table point predicted exactly, unflagged "
		 "(%d off)", bad);
	/* per-byte cost monotone between sizes, gaps and blocks */
	for (s = 300; s < 262144; s *= 1.07) {
		cp_log3p_eval(&m, s, 208, 8, &p);
		cp_log3p_eval(&m, s * 1.07, 208, 8, &q);
		nonmono += q.t_s / (s * 1.07) > p.t_s / s + 1e-12;
		cp_log3p_eval(&m, 65536, 8 + s / 32, 8, &p);
		cp_log3p_eval(&m, 65536, 8 + s * 1.07 / 32, 8, &q);
		nonmono += q.l_mw_s < p.l_mw_s - 1e-9 && s * 1.07 / 32 < 8184;
	}
	ta_check(!nonmono, "T/s never grows with s, l_mw never falls with "
		 "the gap (%d violations)", nonmono);
	/* off the grid: blocks 16, 28 and 40 B, strides of 2..200 doubles */
	for (s = 2000; s <= 200000; s *= 1.9)
		for (j = 2; j <= 200; j = j * 3 / 2 + 1) {
			static const double blk[] = { 8, 16, 28, 40 };

			for (k = 0; k < 4; k++) {
				double d = blk[k] + 8 * j;

				cp_log3p_eval(&m, s, d, blk[k], &p);
				e = p.t_s / (law_contig(s) +
					     law_lmw(s, blk[k], d - blk[k]));
				e = e > 1 ? e : 1 / e;
				worst = e > worst ? e : worst;
			}
		}
	ta_check(worst < 1.05, "off the grid (2 KB..200 KB, strides of 2 to "
		 "200 doubles, blocks 8..40 B) within 5%% of the law "
		 "(worst mu %.4f)", worst);
	cp_log3p_free(&m);
}

static void test_extrap(void)
{
	struct cp_log3p m;
	struct cp_log3p_pred p;
	double want;

	grid_tables(&m, true);
	/* 262144 B in 8-B blocks with gaps of 1016: extent 33 MB, not
	 * measured; the column's last measured size is 16384 (extent
	 * 2.1 MB <= 8 MB), whose per-byte cost is kept */
	cp_log3p_eval(&m, 262144, 1024, 8, &p);
	want = law_lmw(16384, 8, 1016) * 262144 / 16384;
	ta_check(ta_near(p.l_mw_s, want, 1e-12) &&
		 (p.flags & CP_LOG3P_F_EXTRAP_SIZE),
		 "a cell not measured: its column's per-byte cost (%.0f, "
		 "want %.0f), flagged", p.l_mw_s, want);
	cp_log3p_free(&m);
	grid_tables(&m, false);
	m.l_mw_s[(2 * NB + 1) * NG + 2] = NAN;	/* 4096 B, b 16, g 248 */
	cp_log3p_eval(&m, 4096, 264, 16, &p);
	want = law_lmw(1024, 16, 248) + (law_lmw(16384, 16, 248) -
					 law_lmw(1024, 16, 248)) *
	       (4096 - 1024) / 15360.0;
	ta_check(ta_near(p.l_mw_s, want, 1e-12) && !p.flags,
		 "a failed cell: bridged linearly by its column (%.1f)",
		 p.l_mw_s);
	cp_log3p_eval(&m, 65536, 8 + 20000, 8, &p);
	ta_check(ta_near(p.l_mw_s, law_lmw(65536, 8, 8184), 1e-12) &&
		 p.flags == CP_LOG3P_F_EXTRAP_STRIDE,
		 "a gap above the table: the last gap's cost, flagged");
	cp_log3p_eval(&m, 65536, 4096, 2048, &p);
	ta_check(ta_near(p.l_mw_s, law_lmw(65536, 1024, 2048) * 1024 / 1024,
			 0.05) && p.flags == CP_LOG3P_F_EXTRAP_STRIDE,
		 "a block above the table: its per-byte cost kept, flagged");
	cp_log3p_eval(&m, 65536, 12, 4, &p);
	ta_check(ta_near(p.l_mw_s, law_lmw(65536, 8, 8) * 2, 1e-12) &&
		 p.flags == CP_LOG3P_F_EXTRAP_STRIDE,
		 "4-B blocks: the 8-B per-block cost, twice the blocks");
	cp_log3p_eval(&m, 100, 0, 0, &p);
	ta_check(p.t_s == law_contig(256) && p.flags == CP_LOG3P_F_EXTRAP_SIZE,
		 "below the smallest size: the value kept, flagged");
	cp_log3p_free(&m);
}

static void test_errors(void)
{
	const double s[] = { 2000, 1000 }, x[] = { 1, 1 }, b[] = { 8 };
	const double s2[] = { 1000, 5000 }, nine[] = { 9, 9 }, s3[] = { 3000 };
	struct cp_log3p_meas in = { 2, s, x, x, x, 1, 1, 1, s2, b, b, x };
	struct cp_log3p m;
	int rc;

	ta_check(cp_log3p_derive(&in, &m) == -CP_EINVAL,
		 "sizes not increasing: -CP_EINVAL");
	in.size_bytes = s2;
	in.ssize_bytes = s3;
	ta_check(cp_log3p_derive(&in, &m) == -CP_EINVAL,
		 "a strided size that is no contiguous one: -CP_EINVAL");
	in.ssize_bytes = s2;
	in.t_mem_s = nine;	/* T_mem 9 > T_00 1: o_mw clamped to 0 */
	rc = cp_log3p_derive(&in, &m);
	ta_check(rc == 0 && m.o_mw_s[0] == 0 && m.o_net_s[0] == 1 &&
		 m.nneg == 0,
		 "T_mem above T_00: o_mw 0, o_net the whole T_01");
	cp_log3p_free(&m);
}

/*
 * Cache-set aliasing: one-double blocks in 8192 B, l_mw (us) at strides
 * of 128 (neutral) 900, 256 (aliased) 1000, 1024 (aliased) 2000, 1088
 * (spread) 1000, 4096 (aliased) 2000, 4160 (spread) 1100 and 8192
 * (neutral) 2200.  Each class is interpolated over its own points and
 * the neutral ones; a table without the spread companions over all its
 * points, as before.
 */
static double alias_lmw(const double *g, const double *lmw, int ng,
			double stride)
{
	const double s[] = { 8192 }, b[] = { 8 }, tmem[] = { 3 };
	const double t00[] = { 10 }, t01[] = { 100 };
	double t01sd[8];
	struct cp_log3p_meas in = { 1, s, tmem, t00, t01, 1, 1, ng, s, b, g,
				    t01sd };
	struct cp_log3p m;
	struct cp_log3p_pred p;
	double v = NAN;

	for (int i = 0; i < ng; i++)
		t01sd[i] = 100 + lmw[i];
	if (cp_log3p_derive(&in, &m))
		return NAN;
	if (!cp_log3p_eval(&m, 8192, stride, 8, &p))
		v = p.l_mw_s;
	cp_log3p_free(&m);
	return v;
}

static void test_alias(void)
{
	const double g[] = { 120, 248, 1016, 1080, 4088, 4152, 8184 };
	const double lmw[] = { 900, 1000, 2000, 1000, 2000, 1100, 2200 };
	const double g4[] = { 248, 1016, 4088, 8184 };
	const double lmw4[] = { 1000, 2000, 2000, 2200 };
	double w, v;

	w = (log2(1592) - log2(1080)) / (log2(4152) - log2(1080));
	v = alias_lmw(g, lmw, 7, 1600);
	ta_check(fabs(v - (1000 + 100 * w)) < 1e-9,
		 "stride 1600 (spread): between 1088 and 4160 only, %g "
		 "(got %g)", 1000 + 100 * w, v);
	v = alias_lmw(g, lmw, 7, 2048);
	ta_check(v == 2000, "stride 2048 (aliased): between 1024 and 4096, "
		 "2000 (got %g)", v);
	ta_check(alias_lmw(g, lmw, 7, 256) == 1000 &&
		 alias_lmw(g, lmw, 7, 1024) == 2000 &&
		 alias_lmw(g, lmw, 7, 1088) == 1000 &&
		 alias_lmw(g, lmw, 7, 4096) == 2000,
		 "exact at the points of either class");
	w = (log2(504) - log2(248)) / (log2(1016) - log2(248));
	v = alias_lmw(g, lmw, 7, 512);
	ta_check(fabs(v - (1000 + 1000 * w)) < 1e-9,
		 "stride 512 (aliased): between 256 and 1024, %g (got %g)",
		 1000 + 1000 * w, v);
	w = (log2(592) - log2(120)) / (log2(1080) - log2(120));
	v = alias_lmw(g, lmw, 7, 600);
	ta_check(fabs(v - (900 + 100 * w)) < 1e-9,
		 "stride 600 (spread): between 128 and 1088, not 256 or "
		 "1024, %g (got %g)", 900 + 100 * w, v);
	w = (log2(5992) - log2(4152)) / (log2(8184) - log2(4152));
	v = alias_lmw(g, lmw, 7, 6000);
	ta_check(fabs(v - (1100 + 1100 * w)) < 1e-9,
		 "stride 6000 (neutral): between 4160 and 8192 (got %g)", v);
	v = alias_lmw(g4, lmw4, 4, 1600);
	ta_check(v == 2000, "no spread points (an older table): stride 1600 "
		 "between 1024 and 4096 as before, 2000 (got %g)", v);
}

int main(void)
{
	test_paper();
	test_grid();
	test_extrap();
	test_errors();
	test_alias();
	return ta_done("test_analysis_log3p");
}
