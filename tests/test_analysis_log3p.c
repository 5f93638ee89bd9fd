/*
 * test_analysis_log3p.c - analysis/cp_log3p without MPI: the paper's 4.1
 * example (003: s = 16 KB, d = 1 KB; o_mw 29, l_mw 420, T_mem 3, o_net
 * 131 us) must give T_00(s,d) = 452 and T_01(s,d) = 580 exactly; then
 * interpolation, range flags, broadcasts, predicates and savings.
 */
#include "config.h"

#include "analysis/cp_err.h"
#include "analysis/cp_log3p.h"
#include "tests/test_analysis.h"

/* Times in microseconds: the functions are linear in time, and integer
 * microseconds keep every sum exact in double. */
static void test_paper(void)
{
	const double s[] = { 16384 }, d[] = { 1024 };
	const double tmem[] = { 3 }, t00[] = { 29 + 3 }, t01[] = { 29 + 131 };
	const double t00sd[] = { 452 };
	struct cp_log3p_meas in = { 1, 1, s, d, tmem, t00, t01, t00sd };
	struct cp_log3p m;
	struct cp_log3p_pred p;
	struct cp_log3p_saving sv;
	double t;
	int rc;

	rc = cp_log3p_derive(&in, &m);
	ta_check(rc == 0 && m.o_mw_s[0] == 29 && m.o_net_s[0] == 131 &&
		 m.l_mw_s[0] == 420 && m.nneg == 0,
		 "4.1: o_mw = T_00 - T_mem = 29, o_net = T_01 - o_mw = 131, "
		 "l_mw = T_00(s,d) - T_00 = 420 (got %g, %g, %g)",
		 m.o_mw_s[0], m.o_net_s[0], m.l_mw_s[0]);
	cp_log3p_eval(&m, 16384, 1024, &p);
	ta_check(p.self_s == 452 && p.flags == 0,
		 "4.1: T_00(s,d) = o_mw + l_mw + T_mem = 452 (got %g)",
		 p.self_s);
	ta_check(p.t_s == 580, "4.1: T_01(s,d) predicted 580 (got %g)",
		 p.t_s);
	ta_check(cp_log3p_mw_dominated(&p) && cp_log3p_lmw_largest(&p),
		 "4.1: middleware dominated (449 > 131), l_mw largest term");
	cp_log3p_eval(&m, 16384, 0, &p);
	ta_check(p.t_s == 160 && p.l_mw_s == 0 && !cp_log3p_mw_dominated(&p),
		 "4.1 contiguous (d = 0): T_01 = 160, not mw dominated");
	cp_log3p_eval(&m, 16384, 1024, &p);
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
	cp_log3p_eval(&m, 32768, 1024, &p);
	ta_check(p.flags == CP_LOG3P_F_EXTRAP_SIZE,
		 "32 KB outside the one measured size: flagged");
	cp_log3p_free(&m);
}

/* Two sizes, three strides: interpolation linear in s, in log2(d). */
static void test_interp(void)
{
	const double s[] = { 1000, 3000 }, d[] = { 16, 64, 256 };
	const double tmem[] = { 1, 3 }, t00[] = { 11, 23 };
	const double t01[] = { 20, 50 };
	const double t00sd[] = { 11 + 2, 11 + 6, 11 + 10,
				 23 + 4, 23 + 12, 23 + 20 };
	struct cp_log3p_meas in = { 2, 3, s, d, tmem, t00, t01, t00sd };
	struct cp_log3p m;
	struct cp_log3p_pred p;

	cp_log3p_derive(&in, &m);
	/* s = 2000: o_mw (10+20)/2 = 15, o_net (10+30)/2 = 20; d = 32: half
	 * way from 16 to 64 in log2: l_mw rows 4 and 8, mean 6 */
	cp_log3p_eval(&m, 2000, 32, &p);
	ta_check(ta_near(p.o_mw_s, 15, 1e-12) && ta_near(p.o_net_s, 20, 1e-12)
		 && ta_near(p.l_mw_s, 6, 1e-12) && p.flags == 0,
		 "s=2000, d=32: o_mw 15, o_net 20, l_mw 6 (got %g, %g, %g)",
		 p.o_mw_s, p.o_net_s, p.l_mw_s);
	cp_log3p_eval(&m, 3000, 1024, &p);
	ta_check(p.l_mw_s == 20 && p.flags == CP_LOG3P_F_EXTRAP_STRIDE,
		 "d above the measured strides: nearest stride, flagged");
	cp_log3p_eval(&m, 5000, 16, &p);
	ta_check(ta_near(p.o_mw_s, 30, 1e-12) &&
		 p.flags == CP_LOG3P_F_EXTRAP_SIZE,
		 "s beyond the sizes: last segment extended (o_mw 30), "
		 "flagged");
	ta_check(cp_log3p_eval(&m, -1, 16, &p) == -CP_EINVAL,
		 "negative size: -CP_EINVAL");
	cp_log3p_free(&m);
}

static void test_errors(void)
{
	const double s[] = { 2000, 1000 }, d[] = { 16 }, x[] = { 1, 1 };
	const double s2[] = { 1000, 5000 }, nine[] = { 9, 9 };
	struct cp_log3p_meas in = { 2, 1, s, d, x, x, x, x };
	struct cp_log3p m;
	int rc;

	ta_check(cp_log3p_derive(&in, &m) == -CP_EINVAL,
		 "sizes not increasing: -CP_EINVAL");
	in.size_bytes = nine;
	ta_check(cp_log3p_derive(&in, &m) == -CP_EINVAL,
		 "equal sizes: -CP_EINVAL");
	in.size_bytes = s2;
	in.t_mem_s = nine;	/* T_mem 9 > T_00 1: o_mw = -8 < 0 */
	rc = cp_log3p_derive(&in, &m);
	/* per size: o_mw -8 < 0; o_net 1 - (-8) = 9 and l_mw 0 are fine */
	ta_check(rc == 0 && m.nneg == 2 && m.o_mw_s[0] == -8,
		 "T_mem above T_00: derived, 2 negative values counted (%d)",
		 m.nneg);
	cp_log3p_free(&m);
}

int main(void)
{
	test_paper();
	test_interp();
	test_errors();
	return ta_done("test_analysis_log3p");
}
