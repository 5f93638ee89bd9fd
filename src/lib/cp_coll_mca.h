/*
 * cp_coll_mca.h - the Open MPI MCA settings that decide which algorithm
 * each collective runs (analysis/cp_coll.h), read inside the job through
 * MPI_T control variables, so that settings from the command line, the
 * environment and parameter files all count.
 */
#ifndef CP_COLL_MCA_H
#define CP_COLL_MCA_H

#include "analysis/cp_coll.h"

/*
 * cp_coll_mca_read - m from the job's coll_tuned_* control variables;
 * Open MPI's defaults for each one that cannot be read (another MPI
 * library: all of them).  Call after MPI_Init.  Not collective; cannot
 * fail.
 */
void cp_coll_mca_read(struct cp_coll_mca *m);

#endif
