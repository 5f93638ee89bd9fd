/*
 * cp_fin.c - the reduction of the job at MPI_Finalize (src/lib/cp_fin.h),
 * the transport of src/reduce/cp_red_mpi.h driven by the library: each
 * rank reads its rows back from its rank file, its records go to their
 * homes (a message half to its receiver), each rank matches what it
 * got, the summaries meet at rank 0.
 *
 * Nothing here may harm the application: every step that could fail on
 * one rank is followed by a collective decision (cp_red_mpi_go), so that
 * all ranks stop together, and the budget COMMPROF_FINALIZE_MS is
 * checked at each; a failure costs the reduction, never a line of the
 * application's output.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "db/cp_db_write.h"
#include "src/common/cp_clock.h"
#include "src/lib/cp_fin.h"
#include "src/lib/cp_state.h"
#include "src/reduce/cp_red_mpi.h"

/* What the reduction of one rank works with. */
struct cp_fin {
	struct cp_db *db;
	struct cp_red_mpi m;
	struct cp_red_sum sum;
	struct cp_red x;
	int64_t t0_ns;		/* cp_clock_ns() at the start */
	const char *note;	/* why it stopped, NULL: it did not */
};

static int cp_fin_row(void *arg, const struct cp_sum_row *r)
{
	return cp_red_scan_row(arg, r);
}

/* This rank's CP_RED_S_* from the counts of its last flush. */
static uint8_t cp_fin_state(struct cp_db *db)
{
	return cp_red_rank_state(cp_db_rank_meta_int(db, "rows_dropped", 0),
				 cp_db_rank_meta_int(db, "rows_not_kept", 0),
				 cp_db_rank_meta_int(db, "rows_capped", -1),
				 (int64_t)cp_env.sample, true);
}

/* Steps 1 and 2: scan, exchange, match.  Collective; false when the
 * ranks stopped (f->note says why). */
static bool cp_fin_match(struct cp_fin *f)
{
	struct cp_red_rec *in = NULL;
	uint8_t *state = NULL;
	size_t n = 0;

	cp_red_init(&f->x, &f->sum, (uint32_t)f->m.size, cp_red_mpi_emit,
		    &f->m);
	if (cp_db_rank_scan(f->db, cp_rank, cp_fin_row, &f->x))
		f->m.bad = true;
	if (cp_red_mpi_states(&f->m, cp_fin_state(f->db), &state) ||
	    cp_red_mpi_exchange(&f->m, &in, &n)) {
		f->note = "a rank failed (memory or MPI) or ran out of time";
		free(state);
		return false;
	}
	if (cp_red_match(&f->sum, in, n, state, f->m.size, NULL, NULL))
		f->m.bad = true;
	free(in);
	free(state);
	if (!cp_red_mpi_go(&f->m, true)) {
		f->note = "a rank failed (memory or MPI) or ran out of time";
		return false;
	}
	return true;
}

static void cp_fin_meta_int(struct cp_db *db, const char *key, long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	cp_db_put_meta(db, key, s);
}

/* Rank 0: the job's summary beside its rank file. */
static void cp_fin_write(struct cp_fin *f)
{
	char dir[4096], path[4200];
	struct cp_db *out;

	cp_db_rank_dir(f->db, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, CP_DB_REDUCED);
	if (cp_db_sum_create(path, &out)) {
		f->note = "rank 0 could not write " CP_DB_REDUCED;
		return;
	}
	cp_fin_meta_int(out, "ranks", f->m.size);
	cp_fin_meta_int(out, "epoch_ns", cp_epoch_ns);
	cp_fin_meta_int(out, "reduce_ms", cp_clock_ms_since(f->t0_ns));
	cp_db_put_meta(out, "reduced_by", "job");
	if (cp_red_sum_each(&f->sum, cp_db_sum_put, out) ||
	    cp_db_sum_publish(out, path, true))
		f->note = "rank 0 could not write " CP_DB_REDUCED;
}

void cp_fin_reduce(struct cp_db *db)
{
	struct cp_fin f = { .db = db };
	MPI_Comm comm;
	bool ok;

	f.t0_ns = cp_clock_ns();
	if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS)
		return;
	cp_red_sum_init(&f.sum);
	ok = !cp_red_mpi_init(&f.m, comm, (int64_t)cp_env.finalize_ms);
	ok = ok && cp_env.finalize_ms > 0 && db && !cp_warned();
	if (!cp_red_mpi_go(&f.m, ok))
		f.note = cp_env.finalize_ms ? "a rank had no rank file or a "
			 "commprof warning" : "COMMPROF_FINALIZE_MS=0";
	else if (cp_fin_match(&f) &&
		 (cp_red_mpi_reduce(&f.m, &f.sum) || f.m.bad))
		f.note = "a rank failed (memory or MPI) in the reduction";
	else if (!f.note && cp_rank == 0)
		cp_fin_write(&f);
	if (f.note && cp_rank == 0 && db)
		cp_db_put_meta(db, "reduce_note", f.note);
	cp_red_sum_free(&f.sum);
	cp_red_mpi_free(&f.m);
	PMPI_Comm_free(&comm);
}
