/*
 * cp_vec.h - the count arrays of the collectives whose schedule needs
 * every rank's block (MPI_Allgatherv's recvcounts, MPI_Reduce_scatter's
 * recvcounts: every rank passes them all), interned so that a record
 * carries a small id instead of the array.  The wrapper interns
 * (cp_vec_put, on the application's thread); the flusher reads them back
 * to decide the call's algorithm and price it (cp_vec_get).
 *
 * Identical arrays share one id, so a loop that calls with the same
 * counts costs one entry.  Entries are kept to the end of the process
 * (records refer to them).  Bounded: at most CP_VEC_MAX arrays and
 * CP_VEC_MAXCOUNTS counts in all; past that, and for an array it cannot
 * copy, the id is 0 and the call goes unpriced.
 */
#ifndef CP_VEC_H
#define CP_VEC_H

#include <stdint.h>

#include "analysis/cp_coll.h"

/* Ids 1..CP_VEC_MAX fit the 15 bits a record has for them (cp_raw.h). */
#define CP_VEC_MAX 32767
#define CP_VEC_MAXCOUNTS (1 << 20)

/*
 * cp_vec_put - the id (>= 1) of the n counts v; 0 when v is NULL, n is
 * not in 1..CP_COLL_MAXP (no schedule beyond), a count is negative, or
 * the table or memory is full.  Copies v.  Thread-safe (one lock; a
 * thread that repeats its last counts compares them and takes none); no
 * MPI call.
 */
uint32_t cp_vec_put(const int64_t *v, int n);

/* cp_vec_put of n int counts w (the MPI count arrays): the same ids; a
 * repeat of the thread's last counts is compared in place, uncopied. */
uint32_t cp_vec_put_int(const int *w, int n);

/*
 * cp_vec_get - the counts of id, *n of them; NULL for id 0 or one that
 * cp_vec_put did not give.  What it points to stays valid to the end of
 * the process.  Thread-safe.
 */
const int64_t *cp_vec_get(uint32_t id, int *n);

#endif
