/*
 * test_predict.c - online predictions (src/lib/cp_predict.c) from a
 * hand-written parameter file equal the formulas of the papers (README
 * "References") written out here (to 1e-12 relative: only the order of the
 * additions may differ), and, over a grid of calls of every kind the models
 * cover, the predictions of the fitting side (analysis/cp_lmo.h, cp_log3p.h,
 * cp_baseline.h) made from the same parameters: a copy of a formula
 * that drifts from the other fails here.  LMO has two regimes (the
 * second from 4096 B) and a message uses its link's sums in the regime
 * of its size; log3P interpolates l_mw over sizes, blocks and gaps.
 * What a model does not cover is NAN; a gather's ranges (escalation,
 * failed kappa) are the same online and offline; a job that differs from
 * the calibrated one uses averaged LMO parameters and says so.  tau-Lop
 * and the baselines over a collective's rounds: the formulas written out
 * for a message, a concurrent one and a broadcast across two hosts, and
 * over a grid of collectives of every operation the runtime against
 * cp_taulop_coll and cp_coll_baseline on tables built here from the
 * file.  No MPI.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/cp_baseline.h"
#include "analysis/cp_err.h"
#include "analysis/cp_lmo.h"
#include "analysis/cp_log3p.h"
#include "analysis/cp_taulop.h"
#include "src/common/cp_params.h"
#include "src/common/cp_pt_params.h"
#include "src/common/cp_tl_params.h"
#include "src/lib/cp_predict.h"
#include "tests/test_analysis.h"

#define TOL 1e-12
#define BOUND 4096.0		/* first size of LMO's second regime */

/* LMO of 3 ranks on hosts a, a, b, per regime. */
static const double C[2][3] = { { 1e-6, 2e-6, 3e-6 }, { 4e-6, 5e-6, 6e-6 } };
static const double t[2][3] = { { 1e-9, 2e-9, 3e-9 },
				{ 5e-10, 1e-9, 1.5e-9 } };
static const double beta[2][3][3] = {
	{ { 0, 1e9, 2e9 }, { 1e9, 0, 4e8 }, { 2e9, 4e8, 0 } },
	{ { 0, 4e9, 8e9 }, { 4e9, 0, 1.6e9 }, { 8e9, 1.6e9, 0 } } };

/* tau-Lop: channel 0 (host a) measured on 2 ranks, channel 1 across
 * the hosts. */
static const char taulop_lines[] =
	"taulop.sizes 0 3 0 1000 4000\n"
	"taulop.taus 0 3 1 2 4\n"
	"taulop.ranks 0 2\n"
	"taulop.o 0 0 1e-7 lo 1e-7 hi 1e-7 n 11\n"
	"taulop.o 0 1000 2e-7 lo 2e-7 hi 2e-7 n 11\n"
	"taulop.o 0 4000 5e-7 lo 5e-7 hi 5e-7 n 11\n"
	"taulop.L 0 0 1 1e-6 lo 1e-6 hi 1e-6 n 11\n"
	"taulop.L 0 0 2 2e-6 lo 2e-6 hi 2e-6 n 11\n"
	"taulop.L 0 0 4 4e-6 lo 4e-6 hi 4e-6 n 11\n"
	"taulop.L 0 1000 1 2e-6 lo 2e-6 hi 2e-6 n 11\n"
	"taulop.L 0 1000 2 3e-6 lo 3e-6 hi 3e-6 n 11\n"
	"taulop.L 0 1000 4 6e-6 lo 6e-6 hi 6e-6 n 11\n"
	"taulop.L 0 4000 1 5e-6 lo 5e-6 hi 5e-6 n 11\n"
	"taulop.L 0 4000 2 9e-6 lo 9e-6 hi 9e-6 n 11\n"
	"taulop.L 0 4000 4 1.7e-5 lo 1.7e-5 hi 1.7e-5 n 11\n"
	"taulop.sizes 1 2 0 4000\n"
	"taulop.taus 1 2 1 2\n"
	"taulop.ranks 1 2\n"
	"taulop.o 1 0 1e-6 lo 1e-6 hi 1e-6 n 11\n"
	"taulop.o 1 4000 3e-6 lo 3e-6 hi 3e-6 n 11\n"
	"taulop.L 1 0 1 2e-5 lo 2e-5 hi 2e-5 n 11\n"
	"taulop.L 1 0 2 3e-5 lo 3e-5 hi 3e-5 n 11\n"
	"taulop.L 1 4000 1 6e-5 lo 6e-5 hi 6e-5 n 11\n"
	"taulop.L 1 4000 2 1e-4 lo 1e-4 hi 1e-4 n 11\n"
	"taulop.red 1e-10 lo 1e-10 hi 1e-10 n 5\n";

/* log3P: contiguous terms at 1000 and 2000 B; l_mw at those sizes for
 * blocks of 8 and 64 B with gaps of 8 and 56 B, [is][ib][ig]. */
static const double L3S[2] = { 1000, 2000 }, L3B[2] = { 8, 64 };
static const double L3G[2] = { 8, 56 };
static const double TMEM[2] = { 1e-7, 2e-7 }, OMW[2] = { 5e-7, 7e-7 };
static const double ONET[2] = { 1e-6, 3e-6 };
static const double LMW[2][2][2] = { { { 2e-6, 4e-6 }, { 5e-7, 6e-7 } },
				     { { 6e-6, 8e-6 }, { 1e-6, 1.4e-6 } } };

static double ib(int k, int i, int j)
{
	return 1 / beta[k][i][j];
}

static int reg_of(double mb)
{
	return mb >= BOUND;
}

static void pv(FILE *f, const char *name, double v)
{
	fprintf(f, "%s %.17g lo %.17g hi %.17g n 5\n", name, v, v, v);
}

/* PlogPT: a tree of height 1 over hosts a and b, L 2 us, g(1500) =
 * 3 us between the table's 1000 and 3000 B. */
static const char plogpt_lines[] =
	"plogpt.tree 1\nplogpt.pair 0 2\n"
		"plogpt.sizes 3 0 1000 3000\n"
		"plogpt.L 2e-6 lo 2e-6 hi 2e-6 n 5\n"
		"plogpt.g 0 2e-7 lo 2e-7 hi 2e-7 n 5\n"
		"plogpt.g 1000 2e-6 lo 2e-6 hi 2e-6 n 5\n"
		"plogpt.g 3000 6e-6 lo 6e-6 hi 6e-6 n 5\n"
		"plogpt.b 1 5e8 lo 5e8 hi 5e8 n 5\n"
		"plogpt.d 1 1e-4 lo 1e-4 hi 1e-4 n 5\n"
		"plogpt.eps_s 0.05 lo 0.05 hi 0.05 n 5\n"
		"plogpt.eps_t 1e-5 lo 1e-5 hi 1e-5 n 5\n";

/* The file; the line of a parameter named in cut (if any) replaced by
 * with. */
/* Lines write_file adds after the tau-Lop section, when not NULL. */
static const char *extra_lines;
/* Where write_file's regime 1 starts (lmo.source). */
static const char *lmo_source = "test_eager_limit=4096";

static void write_file(FILE *f, const char *cut, const char *with)
{
	char nm[96];
	int k, i, j, a, b, c;

	fputs("commprof-params 2\nmpi_library test\n"
	      "date 2026-11-22T00:00:00Z\nhosts 2 a b\nrankmap 3 0 0 1\n"
	      "nranks 3\nlmo.regimes 2 0 4096\n", f);
	fprintf(f, "lmo.source 1 %s\n", lmo_source);
	fputs("lmo.sizes 3 1024 4096 65536\n"
	      "log3p.sizes 2 1000 2000\nlog3p.ssizes 2 1000 2000\n"
	      "log3p.blocks 2 8 64\nlog3p.gaps 2 8 56\n"
	      "plogp.sizes 3 0 1000 3000\n", f);
#define PUT(...) do { snprintf(nm, sizeof(nm), __VA_ARGS__); \
		if (cut && !strcmp(nm, cut)) fprintf(f, "%s\n", with); \
		else pv(f, nm, val); } while (0)
	for (k = 0; k < 2; k++)
		for (i = 0; i < 3; i++) {
			double val = C[k][i];

			PUT("lmo.C %d %d", k, i);
			val = t[k][i];
			PUT("lmo.t %d %d", k, i);
			for (j = i + 1; j < 3; j++) {
				val = beta[k][i][j];
				PUT("lmo.beta %d %d %d", k, i, j);
				val = C[k][i] + C[k][j];
				PUT("lmo.Csum %d %d %d", k, i, j);
				val = t[k][i] + t[k][j] + ib(k, i, j);
				PUT("lmo.tsum %d %d %d", k, i, j);
			}
		}
	for (a = 0; a < 2; a++) {
		double val = TMEM[a];

		PUT("log3p.t_mem %.0f", L3S[a]);
		val = OMW[a];
		PUT("log3p.o_mw %.0f", L3S[a]);
		val = ONET[a];
		PUT("log3p.o_net %.0f", L3S[a]);
		for (b = 0; b < 2; b++)
			for (c = 0; c < 2; c++) {
				val = LMW[a][b][c];
				PUT("log3p.l_mw %.0f %.0f %.0f", L3S[a], L3B[b],
				    L3G[c]);
			}
	}
	{
		double val = 5000;

		PUT("lmo.S");
		val = 4000;
		PUT("lmo.M1");
		val = 64000;
		PUT("lmo.M2");
		val = 1e-10;
		PUT("lmo.kappa1 0");
		val = 2e-10;
		PUT("lmo.kappa1 1");
		val = 3e-10;
		PUT("lmo.kappa2 0");
		val = 4e-10;
		PUT("lmo.kappa2 1");
	}
#undef PUT
	fputs("hockney.alpha 2e-6 lo 2e-6 hi 2e-6 n 5\n"
	      "hockney.beta 1e-9 lo 1e-9 hi 1e-9 n 5\n"
	      "loggp.L 1e-6 lo 1e-6 hi 1e-6 n 5\n"
	      "loggp.o 5e-7 lo 5e-7 hi 5e-7 n 5\n"
	      "loggp.os 4e-7 lo 4e-7 hi 4e-7 n 5\n"
	      "loggp.or 6e-7 lo 6e-7 hi 6e-7 n 5\n"
	      "loggp.g 7e-7 lo 7e-7 hi 7e-7 n 5\n"
	      "loggp.G 2e-9 lo 2e-9 hi 2e-9 n 5\n"
	      "plogp.L 1.5e-6 lo 1.5e-6 hi 1.5e-6 n 5\n"
	      "plogp.g 0 1e-7 lo 1e-7 hi 1e-7 n 5\n"
	      "plogp.g 1000 1.1e-6 lo 1.1e-6 hi 1.1e-6 n 5\n"
	      "plogp.g 3000 4.1e-6 lo 4.1e-6 hi 4.1e-6 n 5\n", f);
	fputs(taulop_lines, f);
	if (extra_lines)
		fputs(extra_lines, f);
	fputs(plogpt_lines, f);
	fputs("end\n", f);
}

/* The file, with the line of parameter cut (if any) replaced by with. */
static struct cp_params *load_edit(const char *cut, const char *with)
{
	char path[] = "/tmp/test_predict.XXXXXX", err[512];
	struct cp_params *p = NULL;
	FILE *f;
	int fd = mkstemp(path);

	if (fd < 0 || !(f = fdopen(fd, "w")))
		exit(1);
	write_file(f, cut, with);
	fclose(f);
	if (cp_params_load(path, &p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		unlink(path);
		exit(1);
	}
	unlink(path);
	return p;
}

static struct cp_params *load(void)
{
	return load_edit(NULL, NULL);
}

static struct cp_pred_out eval(const struct cp_pred *m,
			       struct cp_pred_in in)
{
	struct cp_pred_out o;

	cp_pred_eval(m, &in, &o);
	return o;
}

/* One message's LMO time written out: C_i + t_i*M + C_j + t_j*M +
 * M/beta_ij in the regime of M. */
static double lmo_msg(int i, int j, double mb)
{
	int k = reg_of(mb);

	return C[k][i] + t[k][i] * mb + C[k][j] + t[k][j] * mb +
	       mb * ib(k, i, j);
}

static struct cp_pred_in p2p(int src, int dst, double mb, double d,
			     double blk)
{
	return (struct cp_pred_in){ .kind = CP_PK_P2P, .src = src,
		.dst = dst, .bytes = mb, .stride_bytes = d,
		.block_bytes = blk, .coll_op = -1, .tau = 1 };
}

/* tau-Lop of one message: channel 0 between ranks 0 and 1 (host a),
 * channel 1 to rank 2 (host b); tau from the call. */
static void check_taulop_p2p(const struct cp_pred *m)
{
	struct cp_pred_in in = p2p(0, 1, 1500, 0, 0);
	struct cp_pred_out o = eval(m, in);
	double want;

	/* o0(1500) = 2.5e-7, L0(1500, 1) = 2.5e-6: eq. 1 */
	want = 2.5e-7 + 2 * 2.5e-6;
	ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL),
		 "tau-Lop 0->1 1500 B, tau 1: o0 + 2 L0 = %.3f ns (want "
		 "%.3f)", o.t_ns[CP_MODEL_TAULOP], want * 1e9);
	in.tau = 3;	/* L0(1000, 3) = 4.5 us, L0(4000, 3) = 13 us */
	o = eval(m, in);
	want = 2.5e-7 + 2 * (4.5e-6 + (13e-6 - 4.5e-6) / 6);
	ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL),
		 "tau-Lop 1500 B among 3 in flight: o0 + 2 L0(m, 3) = %.3f "
		 "ns", o.t_ns[CP_MODEL_TAULOP]);
	o = eval(m, p2p(0, 2, 1500, 0, 0));
	want = 1.75e-6 + 3.5e-5;
	ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL),
		 "tau-Lop 0->2 across hosts: o1 + L1 = %.3f ns",
		 o.t_ns[CP_MODEL_TAULOP]);
	in = p2p(2, 0, 1500, 0, 0);
	in.tau = 8;	/* the network was measured up to tau 2 */
	o = eval(m, in);
	want = 1.75e-6 + 4 * (3e-5 + 0.375 * 7e-5);
	ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL) &&
		 (o.flags & CP_PF_TL_EXTRAP),
		 "tau 8 beyond the table: 4 L1(m, 2), flagged (%#x)",
		 o.flags);
	o = eval(m, p2p(1, 1, 1500, 0, 0));
	ta_check(isnan(o.t_ns[CP_MODEL_TAULOP]),
		 "tau-Lop: no message to oneself");
}

/* Cache lines of a block (analysis/cp_log3p_eval.c). */
static double lines_of(double b)
{
	return b < 64 ? 1 : b / 64 + 1;
}

/* l_mw of the file's block column i, gap column j at size s: linear
 * between the table's two sizes, its value held below them, its
 * per-byte cost above. */
static double column_at(int i, int j, double s)
{
	if (s <= L3S[0])
		return LMW[0][i][j];
	if (s >= L3S[1])
		return LMW[1][i][j] * s / L3S[1];
	return LMW[0][i][j] + (LMW[1][i][j] - LMW[0][i][j]) *
	       (s - L3S[0]) / (L3S[1] - L3S[0]);
}

/* l_mw of the file for s bytes in blocks of b with gaps g (between the
 * table's): per-block costs linear in b and in log2 g, each block
 * column read at the size where its blocks touch as many cache lines
 * as the message's. */
static double lmw_at(double s, double b, double g)
{
	double wb = (b - L3B[0]) / (L3B[1] - L3B[0]);
	double wg = log2(g / L3G[0]) / log2(L3G[1] / L3G[0]), p = 0, sk;
	int i, j;

	for (i = 0; i < 2; i++) {
		sk = s / b * lines_of(b) / lines_of(L3B[i]) * L3B[i];
		for (j = 0; j < 2; j++)
			p += (i ? wb : 1 - wb) * (j ? wg : 1 - wg) *
			     column_at(i, j, sk) * L3B[i] / sk;
	}
	return p * s / b;
}

static void check_p2p(const struct cp_pred *m)
{
	struct cp_pred_out o = eval(m, p2p(0, 2, 1500, 0, 0));
	double M = 1500, want;

	want = lmo_msg(0, 2, M);
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], want * 1e9, TOL),
		 "LMO 0->2 1500 B (regime 0): %.6f ns = %.6f",
		 o.t_ns[CP_MODEL_LMO], want * 1e9);
	o = eval(m, p2p(2, 1, 50000, 0, 0));
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], lmo_msg(2, 1, 50000) * 1e9,
			 TOL),
		 "LMO 2->1 50000 B (regime 1): %.6f ns = %.6f",
		 o.t_ns[CP_MODEL_LMO], lmo_msg(2, 1, 50000) * 1e9);
	o = eval(m, p2p(0, 1, BOUND - 1, 0, 0));
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], lmo_msg(0, 1, BOUND - 1) * 1e9,
			 TOL) && reg_of(BOUND - 1) == 0,
		 "LMO 4095 B: still regime 0");
	o = eval(m, p2p(0, 1, 1500, 0, 0));
	/* log3P, contiguous: o_mw + o_net, linear between 1000 and 2000 */
	want = (5e-7 + 0.5 * (7e-7 - 5e-7)) + (1e-6 + 0.5 * (3e-6 - 1e-6));
	ta_check(ta_near(o.t_ns[CP_MODEL_LOG3P], want * 1e9, TOL),
		 "log3P contiguous 1500 B: %.3f ns = %.3f",
		 o.t_ns[CP_MODEL_LOG3P], want * 1e9);
	ta_check(o.lmw_ns == 0, "contiguous l_mw is 0 (%g)", o.lmw_ns);
	want = 2e-6 + 1e-9 * M;
	ta_check(ta_near(o.t_ns[CP_MODEL_HOCKNEY], want * 1e9, TOL),
		 "Hockney 1500 B: %.3f ns", o.t_ns[CP_MODEL_HOCKNEY]);
	want = 1e-6 + 2 * 5e-7 + (M - 1) * 2e-9;
	ta_check(ta_near(o.t_ns[CP_MODEL_LOGGP], want * 1e9, TOL),
		 "LogGP 1500 B: %.3f ns", o.t_ns[CP_MODEL_LOGGP]);
	want = 1.5e-6 + 1.1e-6 + 0.25 * (4.1e-6 - 1.1e-6);
	ta_check(ta_near(o.t_ns[CP_MODEL_PLOGP], want * 1e9, TOL),
		 "PLogP 1500 B: %.3f ns", o.t_ns[CP_MODEL_PLOGP]);
	/* ranks 0 and 1 share host a, one leaf of PlogPT's tree */
	ta_check(o.flags == (CP_PF_ON | CP_PF_PT_NOLEAF),
		 "flags: ON, and PlogPT's one leaf (%#x)", o.flags);

	/* strided, one double every 16 B at a table size: l_mw = 2 us, the
	 * largest term */
	o = eval(m, p2p(1, 0, 1000, 16, 8));
	want = 5e-7 + 2e-6 + 1e-6;
	ta_check(ta_near(o.t_ns[CP_MODEL_LOG3P], want * 1e9, TOL) &&
		 ta_near(o.lmw_ns, 2e-6 * 1e9, TOL),
		 "log3P strided 1000 B d 16 b 8: %.3f ns, l_mw %.3f",
		 o.t_ns[CP_MODEL_LOG3P], o.lmw_ns);
	ta_check((o.flags & CP_PF_L3_LMW_LARGEST) && (o.flags & CP_PF_L3_MW_DOM),
		 "l_mw largest and middleware dominated (%#x)", o.flags);
	/* a gap between 8 and 56 (d 32): per-block cost linear in log2 g */
	o = eval(m, p2p(1, 0, 1000, 32, 8));
	want = 5e-7 + lmw_at(L3S[0], 8, 24) + 1e-6;
	ta_check(ta_near(o.t_ns[CP_MODEL_LOG3P], want * 1e9, TOL),
		 "log3P gap 24 between 8 and 56 in log2: %.3f ns = %.3f",
		 o.t_ns[CP_MODEL_LOG3P], want * 1e9);
	/* 40-B blocks (between 8 and 64) with gaps of 20: linear in b,
	 * the 8-B column read at their 50 blocks (400 B, below the table:
	 * its value held, the size flagged), the 64-B column at 25 (1600
	 * B: two lines a block) */
	o = eval(m, p2p(1, 0, 2000, 60, 40));
	want = 7e-7 + lmw_at(L3S[1], 40, 20) + 3e-6;
	ta_check(ta_near(o.t_ns[CP_MODEL_LOG3P], want * 1e9, TOL) &&
		 !(o.flags & CP_PF_L3_BLOCK) &&
		 (o.flags & CP_PF_L3_EXTRAP_SIZE) &&
		 !(o.flags & CP_PF_L3_EXTRAP_STRIDE),
		 "log3P 40-B blocks, gap 20: %.3f ns = %.3f, size flagged "
		 "(%#x)", o.t_ns[CP_MODEL_LOG3P], want * 1e9, o.flags);
	o = eval(m, p2p(1, 0, 2000, 200, 128));
	ta_check(!isnan(o.t_ns[CP_MODEL_LOG3P]) &&
		 (o.flags & CP_PF_L3_EXTRAP_STRIDE),
		 "128-B blocks above the table: priced, flagged (%#x)",
		 o.flags);
	o = eval(m, p2p(1, 0, 1000, -1, -1));
	ta_check(isnan(o.t_ns[CP_MODEL_LOG3P]) &&
		 !isnan(o.t_ns[CP_MODEL_HOCKNEY]),
		 "irregular layout: log3P NULL, Hockney priced");
	/* to oneself: log3P's send to self, nobody else */
	o = eval(m, p2p(2, 2, 1000, 16, 8));
	want = 5e-7 + 2e-6 + 1e-7;
	ta_check(ta_near(o.t_ns[CP_MODEL_LOG3P], want * 1e9, TOL) &&
		 isnan(o.t_ns[CP_MODEL_LMO]) &&
		 isnan(o.t_ns[CP_MODEL_HOCKNEY]) &&
		 (o.flags & CP_PF_SELF),
		 "self: o_mw + l_mw + T_mem only (%.3f ns)",
		 o.t_ns[CP_MODEL_LOG3P]);
	o = eval(m, p2p(0, 7, 1000, 0, 0));
	ta_check(isnan(o.t_ns[CP_MODEL_LMO]) &&
		 isnan(o.t_ns[CP_MODEL_HOCKNEY]) &&
		 isnan(o.t_ns[CP_MODEL_TAULOP]),
		 "peer outside the job: nothing predicted");
	check_taulop_p2p(m);
}

/* A collective of kind k on the 3 ranks, mb bytes of MPI_BYTE. */
static struct cp_pred_in coll(enum cp_pred_kind k, int root, double mb)
{
	int op = k == CP_PK_BCAST ? CP_COLL_BCAST :
		 k == CP_PK_SCATTER ? CP_COLL_SCATTER :
		 k == CP_PK_GATHER ? CP_COLL_GATHER : -1;

	return (struct cp_pred_in){ .kind = k, .root = root, .nmembers = 3,
		.bytes = mb, .stride_bytes = 0, .block_bytes = 0,
		.coll_op = op, .count = mb };
}

/* C_q + t_q*M + M/beta_rq of the regime of M. */
static double term(int r, int q, double mb)
{
	int k = reg_of(mb);

	return C[k][q] + t[k][q] * mb + mb * ib(k, r, q);
}

static double root_share(int r, double mb)
{
	return C[reg_of(mb)][r] + t[reg_of(mb)][r] * mb;
}

static void check_coll(const struct cp_pred *m)
{
	double M, want;
	struct cp_pred_out o;

	/* scatter from 0, M <= S: parallel (max) */
	M = 3000;
	o = eval(m, coll(CP_PK_SCATTER, 0, M));
	want = 2 * root_share(0, M) + fmax(term(0, 1, M), term(0, 2, M));
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], want * 1e9, TOL),
		 "LMO scatter 3000 B <= S: %.3f ns = %.3f",
		 o.t_ns[CP_MODEL_LMO], want * 1e9);
	M = 6000;
	o = eval(m, coll(CP_PK_SCATTER, 0, M));
	want = 2 * root_share(0, M) + term(0, 1, M) + term(0, 2, M);
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], want * 1e9, TOL),
		 "LMO scatter 6000 B > S (regime 1): serialised, %.3f ns",
		 o.t_ns[CP_MODEL_LMO]);
	ta_check(isnan(o.t_ns[CP_MODEL_LOG3P]) && isnan(o.t_ns[CP_MODEL_PLOGP]),
		 "scatter: log3P and PLogP invent none");
	/* gather to 1: small, escalation zone, large (kappa: NT0 variant) */
	M = 1000;
	o = eval(m, coll(CP_PK_GATHER, 1, M));
	want = 2 * root_share(1, M) + fmax(term(1, 0, M), term(1, 2, M)) +
	       2e-10 * M;
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], want * 1e9, TOL),
		 "LMO gather 1000 B < M1: %.3f ns", o.t_ns[CP_MODEL_LMO]);
	o = eval(m, coll(CP_PK_GATHER, 1, 10000));
	ta_check(isnan(o.t_ns[CP_MODEL_LMO]) && (o.flags & CP_PF_LMO_ESCAL),
		 "LMO gather between M1 and M2: not predicted, flagged");
	M = 100000;
	o = eval(m, coll(CP_PK_GATHER, 1, M));
	want = 2 * root_share(1, M) + term(1, 0, M) + term(1, 2, M) +
	       4e-10 * M;
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], want * 1e9, TOL),
		 "LMO gather 100000 B >= M2: %.3f ns", o.t_ns[CP_MODEL_LMO]);
	/* broadcast on 3: trees of height 2 */
	M = 2000;
	o = eval(m, coll(CP_PK_BCAST, 0, M));
	want = 2 * (7e-7 + 0 + 3e-6);
	ta_check(ta_near(o.t_ns[CP_MODEL_LOG3P], want * 1e9, TOL),
		 "log3P tree bcast P=3: %.3f ns", o.t_ns[CP_MODEL_LOG3P]);
	/* Open MPI's linear bcast on 3 (2000 B): the root sends both at
	 * once; the baselines pay its two sends one after the other */
	want = 2 * (1e-6 + 2 * 5e-7 + (M - 1) * 2e-9);
	ta_check(ta_near(o.t_ns[CP_MODEL_LOGGP], want * 1e9, TOL),
		 "LogGP over the linear bcast P=3: %.3f ns",
		 o.t_ns[CP_MODEL_LOGGP]);
	want = 2 * (2e-6 + 1e-9 * M);
	ta_check(ta_near(o.t_ns[CP_MODEL_HOCKNEY], want * 1e9, TOL),
		 "Hockney over the linear bcast P=3: %.3f ns",
		 o.t_ns[CP_MODEL_HOCKNEY]);
	/* tau-Lop: rank 1 through shared memory, rank 2 (host b) through
	 * the network, channels apart (A3): the slower one */
	want = fmax(3e-7 + 2 * 3e-6, 2e-6 + 4e-5);
	ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL) &&
		 !(o.flags & (CP_PF_TL_EXTRAP | CP_PF_COLL_NOALG)),
		 "tau-Lop linear bcast P=3 over two hosts: max(o0 + 2 L0, "
		 "o1 + L1) = %.3f ns (want %.3f)", o.t_ns[CP_MODEL_TAULOP],
		 want * 1e9);
	ta_check(isnan(o.t_ns[CP_MODEL_LMO]) && isnan(o.t_ns[CP_MODEL_PLOGP]),
		 "bcast: LMO, PLogP not predicted");
	o = eval(m, coll(CP_PK_NONE, 0, M));
	ta_check(isnan(o.t_ns[0]) && isnan(o.t_ns[1]) && isnan(o.t_ns[2]) &&
		 isnan(o.t_ns[3]) && isnan(o.t_ns[4]) && isnan(o.t_ns[5]),
		 "an uncovered operation gets no prediction");
}

static double tsum(int k, int i, int j)
{
	return t[k][i] + t[k][j] + ib(k, i, j);
}

static void check_fallbacks(void)
{
	const char *hosts_same[3] = { "a", "a", "b" };
	const char *hosts_other[3] = { "a", "c", "b" };
	struct cp_params *p = load();
	struct cp_pred *m;
	struct cp_pred_out o;
	unsigned models;
	bool differs;
	char note[256];
	double M = 1000, want;

	if (cp_pred_build(p, 2, NULL, &m, &models, &differs, note, sizeof(note)))
		exit(1);
	o = eval(m, p2p(0, 1, M, 0, 0));
	want = (C[0][0] + C[0][1] + C[0][0] + C[0][2] + C[0][1] + C[0][2]) / 3 +
	       M * (tsum(0, 0, 1) + tsum(0, 0, 2) + tsum(0, 1, 2)) / 3;
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], want * 1e9, TOL) &&
		 (o.flags & CP_PF_AVERAGED),
		 "2-rank job of a 3-rank file: averaged LMO %.3f ns = %.3f",
		 o.t_ns[CP_MODEL_LMO], want * 1e9);
	ta_check(differs && strstr(note, "calibrated on 3 ranks, the job "
				       "has 2") && strstr(note, "averaged"),
		 "job differs; note: %s", note);
	cp_pred_free(m);

	if (cp_pred_build(p, 3, hosts_other, &m, &models, &differs, note, sizeof(note)))
		exit(1);
	o = eval(m, p2p(0, 2, M, 0, 0));
	ta_check((o.flags & CP_PF_AVERAGED) && differs,
		 "other hosts: averaged (%s)", note);
	cp_pred_free(m);
	if (cp_pred_build(p, 3, hosts_same, &m, &models, &differs, note, sizeof(note)))
		exit(1);
	o = eval(m, p2p(0, 2, M, 0, 0));
	ta_check(!(o.flags & CP_PF_AVERAGED) && !differs &&
		 models == (1u << CP_NMODELS) - 1,
		 "same hosts: as calibrated, all %d models (%s)", CP_NMODELS,
		 note);
	ta_check(!note[0], "as calibrated: no note (%s)", note);
	cp_pred_free(m);
	cp_params_free(p);

	p = load_edit("lmo.S", "lmo.S 5000 lo 5000 hi 5000 n 0\n"
		      "assume unsteady\n"
		      "calib.gauge 5e-05 lo 4e-05 hi 0.000136 n 4");
	if (cp_pred_build(p, 3, hosts_same, &m, &models, &differs, note,
			  sizeof(note)))
		exit(1);
	ta_check(!differs && models == (1u << CP_NMODELS) - 1 &&
		 strstr(note, "the host changed speed by 3.40x while "
			"calibrated (assume unsteady)"),
		 "unsteady calibration: every model, and the note says so "
		 "(%s)", note);
	cp_pred_free(m);
	cp_params_free(p);

	p = load_edit("lmo.tsum 0 0 2", "fail lmo.tsum 0 0 2 : test");
	if (cp_pred_build(p, 3, hosts_same, &m, &models, &differs, note, sizeof(note)))
		exit(1);
	o = eval(m, p2p(0, 2, M, 0, 0));
	want = C[0][0] + C[0][2] + M * (tsum(0, 0, 1) + tsum(0, 1, 2)) / 2;
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], want * 1e9, TOL) &&
		 (o.flags & CP_PF_AVERAGED),
		 "failed sum of link 0-2: the average of the other links (%s)",
		 note);
	o = eval(m, p2p(0, 1, M, 0, 0));
	ta_check(!(o.flags & CP_PF_AVERAGED) && !differs,
		 "link 0-1 keeps its estimate; the job is the calibrated one");
	o = eval(m, p2p(0, 2, 10000, 0, 0));
	ta_check(ta_near(o.t_ns[CP_MODEL_LMO], lmo_msg(0, 2, 10000) * 1e9,
			 TOL),
		 "link 0-2 in regime 1 keeps its own sums");
	cp_pred_free(m);
	cp_params_free(p);
}

/* A failed contiguous log3P entry is a hole: calls that interpolate
 * through it get nothing, the others keep their values; a failed
 * strided cell is bridged by its column. */
static void check_hole(void)
{
	struct cp_params *p = load_edit("log3p.o_net 2000",
					"fail log3p.o_net 2000 : negative");
	const char *hosts[3] = { "a", "a", "b" };
	struct cp_pred_out o, o2;
	struct cp_pred *m;
	unsigned models;
	bool differs;
	char note[256];

	if (cp_pred_build(p, 3, hosts, &m, &models, &differs, note,
			  sizeof(note)))
		exit(1);
	o = eval(m, p2p(1, 0, 1000, 16, 8));
	o2 = eval(m, p2p(1, 0, 1500, 64, 8));
	ta_check(ta_near(o.t_ns[CP_MODEL_LOG3P], 3500, TOL) &&
		 isnan(o2.t_ns[CP_MODEL_LOG3P]) &&
		 !isnan(o2.t_ns[CP_MODEL_HOCKNEY]) &&
		 (models & (1u << CP_MODEL_LOG3P)) &&
		 strstr(note, "log3P: 1 failed table entries"),
		 "failed o_net(2000): 1500 B NULL, 1000 B %.3f ns; %s",
		 o.t_ns[CP_MODEL_LOG3P], note);
	cp_pred_free(m);
	cp_params_free(p);
	p = load_edit("log3p.l_mw 2000 8 8", "fail log3p.l_mw 2000 8 8 : x");
	if (cp_pred_build(p, 3, hosts, &m, &models, &differs, note,
			  sizeof(note)))
		exit(1);
	o = eval(m, p2p(1, 0, 2000, 16, 8));
	ta_check(ta_near(o.lmw_ns, LMW[0][0][0] * 2 * 1e9, TOL) &&
		 (o.flags & CP_PF_L3_EXTRAP_SIZE),
		 "failed l_mw(2000, 8, 8): its column's per-byte cost from "
		 "1000 B (%.1f ns), flagged", o.lmw_ns);
	cp_pred_free(m);
	cp_params_free(p);
}

/* v as the fitting side holds an estimate: failed unless CP_PV_OK. */
static void est_of(struct cp_est *e, const struct cp_pval *v)
{
	memset(e, 0, sizeof(*e));
	e->val = v->val;
	e->fail = v->state == CP_PV_OK ? NULL : "failed in the file";
}

/* The LMO parameters of p as the calibrator held them before writing
 * the file: per regime the estimates of analysis/cp_lmo.h, and the
 * thresholds. */
static void lmo_of(const struct cp_params *p, struct cp_lmo *m,
		   struct cp_lmo_thresh *th)
{
	int n = p->nranks, i, j, v, k, q;
	size_t a;

	for (k = 0; k < p->lmo_nreg; k++) {
		if (cp_lmo_alloc(&m[k], n))
			exit(1);
		m[k].first_bytes = p->lmo_first_bytes[k];
		for (i = 0; i < n; i++) {
			est_of(&m[k].c_s[i], &p->lmo_c_s[k * n + i]);
			est_of(&m[k].t_spb[i], &p->lmo_t_spb[k * n + i]);
			for (j = i + 1; j < n; j++) {
				q = cp_lmo_pair_idx(n, i, j);
				a = ((size_t)k * n + i) * n + j;
				est_of(&m[k].csum_s[q], &p->lmo_csum_s[a]);
				est_of(&m[k].tsum_spb[q], &p->lmo_tsum_spb[a]);
			}
		}
	}
	cp_lmo_thresh_init(th);
	th->s_bytes = p->lmo_s_bytes.val;
	th->m1_bytes = p->lmo_m1_bytes.val;
	th->m2_bytes = p->lmo_m2_bytes.val;
	for (v = 0; v < 2; v++) {
		est_of(&th->kappa1_spb[v], &p->lmo_kappa1_spb[v]);
		est_of(&th->kappa2_spb[v], &p->lmo_kappa2_spb[v]);
	}
}

/*
 * The log3P tables of p as the fitting side derives them: one-way times
 * synthesized from the file's terms (T_00 = o_mw + T_mem, T_01 = o_mw +
 * o_net, T_01(s,b,g) = T_01 + l_mw), then cp_log3p_derive.
 */
static void log3p_of(const struct cp_params *p, struct cp_log3p *l3)
{
	int ns = p->l3_nsizes, i, c, nc = p->l3_nblocks * p->l3_ngaps;
	double *tm = calloc((size_t)ns, sizeof(double));
	double *t00 = calloc((size_t)ns, sizeof(double));
	double *t01 = calloc((size_t)ns, sizeof(double));
	double *sd = calloc((size_t)(p->l3_nssizes * nc), sizeof(double));
	struct cp_log3p_meas in = { ns, p->l3_size_bytes, tm, t00, t01,
		p->l3_nssizes, p->l3_nblocks, p->l3_ngaps, p->l3_ssize_bytes,
		p->l3_block_bytes, p->l3_gap_bytes, sd };

	if (!tm || !t00 || !t01 || !sd)
		exit(1);
	for (i = 0; i < ns; i++) {
		tm[i] = p->l3_t_mem_s[i].val;
		t00[i] = p->l3_o_mw_s[i].val + tm[i];
		t01[i] = p->l3_o_mw_s[i].val + p->l3_o_net_s[i].val;
	}
	/* the strided sizes are the contiguous ones here */
	for (i = 0; i < p->l3_nssizes; i++)
		for (c = 0; c < nc; c++)
			sd[i * nc + c] = t01[i] + p->l3_l_mw_s[i * nc + c].val;
	if (cp_log3p_derive(&in, l3) || l3->nneg)
		exit(1);
	free(tm);
	free(t00);
	free(t01);
	free(sd);
}

/* Every model of p as the fitting side holds it. */
struct fit {
	int nreg;
	double first[2];
	struct cp_lmo lmo[2];
	struct cp_lmo_thresh th;
	struct cp_log3p l3;
	struct cp_hockney hock;
	struct cp_loggp lg;
	struct cp_plogp pl;
	struct cp_taulop tl;
	double *tl_buf[CP_TL_NCHAN][2];	/* o, L of each channel */
	struct cp_plogpt_net pt;
	double pt_g[8];
};

/* Ranks 0 and 1 on host a, 2 on host b, as in the file. */
static const int32_t host_idx[3] = { 0, 0, 1 };

/* tau-Lop's tables as the calibrator's fit held them: the file's values
 * (a failed one NAN), sizes and taus as declared. */
static void tl_of(const struct cp_params *p, struct fit *f)
{
	int c, i;

	f->tl.red_spb = p->tl->red_spb.val;
	f->tl.page_s = p->tl->page_s.state == CP_PV_OK ? p->tl->page_s.val :
		       NAN;
	/* tl.heap zero: glibc's defaults, as cp_pred_build leaves them */
	for (c = 0; c < CP_TL_NCHAN; c++) {
		const struct cp_tl_chan_params *pc = &p->tl->ch[c];
		int nl = pc->nsizes * pc->ntau;

		f->tl_buf[c][0] = malloc(sizeof(double) * (pc->nsizes + 1));
		f->tl_buf[c][1] = malloc(sizeof(double) * (nl + 1));
		if (!f->tl_buf[c][0] || !f->tl_buf[c][1])
			exit(1);
		for (i = 0; i < pc->nsizes; i++)
			f->tl_buf[c][0][i] = pc->o_s[i].state == CP_PV_OK ?
					     pc->o_s[i].val : NAN;
		for (i = 0; i < nl; i++)
			f->tl_buf[c][1][i] = pc->l_s[i].state == CP_PV_OK ?
					     pc->l_s[i].val : NAN;
		/* the file has no Lw, Ls or gap table */
		f->tl.ch[c] = (struct cp_taulop_chan){
			.nsizes = pc->nsizes, .ntau = pc->ntau,
			.hops = c ? 1 : 2, .size_bytes = pc->size_bytes,
			.tau = pc->tau, .o_s = f->tl_buf[c][0],
			.l_s = f->tl_buf[c][1] };
	}
}

static void fit_of(const struct cp_params *p, struct fit *f)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->nreg = p->lmo_nreg;
	memcpy(f->first, p->lmo_first_bytes, sizeof(f->first));
	lmo_of(p, f->lmo, &f->th);
	log3p_of(p, &f->l3);
	est_of(&f->hock.alpha_s, &p->hockney_alpha_s);
	est_of(&f->hock.beta_spb, &p->hockney_beta_spb);
	est_of(&f->lg.l_s, &p->loggp_l_s);
	est_of(&f->lg.o_s, &p->loggp_o_s);
	est_of(&f->lg.g_s, &p->loggp_g_s);
	est_of(&f->lg.gb_spb, &p->loggp_gb_spb);
	f->pl.l_s = p->plogp_l_s.val;
	f->pl.n = p->plogp_n;
	f->pl.size_bytes = malloc(p->plogp_n * sizeof(double));
	f->pl.g_s = malloc(p->plogp_n * sizeof(double));
	if (!f->pl.size_bytes || !f->pl.g_s)
		exit(1);
	for (i = 0; i < p->plogp_n; i++) {
		f->pl.size_bytes[i] = p->plogp_size_bytes[i];
		f->pl.g_s[i] = p->plogp_g_s[i].val;
	}
	tl_of(p, f);
	f->pt = (struct cp_plogpt_net){ .height = p->pt->height,
		.l_s = p->pt->l_s.val, .g_bytes = p->pt->size_bytes,
		.g_s = f->pt_g, .g_n = p->pt->nsizes };
	for (i = 0; i < p->pt->nsizes && i < 8; i++)
		f->pt_g[i] = p->pt->g_s[i].val;
	f->pt.b_bps[1] = p->pt->b_bps[1].val;
	f->pt.d_s[1] = p->pt->d_s[1].val;
}

static void fit_free(struct fit *f)
{
	int c;

	cp_lmo_free(&f->lmo[0]);
	cp_lmo_free(&f->lmo[1]);
	cp_log3p_free(&f->l3);
	cp_plogp_free(&f->pl);
	for (c = 0; c < CP_TL_NCHAN; c++) {
		free(f->tl_buf[c][0]);
		free(f->tl_buf[c][1]);
	}
}

/* tau-Lop and the baselines over the rounds of the algorithm Open MPI
 * runs for the collective in (the file's parameters). */
static void fit_sched(const struct fit *f, const struct cp_pred_in *in,
		      double *t)
{
	struct cp_coll_call c = { (enum cp_coll_op)in->coll_op, in->nmembers,
				  in->root < 0 ? 0 : in->root,
				  (int64_t)in->count, 1, true, NULL };
	struct cp_coll_place pl = { NULL, host_idx };
	int alg;
	double x;

	if (c.op == CP_COLL_ALLGATHERV || c.op == CP_COLL_REDUCE_SCATTER) {
		if (!in->counts || in->ncounts != in->nmembers || !c.count)
			return;
		c.counts = in->counts;
	}
	alg = cp_coll_decide(&c, NULL);
	if (alg < 0)
		return;
	if (!cp_taulop_coll(&f->tl, &c, alg, NULL, &pl, NULL, &x, NULL))
		t[CP_MODEL_TAULOP] = x;
	if (!cp_coll_baseline(CP_COLL_HOCKNEY, f->hock.alpha_s.val,
			      f->hock.beta_spb.val, 0, &c, alg, NULL, &x))
		t[CP_MODEL_HOCKNEY] = x;
	if (!cp_coll_baseline(CP_COLL_LOGGP, f->lg.l_s.val, f->lg.o_s.val,
			      f->lg.gb_spb.val, &c, alg, NULL, &x))
		t[CP_MODEL_LOGGP] = x;
}

/* The fitting side's prediction of call in by every model that covers
 * it (cp_predict.h: what each model covers), in seconds; NAN where none
 * or where the fitting side returns an error. */
static void fit_eval(const struct fit *f, const struct cp_pred_in *in,
		     double *t)
{
	const struct cp_lmo *lmo = &f->lmo[cp_lmo_regime_of(f->first, f->nreg,
							      in->bytes)];
	struct cp_log3p_pred lp;
	int peers[3], k = 0, i;
	double x;

	for (i = 0; i < CP_NMODELS; i++)
		t[i] = NAN;
	for (i = 0; i < in->nmembers; i++)
		if (i != in->root)
			peers[k++] = i;
	switch (in->kind) {
	case CP_PK_P2P:
		if (!cp_lmo_predict_p2p(lmo, in->src, in->dst, in->bytes, &x))
			t[CP_MODEL_LMO] = x;
		if (!cp_log3p_eval(&f->l3, in->bytes, in->stride_bytes,
				   in->block_bytes, &lp))
			t[CP_MODEL_LOG3P] = lp.t_s;
		t[CP_MODEL_HOCKNEY] = cp_hockney_predict(&f->hock, in->bytes);
		t[CP_MODEL_LOGGP] = cp_loggp_predict(&f->lg, in->bytes);
		if (!cp_plogp_predict(&f->pl, in->bytes, &x, NULL))
			t[CP_MODEL_PLOGP] = x;
		t[CP_MODEL_TAULOP] = cp_taulop_p2p(&f->tl,
			host_idx[in->src] == host_idx[in->dst] ? CP_TL_SHM :
			CP_TL_NET, in->bytes, in->tau, in->gap_s, NULL);
		if (in->src == in->dst)
			t[CP_MODEL_TAULOP] = NAN;
		/* host_idx is each rank's leaf: a and b */
		if (host_idx[in->src] != host_idx[in->dst] &&
		    !cp_plogpt_p2p(&f->pt, 1, in->bytes, &x, NULL))
			t[CP_MODEL_PLOGPT] = x;
		break;
	case CP_PK_BCAST:
		if (!cp_log3p_eval(&f->l3, in->bytes, in->stride_bytes,
				   in->block_bytes, &lp) &&
		    !cp_log3p_eval_bcast_tree(&lp, in->nmembers, &x))
			t[CP_MODEL_LOG3P] = x;
		break;
	case CP_PK_SCATTER:
		if (!cp_lmo_predict_scatter(lmo, &f->th, in->root, peers, k,
					    in->bytes, &x))
			t[CP_MODEL_LMO] = x;
		break;
	case CP_PK_GATHER:
		if (!cp_lmo_predict_gather(lmo, &f->th, CP_LMO_KAPPA_NT0,
					   in->root, peers, k, in->bytes, &x))
			t[CP_MODEL_LMO] = x;
		break;
	case CP_PK_COLL:
	case CP_PK_NONE:
		break;
	}
	if (in->kind != CP_PK_P2P && in->coll_op >= 0)
		fit_sched(f, in, t);
}

/* Calls compared per model, and the first that disagreed. */
struct parity {
	int n[CP_NMODELS];		/* both sides a number */
	int bad[CP_NMODELS];		/* values or NANs differ */
	char first[CP_NMODELS][160];	/* the first that differed */
};

static void parity_call(const struct cp_pred *m, const struct fit *f,
			struct cp_pred_in in, struct parity *r)
{
	struct cp_pred_out o = eval(m, in);
	double want[CP_NMODELS], got;
	int k;

	fit_eval(f, &in, want);
	for (k = 0; k < CP_NMODELS; k++) {
		got = o.t_ns[k] / 1e9;
		if (isnan(got) && isnan(want[k]))
			continue;
		if (!isnan(got) && !isnan(want[k]) &&
		    ta_near(got, want[k], TOL)) {
			r->n[k]++;
			continue;
		}
		if (!r->bad[k]++)
			snprintf(r->first[k], sizeof(r->first[k]),
				 "kind %d %d->%d root %d %.0f B stride %.0f: "
				 "runtime %.9g s, fitting side %.9g s",
				 (int)in.kind, in.src, in.dst, in.root, in.bytes,
				 in.stride_bytes, got, want[k]);
	}
}

/* Each model of a kind of call: every call of the grid priced the same
 * by both sides, and at least one priced at all when the model covers
 * the kind (covers: bit per CP_MODEL_*). */
static void parity_report(const char *kind, const struct parity *r,
			  unsigned covers)
{
	int k;

	for (k = 0; k < CP_NMODELS; k++) {
		bool want = covers & (1u << k);

		ta_check(!r->bad[k] && (want ? r->n[k] > 0 : r->n[k] == 0),
			 "parity %s %s: %d calls, runtime = fitting side%s%s",
			 kind, cp_model_name(k), r->n[k], r->bad[k] ? "; " : "",
			 r->bad[k] ? r->first[k] : "");
	}
}

#define NSIZES(a) (sizeof(a) / sizeof((a)[0]))

static const double grid_sizes[] = { 0, 1, 500, 1000, 1500, 2000, 2999,
				     3000, 4000, 4095, 4096, 5000, 6000, 10000,
				     64000, 100000 };

/* Collectives of kind from every root at every size of the grid. */
static void parity_coll(const struct cp_pred *m, const struct fit *f,
			enum cp_pred_kind kind, const char *name,
			unsigned covers)
{
	struct parity r;
	size_t is;
	int i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < 3; i++)
		for (is = 0; is < NSIZES(grid_sizes); is++)
			parity_call(m, f, coll(kind, i, grid_sizes[is]), &r);
	parity_report(name, &r, covers);
}

/* The models priced over a collective's rounds. */
#define SCHED_MODELS (1u << CP_MODEL_TAULOP | 1u << CP_MODEL_HOCKNEY | \
		      1u << CP_MODEL_LOGGP)

/* Every operation of analysis/cp_coll.h, as CP_PK_COLL, from every root
 * at every size of the grid, concurrent sends too. */
static void parity_ops(const struct cp_pred *m, const struct fit *f)
{
	struct parity r;
	struct cp_pred_in in;
	int64_t vc[3];
	char name[64];
	size_t is;
	int op, i;

	for (op = 0; op < CP_COLL_NOPS; op++) {
		memset(&r, 0, sizeof(r));
		for (i = 0; i < 3; i++)
			for (is = 0; is < NSIZES(grid_sizes); is++) {
				in = coll(CP_PK_COLL, i, grid_sizes[is]);
				in.coll_op = op;
				if (op == CP_COLL_BARRIER)
					in.count = in.bytes = 0;
				/* blocks of their own: this rank's, twice
				 * and half of it */
				vc[0] = (int64_t)in.count;
				vc[1] = 2 * vc[0] + 1;
				vc[2] = vc[0] / 2;
				in.counts = vc;
				in.ncounts = 3;
				parity_call(m, f, in, &r);
			}
		snprintf(name, sizeof(name), "%s", cp_coll_op_name(op));
		parity_report(name, &r, SCHED_MODELS);
	}
	memset(&r, 0, sizeof(r));
	for (i = 1; i <= 8; i *= 2)
		for (is = 0; is < NSIZES(grid_sizes); is++) {
			in = p2p(1, 2, grid_sizes[is], 0, 0);
			in.tau = i;
			parity_call(m, f, in, &r);
			in = p2p(0, 1, grid_sizes[is], 0, 0);
			in.tau = i;
			parity_call(m, f, in, &r);
		}
	parity_report("p2p with tau 1..8", &r, (1u << CP_NMODELS) - 1);
}

/*
 * Every model, online against the fitting side, over a grid: messages
 * between every pair at sizes on, between and beyond the tables, LMO's
 * regimes and the thresholds, contiguous and strided (blocks and gaps
 * on, between and beyond log3P's); broadcasts, scatters and gathers
 * from every root at sizes in every range of S, M1 and M2.
 */
static void check_parity(const struct cp_pred *m, const struct cp_params *p)
{
	static const double strides[] = { 0, 16, 24, 64, 120, 256, 4096 };
	static const double blocks[] = { 8, 16, 40, 64, 100 };
	struct parity r;
	struct fit f;
	size_t is, id, ib;
	int i, j;

	fit_of(p, &f);
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			for (is = 0; i != j && is < NSIZES(grid_sizes); is++)
				for (id = 0; id < NSIZES(strides); id++)
					for (ib = 0; ib < NSIZES(blocks); ib++)
						parity_call(m, &f, p2p(i, j,
							grid_sizes[is],
							strides[id],
							blocks[ib]), &r);
	parity_report("p2p", &r, (1u << CP_NMODELS) - 1);
	parity_coll(m, &f, CP_PK_BCAST, "bcast", 1u << CP_MODEL_LOG3P |
		    SCHED_MODELS);
	parity_coll(m, &f, CP_PK_SCATTER, "scatter", 1u << CP_MODEL_LMO |
		    SCHED_MODELS);
	parity_coll(m, &f, CP_PK_GATHER, "gather", 1u << CP_MODEL_LMO |
		    SCHED_MODELS);
	parity_ops(m, &f);
	fit_free(&f);
}

/* What the runtime made of an LMO gather: 0 a value, else the code the
 * fitting side gives for the same reason. */
static int online_code(const struct cp_pred_out *o)
{
	if (!isnan(o->t_ns[CP_MODEL_LMO]))
		return 0;
	if (o->flags & CP_PF_LMO_ESCAL)
		return -CP_ENOPRED;
	if (o->flags & CP_PF_LMO_FAILED)
		return -CP_ENUM;
	return -CP_EINVAL;
}

/*
 * A gather with kappa1 failed: below M1 it is a failed estimate, online
 * and offline, and the escalation range stays M1 <= M < M2 only.  Every
 * size of the row must get the same verdict from the runtime
 * (cp_pred_eval) and the fitting side (cp_lmo_predict_gather), and the
 * same value where both predict.
 */
static void check_kappa_failed(void)
{
	struct cp_params *p = load_edit("lmo.kappa1 1",
					"fail lmo.kappa1 1 : negative estimate");
	static const double sizes[] = { 0, 1000, 3999, 4000, 10000, 63999,
					64000, 100000 };
	static const int want[] = { -CP_ENUM, -CP_ENUM, -CP_ENUM,
				    -CP_ENOPRED, -CP_ENOPRED, -CP_ENOPRED,
				    0, 0 };
	const char *hosts[3] = { "a", "a", "b" };
	const int peers[2] = { 0, 2 };
	struct cp_lmo_thresh th;
	struct cp_pred_out o;
	struct cp_pred *m;
	struct cp_lmo lmo[2];
	unsigned models;
	bool differs;
	char note[256];
	double x;
	size_t i;
	int rc;

	if (cp_pred_build(p, 3, hosts, &m, &models, &differs, note,
			  sizeof(note)))
		exit(1);
	lmo_of(p, lmo, &th);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		o = eval(m, coll(CP_PK_GATHER, 1, sizes[i]));
		rc = cp_lmo_predict_gather(&lmo[reg_of(sizes[i])], &th,
					   CP_LMO_KAPPA_NT0, 1, peers, 2,
					   sizes[i], &x);
		ta_check(online_code(&o) == want[i] && rc == want[i] &&
			 (rc || ta_near(o.t_ns[CP_MODEL_LMO], x * 1e9, TOL)),
			 "kappa1 failed, gather of %.0f B: online %s (%#x), "
			 "offline %s", sizes[i], cp_err_str(online_code(&o)),
			 o.flags, cp_err_str(rc));
	}
	cp_lmo_free(&lmo[0]);
	cp_lmo_free(&lmo[1]);
	cp_pred_free(m);
	cp_params_free(p);
}

/* PlogPT: a tree of height 1 over hosts a and b (ranks 0, 1 on a, 2 on
 * b), L 2 us, g(1500) = 3 us between the table's 1000 and 3000 B. */
static void check_plogpt(void)
{
	static const int32_t ab[2] = { 0, 2 }, aa[2] = { 0, 1 };
	const char *hosts[3] = { "a", "a", "b" };
	struct cp_pred_in in = p2p(0, 2, 1500, 0, 0);
	struct cp_pred_out o;
	struct cp_params *p;
	struct cp_pred *m;
	unsigned models;
	bool differs;
	char note[256];

	p = load();
	if (cp_pred_build(p, 3, hosts, &m, &models, &differs, note,
			  sizeof(note)))
		exit(1);
	ta_check(models & (1u << CP_MODEL_PLOGPT), "PlogPT usable (%s)",
		 note);
	o = eval(m, in);
	ta_check(ta_near(o.t_ns[CP_MODEL_PLOGPT], 5000, TOL) &&
		 !(o.flags & CP_PF_PT_EXTRAP),
		 "PlogPT 0 -> 2, 1500 B: L + g = 5000 ns (%.3f)",
		 o.t_ns[CP_MODEL_PLOGPT]);
	in.bytes = 5000;
	o = eval(m, in);
	ta_check(!isnan(o.t_ns[CP_MODEL_PLOGPT]) && (o.flags & CP_PF_PT_EXTRAP),
		 "PlogPT 5000 B: past the table, flagged");
	o = eval(m, p2p(0, 1, 1500, 0, 0));
	ta_check(isnan(o.t_ns[CP_MODEL_PLOGPT]) && (o.flags & CP_PF_PT_NOLEAF),
		 "PlogPT 0 -> 1, one host of a tree: not predicted, flagged");
	in = (struct cp_pred_in){ .kind = CP_PK_COLL, .root = -1,
		.members = ab, .nmembers = 2, .bytes = 1500, .count = 1500,
		.coll_op = CP_COLL_ALLTOALL, .alg = 2 };
	o = eval(m, in);
	ta_check(ta_near(o.t_ns[CP_MODEL_PLOGPT], 5000, TOL),
		 "PlogPT Alltoall A (pairwise) of 2 leaves: W + L = 5000 ns "
		 "(%.3f)", o.t_ns[CP_MODEL_PLOGPT]);
	in.alg = 1;
	o = eval(m, in);
	ta_check(ta_near(o.t_ns[CP_MODEL_PLOGPT], 5000, TOL),
		 "PlogPT Alltoall B (linear) of 2 leaves: W + L = 5000 ns");
	in.alg = 3;
	o = eval(m, in);
	ta_check(isnan(o.t_ns[CP_MODEL_PLOGPT]),
		 "PlogPT Alltoall by modified Bruck: not predicted");
	in.alg = 2;
	in.members = aa;
	o = eval(m, in);
	ta_check(isnan(o.t_ns[CP_MODEL_PLOGPT]) && (o.flags & CP_PF_PT_NOLEAF),
		 "PlogPT Alltoall of two ranks of one host: flagged");
	cp_pred_free(m);
	cp_params_free(p);
}

/* That call in gets the same tau-Lop price from m and mx (a table of
 * mx's file that does not price it); what names the check. */
static void same_taulop(const struct cp_pred *m, const struct cp_pred *mx,
			struct cp_pred_in in, const char *what)
{
	struct cp_pred_out o = eval(m, in), ox = eval(mx, in);

	ta_check(!isnan(o.t_ns[CP_MODEL_TAULOP]) &&
		 o.t_ns[CP_MODEL_TAULOP] == ox.t_ns[CP_MODEL_TAULOP],
		 "%s: %.3f ns with the table in the file, %.3f without", what,
		 ox.t_ns[CP_MODEL_TAULOP], o.t_ns[CP_MODEL_TAULOP]);
}

/* L of written messages (taulop.Lw) prices a message where the file has
 * it, L the cells it has not; a collective keeps L. */
/* The predictions of the test file (*p, *m) and of it with the lines
 * extra added (*px, *mx), for 3 ranks on hosts a, a, b; exits on a
 * failure. */
static void build_two(const char *extra, struct cp_params **p,
		      struct cp_params **px, struct cp_pred **m,
		      struct cp_pred **mx)
{
	const char *hosts[3] = { "a", "a", "b" };
	unsigned models;
	bool differs;
	char note[256];

	*p = load();
	extra_lines = extra;
	*px = load();
	extra_lines = NULL;
	if (cp_pred_build(*p, 3, hosts, m, &models, &differs, note,
			  sizeof(note)) ||
	    cp_pred_build(*px, 3, hosts, mx, &models, &differs, note,
			  sizeof(note)))
		exit(1);
}

static void check_taulop_written(void)
{
	struct cp_params *p, *pw;
	struct cp_pred *m, *mw;
	struct cp_pred_in in = p2p(0, 1, 1500, 0, 0);
	struct cp_pred_out o;
	double want;

	build_two("taulop.Lw 0 1000 1 4e-6 lo 4e-6 hi 4e-6 n 11\n"
		  "taulop.Lw 0 4000 1 1e-5 lo 1e-5 hi 1e-5 n 11\n",
		  &p, &pw, &m, &mw);
	/* Lw0(1500, 1) = 4 + 6 / 6 us */
	o = eval(mw, in);
	want = 2.5e-7 + 2 * 5e-6;
	ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL),
		 "tau-Lop 1500 B written: o0 + 2 Lw0 = %.3f ns (want %.3f)",
		 o.t_ns[CP_MODEL_TAULOP], want * 1e9);
	in.tau = 2;	/* no Lw at tau 2: L0(1500, 2) = 3 + 6 / 6 us */
	o = eval(mw, in);
	want = 2.5e-7 + 2 * 4e-6;
	ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL),
		 "tau-Lop 1500 B, tau 2 without Lw: o0 + 2 L0 = %.3f ns",
		 o.t_ns[CP_MODEL_TAULOP]);
	same_taulop(m, mw, coll(CP_PK_BCAST, 0, 1500),
		    "a broadcast keeps L, not Lw");
	cp_pred_free(m);
	cp_pred_free(mw);
	cp_params_free(p);
	cp_params_free(pw);
}

/* The L of rounds that start together (taulop.Ls) prices a collective's
 * rounds where the file has it; a message keeps its L. */
static void check_taulop_synced(void)
{
	static const int32_t aa[2] = { 0, 1 };
	struct cp_params *p, *ps;
	struct cp_pred *m, *ms;
	struct cp_pred_in in = coll(CP_PK_BCAST, 0, 1500);
	struct cp_pred_out o, os;
	double want;

	build_two("taulop.Ls 0 1000 1 4e-6 lo 4e-6 hi 4e-6 n 11\n"
		  "taulop.Ls 0 4000 1 1e-5 lo 1e-5 hi 1e-5 n 11\n",
		  &p, &ps, &m, &ms);
	/* a linear broadcast from 0 to 1, both on host a: one round */
	in.members = aa;
	in.nmembers = 2;
	in.alg = 1;
	os = eval(ms, in);
	want = 2.5e-7 + 2 * 5e-6;	/* Ls0(1500, 1) = 4 + 6 / 6 us */
	ta_check(ta_near(os.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL),
		 "tau-Lop linear bcast of 1500 B with Ls: o0 + 2 Ls0 = %.3f ns "
		 "(want %.3f)", os.t_ns[CP_MODEL_TAULOP], want * 1e9);
	o = eval(m, in);
	want = 2.5e-7 + 2 * 2.5e-6;
	ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want * 1e9, TOL),
		 "the same without Ls in the file: o0 + 2 L0 = %.3f ns",
		 o.t_ns[CP_MODEL_TAULOP]);
	same_taulop(m, ms, p2p(0, 1, 1500, 0, 0), "a message keeps L, not Ls");
	cp_pred_free(m);
	cp_pred_free(ms);
	cp_params_free(p);
	cp_params_free(ps);
}

/* A linear gather of 1000-B blocks to rank 2 (host b) from ranks 0 and
 * 1 (host a), each a blocking send on the network: two rounds, one
 * message each, unless the file says that the network's transport
 * sends 1000 B eagerly (its eager limit names regime 1, from 4096 B):
 * then one round of two.  Shared memory's eager limit does not. */
static void check_taulop_eager(void)
{
	const char *hosts[3] = { "a", "a", "b" };
	static const char *const src[3] = { "test_eager_limit=4096",
		"btl_tcp_eager_limit=4096", "btl_vader_eager_limit=4096" };
	struct cp_pred_in in = coll(CP_PK_GATHER, 2, 1000);
	/* o1(1000) = 1.5 us, L1(1000, 1) = 30 us, L1(1000, 2) = 47.5 us */
	const double want[3] = { 2 * (1.5e-6 + 3e-5), 1.5e-6 + 4.75e-5,
				 2 * (1.5e-6 + 3e-5) };
	struct cp_params *p;
	struct cp_pred *m;
	struct cp_pred_out o;
	unsigned models;
	bool differs;
	char note[256];
	int k;

	in.alg = 1;
	for (k = 0; k < 3; k++) {
		lmo_source = src[k];
		p = load();
		if (cp_pred_build(p, 3, hosts, &m, &models, &differs, note,
				  sizeof(note)))
			exit(1);
		o = eval(m, in);
		ta_check(ta_near(o.t_ns[CP_MODEL_TAULOP], want[k] * 1e9, TOL),
			 "linear gather of 1000 B over the network, regime 1 "
			 "from %s: %.1f ns (want %.1f)", src[k],
			 o.t_ns[CP_MODEL_TAULOP], want[k] * 1e9);
		cp_pred_free(m);
		cp_params_free(p);
	}
	lmo_source = src[0];
}

/* A message after a quiet gap: the file's gap table adds its extra
 * time (linear in m, in log gap); an unknown gap adds nothing, nor does
 * the table to a collective. */
static void check_taulop_gap(void)
{
	struct cp_params *p, *pg;
	struct cp_pred *m, *mg;
	struct cp_pred_in in = p2p(0, 1, 1500, 0, 0);
	struct cp_pred_out o, og;
	double base;
	const struct { double gap, extra; } k[] = {
		{ 1e-3, 3.5e-6 },		/* 3 + 3 / 6 us */
		{ sqrt(1e-7), 2e-6 + 2e-6 / 6 },	/* halfway in log */
		{ 5e-5, (1e-6 + 1e-6 / 6) / 2 },	/* to 0 at gap 0 */
		{ 1, 3.5e-6 },			/* the last gap's */
	};

	build_two("taulop.gaps 0 2 1e-4 1e-3\n"
		  "taulop.Lg 0 1000 1e-4 1e-6 lo 1e-6 hi 1e-6 n 11\n"
		  "taulop.Lg 0 1000 1e-3 3e-6 lo 3e-6 hi 3e-6 n 11\n"
		  "taulop.Lg 0 4000 1e-4 2e-6 lo 2e-6 hi 2e-6 n 11\n"
		  "taulop.Lg 0 4000 1e-3 6e-6 lo 6e-6 hi 6e-6 n 11\n",
		  &p, &pg, &m, &mg);
	in.gap_s = NAN;
	base = eval(m, in).t_ns[CP_MODEL_TAULOP];
	o = eval(mg, in);
	ta_check(o.t_ns[CP_MODEL_TAULOP] == base,
		 "tau-Lop 1500 B, gap unknown: %.3f ns, as without the table",
		 o.t_ns[CP_MODEL_TAULOP]);
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		in.gap_s = k[i].gap;
		o = eval(mg, in);
		og = eval(m, in);
		ta_check(og.t_ns[CP_MODEL_TAULOP] == base &&
			 ta_near(o.t_ns[CP_MODEL_TAULOP],
				 base + k[i].extra * 1e9, TOL),
			 "tau-Lop 1500 B after %g s: %.3f ns (want %.3f + "
			 "%.3f)", k[i].gap, o.t_ns[CP_MODEL_TAULOP], base,
			 k[i].extra * 1e9);
	}
	same_taulop(m, mg, coll(CP_PK_BCAST, 0, 1500),
		    "a broadcast takes no gap");
	cp_pred_free(m);
	cp_pred_free(mg);
	cp_params_free(p);
	cp_params_free(pg);
}

int main(void)
{
	struct cp_params *p = load();
	const char *hosts[3] = { "a", "a", "b" };
	struct cp_pred *m;
	unsigned models;
	bool differs;
	char note[256];

	if (cp_pred_build(p, 3, hosts, &m, &models, &differs, note, sizeof(note)))
		return 1;
	check_p2p(m);
	check_coll(m);
	check_parity(m, p);
	cp_pred_free(m);
	cp_params_free(p);
	check_fallbacks();
	check_hole();
	check_kappa_failed();
	check_plogpt();
	check_taulop_written();
	check_taulop_synced();
	check_taulop_gap();
	check_taulop_eager();
	return ta_done("test_predict");
}
