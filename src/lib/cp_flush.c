/*
 * cp_flush.c - per-thread rings and the flusher thread.
 *
 * Producers (the application's threads, inside wrappers) write events into
 * their own single-producer ring and never wait; the flusher drains every
 * ring, turns events into rows on the job clock, keeps the aggregates,
 * and writes one transaction per flush.  A full ring drops the event but
 * counts it per call, so totals stay complete.  A full disk keeps the
 * rows that fit, stops recording with one line, and counts the rest.
 *
 * A flush is requested through an eventfd, which a signal handler may
 * write; a requester sees its flush done when the generation counter
 * passes the one it asked for.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "db/cp_db_write.h"
#include "pmpi/cp_calls_gen.h"
#include "src/common/cp_row.h"
#include "src/common/cp_sample.h"
#include "src/lib/cp_compiler.h"
#include "src/lib/cp_event.h"
#include "src/lib/cp_flush.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_state.h"
#include "src/lib/cp_time.h"

#define BATCH 4096

struct cp_ring {
	_Atomic uint64_t head;		/* written by the producer */
	_Atomic uint64_t tail;		/* written by the flusher */
	uint64_t cap;			/* power of two */
	int thread;
	struct cp_ring *next;
	_Atomic uint64_t drop_n[CP_CALL_COUNT];	/* owner writes only */
	_Atomic uint64_t drop_bytes[CP_CALL_COUNT];
	_Atomic uint64_t drop_ticks[CP_CALL_COUNT];
	_Atomic uint64_t drop_halves;	/* receive halves of Sendrecv: rows,
					 * not calls */
	struct cp_event slot[];
};

static __thread struct cp_ring *my_ring
	__attribute__((tls_model("initial-exec")));
static _Atomic(struct cp_ring *) rings;
static _Atomic int nthreads;
static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;

static struct cp_db *db;
static pthread_t thr;
static int efd = -1;
static _Atomic uint64_t gen_asked, gen_done;
static _Atomic int stopping, running;

/* flusher-only state */
static struct cp_db_call batch[BATCH];
static size_t nbatch;
static int64_t seq, rows_kept, rows_seen;
static int64_t rows_capped;		/* sampled in, refused by max_rows */
static struct cp_seqtab *places;	/* COMMPROF_SAMPLE > 1: places of
					 * messages per channel */
static bool is_p2p[CP_CALL_COUNT], is_coll[CP_CALL_COUNT];
static int64_t rows_stored;		/* committed to the rank file */
static int64_t rows_lost_disk;		/* kept, but the disk was full */
static bool disk_full;
static uint32_t layouts_done;
static struct cp_db_agg *aggs;
static size_t aggs_cap, aggs_n;

static CP_COLD struct cp_ring *ring_attach(void)
{
	size_t cap = cp_env.ring, len = sizeof(struct cp_ring) +
					 cap * sizeof(struct cp_event);
	struct cp_ring *r = calloc(1, len);

	if (!r)
		return NULL;
	/* fault the pages in now, once, not one per 50 calls on the first
	 * pass (measured: about 30 ns a call more until the ring wrapped) */
	for (size_t o = 0; o < len; o += 4096)
		((volatile char *)r)[o] = 0;
	r->cap = cap;
	r->thread = atomic_fetch_add(&nthreads, 1);
	pthread_mutex_lock(&ring_lock);
	r->next = atomic_load(&rings);
	atomic_store(&rings, r);
	pthread_mutex_unlock(&ring_lock);
	my_ring = r;
	return r;
}

static inline void count_drop(struct cp_ring *r, const struct cp_event *ev)
{
	unsigned c = ev->call < CP_CALL_COUNT ? ev->call : 0;

	if (ev->flags & CP_F_HALF) {	/* its call is counted by the other */
		atomic_store_explicit(&r->drop_halves, atomic_load_explicit(
			&r->drop_halves, memory_order_relaxed) + 1,
			memory_order_relaxed);
		return;
	}
#define BUMP(f, v) atomic_store_explicit(&r->f[c], atomic_load_explicit( \
	&r->f[c], memory_order_relaxed) + (v), memory_order_relaxed)
	BUMP(drop_n, 1);
	BUMP(drop_bytes, ev->bytes);
	BUMP(drop_ticks, ev->dur);
#undef BUMP
}

void cp_record(const struct cp_event *ev)
{
	struct cp_ring *r = my_ring;
	uint64_t h;

	if (cp_unlikely(!r) && !(r = ring_attach()))
		return;
	h = atomic_load_explicit(&r->head, memory_order_relaxed);
	if (cp_unlikely(h - atomic_load_explicit(&r->tail,
						 memory_order_acquire) ==
			r->cap)) {
		count_drop(r, ev);
		return;
	}
	r->slot[h & (r->cap - 1)] = *ev;
	atomic_store_explicit(&r->head, h + 1, memory_order_release);
}

/* ---- flusher side ---------------------------------------------------- */

static uint64_t agg_hash(const struct cp_db_agg *a)
{
	uint64_t h = a->site * 0x9E3779B97F4A7C15ull;

	h ^= ((uint64_t)(uint32_t)a->op << 32 | (uint32_t)a->peer) *
	     0xC2B2AE3D27D4EB4Full;
	h ^= ((uint64_t)(uint32_t)a->size_class << 32 |
	      (uint32_t)a->layout) * 0x165667B19E3779F9ull;
	return h ^ (h >> 29);
}

static bool agg_same(const struct cp_db_agg *a, const struct cp_db_agg *b)
{
	return a->site == b->site && a->op == b->op && a->peer == b->peer &&
	       a->size_class == b->size_class && a->layout == b->layout;
}

static int agg_grow(void)
{
	size_t cap = aggs_cap ? aggs_cap * 2 : 1024;
	struct cp_db_agg *t = calloc(cap, sizeof(*t)), *old = aggs;

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < aggs_cap; i++) {
		size_t j;

		if (!old[i].count)
			continue;
		for (j = agg_hash(&old[i]) & (cap - 1); t[j].count;
		     j = (j + 1) & (cap - 1))
			;
		t[j] = old[i];
	}
	free(old);
	aggs = t;
	aggs_cap = cap;
	return 0;
}

static void agg_add(const struct cp_db_call *c, int kept)
{
	struct cp_db_agg k = {
		.site = c->site, .op = c->op, .peer = c->peer,
		.size_class = cp_row_size_class(c->bytes), .layout = c->layout,
	};
	size_t j;

	if ((aggs_n + 1) * 2 > aggs_cap && agg_grow())
		return;
	for (j = agg_hash(&k) & (aggs_cap - 1); aggs[j].count &&
	     !agg_same(&aggs[j], &k); j = (j + 1) & (aggs_cap - 1))
		;
	if (!aggs[j].count) {
		aggs[j] = k;
		aggs[j].min_ns = c->t_measured_ns;
		aggs_n++;
	}
	aggs[j].count++;
	aggs[j].bytes += c->bytes;
	aggs[j].time_ns += c->t_measured_ns;
	if (c->t_measured_ns < aggs[j].min_ns)
		aggs[j].min_ns = c->t_measured_ns;
	if (c->t_measured_ns > aggs[j].max_ns)
		aggs[j].max_ns = c->t_measured_ns;
	aggs[j].rows += kept;
}

static void to_row(struct cp_db_call *c, const struct cp_event *ev,
		   int thread)
{
	c->seq = seq++;
	c->op = ev->call;
	c->thread = thread;
	c->peer = ev->peer;
	c->root = ev->root;
	c->tag = ev->tag;
	c->comm_size = ev->comm_size;
	c->comm_id = ev->comm;
	c->layout = ev->layout == CP_LAYOUT_NONE ? -1 : (int32_t)ev->layout;
	c->flags = ev->flags;
	c->bytes = ev->bytes;
	c->count = ev->count;
	c->site = ev->site;
	c->t_start_ns = cp_job_ns(ev->t0);
	c->t_measured_ns = (int64_t)cp_time_dur_ns(ev->dur);
	c->t_incall_ns = ev->flags & (CP_F_NONBLOCK | CP_F_PERSIST) ?
			 (int64_t)cp_time_dur_ns(ev->incall) : -1;
	c->pred_flags = ev->pred_flags;
	for (int i = 0; i < CP_NMODELS; i++)
		c->pred_ns[i] = ev->pred_flags ? ev->pred_ns[i] : NAN;
	c->pred_lmw_ns = ev->pred_flags ? ev->pred_lmw_ns : NAN;
}

/*
 * Store rows c[0..n-1], or on a full disk the longest prefix that fits:
 * a transaction that fails for want of room is retried in halves (about
 * 2 log2(n) transactions), so the rows stored are every row up to the
 * cut, in seq order.  Returns 0, -CP_DB_EFULL (after storing what fit)
 * or another -CP_DB_E*.
 */
static int put_rows(const struct cp_db_call *c, size_t n)
{
	int rc = cp_db_put_calls(db, c, n);

	if (!rc)
		rows_stored += (int64_t)n;
	if (rc != -CP_DB_EFULL || n == 1)
		return rc;
	rc = put_rows(c, n / 2);
	return rc ? rc : put_rows(c + n / 2, n - n / 2);
}

static int write_batch(void)
{
	int64_t before = rows_stored;
	int rc = 0;

	if (nbatch)
		rc = cp_db_rank_room(db) ? put_rows(batch, nbatch) :
		     -CP_DB_EFULL;

	if (rc == -CP_DB_EFULL) {
		rows_lost_disk += (int64_t)nbatch - (rows_stored - before);
		disk_full = true;
		rc = 0;
	}
	nbatch = 0;
	return rc;
}

/* The identity of row c as src/common/cp_sample.h names it: a message
 * that went from one rank to another, or a collective call.  False for
 * any other row (probes, completions, MPI_PROC_NULL, never completed). */
static bool identity(const struct cp_db_call *c, struct cp_seqkey *k)
{
	bool recv = c->flags & CP_F_RECV;

	k->comm = c->comm_id;
	k->tag = 0;
	k->sender = k->receiver = CP_SAMPLE_COLL;
	if (c->op < 0 || c->op >= CP_CALL_COUNT)
		return false;
	if (is_coll[c->op])
		return true;
	if (!is_p2p[c->op] || c->peer < 0 || c->tag == INT32_MIN ||
	    (c->flags & (CP_F_PROCNULL | CP_F_NOTDONE | CP_F_CANCELLED)))
		return false;
	k->sender = recv ? c->peer : cp_rank;
	k->receiver = recv ? cp_rank : c->peer;
	k->tag = c->tag;
	return true;
}

/* Whether COMMPROF_SAMPLE keeps row c: a message or a collective call by
 * its identity, so that both ends of a message decide alike and the
 * matching pairs what was kept; any other row one in every N.  The place
 * of a message is counted in the order rows reach the flusher, which is
 * post order for one thread and blocking calls (or requests completed in
 * the order they were posted). */
static bool sampled(const struct cp_db_call *c)
{
	struct cp_seqkey k;
	uint64_t place;

	if (cp_env.sample <= 1)
		return true;
	if (places && identity(c, &k) && !cp_seqtab_next(places, &k, &place))
		return cp_sample_keep(cp_sample_hash(&k, place), cp_env.sample);
	return rows_seen % (int64_t)cp_env.sample == 0;
}

/* Events a flush found in the fullest ring, as a share of its size. */
static double fill_max;

static int drain(struct cp_ring *r)
{
	uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t h = atomic_load_explicit(&r->head, memory_order_acquire);
	struct cp_db_call c;
	int rc = 0;

	if ((double)(h - t) / (double)r->cap > fill_max)
		fill_max = (double)(h - t) / (double)r->cap;
	for (; t != h; t++) {
		int keep;

		to_row(&c, &r->slot[t & (r->cap - 1)], r->thread);
		/* the slot is copied: give it back now, not after SQLite */
		if ((t & 255) == 255)
			atomic_store_explicit(&r->tail, t + 1,
					      memory_order_release);
		/* count every row seen, the limit reached or not; the limit
		 * keeps a prefix of what the sampling keeps */
		keep = sampled(&c);
		rows_seen++;
		if (keep && rows_kept >= (int64_t)cp_env.max_rows) {
			rows_capped++;
			keep = 0;
		}
		if (!(c.flags & CP_F_HALF))	/* one call, one count */
			agg_add(&c, keep);
		if (!keep)
			continue;
		rows_kept++;
		if (disk_full) {
			rows_lost_disk++;
			continue;
		}
		batch[nbatch++] = c;
		if (nbatch == BATCH && (rc = write_batch()))
			break;
	}
	atomic_store_explicit(&r->tail, t, memory_order_release);
	return rc;
}

static int write_layouts(void)
{
	uint32_t n = cp_layout_count();
	struct cp_db_layout l;
	int rc = 0;

	for (; layouts_done < n && !rc; layouts_done++)
		if (!cp_layout_describe(layouts_done, &l))
			rc = cp_db_put_layouts(db, &l, 1);
	return rc;
}

/* Aggregates plus, per call, what full rings dropped (site 0, no peer). */
static int write_aggs(void)
{
	struct cp_db_agg *out = malloc((aggs_n + CP_CALL_COUNT) *
				       sizeof(*out));
	size_t n = 0;
	int rc;

	if (!out)
		return -CP_DB_ENOMEM;
	for (size_t i = 0; i < aggs_cap; i++)
		if (aggs[i].count)
			out[n++] = aggs[i];
	for (int c = 0; c < CP_CALL_COUNT; c++) {
		struct cp_db_agg d = { .op = c, .peer = -1, .size_class = -1,
				       .layout = -1 };

		for (struct cp_ring *r = atomic_load(&rings); r; r = r->next) {
			d.count += atomic_load(&r->drop_n[c]);
			d.bytes += atomic_load(&r->drop_bytes[c]);
			d.time_ns += (int64_t)cp_time_dur_ns(
				atomic_load(&r->drop_ticks[c]));
		}
		if (d.count)
			out[n++] = d;
	}
	rc = cp_db_put_aggs(db, out, n);
	free(out);
	return rc;
}

/* Rows (not calls: a Sendrecv makes two) that found their ring full. */
uint64_t cp_flush_dropped(void)
{
	uint64_t n = 0;

	for (struct cp_ring *r = atomic_load(&rings); r; r = r->next) {
		n += atomic_load(&r->drop_halves);
		for (int c = 0; c < CP_CALL_COUNT; c++)
			n += atomic_load(&r->drop_n[c]);
	}
	return n;
}

/* The rank's row and thread counts (db/schema.sql, meta). */
static int put_counts(void)
{
	static const char *const keys[] = {
		"rows_dropped", "rows_not_kept", "rows_lost_disk", "threads",
		"rows_capped",
	};
	int64_t v[] = {
		(int64_t)cp_flush_dropped(), rows_seen - rows_kept,
		rows_lost_disk, atomic_load(&nthreads), rows_capped,
	};

	return cp_db_put_counts(db, keys, v, 5);
}

/* The disk has just filled up: one line, recording stops (the flushes
 * that follow count what the rings still hold as lost), and the reserve
 * makes room for the aggregates and meta of this flush and the last. */
static void disk_full_stop(void)
{
	char what[sizeof(cp_env.dir) + 128];

	snprintf(what, sizeof(what),
		 "cannot write %s/rank-%05d.db: disk full after %lld call rows",
		 cp_env.dir, cp_rank, (long long)rows_stored);
	cp_warn_once(what);
	cp_db_rank_unreserve(db);
}

/* One flush; last: the one at cp_flush_stop().  Returns 0 or -CP_DB_E*
 * (the disk filling up is not an error: see disk_full_stop). */
static int flush_once(bool last)
{
	bool was_full = disk_full;
	int rc = 0;

	cp_time_refine();
	fill_max = 0;
	for (struct cp_ring *r = atomic_load(&rings); r && !rc; r = r->next)
		rc = drain(r);
	if (!rc)
		rc = write_batch();
	if (rc)
		return rc;
	if (disk_full && !was_full)
		disk_full_stop();
	else if (was_full && !last)
		return 0;	/* the reserve is for now and the end only */
	rc = cp_db_begin(db);	/* one commit: see cp_db_begin() */
	if (!rc)
		rc = write_layouts();
	if (!rc)
		rc = write_aggs();
	if (!rc)
		rc = put_counts();
	return rc ? (cp_db_commit(db), rc) : cp_db_commit(db);
}

static void *flusher(void *arg)
{
	struct pollfd p = { .fd = efd, .events = POLLIN };
	sigset_t all;
	uint64_t x;

	(void)arg;
	sigfillset(&all);		/* signals go to the app's threads */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		uint64_t asked;
		int stop;

		/* a ring that was a quarter full is drained again soon:
		 * the producers never wait, so we come to them */
		int wait_ms = fill_max > 0.25 ? 1 : (int)cp_env.flush_ms;

		if (poll(&p, 1, wait_ms) > 0 &&
		    read(efd, &x, sizeof(x)) < 0)
			(void)0;
		/* read after waking: this flush covers every request and
		 * every event made before this point */
		stop = atomic_load(&stopping);
		asked = atomic_load(&gen_asked);
		if (atomic_load(&running) && flush_once(stop)) {
			char what[sizeof(cp_env.dir) + 256];

			snprintf(what, sizeof(what),
				 "cannot write %s/rank-%05d.db: %s",
				 cp_env.dir, cp_rank, cp_db_errmsg(db));
			atomic_store(&running, 0);
			cp_warn_once(what);
		}
		atomic_store(&gen_done, asked);
		if (stop)
			return NULL;
	}
}

int cp_flush_start(struct cp_db *d)
{
	static const char *const cls[] = CP_CALL_CLASSES;

	db = d;
	for (int i = 0; i < CP_CALL_COUNT; i++) {
		is_p2p[i] = !strcmp(cls[i], "p2p");
		is_coll[i] = !strcmp(cls[i], "coll");
	}
	/* without the table every row is sampled one in every N */
	if (cp_env.sample > 1)
		places = cp_seqtab_new();
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd < 0)
		return -errno;
	if (!ring_attach())
		return -ENOMEM;
	atomic_store(&running, 1);
	if (pthread_create(&thr, NULL, flusher, NULL)) {
		atomic_store(&running, 0);
		return -EAGAIN;
	}
	return 0;
}

/* Ask for a flush and wait until one that started later is done.  Only
 * async-signal-safe calls: atomics, write, nanosleep. */
void cp_flush_wait(unsigned timeout_ms)
{
	uint64_t one = 1, g = atomic_fetch_add(&gen_asked, 1) + 1;
	struct timespec ms = { 0, 1000000 };

	if (efd < 0 || !atomic_load(&running))
		return;
	if (write(efd, &one, sizeof(one)) < 0)
		return;
	for (unsigned i = 0; i < timeout_ms && atomic_load(&gen_done) < g;
	     i++)
		nanosleep(&ms, NULL);
}

void cp_flush_stop(void)
{
	uint64_t one = 1;

	if (efd < 0)
		return;
	atomic_fetch_add(&gen_asked, 1);
	atomic_store(&stopping, 1);
	if (write(efd, &one, sizeof(one)) < 0)
		(void)0;
	pthread_join(thr, NULL);
	close(efd);
	efd = -1;
	cp_seqtab_free(places);
	places = NULL;
}
