/*
 * cp_agg.c - the aggregates (src/lib/cp_agg.h).
 *
 * The flusher's table is open addressing over (site, op, peer, size
 * class, layout), doubled when half full; times are summed in ticks and
 * turned into ns when the table is written, at the rate of that moment
 * (cp_time_dur_ns()).  A ring's spill table is the same key, fixed size:
 * its thread publishes a key once (release) and then only raises its
 * counters with relaxed stores; the flusher adds what grew since its last
 * fold.  A call whose key finds no room in either is counted under its
 * op alone (site 0, no peer, size class and layout).
 */
#include "config.h"

#include <stdlib.h>

#include "db/cp_db_write.h"
#include "pmpi/cp_calls_gen.h"
#include "src/common/cp_row.h"
#include "src/lib/cp_agg.h"
#include "src/lib/cp_event.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_ring.h"
#include "src/lib/cp_time.h"

/* One aggregate, times in ticks. */
struct agg {
	uint64_t site;
	int32_t op, peer, size_class, layout;
	uint64_t count, bytes, ticks, min, max, rows;
};

static struct agg *aggs;
static size_t cap, n;
/* counted under their op alone: [CP_CALL_*] */
static struct agg by_op[CP_CALL_COUNT];

static uint64_t hash(uint64_t site, int32_t op, int32_t peer, int32_t sc,
		     int32_t layout)
{
	uint64_t h = site * 0x9E3779B97F4A7C15ull;

	h ^= ((uint64_t)(uint32_t)op << 32 | (uint32_t)peer) *
	     0xC2B2AE3D27D4EB4Full;
	h ^= ((uint64_t)(uint32_t)sc << 32 | (uint32_t)layout) *
	     0x165667B19E3779F9ull;
	return h ^ (h >> 29);
}

static int32_t layout_key(uint32_t layout)
{
	return layout == CP_LAYOUT_NONE ? -1 : (int32_t)layout;
}

static int grow(void)
{
	size_t c = cap ? cap * 2 : 1024;
	struct agg *t = calloc(c, sizeof(*t)), *old = aggs;

	if (!t)
		return -1;
	for (size_t i = 0; i < cap; i++) {
		size_t j;

		if (!old[i].count)
			continue;
		for (j = hash(old[i].site, old[i].op, old[i].peer,
			      old[i].size_class, old[i].layout) & (c - 1);
		     t[j].count; j = (j + 1) & (c - 1))
			;
		t[j] = old[i];
	}
	free(old);
	aggs = t;
	cap = c;
	return 0;
}

/* The aggregate of a key, made when new; by_op's when there is no room. */
static struct agg *find(uint64_t site, int32_t op, int32_t peer, int32_t sc,
			int32_t layout)
{
	struct agg *a;
	size_t j;

	if ((n + 1) * 2 > cap && grow()) {
		a = &by_op[op > 0 && op < CP_CALL_COUNT ? op : 0];
		a->op = op;
		a->peer = a->size_class = a->layout = -1;
		return a;
	}
	for (j = hash(site, op, peer, sc, layout) & (cap - 1);
	     aggs[j].count; j = (j + 1) & (cap - 1)) {
		a = &aggs[j];
		if (a->site == site && a->op == op && a->peer == peer &&
		    a->size_class == sc && a->layout == layout)
			return a;
	}
	a = &aggs[j];
	*a = (struct agg){ .site = site, .op = op, .peer = peer,
			   .size_class = sc, .layout = layout,
			   .min = UINT64_MAX };
	n++;
	return a;
}

static void add(struct agg *a, uint64_t count, uint64_t bytes,
		uint64_t ticks, uint64_t min, uint64_t max, uint64_t rows)
{
	if (!a->count)
		a->min = UINT64_MAX;
	a->count += count;
	a->bytes += bytes;
	a->ticks += ticks;
	a->rows += rows;
	if (min < a->min)
		a->min = min;
	if (max > a->max)
		a->max = max;
}

void cp_agg_add(const struct cp_event *ev, int kept)
{
	add(find(ev->site, ev->call, ev->peer, cp_row_size_class(ev->bytes),
		 layout_key(ev->layout)), 1, ev->bytes, ev->dur, ev->dur,
	    ev->dur, (uint64_t)kept);
}

/* The producer's counter v raised by d (only it writes v). */
#define RAISE(v, d) atomic_store_explicit(&(v), atomic_load_explicit( \
	&(v), memory_order_relaxed) + (d), memory_order_relaxed)

void cp_agg_spill(struct cp_ring *r, const struct cp_event *ev)
{
	int32_t sc = cp_row_size_class(ev->bytes), lay = layout_key(ev->layout);
	uint64_t h = hash(ev->site, ev->call, ev->peer, sc, lay);
	struct cp_sagg *a = NULL;

	for (unsigned i = 0; i < CP_SPILL_AGGS; i++) {
		struct cp_sagg *x = &r->sagg[(h + i) & (CP_SPILL_AGGS - 1)];

		if (!atomic_load_explicit(&x->used, memory_order_relaxed)) {
			x->site = ev->site;
			x->op = ev->call;
			x->peer = ev->peer;
			x->size_class = sc;
			x->layout = lay;
			atomic_store_explicit(&x->min_ticks, UINT64_MAX,
					      memory_order_relaxed);
			atomic_store_explicit(&x->used, 1,
					      memory_order_release);
			a = x;
			break;
		}
		if (x->site == ev->site && x->op == ev->call &&
		    x->peer == ev->peer && x->size_class == sc &&
		    x->layout == lay) {
			a = x;
			break;
		}
	}
	if (!a) {		/* full: under its op alone */
		unsigned op = ev->call < CP_CALL_COUNT ? ev->call : 0;

		RAISE(r->lost_bytes[op], ev->bytes);
		RAISE(r->lost_ticks[op], ev->dur);
		atomic_store_explicit(&r->lost_n[op], atomic_load_explicit(
			&r->lost_n[op], memory_order_relaxed) + 1,
			memory_order_release);
		return;
	}
	RAISE(a->bytes, ev->bytes);
	RAISE(a->ticks, ev->dur);
	if (ev->dur < atomic_load_explicit(&a->min_ticks, memory_order_relaxed))
		atomic_store_explicit(&a->min_ticks, ev->dur,
				      memory_order_relaxed);
	if (ev->dur > atomic_load_explicit(&a->max_ticks, memory_order_relaxed))
		atomic_store_explicit(&a->max_ticks, ev->dur,
				      memory_order_relaxed);
	/* count last: the flusher folds no call without its bytes */
	atomic_store_explicit(&a->count, atomic_load_explicit(
		&a->count, memory_order_relaxed) + 1, memory_order_release);
}

void cp_agg_fold(struct cp_ring *r)
{
	for (unsigned i = 0; i < CP_SPILL_AGGS; i++) {
		struct cp_sagg *x = &r->sagg[i];
		uint64_t c, b, t;

		if (!atomic_load_explicit(&x->used, memory_order_acquire))
			continue;
		c = atomic_load_explicit(&x->count, memory_order_acquire);
		if (c == x->f_count)
			continue;
		b = atomic_load_explicit(&x->bytes, memory_order_relaxed);
		t = atomic_load_explicit(&x->ticks, memory_order_relaxed);
		add(find(x->site, x->op, x->peer, x->size_class, x->layout),
		    c - x->f_count, b - x->f_bytes, t - x->f_ticks,
		    atomic_load_explicit(&x->min_ticks, memory_order_relaxed),
		    atomic_load_explicit(&x->max_ticks, memory_order_relaxed),
		    0);
		x->f_count = c;
		x->f_bytes = b;
		x->f_ticks = t;
	}
	for (unsigned op = 0; op < CP_CALL_COUNT; op++) {
		uint64_t c = atomic_load_explicit(&r->lost_n[op],
						  memory_order_acquire);
		uint64_t b = atomic_load_explicit(&r->lost_bytes[op],
						  memory_order_relaxed);
		uint64_t t = atomic_load_explicit(&r->lost_ticks[op],
						  memory_order_relaxed);
		struct agg *a = &by_op[op];

		if (c == r->f_lost[op][0])
			continue;
		a->op = (int32_t)op;
		a->peer = a->size_class = a->layout = -1;
		add(a, c - r->f_lost[op][0], b - r->f_lost[op][1],
		    t - r->f_lost[op][2], 0, 0, 0);
		r->f_lost[op][0] = c;
		r->f_lost[op][1] = b;
		r->f_lost[op][2] = t;
	}
}

static struct cp_db_agg out_of(const struct agg *a)
{
	return (struct cp_db_agg){
		.site = a->site, .op = a->op, .peer = a->peer,
		.size_class = a->size_class, .layout = a->layout,
		.count = a->count, .bytes = a->bytes,
		.time_ns = (int64_t)cp_time_dur_ns(a->ticks),
		.min_ns = (int64_t)cp_time_dur_ns(a->min),
		.max_ns = (int64_t)cp_time_dur_ns(a->max), .rows = a->rows,
	};
}

long cp_agg_rows(struct cp_db_agg **out)
{
	struct cp_db_agg *o = malloc((n + CP_CALL_COUNT + 1) * sizeof(*o));
	long k = 0;

	*out = o;
	if (!o)
		return -1;
	for (size_t i = 0; i < cap; i++)
		if (aggs[i].count)
			o[k++] = out_of(&aggs[i]);
	for (int c = 0; c < CP_CALL_COUNT; c++)
		if (by_op[c].count)
			o[k++] = out_of(&by_op[c]);
	return k;
}
