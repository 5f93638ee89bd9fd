/*
 * test_analysis_match.c - analysis/cp_match without MPI.  Synthetic
 * message halves and collective rows with hand-computed results: every
 * pair, t_transfer, t_wait, late side and instance is checked exactly,
 * as are the counts of what was left and why: also for ranks cut by a
 * row limit (a prefix pairs) and ranks that lost rows (nothing pairs).
 */
#include "config.h"

#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_match.h"
#include "tests/test_analysis.h"

#define S false			/* a send half */
#define R true			/* a receive half */

/* half: rank, peer, tag, comm, side, post, duration (ns); order = index */
#define H(rk, pr, tg, cm, sd, post, dur) \
	{ .rank = (rk), .peer = (pr), .tag = (tg), .comm = (cm), \
	  .recv = (sd), .post_ns = (post), .end_ns = (post) + (dur) }

/* Expected result of one half: mate index (-1 none), t_transfer, t_wait,
 * late, why. */
struct want {
	int64_t mate, xfer, wait;
	int late, why;
};

static void check_msgs(const char *name, struct cp_match_msg *m, size_t n,
		       const struct want *w, const struct cp_match_stats *ws)
{
	struct cp_match_out out[32];
	struct cp_match_stats st;
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		m[i].order = (int64_t)i;
	memset(&st, 0, sizeof(st));
	memset(out, 0x5a, sizeof(out));
	ret = cp_match_p2p(m, n, out, &st);
	if (!ta_check(ret == 0, "%s: cp_match_p2p returns 0 (%d)", name, ret))
		return;
	for (i = 0; i < n; i++)
		ta_check(out[i].mate == w[i].mate &&
			 out[i].t_transfer_ns == w[i].xfer &&
			 out[i].t_wait_ns == w[i].wait &&
			 out[i].late == w[i].late && out[i].why == w[i].why &&
			 out[i].inst == -1,
			 "%s: half %zu mate %lld xfer %lld wait %lld late %d "
			 "why %d (want %lld %lld %lld %d %d)", name, i,
			 (long long)out[i].mate,
			 (long long)out[i].t_transfer_ns,
			 (long long)out[i].t_wait_ns, out[i].late, out[i].why,
			 (long long)w[i].mate, (long long)w[i].xfer,
			 (long long)w[i].wait, w[i].late, w[i].why);
	ta_check(st.p2p_rows == n && st.p2p_matched == ws->p2p_matched &&
		 st.p2p_counts == ws->p2p_counts &&
		 st.p2p_groups == ws->p2p_groups &&
		 st.p2p_negative == ws->p2p_negative && st.coll_rows == 0,
		 "%s: counts rows %zu matched %zu counts %zu groups %zu "
		 "negative %zu", name, st.p2p_rows, st.p2p_matched,
		 st.p2p_counts, st.p2p_groups, st.p2p_negative);
}

#define LS CP_MATCH_LATE_SENDER
#define LR CP_MATCH_LATE_RECEIVER
#define NO CP_MATCH_LATE_NONE
#define U(why) { -1, -1, -1, NO, (why) }

/* Three messages 0 -> 1, receives posted early; the rows arrive in
 * recording order, the receives before the sends (rank 1 first). */
static void test_in_order(void)
{
	struct cp_match_msg m[] = {
		H(1, 0, 5, 0, R, 100, 1000),	/* waits for send at 1000 */
		H(1, 0, 5, 0, R, 2000, 1500),	/* send at 3000 */
		H(1, 0, 5, 0, R, 2100, 5000),	/* send at 3500 */
		H(0, 1, 5, 0, S, 1000, 50),
		H(0, 1, 5, 0, S, 3000, 50),
		H(0, 1, 5, 0, S, 3500, 50),
	};
	const struct want w[] = {
		{ 3, 1100 - 1000, 900, LS, 0 },
		{ 4, 3500 - 3000, 1000, LS, 0 },
		{ 5, 7100 - 3500, 1400, LS, 0 },
		{ 0, 100, 900, LS, 0 },
		{ 1, 500, 1000, LS, 0 },
		{ 2, 3600, 1400, LS, 0 },
	};
	const struct cp_match_stats ws = { .p2p_matched = 6 };

	check_msgs("in order", m, 6, w, &ws);
}

/* Tags 1 and 2 interleaved: sends 1,2,1,2; receives posted 2,1,2,1.
 * Pairs follow the tag, then post order within it. */
static void test_tags(void)
{
	struct cp_match_msg m[] = {
		H(0, 1, 1, 0, S, 10, 5),	/* 0: tag 1 #0 */
		H(0, 1, 2, 0, S, 20, 5),	/* 1: tag 2 #0 */
		H(0, 1, 1, 0, S, 30, 5),	/* 2: tag 1 #1 */
		H(0, 1, 2, 0, S, 40, 5),	/* 3: tag 2 #1 */
		H(1, 0, 2, 0, R, 15, 100),	/* 4: tag 2 #0 */
		H(1, 0, 1, 0, R, 25, 100),	/* 5: tag 1 #0 */
		H(1, 0, 2, 0, R, 35, 100),	/* 6: tag 2 #1 */
		H(1, 0, 1, 0, R, 45, 100),	/* 7: tag 1 #1 */
	};
	const struct want w[] = {
		{ 5, 100, 15, LR, 0 },	/* 125 - max(10, 25) */
		{ 4, 95, 5, LS, 0 },	/* 115 - max(20, 15) */
		{ 7, 100, 15, LR, 0 },	/* 145 - max(30, 45) */
		{ 6, 95, 5, LS, 0 },	/* 135 - max(40, 35) */
		{ 1, 95, 5, LS, 0 },
		{ 0, 100, 15, LR, 0 },
		{ 3, 95, 5, LS, 0 },
		{ 2, 100, 15, LR, 0 },
	};
	const struct cp_match_stats ws = { .p2p_matched = 8 };

	check_msgs("two tags", m, 8, w, &ws);
}

/* Rank 2 receives with MPI_ANY_SOURCE twice; the rows hold the senders
 * that arrived (1 first, then 0), so each pairs with its own send. */
static void test_any_source(void)
{
	struct cp_match_msg m[] = {
		H(0, 2, 3, 0, S, 500, 10),
		H(1, 2, 3, 0, S, 200, 10),
		H(2, 1, 3, 0, R, 100, 150),	/* ends 250 */
		H(2, 0, 3, 0, R, 260, 300),	/* ends 560 */
	};
	const struct want w[] = {
		{ 3, 60, 240, LS, 0 },
		{ 2, 50, 100, LS, 0 },
		{ 1, 50, 100, LS, 0 },
		{ 0, 60, 240, LS, 0 },
	};
	const struct cp_match_stats ws = { .p2p_matched = 4 };

	check_msgs("any source", m, 4, w, &ws);
}

/* A send of group (0 -> 1, tag 9) is missing: its two receives and one
 * send stay unmatched; group (0 -> 1, tag 8) and (1 -> 0, tag 9) pair. */
static void test_missing(void)
{
	struct cp_match_msg m[] = {
		H(0, 1, 9, 0, S, 100, 10),
		H(0, 1, 8, 0, S, 110, 10),
		H(1, 0, 9, 0, R, 50, 100),
		H(1, 0, 9, 0, R, 200, 100),
		H(1, 0, 8, 0, R, 60, 100),
		H(1, 0, 9, 0, S, 400, 10),
		H(0, 1, 9, 0, R, 420, 30),
	};
	const struct want w[] = {
		U(CP_MATCH_COUNTS),
		{ 4, 50, 50, LS, 0 },	/* 160 - 110 */
		U(CP_MATCH_COUNTS),
		U(CP_MATCH_COUNTS),
		{ 1, 50, 50, LS, 0 },
		{ 6, 30, 20, LR, 0 },	/* 450 - 420 */
		{ 5, 30, 20, LR, 0 },
	};
	const struct cp_match_stats ws = { .p2p_matched = 4, .p2p_counts = 3,
					   .p2p_groups = 1 };

	check_msgs("missing send", m, 7, w, &ws);
}

/* Late sender: the receive waits 60 us and the transfer takes 2 us.
 * Late receiver: an eager send returns at once, the receive posted 60 us
 * later finds the data there.  Equal posts: late none. */
static void test_late(void)
{
	struct cp_match_msg m[] = {
		H(0, 1, 0, 4, S, 60000, 1000),
		H(1, 0, 0, 4, R, 0, 62000),
		H(1, 0, 1, 4, S, 100000, 500),
		H(0, 1, 1, 4, R, 160000, 800),
		H(0, 1, 2, 4, S, 200000, 300),
		H(1, 0, 2, 4, R, 200000, 700),
	};
	const struct want w[] = {
		{ 1, 2000, 60000, LS, 0 },
		{ 0, 2000, 60000, LS, 0 },
		{ 3, 800, 60000, LR, 0 },
		{ 2, 800, 60000, LR, 0 },
		{ 5, 700, 0, NO, 0 },
		{ 4, 700, 0, NO, 0 },
	};
	const struct cp_match_stats ws = { .p2p_matched = 6 };

	check_msgs("late sides", m, 6, w, &ws);
}

/* MPI_Sendrecv between ranks 0 and 1: each rank makes a send row and a
 * receive half with the same post; rank 1 enters 30 ns later. */
static void test_sendrecv(void)
{
	struct cp_match_msg m[] = {
		H(0, 1, 7, 0, S, 1000, 200),
		H(0, 1, 7, 0, R, 1000, 200),	/* ends 1200 */
		H(1, 0, 7, 0, S, 1030, 190),
		H(1, 0, 7, 0, R, 1030, 190),	/* ends 1220 */
	};
	const struct want w[] = {
		{ 3, 190, 30, LR, 0 },	/* 1220 - max(1000, 1030) */
		{ 2, 170, 30, LS, 0 },	/* 1200 - 1030 */
		{ 1, 170, 30, LS, 0 },
		{ 0, 190, 30, LR, 0 },
	};
	const struct cp_match_stats ws = { .p2p_matched = 4 };

	check_msgs("sendrecv", m, 4, w, &ws);
}

/* Rows given out of post order (a nonblocking row is recorded at
 * completion), and a pair whose receive ends before its send starts
 * (clocks apart): only that pair is left. */
static void test_order_negative(void)
{
	struct cp_match_msg m[] = {
		H(0, 1, 0, 0, S, 300, 10),	/* second send */
		H(0, 1, 0, 0, S, 100, 10),	/* first send */
		H(1, 0, 0, 0, R, 50, 100),	/* first receive */
		H(1, 0, 0, 0, R, 60, 150),	/* ends 210 < 300 */
	};
	const struct want w[] = {
		U(CP_MATCH_NEGATIVE),
		{ 2, 50, 50, LS, 0 },
		{ 1, 50, 50, LS, 0 },
		U(CP_MATCH_NEGATIVE),
	};
	const struct cp_match_stats ws = { .p2p_matched = 2,
					   .p2p_negative = 2 };

	check_msgs("post order, negative", m, 4, w, &ws);
}

/* A row limit cut rank 1 after two receives from rank 0 (tag 3): the
 * first two sends pair, the third is left (CUT).  Rank 0 was cut after
 * two sends to rank 1 (tag 4): two pairs and a receive left.  Group
 * (tag 5) has a send too few, but only its receiver was cut: the counts
 * tell nothing, so nothing pairs. */
static void test_cut(void)
{
	struct cp_match_msg m[] = {
		H(0, 1, 3, 0, S, 100, 10),
		H(0, 1, 3, 0, S, 200, 10),
		H(0, 1, 3, 0, S, 300, 10),
		H(1, 0, 3, 0, R, 90, 30),	/* ends 120 */
		H(1, 0, 3, 0, R, 190, 40),	/* ends 230 */
		H(0, 1, 4, 0, S, 500, 10),
		H(0, 1, 4, 0, S, 600, 10),
		H(1, 0, 4, 0, R, 500, 20),
		H(1, 0, 4, 0, R, 600, 20),
		H(1, 0, 4, 0, R, 700, 20),
		H(1, 0, 5, 0, R, 800, 20),
		H(1, 0, 5, 0, R, 900, 20),
		H(0, 1, 5, 0, S, 800, 10),
	};
	const struct want w[] = {
		{ 3, 20, 10, LS, 0 },
		{ 4, 30, 10, LS, 0 },
		U(CP_MATCH_CUT),
		{ 0, 20, 10, LS, 0 },
		{ 1, 30, 10, LS, 0 },
		{ 7, 20, 0, NO, 0 },
		{ 8, 20, 0, NO, 0 },
		{ 5, 20, 0, NO, 0 },
		{ 6, 20, 0, NO, 0 },
		U(CP_MATCH_CUT),
		U(CP_MATCH_COUNTS),
		U(CP_MATCH_COUNTS),
		U(CP_MATCH_COUNTS),
	};
	const struct cp_match_stats ws = { .p2p_matched = 8, .p2p_counts = 3,
					   .p2p_groups = 1 };
	size_t i;

	for (i = 0; i < 13; i++)
		m[i].cut = m[i].tag == 4 ? CP_MATCH_CUT_SEND :
			   CP_MATCH_CUT_RECV;
	check_msgs("row limit", m, 13, w, &ws);
}

/* Rank 2 lost rows in the middle: its groups stay whole, equal counts
 * or not; the group of ranks 0 and 1 pairs. */
static void test_hole(void)
{
	struct cp_match_msg m[] = {
		H(0, 2, 1, 0, S, 100, 10),
		H(2, 0, 1, 0, R, 100, 30),
		H(0, 1, 1, 0, S, 200, 10),
		H(1, 0, 1, 0, R, 200, 30),
	};
	const struct want w[] = {
		U(CP_MATCH_HOLE),
		U(CP_MATCH_HOLE),
		{ 3, 30, 0, NO, 0 },
		{ 2, 30, 0, NO, 0 },
	};
	const struct cp_match_stats ws = { .p2p_matched = 2 };
	struct cp_match_out out[4];
	struct cp_match_stats st;

	m[0].cut = m[1].cut = CP_MATCH_CUT_HOLE;
	check_msgs("lost rows", m, 4, w, &ws);
	memset(&st, 0, sizeof(st));
	cp_match_p2p(m, 4, out, &st);
	ta_check(st.p2p_hole == 2 && st.p2p_cut == 0, "lost rows: %zu "
		 "halves left for the hole (2)", st.p2p_hole);
}

/* collective row: rank, comm, size, op, post, duration */
#define C(rk, cm, sz, o, post, dur) \
	{ .rank = (rk), .comm = (cm), .comm_size = (sz), .op = (o), \
	  .post_ns = (post), .end_ns = (post) + (dur) }

#define BCAST 60
#define ALLRED 70

/* comm 0: world of 3 ranks, two instances; comm 5: ranks 1 and 2, two
 * instances interleaved with world's; comm 7: ranks 0 and 2, rank 2's
 * second row missing; comm 9: ops differ; comm 11: one row broken. */
static void test_colls(void)
{
	struct cp_match_coll c[] = {
		C(0, 0, 3, BCAST, 1000, 500),	/* 0: world #0 */
		C(0, 0, 3, ALLRED, 5000, 100),	/* 1: world #1 */
		C(1, 5, 2, ALLRED, 900, 50),	/* 2: sub #0 */
		C(1, 0, 3, BCAST, 1200, 400),	/* 3: world #0 */
		C(1, 5, 2, ALLRED, 3000, 50),	/* 4: sub #1 */
		C(1, 0, 3, ALLRED, 5100, 200),	/* 5: world #1 */
		C(2, 5, 2, ALLRED, 950, 10),	/* 6: sub #0 */
		C(2, 0, 3, BCAST, 1100, 1000),	/* 7: world #0 */
		C(2, 0, 3, ALLRED, 5020, 30),	/* 8: world #1 */
		C(2, 5, 2, ALLRED, 2990, 80),	/* 9: sub #1 */
		C(0, 7, 2, BCAST, 10, 20),	/* 10: #0 */
		C(0, 7, 2, BCAST, 90, 20),	/* 11: #1, alone */
		C(2, 7, 2, BCAST, 15, 30),	/* 12: #0 */
		C(0, 9, 2, BCAST, 10, 20),	/* 13: ops differ */
		C(1, 9, 2, ALLRED, 10, 20),	/* 14 */
		C(0, 11, 2, BCAST, 10, 20),	/* 15: broken */
		C(1, 11, 2, BCAST, 10, 20),	/* 16 */
	};
	/* xfer = max end - max post, wait = max post - min post */
	const int64_t xfer[] = { 900, 200, 10, 900, 70, 200, 10, 900, 200, 70,
				 30, -1, 30, -1, -1, -1, -1 };
	const int64_t wait[] = { 200, 100, 50, 200, 10, 100, 50, 200, 100, 10,
				 5, -1, 5, -1, -1, -1, -1 };
	const int64_t inst[] = { 0, 1, 0, 0, 1, 1, 0, 0, 1, 1,
				 0, -1, 0, -1, -1, -1, -1 };
	const int why[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			    CP_MATCH_INCOMPLETE, 0, CP_MATCH_MIXED,
			    CP_MATCH_MIXED, CP_MATCH_MIXED, CP_MATCH_MIXED };
	struct cp_match_out out[17];
	struct cp_match_stats st;
	size_t i, n = 17;

	c[16].broken = true;
	for (i = 0; i < n; i++)
		c[i].order = (int64_t)i;
	memset(&st, 0, sizeof(st));
	ta_check(cp_match_colls(c, n, out, &st) == 0,
		 "colls: cp_match_colls returns 0");
	for (i = 0; i < n; i++)
		ta_check(out[i].t_transfer_ns == xfer[i] &&
			 out[i].t_wait_ns == wait[i] &&
			 out[i].inst == inst[i] && out[i].why == why[i] &&
			 out[i].mate == -1 && out[i].late == NO,
			 "colls: row %zu xfer %lld wait %lld inst %lld why %d",
			 i, (long long)out[i].t_transfer_ns,
			 (long long)out[i].t_wait_ns, (long long)out[i].inst,
			 out[i].why);
	ta_check(st.coll_rows == n && st.coll_matched == 12 &&
		 st.coll_incomplete == 1 && st.coll_mixed == 4 &&
		 st.coll_insts == 5 && st.p2p_rows == 0,
		 "colls: counts rows %zu matched %zu incomplete %zu mixed %zu "
		 "instances %zu", st.coll_rows, st.coll_matched,
		 st.coll_incomplete, st.coll_mixed, st.coll_insts);
}

/* A rank missing a whole instance in the middle shifts its later calls:
 * with different ops the shifted instances are refused, not mismatched
 * into wrong numbers. */
static void test_coll_shift(void)
{
	struct cp_match_coll c[] = {
		C(0, 0, 2, BCAST, 100, 10),
		C(0, 0, 2, ALLRED, 200, 10),
		C(1, 0, 2, ALLRED, 205, 10),	/* its Bcast row is missing */
	};
	struct cp_match_out out[3];
	struct cp_match_stats st;

	memset(&st, 0, sizeof(st));
	memset(out, 0, sizeof(out));
	ta_check(cp_match_colls(c, 3, out, &st) == 0 &&
		 out[0].why == CP_MATCH_MIXED &&
		 out[2].why == CP_MATCH_MIXED &&
		 out[1].why == CP_MATCH_INCOMPLETE &&
		 st.coll_matched == 0 && st.coll_mixed == 2 &&
		 st.coll_incomplete == 1,
		 "shifted collective: nothing matched (why %d %d %d)",
		 out[0].why, out[1].why, out[2].why);
}

/* Ranks number their own rows (cp_match_coll_number, one rank per call)
 * and the instances are grouped elsewhere (cp_match_coll_insts, rows
 * given in any order): the same as cp_match_colls.  A rank that lost
 * rows spoils every instance of its communicator. */
static void test_coll_split(void)
{
	struct cp_match_coll c[] = {
		C(0, 0, 2, BCAST, 100, 10),
		C(0, 0, 2, ALLRED, 200, 10),
		C(1, 0, 2, BCAST, 105, 10),
		C(1, 0, 2, ALLRED, 203, 10),
		C(0, 3, 2, ALLRED, 300, 10),
		C(2, 3, 2, ALLRED, 301, 10),
	};
	struct cp_match_coll g[6];
	struct cp_match_out whole[6], part[6];
	struct cp_match_stats s1, s2;
	int64_t inst[6], ginst[6];
	size_t i, ok = 0;
	int ret = 0;

	memset(&s1, 0, sizeof(s1));
	memset(&s2, 0, sizeof(s2));
	cp_match_colls(c, 6, whole, &s1);
	ret |= cp_match_coll_number(c, 2, inst);	/* rank 0, comm 0 */
	ret |= cp_match_coll_number(c + 2, 2, inst + 2);
	ret |= cp_match_coll_number(c + 4, 1, inst + 4);
	ret |= cp_match_coll_number(c + 5, 1, inst + 5);
	for (i = 0; i < 6; i++) {	/* reversed */
		g[i] = c[5 - i];
		ginst[i] = inst[5 - i];
	}
	ret |= cp_match_coll_insts(g, ginst, 6, part, &s2);
	for (i = 0; i < 6; i++)
		ok += !memcmp(&whole[5 - i], &part[i], sizeof(part[i]));
	ta_check(!ret && ok == 6 && s1.coll_matched == 6 &&
		 s2.coll_matched == 6 && s2.coll_insts == 3,
		 "numbered apart, grouped elsewhere: %zu of 6 rows alike", ok);
	c[2].hole = c[3].hole = true;	/* every row of rank 1 */
	memset(&s1, 0, sizeof(s1));
	cp_match_colls(c, 6, whole, &s1);
	ta_check(whole[0].why == CP_MATCH_HOLE && whole[3].why == CP_MATCH_HOLE &&
		 whole[4].why == CP_MATCH_OK && s1.coll_hole == 4 &&
		 s1.coll_matched == 2, "a rank that lost rows: its comm's 4 "
		 "rows left (%zu), the other comm matched", s1.coll_hole);
}

static void test_edges(void)
{
	struct cp_match_stats st;

	memset(&st, 0, sizeof(st));
	ta_check(cp_match_p2p(NULL, 0, NULL, &st) == 0 &&
		 cp_match_colls(NULL, 0, NULL, &st) == 0 && st.p2p_rows == 0,
		 "no rows: 0, nothing counted");
	ta_check(cp_match_p2p(NULL, 1, NULL, &st) == -CP_EINVAL &&
		 cp_match_colls(NULL, 0, NULL, NULL) == -CP_EINVAL,
		 "NULL arrays: -CP_EINVAL");
}

int main(void)
{
	test_in_order();
	test_tags();
	test_any_source();
	test_missing();
	test_late();
	test_sendrecv();
	test_order_negative();
	test_colls();
	test_coll_shift();
	test_cut();
	test_hole();
	test_coll_split();
	test_edges();
	return ta_done("test_analysis_match");
}
