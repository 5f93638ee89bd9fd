/*
 * cp_pred_rt.c - online predictions inside the library: COMMPROF_PARAMS
 * loaded once at MPI_Init (cp_pred_rt_init), and each kept row priced by
 * the flusher (cp_pred_event).
 *
 * Failures (no file, a malformed one, out of memory) cost one line on
 * rank 0 and leave the run recording without predictions.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/cp_taulop.h"
#include "pmpi/cp_calls_gen.h"
#include "src/common/cp_row.h"
#include "src/lib/cp_coll_mca.h"
#include "src/lib/cp_comm.h"
#include "src/lib/cp_event.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_pred_rt.h"
#include "src/lib/cp_predict.h"
#include "src/lib/cp_state.h"
#include "src/lib/cp_time.h"
#include "src/lib/cp_vec.h"

#define CP_HOST_BYTES 64

const struct cp_pred *cp_pred_tab;
char cp_pred_models[64];
char cp_pred_note[5120];
char cp_pred_coll[512];
bool cp_pred_colls;

/* Kept to the end of the process: a thread may still be pricing a call
 * while another finalizes. */
static struct cp_pred *tab;
/* glibc's dynamic mmap threshold of every rank as the collectives this
 * rank priced so far raised it (analysis/cp_taulop.h): a scratch buffer
 * smaller than one its rank freed before stays in the heap.  The
 * flusher alone prices (cp_pred_event), in the order of the calls. */
static struct cp_taulop_hist heap_hist;
static unsigned char kind_of[CP_CALL_COUNT];
static signed char coll_of[CP_CALL_COUNT];	/* CP_COLL_*, -1 */
/* The job's coll/tuned settings, read at MPI_Init with or without a
 * parameter file: the flusher decides every collective's algorithm
 * with them, and stores it in the row. */
static struct cp_coll_mca run_mca;

/* A collective call and its nonblocking form: one operation of
 * analysis/cp_coll.h, priced the same.  Its schedules are Open MPI's
 * (coll/tuned): under another MPI no collective is priced over rounds. */
static void coll_pair(int blocking, int nonblocking, enum cp_pred_kind k,
		      enum cp_coll_op op)
{
	kind_of[blocking] = kind_of[nonblocking] = (unsigned char)k;
#ifdef OPEN_MPI
	coll_of[blocking] = coll_of[nonblocking] = (signed char)op;
#else
	(void)op;
#endif
}

static void kinds_init(void)
{
	static const char *const classes[] = CP_CALL_CLASSES;
	int i;

	for (i = 0; i < CP_CALL_COUNT; i++) {
		kind_of[i] = strcmp(classes[i], "p2p") ? CP_PK_NONE :
							 CP_PK_P2P;
		coll_of[i] = -1;
	}
	coll_pair(CP_CALL_MPI_Barrier, CP_CALL_MPI_Ibarrier, CP_PK_COLL,
		  CP_COLL_BARRIER);
	coll_pair(CP_CALL_MPI_Bcast, CP_CALL_MPI_Ibcast, CP_PK_BCAST,
		  CP_COLL_BCAST);
	coll_pair(CP_CALL_MPI_Reduce, CP_CALL_MPI_Ireduce, CP_PK_COLL,
		  CP_COLL_REDUCE);
	coll_pair(CP_CALL_MPI_Allreduce, CP_CALL_MPI_Iallreduce, CP_PK_COLL,
		  CP_COLL_ALLREDUCE);
	coll_pair(CP_CALL_MPI_Allgather, CP_CALL_MPI_Iallgather, CP_PK_COLL,
		  CP_COLL_ALLGATHER);
	coll_pair(CP_CALL_MPI_Alltoall, CP_CALL_MPI_Ialltoall, CP_PK_COLL,
		  CP_COLL_ALLTOALL);
	coll_pair(CP_CALL_MPI_Gather, CP_CALL_MPI_Igather, CP_PK_GATHER,
		  CP_COLL_GATHER);
	coll_pair(CP_CALL_MPI_Scatter, CP_CALL_MPI_Iscatter, CP_PK_SCATTER,
		  CP_COLL_SCATTER);
	coll_pair(CP_CALL_MPI_Reduce_scatter_block,
		  CP_CALL_MPI_Ireduce_scatter_block, CP_PK_COLL,
		  CP_COLL_REDUCE_SCATTER_BLOCK);
	coll_pair(CP_CALL_MPI_Scan, CP_CALL_MPI_Iscan, CP_PK_COLL,
		  CP_COLL_SCAN);
	coll_pair(CP_CALL_MPI_Exscan, CP_CALL_MPI_Iexscan, CP_PK_COLL,
		  CP_COLL_EXSCAN);
	coll_pair(CP_CALL_MPI_Allgatherv, CP_CALL_MPI_Iallgatherv, CP_PK_COLL,
		  CP_COLL_ALLGATHERV);
	coll_pair(CP_CALL_MPI_Reduce_scatter, CP_CALL_MPI_Ireduce_scatter,
		  CP_PK_COLL, CP_COLL_REDUCE_SCATTER);
}

/* Every rank's host name, [cp_size][CP_HOST_BYTES]; NULL on failure.
 * Collective: every rank learns whether all could allocate before any
 * sends, so that no rank joins the allgather with other counts. */
static char (*gather_hosts(void))[CP_HOST_BYTES]
{
	char me[CP_HOST_BYTES] = "", (*all)[CP_HOST_BYTES];
	int ok, all_ok = 0;

	gethostname(me, sizeof(me) - 1);
	all = calloc((size_t)cp_size, sizeof(*all));
	ok = all != NULL;
	if (PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN,
			   MPI_COMM_WORLD) != MPI_SUCCESS || !all_ok ||
	    PMPI_Allgather(me, CP_HOST_BYTES, MPI_CHAR, all[0], CP_HOST_BYTES,
			   MPI_CHAR, MPI_COMM_WORLD) != MPI_SUCCESS) {
		free(all);
		return NULL;
	}
	return all;
}

static void models_text(unsigned models)
{
	size_t k = 0;
	int i;

	cp_pred_models[0] = '\0';
	for (i = 0; i < CP_NMODELS; i++)
		if (models & (1u << i))
			k += (size_t)snprintf(cp_pred_models + k,
					      sizeof(cp_pred_models) - k,
					      "%s%s", k ? "," : "",
					      cp_model_name(i));
}

/* A glibc malloc setting from the environment: dflt when unset, empty or
 * not a number of bytes (*set otherwise). */
static double heap_env_bytes(const char *name, double dflt, bool *set)
{
	const char *v = getenv(name);
	char *end;
	double x;

	if (!v || !*v)
		return dflt;
	x = strtod(v, &end);
	if (*end || !(x >= 0))
		return dflt;
	*set = true;
	return x;
}

/* The run's glibc malloc settings (MALLOC_MMAP_THRESHOLD_,
 * MALLOC_TRIM_THRESHOLD_, MALLOC_TOP_PAD_; GLIBC_TUNABLES is not read):
 * one set turns glibc's dynamic thresholds off. */
static void heap_from_env(struct cp_taulop_heap *h)
{
	bool set = false;

	h->mmap_threshold = heap_env_bytes("MALLOC_MMAP_THRESHOLD_",
					   CP_TL_HEAP_MMAP, &set);
	h->trim_threshold = heap_env_bytes("MALLOC_TRIM_THRESHOLD_",
					   CP_TL_HEAP_TRIM, &set);
	h->top_pad = heap_env_bytes("MALLOC_TOP_PAD_", CP_TL_HEAP_PAD, &set);
	h->fixed = set;
}

/* Load, build and keep the tables; the note says what went wrong or
 * differs.  Returns true when a warning line is due. */
static bool load(char (*hosts)[CP_HOST_BYTES])
{
	const char **hp = NULL;	/* a pointer per rank: heap, not stack */
	struct cp_params *p = NULL;
	char err[400];
	unsigned models;
	bool averaged;
	int i, rc;

	rc = cp_params_load(cp_env.params, &p, err, sizeof(err));
	if (rc) {
		snprintf(cp_pred_note, sizeof(cp_pred_note),
			 "COMMPROF_PARAMS %s; no predictions", err);
		return true;
	}
	if (hosts)
		hp = malloc((size_t)cp_size * sizeof(*hp));
	for (i = 0; hp && i < cp_size; i++)
		hp[i] = hosts[i];
	rc = cp_pred_build(p, cp_size, hp, &tab, &models, &averaged, err,
			   sizeof(err));
	cp_params_free(p);
	free(hp);
	if (rc) {
		snprintf(cp_pred_note, sizeof(cp_pred_note),
			 "COMMPROF_PARAMS %s: %s; no predictions",
			 cp_env.params, strerror(-rc));
		return true;
	}
	models_text(models);
	{
		struct cp_taulop_heap heap;

		cp_pred_set_coll(tab, &run_mca);
		heap_from_env(&heap);
		cp_pred_set_heap(tab, &heap);
	}
	if (err[0])
		snprintf(cp_pred_note, sizeof(cp_pred_note),
			 "COMMPROF_PARAMS %s: %s", cp_env.params, err);
	/* every rank's thresholds, from glibc's start (8 B a rank); without
	 * them (no memory) each call is priced as one of a run of
	 * identical ones */
	if (models & (1u << CP_MODEL_TAULOP))
		heap_hist.thr = calloc((size_t)cp_size, sizeof(double));
	heap_hist.n = heap_hist.thr ? cp_size : 0;
	if (models)
		cp_pred_tab = tab;
	/* Only a run without any prediction needs the user now.  A job
	 * unlike the calibrated one (LMO averaged) or a model the file
	 * could not estimate is in pred_note, the rows' flags and the
	 * report: a line on every run of a test suite that compares
	 * output was counted as a failure. */
	return !models;
}

void cp_pred_rt_init(void)
{
	char (*hosts)[CP_HOST_BYTES];
	bool warn;

	kinds_init();
	cp_coll_mca_read(&run_mca);
	cp_coll_mca_format(&run_mca, cp_pred_coll, sizeof(cp_pred_coll));
#ifdef OPEN_MPI
	cp_pred_colls = true;
#endif
	/* collective: every rank joins, whatever its environment says */
	hosts = gather_hosts();
	if (!cp_env.params[0]) {
		snprintf(cp_pred_note, sizeof(cp_pred_note),
			 "COMMPROF_PARAMS not set");
		free(hosts);
		return;
	}
	warn = load(hosts);
	free(hosts);
	if (warn && cp_rank == 0)
		fprintf(stderr, "commprof: %s; app unaffected\n",
			cp_pred_note);
}

void cp_pred_event(struct cp_event *ev, const struct cp_comm_info *ci)
{
	struct cp_pred_in in;
	struct cp_pred_out o;
	uint64_t shape;
	int i;

	in.coll_op = ev->call < CP_CALL_COUNT ? coll_of[ev->call] : -1;
	if ((!cp_pred_tab && in.coll_op < 0) ||
	    ev->flags & (CP_F_PROCNULL | CP_F_CANCELLED | CP_F_NOTDONE |
			 CP_F_INTER))
		return;
	in.kind = ev->call < CP_CALL_COUNT ? kind_of[ev->call] : CP_PK_NONE;
	in.alg = 0;
	in.flags = ev->flags;
	in.count = (double)ev->count;
	in.tau = ev->tau;
	in.gap_s = ev->quiet == CP_QUIET_NONE ? NAN :
		   (double)cp_time_dur_ns(ev->quiet) * 1e-9;
	if (ev->flags & CP_F_RECV) {
		in.src = ev->peer;
		in.dst = cp_rank;
	} else {
		in.src = cp_rank;
		in.dst = ev->peer;
	}
	in.root = ev->root;
	in.members = ci->world;
	in.nmembers = ci->size;
	in.bytes = (double)ev->bytes;
	shape = cp_layout_shape(ev->layout);	/* NONE answers irregular */
	if (shape == CP_SHAPE_IRREGULAR) {
		in.stride_bytes = -1;
		in.block_bytes = -1;
	} else {
		in.stride_bytes = (double)(shape >> 32);
		in.block_bytes = (double)(shape & UINT32_MAX);
	}
	in.heap_hist = heap_hist.thr ? &heap_hist : NULL;
	in.ncounts = 0;
	in.counts = ev->vec ? cp_vec_get(ev->vec, &in.ncounts) : NULL;
	/* one decision, stored in the row and priced */
	if (in.coll_op >= 0)
		in.alg = ev->alg = (int16_t)cp_pred_coll_alg(&run_mca, &in);
	if (!cp_pred_tab)
		return;
	cp_pred_eval(cp_pred_tab, &in, &o);
	for (i = 0; i < CP_NMODELS; i++)
		ev->pred_ns[i] = (float)o.t_ns[i];
	ev->pred_lmw_ns = (float)o.lmw_ns;
	ev->pred_flags = (uint16_t)o.flags;
}
