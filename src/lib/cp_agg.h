/*
 * cp_agg.h - the aggregates (src/lib/cp_agg.c): count, bytes and time per
 * callsite, op, peer, size class and layout, for every call.  The flusher
 * adds the calls it derives; a call that found its ring full is added on
 * its own thread to the ring's spill table (struct cp_sagg), which the
 * flusher folds in before each write.
 */
#ifndef CP_AGG_H
#define CP_AGG_H

#include <stddef.h>
#include <stdint.h>

struct cp_db_agg;
struct cp_event;
struct cp_ring;

/* cp_agg_add - count ev (times in ticks) in the flusher's table; kept:
 * it has a calls row.  The flusher's.  Cannot fail: out of memory, the
 * call is counted under its op alone. */
void cp_agg_add(const struct cp_event *ev, int kept);

/* cp_agg_spill - count ev in r's spill table; r's own thread, no lock,
 * no allocation.  Cannot fail: a full table counts it under its op. */
void cp_agg_spill(struct cp_ring *r, const struct cp_event *ev);

/* cp_agg_fold - add what r's spill table counted since the last fold to
 * the flusher's table.  The flusher's.  Cannot fail. */
void cp_agg_fold(struct cp_ring *r);

/* cp_agg_rows - every aggregate, times in ns: *out is malloc'ed (the
 * caller frees it).  Returns how many, or -1 when out of memory. */
long cp_agg_rows(struct cp_db_agg **out);

#endif
