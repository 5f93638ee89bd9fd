/*
 * cp_flush.c - the flusher thread: it drains every thread's ring of raw
 * records, derives each call (src/lib/cp_derive.h), pairs requests'
 * posts and completions (src/lib/cp_req.h), counts the aggregates
 * (src/lib/cp_agg.h), prices the rows it keeps (src/lib/cp_pred_rt.h)
 * and writes them into the rank's database.
 *
 * Draining comes first: a ring the flusher reaches late drops calls, a
 * write that lags only holds rows in memory.  So derived rows wait in a
 * queue (up to eight rings' worth) and are written in transactions of
 * BATCH rows, the rings drained again between two transactions.  The
 * flusher sleeps between drains as long as the fastest ring takes to
 * fill an eighth at its last rate, at least 1 ms; idle, as long as a ring
 * takes to fill half at IDLE_RATE calls a second (33 ms for the default
 * ring), so that a burst after a quiet spell finds room too; never more
 * than COMMPROF_FLUSH_MS.  The aggregates, layouts and counts are
 * written every COMMPROF_FLUSH_MS.
 * A full disk keeps the rows that fit, stops recording with one line,
 * and counts the rest.
 *
 * A flush is requested through an eventfd, which a signal handler may
 * write; a requester sees its flush done when the generation counter
 * passes the one it asked for.
 */
#include "config.h"

#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "db/cp_db_write.h"
#include "src/common/cp_row.h"
#include "src/common/cp_sample.h"
#include "src/lib/cp_agg.h"
#include "src/lib/cp_comm.h"
#include "src/lib/cp_compiler.h"
#include "src/lib/cp_derive.h"
#include "src/lib/cp_event.h"
#include "src/lib/cp_flush.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_pred_rt.h"
#include "src/lib/cp_tau.h"
#include "src/lib/cp_req.h"
#include "src/lib/cp_ring.h"
#include "src/lib/cp_state.h"
#include "src/lib/cp_time.h"

#define BATCH 2048		/* rows per transaction: about 2 ms */
#define WAL_MAX 65536		/* log pages (256 MiB) moved into the file
				 * however busy the rings are */
#define FOLD_NS_PER_PAGE 40000	/* moving the log: a page at 100 MB/s, */
#define FOLD_NS 20000000	/* and two fsyncs */
#define CHUNK 4096		/* rows per block of the queue */
#define GRACE_NS 100000000	/* a freed handle's meaning kept after
				 * its retire record, at least */
#define IDLE_RATE 1000000	/* calls/s an idle flusher is ready for */
#define RATE_WIN_NS 2000000	/* a ring's rate is measured over at
				 * least this long */

static struct cp_db *db;
static pthread_t thr;
static int efd = -1;
static _Atomic uint64_t gen_asked, gen_done;
static _Atomic int stopping, running;
static bool started;			/* the thread exists */
static void (*end_writes)(struct cp_db *db);
static bool keep_open;			/* cp_flush_stop: the caller closes */

/* ---- flusher-only state ---- */

/* A row waiting to be written. */
struct srow {
	struct cp_event ev;
	int64_t seq;
	int32_t thread;
};

/* The queue: blocks of CHUNK rows, written from the first. */
struct chunk {
	struct chunk *next;
	size_t head, tail;	/* rows written, rows in */
	struct srow row[CHUNK];
};
static struct chunk *qfirst, *qlast, *qspare;
static size_t queued, queue_max;

static struct cp_db_call batch[BATCH];
static uint64_t cycle;			/* drains so far */
static uint64_t last_full;		/* the last drain that read every ring
					 * to its head */
static int64_t seq, rows_kept, rows_seen;
static int64_t rows_capped;		/* sampled in, refused by max_rows */
static bool paused;			/* MPI_Pcontrol(0) read, no level
					 * since: rows counted, not kept */
static struct cp_seqtab *places;	/* COMMPROF_SAMPLE > 1: places of
					 * messages per channel */
static bool is_p2p[CP_CALL_COUNT], is_coll[CP_CALL_COUNT];
static int64_t rows_stored;		/* committed to the rank file */
static int64_t rows_lost_disk;		/* kept, but the disk was full */
static bool disk_full;
static uint32_t layouts_done;
static uint64_t last_meta_ns, win_start_ns;
static uint64_t gc_mark[2], gc_mark_ns;	/* last_full at the last two
					 * marks, GRACE_NS apart: the handles'
					 * grace */
static int wait_ms;			/* until the next drain */
static uint64_t fill_ns;		/* the fastest ring fills half in this
					 * long, at the last window's rate */

/* ---- the queue ---- */

static struct srow *queue_slot(void)
{
	struct chunk *c = qlast;

	if (!c || c->tail == CHUNK) {
		c = qspare;
		if (c)
			qspare = NULL;
		else if (!(c = malloc(sizeof(*c))))
			return NULL;
		c->next = NULL;
		c->head = c->tail = 0;
		if (qlast)
			qlast->next = c;
		else
			qfirst = c;
		qlast = c;
	}
	queued++;
	return &c->row[c->tail++];
}

/* The oldest queued row, NULL when none; queue_pop() drops it. */
static struct srow *queue_peek(void)
{
	return qfirst && qfirst->head < qfirst->tail ?
	       &qfirst->row[qfirst->head] : NULL;
}

static void queue_pop(void)
{
	struct chunk *c = qfirst;

	queued--;
	if (++c->head < c->tail)
		return;
	if (c == qlast) {	/* empty: the last block stays, reset */
		c->head = c->tail = 0;
		return;
	}
	qfirst = c->next;	/* a block read to its end: one is kept */
	free(qspare);
	qspare = c;
}

/* ---- from records to rows ---- */

/* The identity of event ev as src/common/cp_sample.h names it: a
 * message that went from one rank to another, or a collective call.
 * False for any other row (probes, completions, MPI_PROC_NULL, never
 * completed). */
static bool identity(const struct cp_event *ev, struct cp_seqkey *k)
{
	bool recv = ev->flags & CP_F_RECV;

	k->comm = ev->comm;
	k->tag = 0;
	k->sender = k->receiver = CP_SAMPLE_COLL;
	if (ev->call >= CP_CALL_COUNT)
		return false;
	if (is_coll[ev->call])
		return true;
	if (!is_p2p[ev->call] || ev->peer < 0 || ev->tag == CP_TAG_NONE ||
	    (ev->flags & (CP_F_PROCNULL | CP_F_NOTDONE | CP_F_CANCELLED)))
		return false;
	k->sender = recv ? ev->peer : cp_rank;
	k->receiver = recv ? cp_rank : ev->peer;
	k->tag = ev->tag;
	return true;
}

/* Whether COMMPROF_SAMPLE keeps the row of ev: a message or a collective
 * call by its identity, so that both ends of a message decide alike and
 * the matching pairs what was kept; any other row one in every N.  The
 * place of a message is counted in the order the flusher derives rows,
 * which is post order for one thread and blocking calls (or requests
 * completed in the order they were posted). */
static bool sampled(const struct cp_event *ev)
{
	struct cp_seqkey k;
	uint64_t place;

	if (cp_env.sample <= 1)
		return true;
	if (places && identity(ev, &k) && !cp_seqtab_next(places, &k, &place))
		return cp_sample_keep(cp_sample_hash(&k, place), cp_env.sample);
	return rows_seen % (int64_t)cp_env.sample == 0;
}

/* 1 for the halves of a Sendrecv, which run at once. */
static int sendrecv(unsigned call)
{
	return call == CP_CALL_MPI_Sendrecv ||
	       call == CP_CALL_MPI_Sendrecv_replace;
}

/* Count ev (of thread, on communicator ci) and keep or queue its row:
 * the sampling by identity, then a prefix of what it keeps up to
 * COMMPROF_MAX_ROWS. */
static void emit(struct cp_event *ev, const struct cp_comm_info *ci,
		 int thread)
{
	int64_t s = seq++;
	bool keep = sampled(ev);
	struct srow *q;

	rows_seen++;
	if (paused)
		keep = false;
	if (keep && rows_kept >= (int64_t)cp_env.max_rows) {
		rows_capped++;
		keep = false;
	}
	/* count every row seen, the limit reached or not; a Sendrecv's
	 * receive half is a row, not a call */
	if (!(ev->flags & CP_F_HALF))
		cp_agg_add(ev, keep);
	if (!keep)
		return;
	rows_kept++;
	if (disk_full || !(q = queue_slot())) {
		rows_lost_disk++;
		return;
	}
	cp_pred_maybe(ev, ci);
	q->ev = *ev;
	q->seq = s;
	q->thread = thread;
}

/* The rows of a request (two for an Isendrecv: its receive half),
 * completed on thread (freed active counts as completed); tau: the
 * thread's messages in flight, NULL at the end. */
static void emit_rows(const struct cp_req_row *o, struct cp_tau *tau,
		      int thread)
{
	for (int i = 0; i < 1 + !!o->has_half; i++) {
		struct cp_event ev = i ? o->half : o->ev;

		if (tau)
			cp_tau_done(tau, &ev);
		emit(&ev, o->ci, thread);
	}
}

static void emit_req(const struct cp_req_row *o, struct cp_ring *r)
{
	emit_rows(o, &r->f_tau, r->thread);
}

static void on_post(const struct cp_raw *s, struct cp_ring *r)
{
	unsigned k = CP_W0_KIND(s->w0);
	const struct cp_comm_info *ci;
	struct cp_req_row o;
	struct cp_event ev;
	uint64_t size;

	cp_derive(s, &ev, &ci, &size);
	if (k == CP_RK_ISEND || k == CP_RK_IRECV)
		cp_tau_post(&r->f_tau, &ev);	/* persistent: at start */
	if (ev.flags & CP_F_HALF) {	/* an Isendrecv's receive */
		if (cp_req_post_half(s->u.p.req, s->t0, &ev, ci, size, &o))
			emit_req(&o, r);
		return;
	}
	if (cp_req_post(k == CP_RK_ICOLL ? s->u.c.req : s->u.p.req, s->t0,
			&ev, ci, size, k == CP_RK_PSEND || k == CP_RK_PRECV ||
			(k == CP_RK_ICOLL && (CP_W0_FL(s->w0) & CP_RF_PCOLL)),
			&o))
		emit_req(&o, r);
}

/* A completion call's record, with what it completed. */
static void on_done(const struct cp_raw *s, struct cp_ring *r)
{
	const struct cp_comm_info *ci;
	struct cp_req_row o;
	struct cp_event ev;
	uint64_t size;

	if (CP_W0_KIND(s->w0) == CP_RK_ITEM ||
	    (CP_W0_FL(s->w0) & CP_RF_ITEM)) {
		if (cp_req_done(s->u.d.req, &s->u.d.st, s->t0, s->t1, cycle,
				&o)) {
			emit_req(&o, r);
			r->f_items++;
		}
	}
	if (CP_W0_KIND(s->w0) == CP_RK_ITEM)
		return;
	cp_derive(s, &ev, &ci, &size);
	ev.count = r->f_items;	/* requests it completed */
	r->f_items = 0;
	emit(&ev, ci, r->thread);
}

static void record(const struct cp_raw *s, struct cp_ring *r)
{
	const struct cp_comm_info *ci;
	struct cp_req_row o;
	struct cp_event ev;
	uint64_t size;

	switch (CP_W0_KIND(s->w0)) {
	case CP_RK_SEND: case CP_RK_RECV:
		cp_derive(s, &ev, &ci, &size);
		cp_tau_blocking(&r->f_tau, &ev, sendrecv(ev.call));
		emit(&ev, ci, r->thread);
		break;
	case CP_RK_PROBE: case CP_RK_COLL:
		cp_derive(s, &ev, &ci, &size);
		emit(&ev, ci, r->thread);
		break;
	case CP_RK_XFER:
		/* the rows read between MPI_Pcontrol(0) and the next
		 * level are counted, not kept; both calls' own are kept */
		cp_derive(s, &ev, &ci, &size);
		if (ev.call == CP_CALL_MPI_Pcontrol && s->u.o.count)
			paused = false;
		emit(&ev, ci, r->thread);
		if (ev.call == CP_CALL_MPI_Pcontrol && !s->u.o.count)
			paused = true;
		break;
	case CP_RK_ISEND: case CP_RK_IRECV: case CP_RK_ICOLL:
	case CP_RK_PSEND: case CP_RK_PRECV:
		on_post(s, r);
		break;
	case CP_RK_START:
		cp_req_start(s->u.q.req, s->t0, &r->f_tau);
		break;
	case CP_RK_ITEM: case CP_RK_DONE:
		on_done(s, r);
		break;
	case CP_RK_FREE:
		if (CP_W0_FL(s->w0) & CP_RF_CANCEL)
			cp_req_cancel(s->u.q.req, s->t0);
		else if (cp_req_free(s->u.q.req, s->t0, &o))
			emit_req(&o, r);
		break;
	case CP_RK_RETIRE:
		if (CP_W0_FL(s->w0) & CP_RF_COMM)
			cp_comm_retire((MPI_Comm)s->u.x.handle, s->t0, cycle);
		else
			cp_layout_retire((MPI_Datatype)s->u.x.handle, s->t0,
					 cycle);
		break;
	default:	/* CP_RK_PAD */
		break;
	}
	switch (CP_W0_KIND(s->w0)) {
	case CP_RK_SEND: case CP_RK_RECV: case CP_RK_PROBE: case CP_RK_COLL:
	case CP_RK_XFER: case CP_RK_ITEM: case CP_RK_DONE:
		cp_tau_left(&r->f_tau, s->t0, s->t1);	/* quiet gaps */
		break;
	default:	/* posts, starts, frees: no data moved */
		break;
	}
}

/* Read r's records up to its head; *n: how many.  Stops when the queue
 * is full; returns true when it read them all. */
static bool drain(struct cp_ring *r, uint64_t *n)
{
	uint64_t t = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t h = atomic_load_explicit(&r->head, memory_order_acquire);

	*n = h - t;
	for (; t != h && queued < queue_max; t++) {
		record(&r->slot[t & r->mask], r);
		/* give read slots back now, not after SQLite */
		if ((t & 255) == 255)
			atomic_store_explicit(&r->tail, t + 1,
					      memory_order_release);
	}
	atomic_store_explicit(&r->tail, t, memory_order_release);
	return t == h;
}

/* Drain every ring.  Once a rate window of RATE_WIN_NS has passed, sets
 * fill_ns and wait_ms from the fastest ring's rate over it: two drains a
 * few microseconds apart (the last write of a burst was short) read no
 * record, and that once made a busy flusher think itself idle: it moved
 * the log and slept a quiet spell's wait while a ring filled. */
static void drain_all(void)
{
	uint64_t now = cp_mono_ns(), dt = now - win_start_ns, n, most = 0, ms;
	struct cp_ring *r;
	bool all = true, win = dt >= RATE_WIN_NS;

	cycle++;
	for (r = cp_ring_list(); r; r = r->next) {
		all &= drain(r, &n);
		r->f_win += n;
		if (win && r->f_win * 1000000 / (r->mask + 1) > most)
			most = r->f_win * 1000000 / (r->mask + 1);
		if (win)
			r->f_win = 0;
	}
	/* every record published before this drain began is read: what
	 * an earlier drain read waited for nothing else */
	if (all)
		last_full = cycle;
	cp_req_age(last_full);
	if (!win)
		return;
	win_start_ns = now;
	fill_ns = most ? 500000 * dt / most : UINT64_MAX;
	/* most: millionths of a ring in dt; wait for an eighth */
	ms = cp_env.ring * 1000 / 2 / IDLE_RATE;
	if (most)
		ms = 125000 * dt / most / 1000000;
	wait_ms = ms < 1 ? 1 : ms < cp_env.flush_ms ? (int)ms :
		  (int)cp_env.flush_ms;
}

/* Cut the handles' generations whose retire record was read before a
 * drain that read every ring, itself GRACE_NS ago at least: every record
 * made before their free has been read by now (but one still inside a
 * blocking call that long, on a handle another thread freed under it
 * and made again: its row gets the unknown layout or communicator). */
static void handles_gc(void)
{
	uint64_t now = cp_mono_ns();

	if (now - gc_mark_ns < GRACE_NS)
		return;
	if (gc_mark[0]) {
		cp_layout_gc(gc_mark[0] - 1);
		cp_comm_gc(gc_mark[0] - 1);
	}
	gc_mark[0] = gc_mark[1];
	gc_mark[1] = last_full;
	gc_mark_ns = now;
}

/* ---- writing ---- */

static void to_row(struct cp_db_call *c, const struct srow *q)
{
	const struct cp_event *ev = &q->ev;

	c->seq = q->seq;
	c->op = ev->call;
	c->thread = q->thread;
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
	c->alg = ev->alg;
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

/* Write one transaction of queued rows.  Returns 0 or -CP_DB_E* (the
 * disk filling up is not an error: the rows left count as lost). */
static int write_batch(void)
{
	int64_t before = rows_stored;
	size_t n = 0;
	int rc;

	for (struct srow *q; n < BATCH && (q = queue_peek()); queue_pop())
		to_row(&batch[n++], q);
	if (!n)
		return 0;
	if (disk_full) {
		rows_lost_disk += (int64_t)n;
		return 0;
	}
	rc = cp_db_rank_room(db) ? put_rows(batch, n) : -CP_DB_EFULL;
	if (rc == -CP_DB_EFULL) {
		rows_lost_disk += (int64_t)n - (rows_stored - before);
		disk_full = true;
		rc = 0;
	}
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

static int write_aggs(void)
{
	struct cp_db_agg *a;
	long n;
	int rc;

	for (struct cp_ring *r = cp_ring_list(); r; r = r->next)
		cp_agg_fold(r);
	n = cp_agg_rows(&a);
	if (n < 0)
		return -CP_DB_ENOMEM;
	rc = cp_db_put_aggs(db, a, (size_t)n);
	free(a);
	return rc;
}

/* The rank's row and thread counts (db/schema.sql, meta). */
static int put_counts(void)
{
	static const char *const keys[] = {
		"rows_dropped", "rows_not_kept", "rows_lost_disk", "threads",
		"rows_capped",
	};
	int64_t v[] = {
		(int64_t)cp_ring_dropped(), rows_seen - rows_kept,
		rows_lost_disk, cp_ring_threads(), rows_capped,
	};

	return cp_db_put_counts(db, keys, v, 5);
}

/* The disk has just filled up: one line, no more rows (the calls that
 * follow are still counted, their rows as lost), and half the reserve
 * makes room for the aggregates and meta of this flush, the other half
 * for the last. */
static void disk_full_stop(void)
{
	char what[sizeof(cp_env.dir) + 128];

	snprintf(what, sizeof(what),
		 "cannot write %s/rank-%05d.db: disk full after %lld call rows",
		 cp_env.dir, cp_rank, (long long)rows_stored);
	cp_warn_line(what);
	cp_db_rank_unreserve(db);
}

/* Aggregates, layouts and counts, in one commit (see cp_db_begin()). */
static int write_meta(void)
{
	int rc = cp_db_begin(db);

	if (!rc)
		rc = write_layouts();
	if (!rc)
		rc = write_aggs();
	if (!rc)
		rc = put_counts();
	last_meta_ns = cp_mono_ns();
	return rc ? (cp_db_commit(db), rc) : cp_db_commit(db);
}

/* Move the write-ahead log into the file while the rings can wait for
 * it: a 32 MiB log took 120 ms, in which a ring filled at 1M calls/s.
 * Not on a full disk: the file grows by what the log holds, and the room
 * left is for the last counts. */
static void fold_log(void)
{
	uint64_t pages = (uint64_t)cp_db_wal_frames(db);

	if (pages && !disk_full &&
	    fill_ns > 2 * (FOLD_NS + pages * FOLD_NS_PER_PAGE))
		cp_db_wal_fold(db);
}

/* The end: requests never seen completing become rows, "not done". */
static void pending_rows(void)
{
	uint64_t now = cp_ticks();
	struct cp_req_row o;

	while (cp_req_pending(now, &o))
		emit_rows(&o, NULL, 0);
}

/* One wake-up: drain, write what was queued, and the meta when due (or
 * full: asked for, or the last).  Returns 0 or -CP_DB_E* (the disk
 * filling up is not an error: see disk_full_stop). */
static int flush_once(bool full, bool last)
{
	bool was_full = disk_full;
	int rc = 0;

	cp_time_refine();
	drain_all();
	if (last)
		pending_rows();
	while (!rc && queued) {
		rc = write_batch();
		if (cp_db_wal_frames(db) > WAL_MAX && !disk_full)
			cp_db_wal_fold(db);
		if (!last)
			drain_all();
	}
	fold_log();
	handles_gc();
	if (rc)
		return rc;
	if (disk_full && !was_full)
		disk_full_stop();
	else if (was_full && !last)
		return 0;	/* the reserve is for now and the end only */
	else if (was_full)
		cp_db_rank_unreserve(db);	/* its second half */
	if (!full && !(disk_full && !was_full) &&
	    cp_mono_ns() - last_meta_ns < cp_env.flush_ms * 1000000)
		return 0;
	return write_meta();
}

/* The socket (physical package) of CPU cpu, -1 unknown. */
static int cpu_socket(int cpu)
{
	char path[96];
	FILE *f;
	int id = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/"
		 "physical_package_id", cpu);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%d", &id) != 1)
			id = -1;
		fclose(f);
	}
	return id;
}

/*
 * Where the flusher runs.  It inherits the affinity of the thread that
 * called MPI_Init: a rank bound to one core (Open MPI binds each rank
 * to a core by default up to two ranks) would share that core with its
 * flusher, which takes most of a core at a million rows a second, and
 * the application would lose what the flusher takes even on a node
 * with idle cores.  So, unless COMMPROF_FLUSH_CPU=rank, the flusher of
 * a bound rank may run on every CPU of the rank's sockets: the kernel
 * keeps it within the job's cpuset and puts it on an idle CPU when there
 * is one; on a node where every core runs a rank it costs the ranks what
 * it would have cost its own.  An unbound rank's flusher is left as it
 * is.  Failures leave the inherited affinity.
 */
static void flusher_cpus(void)
{
	int id[CPU_SETSIZE];		/* each CPU's socket, -1 unknown */
	cpu_set_t mine, want;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	bool sock[64] = { false }, any = false;
	int cpu;

	if (cp_env.flush_cpu_rank || ncpu < 2 ||
	    pthread_getaffinity_np(pthread_self(), sizeof(mine), &mine) ||
	    CPU_COUNT(&mine) >= ncpu)
		return;
	if (ncpu > CPU_SETSIZE)
		ncpu = CPU_SETSIZE;
	for (cpu = 0; cpu < ncpu; cpu++) {
		id[cpu] = cpu_socket(cpu);
		if (id[cpu] >= 64)
			id[cpu] = -1;
		if (!CPU_ISSET(cpu, &mine))
			continue;
		if (id[cpu] < 0)
			any = true;
		else
			sock[id[cpu]] = true;
	}
	CPU_ZERO(&want);
	for (cpu = 0; cpu < ncpu; cpu++)
		if (any || id[cpu] < 0 || sock[id[cpu]])
			CPU_SET(cpu, &want);
	/* the kernel leaves out what the job's cpuset does not allow */
	(void)pthread_setaffinity_np(pthread_self(), sizeof(want), &want);
}

static void *flusher(void *arg)
{
	struct pollfd p = { .fd = efd, .events = POLLIN };
	sigset_t all;
	uint64_t x;

	(void)arg;
	sigfillset(&all);		/* signals go to the app's threads */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	flusher_cpus();
	for (;;) {
		uint64_t asked;
		int stop;

		if (poll(&p, 1, wait_ms) > 0 &&
		    read(efd, &x, sizeof(x)) < 0)
			(void)0;
		/* read after waking: this flush covers every request and
		 * every call made before this point */
		stop = atomic_load(&stopping);
		asked = atomic_load(&gen_asked);
		if (atomic_load(&running) &&
		    flush_once(stop || asked != atomic_load(&gen_done),
			       stop)) {
			char what[sizeof(cp_env.dir) + 256];

			snprintf(what, sizeof(what),
				 "cannot write %s/rank-%05d.db: %s",
				 cp_env.dir, cp_rank, cp_db_errmsg(db));
			atomic_store(&running, 0);
			cp_warn_once(what);
		}
		atomic_store(&gen_done, asked);
		if (stop) {
			end_writes(db);
			if (!keep_open)
				cp_db_close(db);
			return NULL;
		}
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
	queue_max = 8 * cp_env.ring;
	wait_ms = 1;
	last_meta_ns = win_start_ns = cp_mono_ns();
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd < 0)
		return -errno;
	if (!cp_my_ring && !cp_ring_attach())
		return -ENOMEM;
	atomic_store(&running, 1);
	if (pthread_create(&thr, NULL, flusher, NULL)) {
		atomic_store(&running, 0);
		return -EAGAIN;
	}
	(void)pthread_setname_np(thr, "commprof");	/* as top -H shows it */
	started = true;
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

void cp_flush_stop(void (*end)(struct cp_db *db), bool keep)
{
	uint64_t one = 1;

	keep_open = keep;
	if (!started) {
		end(db);
		if (!keep)
			cp_db_close(db);
	} else {
		end_writes = end;
		atomic_fetch_add(&gen_asked, 1);
		atomic_store(&stopping, 1);
		if (write(efd, &one, sizeof(one)) < 0)
			(void)0;
		pthread_join(thr, NULL);
		started = false;
	}
	if (efd >= 0)
		close(efd);
	efd = -1;
	cp_seqtab_free(places);
	places = NULL;
}
