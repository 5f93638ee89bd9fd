/*
 * cp_flush.h - per-thread rings and the flusher thread that drains them
 * into the rank's database (src/lib/cp_flush.c).
 */
#ifndef CP_FLUSH_H
#define CP_FLUSH_H

#include <stdint.h>

struct cp_db;
struct cp_event;

/*
 * cp_record - queue one finished event on this thread's ring.  Cannot
 * fail: a full ring counts the event as dropped (still in the totals).
 */
void cp_record(const struct cp_event *ev);

/* Start the flusher on an open rank database; 0 or -errno (no thread:
 * the caller warns and stops). */
int cp_flush_start(struct cp_db *db);
/* Drain everything now and wait for it (at most timeout_ms).
 * Async-signal-safe: the SIGTERM/SIGINT handler calls it too. */
void cp_flush_wait(unsigned timeout_ms);
/* Final drain, stop the thread; the database stays open. */
void cp_flush_stop(void);
/* Rows dropped because a ring was full, so far. */
uint64_t cp_flush_dropped(void);

#endif
