/*
 * cp_pred_rt.h - online predictions inside the library (src/lib/cp_pred_rt.c):
 * the parameter file loaded at MPI_Init, each kept row priced by the
 * flusher thread, during the run.
 */
#ifndef CP_PRED_RT_H
#define CP_PRED_RT_H

#include <stdbool.h>

struct cp_comm_info;
struct cp_event;
struct cp_pred;

/* The tables, or NULL: no predictions (the flusher tests this). */
extern const struct cp_pred *cp_pred_tab;
/* Rank meta pred_models: comma-separated names of the models in use. */
extern char cp_pred_models[64];
/* Rank meta pred_note: fallbacks, or why nothing is predicted; "". */
extern char cp_pred_note[5120];
/* Rank meta coll_mca: the collective settings the collectives' rows
 * were decided under (cp_coll_mca_format of analysis/cp_coll.h). */
extern char cp_pred_coll[512];
/* True under Open MPI, whose collectives the flusher decides an
 * algorithm for (the rows' alg), with predictions or without. */
extern bool cp_pred_colls;

/* Load COMMPROF_PARAMS and build the tables; collective over
 * MPI_COMM_WORLD (every rank calls it, set or not).  A failure or a
 * fallback for this job costs one line on rank 0; cannot fail. */
void cp_pred_rt_init(void);
/* Decide ev's collective algorithm (ev->alg), and with tables price
 * ev with every model; ci: the communicator of the call. */
void cp_pred_event(struct cp_event *ev, const struct cp_comm_info *ci);

/* The flusher's one test. */
static inline void cp_pred_maybe(struct cp_event *ev,
				 const struct cp_comm_info *ci)
{
	if (cp_pred_tab || cp_pred_colls)
		cp_pred_event(ev, ci);
}

#endif
