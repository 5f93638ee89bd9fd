/*
 * test_match_db.c - writes two rank files with predictions for
 * tests/test_match_db.sh: a message 0 -> 1 (late sender), an
 * MPI_PROC_NULL send and a broadcast, with times and predictions whose
 * t_transfer, t_wait and mu are known exactly (see the script).  No MPI.
 * usage: test_match_db DIR; exit 0, or 1 with one line on stderr.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "db/cp_db_write.h"
#include "src/common/cp_row.h"

static const char *const ops[] = { "MPI_Send", "MPI_Recv", "MPI_Bcast" };
static const char *const kinds[] = { "blocking", "blocking", "blocking" };
static const char *const classes[] = { "p2p", "p2p", "coll" };

/* A row on comm 0 of size 2; predictions lmo, log3p, hockney, loggp,
 * plogp in ns (NAN none), every other model NAN. */
static struct cp_db_call row(int64_t seq, int op, int32_t peer, int32_t tag,
			     uint32_t flags, int64_t start_ns, int64_t dur_ns,
			     double lmo, double l3, double hk, double lg,
			     double pl)
{
	struct cp_db_call c = {
		.seq = seq, .op = op, .peer = peer, .root = -1, .tag = tag,
		.comm_size = 2, .layout = -1, .flags = flags, .bytes = 8,
		.count = 1, .site = 0x10, .t_start_ns = start_ns,
		.t_measured_ns = dur_ns, .t_incall_ns = -1,
		.pred_lmw_ns = NAN,
	};
	int k;

	for (k = 0; k < CP_NMODELS; k++)
		c.pred_ns[k] = NAN;
	c.pred_ns[CP_MODEL_LMO] = lmo;
	c.pred_ns[CP_MODEL_LOG3P] = l3;
	c.pred_ns[CP_MODEL_HOCKNEY] = hk;
	c.pred_ns[CP_MODEL_LOGGP] = lg;
	c.pred_ns[CP_MODEL_PLOGP] = pl;
	return c;
}

static int put_rank(const char *dir, int rank, const struct cp_db_call *c,
		    size_t n)
{
	char path[PATH_MAX], v[16];
	struct cp_db *db;

	snprintf(path, sizeof(path), "%s/rank-%05d.db", dir, rank);
	snprintf(v, sizeof(v), "%d", rank);
	if (cp_db_rank_open(path, &db) || cp_db_put_meta(db, "rank", v) ||
	    cp_db_put_meta(db, "size", "2") ||
	    cp_db_put_meta(db, "rows_dropped", "0") ||
	    cp_db_put_meta(db, "rows_not_kept", "0") ||
	    cp_db_put_ops(db, ops, kinds, classes, 3) ||
	    cp_db_put_calls(db, c, n)) {
		fprintf(stderr, "test_match_db: %s: %s\n", path,
			cp_db_errmsg(db));
		cp_db_close(db);
		return 1;
	}
	cp_db_close(db);
	return 0;
}

int main(int argc, char **argv)
{
	const struct cp_db_call r0[] = {
		row(0, 0, 1, 7, 0, 1000, 100, 200, NAN, 0, 50, NAN),
		row(1, 0, CP_PEER_PROCNULL, 8, CP_F_PROCNULL, 1200, 10,
		    100, NAN, NAN, NAN, NAN),
		row(2, 2, -1, INT32_MIN, 0, 3000, 200, NAN, 600, NAN, NAN,
		    NAN),
	};
	const struct cp_db_call r1[] = {
		row(0, 1, 0, 7, CP_F_RECV, 500, 1500, 4000, NAN, NAN, NAN,
		    3000),
		row(1, 2, -1, INT32_MIN, 0, 3100, 300, NAN, 600, NAN, NAN,
		    NAN),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_match_db DIR\n");
		return 2;
	}
	return put_rank(argv[1], 0, r0, 3) || put_rank(argv[1], 1, r1, 2);
}
