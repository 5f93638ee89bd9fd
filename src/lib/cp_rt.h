/*
 * cp_rt.h - start and end of profiling (src/lib/cp_rt.c), called by the
 * hand-written MPI_Init, MPI_Finalize and MPI_Abort of pmpi/special.c.
 */
#ifndef CP_RT_H
#define CP_RT_H

/* After a successful PMPI_Init: read the settings, set up every module,
 * open the rank file and start recording.  Collective over
 * MPI_COMM_WORLD.  Cannot fail: a failure costs one line and the run
 * goes on unprofiled.  Only the first call does anything. */
void cp_rt_init(void);
/* Before PMPI_Finalize: stop recording, write what is left, reduce the
 * job with the other ranks (collective: src/lib/cp_fin.h) and close the
 * rank file; a process that exits without MPI_Finalize does the same
 * without the reduction.  Cannot fail; only the first call counts. */
void cp_rt_finalize(void);
/* Before PMPI_Abort: flush synchronously, at most two seconds.  Cannot
 * fail. */
void cp_rt_abort(int errorcode);

#endif
