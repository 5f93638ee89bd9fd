/*
 * cp_flush.h - the flusher thread (src/lib/cp_flush.c): it drains the
 * per-thread rings (src/lib/cp_ring.h), derives and prices every call,
 * pairs requests, keeps the aggregates and writes the rank's database.
 */
#ifndef CP_FLUSH_H
#define CP_FLUSH_H

#include <stdint.h>

struct cp_db;

/* Start the flusher on an open rank database, and the calling thread's
 * ring; 0 or -errno (no thread: the caller warns and stops). */
int cp_flush_start(struct cp_db *db);
/* Drain everything now and wait for it (at most timeout_ms).
 * Async-signal-safe: the SIGTERM/SIGINT handler calls it too. */
void cp_flush_wait(unsigned timeout_ms);
/* Final drain (requests never seen completing become rows flagged
 * CP_F_NOTDONE), then end(db): the caller's last writes, then the close
 * of the database, all on the flusher thread (their cost grows with the
 * rows: the flusher's work, not the finalizing thread's); without a
 * flusher thread, end and the close run here.  Stops the thread. */
void cp_flush_stop(void (*end)(struct cp_db *db));

#endif
