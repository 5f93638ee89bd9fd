/*
 * cp_taulop_eval.c - tau-Lop's formulas (analysis/cp_taulop.h): the
 * parameters at any size and concurrency, one transmission, one round,
 * a whole collective; and the per-process baselines over the same
 * rounds.  libc and libm only.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "analysis/cp_model.h"
#include "analysis/cp_taulop.h"

static bool chan_ok(const struct cp_taulop_chan *ch)
{
	return ch && ch->nsizes >= 1 && ch->ntau >= 1 && ch->size_bytes &&
	       ch->tau && ch->o_s && ch->l_s;
}

double cp_taulop_o(const struct cp_taulop_chan *ch, double bytes,
		   unsigned *flags)
{
	int a;
	double w;

	if (!chan_ok(ch) || !(bytes >= 0))
		return NAN;
	if (cp_model_locate(ch->size_bytes, ch->nsizes, bytes, &a, &w) &&
	    bytes > ch->size_bytes[ch->nsizes - 1] && flags)
		*flags |= CP_TL_F_EXTRAP_SIZE;
	return cp_model_lerp(ch->o_s, 1, a, w, ch->nsizes);
}

/* L of table tab (ch's l_s, lw_s or ls_s) at measured size index is,
 * linear in tau. */
static double l_at_size(const struct cp_taulop_chan *ch, const double *tab,
			int is, double tau, unsigned *flags)
{
	const double *row = tab + (size_t)is * ch->ntau;
	double tmax = ch->tau[ch->ntau - 1];
	int a;
	double w;

	if (tau > tmax) {
		if (flags)
			*flags |= CP_TL_F_EXTRAP_TAU;
		return row[ch->ntau - 1] * tau / tmax;
	}
	cp_model_locate(ch->tau, ch->ntau, tau, &a, &w);
	return cp_model_lerp(row, 1, a, w, ch->ntau);
}

/* L of table tab at (m, tau), as cp_taulop_l says. */
static double l_of(const struct cp_taulop_chan *ch, const double *tab,
		   double bytes, double tau, unsigned *flags)
{
	int a, n;
	double w, mmax;

	if (!chan_ok(ch) || !(bytes >= 0) || !(tau >= 1))
		return NAN;
	n = ch->nsizes;
	mmax = ch->size_bytes[n - 1];
	if (bytes > mmax && mmax > 0) {
		if (flags)
			*flags |= CP_TL_F_EXTRAP_SIZE;
		return l_at_size(ch, tab, n - 1, tau, flags) * bytes / mmax;
	}
	cp_model_locate(ch->size_bytes, n, bytes, &a, &w);
	if (n == 1 || w == 0)
		return l_at_size(ch, tab, a, tau, flags);
	return (1 - w) * l_at_size(ch, tab, a, tau, flags) +
	       w * l_at_size(ch, tab, a + 1, tau, flags);
}

double cp_taulop_l(const struct cp_taulop_chan *ch, double bytes, double tau,
		   unsigned *flags)
{
	return l_of(ch, ch ? ch->l_s : NULL, bytes, tau, flags);
}

/* The gap table of ch at measured size index is and gap > 0. */
static double gap_at_size(const struct cp_taulop_chan *ch, int is, double gap)
{
	const double *row = ch->lg_s + (size_t)is * ch->ngap;
	const double *g = ch->gap_s;
	int n = ch->ngap, a;
	double w;

	if (gap <= g[0])
		return row[0] * gap / g[0];
	if (gap >= g[n - 1])
		return row[n - 1];
	for (a = 0; a + 2 < n && gap >= g[a + 1]; a++)
		;
	w = log(gap / g[a]) / log(g[a + 1] / g[a]);
	if (w == 0)	/* a measured gap: its cell alone */
		return row[a];
	return (1 - w) * row[a] + w * row[a + 1];
}

double cp_taulop_gap(const struct cp_taulop_chan *ch, double bytes,
		     double gap_s)
{
	int a, n;
	double w, v;

	if (!chan_ok(ch) || ch->ngap < 1 || !ch->gap_s || !ch->lg_s ||
	    !(gap_s > 0) || !(bytes >= 0))
		return 0;
	n = ch->nsizes;
	if (bytes >= ch->size_bytes[n - 1]) {
		v = gap_at_size(ch, n - 1, gap_s);
	} else {
		cp_model_locate(ch->size_bytes, n, bytes, &a, &w);
		v = gap_at_size(ch, a, gap_s);
		if (n > 1 && w != 0)
			v = (1 - w) * v + w * gap_at_size(ch, a + 1, gap_s);
	}
	return isfinite(v) ? v : 0;
}

double cp_taulop_p2p(const struct cp_taulop *m, int chan, double bytes,
		     double tau, double gap_s, unsigned *flags)
{
	const struct cp_taulop_chan *ch;
	double o, t;

	if (!m || chan < 0 || chan >= CP_TL_NCHAN)
		return NAN;
	ch = &m->ch[chan];
	o = cp_taulop_o(ch, bytes, flags);
	t = o + ch->hops * l_of(ch, ch->lw_s ? ch->lw_s : ch->l_s, bytes,
				tau, flags) + cp_taulop_gap(ch, bytes, gap_s);
	return t < o ? o : t;
}

/* cp_taulop_round with the transfers priced from table tab of ch. */
static double round_with(const struct cp_taulop_chan *ch, const double *tab,
			 const double *sizes, const int *counts, int d,
			 double o_s, unsigned *flags)
{
	double x = 0, prev = 0;
	int j, left = 0;

	for (j = 0; j < d; j++)
		left += counts[j];
	for (j = 0; j < d; j++) {
		/* the first piece is paid even at 0 bytes (a message's
		 * latency); later ones only for what they add (A2) */
		if (j == 0 || sizes[j] > prev)
			x += ch->hops * l_of(ch, tab, sizes[j] - prev, left,
					     flags);
		prev = sizes[j];
		left -= counts[j];
	}
	return o_s + x;
}

double cp_taulop_round(const struct cp_taulop *m, int chan,
		       const double *sizes, const int *counts, int d,
		       double o_s, unsigned *flags)
{
	const struct cp_taulop_chan *ch;

	if (!m || chan < 0 || chan >= CP_TL_NCHAN || d < 1)
		return NAN;
	ch = &m->ch[chan];
	return round_with(ch, ch->ls_s ? ch->ls_s : ch->l_s, sizes, counts, d,
			  o_s, flags);
}

/* ---- scratch buffers and glibc's heap ---- */

/* glibc's request of a malloc of bytes (x86_64): a size field added,
 * rounded up to 16 B; a block is mapped at or above the mmap threshold. */
static double request_of(double bytes)
{
	return ceil((bytes + 8) / 16) * 16;
}

/* The chunk glibc maps for a block of bytes: the request and a size
 * field, rounded up to pages. */
static double mapped_chunk(double bytes)
{
	return ceil((request_of(bytes) + 8) / CP_TL_PAGE) * CP_TL_PAGE;
}

/* A rank's dynamic mmap threshold (glibc's start before any raise). */
static double thr_now(const double *thr)
{
	return *thr > 0 ? *thr : CP_TL_HEAP_MMAP;
}

void cp_taulop_scratch_add(const struct cp_taulop_heap *h, const double *thr,
			   struct cp_taulop_scratch *sc, double bytes,
			   double skip, double used)
{
	double pad = h && h->fixed ? h->top_pad : CP_TL_HEAP_PAD;
	double from, to, limit;
	bool mapped;

	if (!(bytes > 0))
		return;
	if (!(skip > 0))
		skip = 0;
	if (skip > bytes)
		skip = bytes;
	if (!(used > 0))
		used = 0;
	if (used > bytes - skip)
		used = bytes - skip;
	/* glibc compares its request with the threshold, fixed or not;
	 * without a history, the largest the dynamic one can reach */
	limit = h && h->fixed ? h->mmap_threshold : thr ? thr_now(thr) : NAN;
	mapped = isnan(limit) ? bytes > CP_TL_HEAP_MMAP_MAX :
		 request_of(bytes) >= limit;
	if (mapped) {
		sc->mapped += used;
		if (mapped_chunk(bytes) > sc->mapped_max)
			sc->mapped_max = mapped_chunk(bytes);
		return;
	}
	/* written: [heap + skip, + used) of the top; the pad's pages stay */
	from = sc->heap + skip > pad ? sc->heap + skip : pad;
	to = sc->heap + skip + used;
	if (to > from)
		sc->heap_new += to - from;
	sc->heap += bytes;
	if (bytes > sc->heap_max)
		sc->heap_max = bytes;
}

void cp_taulop_hist_raise(const struct cp_taulop_heap *h, double *thr,
			  const struct cp_taulop_scratch *sc)
{
	if (!thr || (h && h->fixed))
		return;
	/* free() of a mapped chunk above the threshold, up to the cap */
	if (sc->mapped_max > thr_now(thr) &&
	    sc->mapped_max <= CP_TL_HEAP_MMAP_MAX)
		*thr = sc->mapped_max;
}

double cp_taulop_fresh(const struct cp_taulop_heap *h, const double *thr,
		       const struct cp_taulop_scratch *sc)
{
	double pad = h && h->fixed ? h->top_pad : CP_TL_HEAP_PAD;
	double trim, fresh = sc->mapped;

	if (h && h->fixed) {
		trim = h->trim_threshold;
	} else if (thr) {
		double after = *thr;

		cp_taulop_hist_raise(h, &after, sc);
		trim = after > 0 ? 2 * after : CP_TL_HEAP_TRIM;
	} else if (sc->heap_max > CP_TL_HEAP_MMAP) {
		/* twice the mmapped chunk the largest buffer was */
		trim = 2 * mapped_chunk(sc->heap_max);
	} else {
		trim = CP_TL_HEAP_TRIM;
	}
	if (sc->heap + pad >= trim)
		fresh += sc->heap_new;
	return fresh;
}

/* ---- a collective, round by round ---- */

#define NSZ 8		/* distinct sizes kept per round and channel */

struct tl_chan_round {
	int d;			/* distinct sizes */
	double sz[NSZ];		/* ascending */
	int cnt[NSZ];
	int src;		/* sender being summed, -1 none */
	double o_cur, o_max;	/* its overheads; the largest sum */
};

struct tl_sink {
	const struct cp_taulop *m;
	const struct cp_coll_place *pl;
	struct tl_chan_round ch[CP_TL_NCHAN];
	double red_max;		/* largest reduction this round, bytes */
	double total;
	unsigned flags;
	bool bad;
	bool anysc;		/* sc[] holds something */
	struct cp_taulop_hist *hist;	/* glibc's thresholds, or NULL */
	struct cp_taulop_scratch sc[CP_COLL_MAXP];	/* per rank; last:
							 * only P zeroed */
};

static int host_of(const struct cp_coll_place *pl, int g)
{
	int32_t w;

	if (!pl || !pl->host)
		return 0;
	w = pl->members ? pl->members[g] : g;
	return pl->host[w];
}

/* The channel of a message from src to dst. */
static int chan_of(const struct tl_sink *s, int src, int dst)
{
	return host_of(s->pl, src) == host_of(s->pl, dst) ? CP_TL_SHM :
	       CP_TL_NET;
}

/* Add size to the round's multiset; when NSZ sizes are taken, the
 * nearest one absorbs it (rounds have one to three sizes). */
static void add_size(struct tl_chan_round *r, double bytes)
{
	int i, best = 0;

	for (i = 0; i < r->d && r->sz[i] < bytes; i++)
		;
	if (i < r->d && r->sz[i] == bytes) {
		r->cnt[i]++;
		return;
	}
	if (r->d < NSZ) {
		memmove(&r->sz[i + 1], &r->sz[i], sizeof(double) * (r->d - i));
		memmove(&r->cnt[i + 1], &r->cnt[i], sizeof(int) * (r->d - i));
		r->sz[i] = bytes;
		r->cnt[i] = 1;
		r->d++;
		return;
	}
	for (i = 1; i < r->d; i++)
		if (fabs(r->sz[i] - bytes) < fabs(r->sz[best] - bytes))
			best = i;
	r->cnt[best]++;
}

static void tl_xfer(void *arg, int src, int dst, double bytes)
{
	struct tl_sink *s = arg;
	int c = chan_of(s, src, dst);
	struct tl_chan_round *r = &s->ch[c];

	if (r->src != src) {
		if (r->o_cur > r->o_max)
			r->o_max = r->o_cur;
		r->o_cur = 0;
		r->src = src;
	}
	r->o_cur += cp_taulop_o(&s->m->ch[c], bytes, &s->flags);
	add_size(r, bytes);
}

/* The same data again from src: in shared memory its receivers' copies
 * read what the first one's does, and on 4 ranks of 2 cores a fan-out
 * of one 200000-B buffer to 3 took 14 to 16 us, of 3 different ones 22
 * to 25, a ring of 3 after a barrier 60 (bench/coll_rounds measures
 * them side by side): src pays the message's overhead, the channel
 * carries it once (on a channel src has not used yet this round, as any
 * message).  On the network src sends every copy through its link: a
 * message as any. */
static void tl_xfer_same(void *arg, int src, int dst, double bytes)
{
	struct tl_sink *s = arg;
	int c = chan_of(s, src, dst);
	struct tl_chan_round *r = &s->ch[c];

	if (c == CP_TL_NET || r->src != src) {
		tl_xfer(arg, src, dst, bytes);
		return;
	}
	r->o_cur += cp_taulop_o(&s->m->ch[c], bytes, &s->flags);
}

/* An eager message: below its channel's first rendezvous size. */
static bool tl_eager(void *arg, int src, int dst, double bytes)
{
	const struct tl_sink *s = arg;
	int c = chan_of(s, src, dst);
	double rndv = s->m->ch[c].rndv_bytes;

	return rndv > 0 && bytes < rndv;
}

static void tl_reduce(void *arg, int rank, double bytes)
{
	struct tl_sink *s = arg;

	(void)rank;
	if (bytes > s->red_max)
		s->red_max = bytes;
}

/* Group rank g's threshold in s->hist, or NULL (steady state). */
static double *thr_of(const struct tl_sink *s, int g)
{
	int32_t w = s->pl && s->pl->members ? s->pl->members[g] : g;

	if (!s->hist || !s->hist->thr || w < 0 || w >= s->hist->n)
		return NULL;
	return &s->hist->thr[w];
}

static void tl_scratch(void *arg, int rank, double bytes, double skip,
		       double used)
{
	struct tl_sink *s = arg;

	if (rank < 0 || rank >= CP_COLL_MAXP)
		return;
	/* the schedule hands out ranks of the call only */
	cp_taulop_scratch_add(&s->m->heap, thr_of(s, rank), &s->sc[rank],
			      bytes, skip, used);
	s->anysc = true;
}

/* The fresh pages of the rank whose scratch faults most. */
static double tl_faults(const struct tl_sink *s, int p)
{
	double worst = 0, f;
	int r;

	if (!s->anysc || isnan(s->m->page_s))
		return 0;
	for (r = 0; r < p && r < CP_COLL_MAXP; r++) {
		f = cp_taulop_fresh(&s->m->heap, thr_of(s, r), &s->sc[r]);
		if (f > worst)
			worst = f;
	}
	return ceil(worst / CP_TL_PAGE) * s->m->page_s;
}

static void tl_round(void *arg)
{
	struct tl_sink *s = arg;
	double worst = 0, t;
	int c;

	for (c = 0; c < CP_TL_NCHAN; c++) {
		struct tl_chan_round *r = &s->ch[c];

		if (!r->d)
			continue;
		if (s->m->ch[c].nsizes < 1) {
			s->flags |= CP_TL_F_NOCHAN;
			s->bad = true;
		}
		if (r->o_cur > r->o_max)
			r->o_max = r->o_cur;
		t = cp_taulop_round(s->m, c, r->sz, r->cnt, r->d, r->o_max,
				    &s->flags);
		if (t > worst)
			worst = t;
		memset(r, 0, sizeof(*r));
		r->src = -1;
	}
	if (s->red_max > 0) {
		if (isnan(s->m->red_spb)) {
			s->flags |= CP_TL_F_NORED;
			s->bad = true;
		}
		worst += s->red_max * s->m->red_spb;
	}
	s->red_max = 0;
	s->total += worst;
}

int cp_taulop_coll(const struct cp_taulop *m, const struct cp_coll_call *c,
		   int alg, const struct cp_coll_mca *mca,
		   const struct cp_coll_place *pl,
		   struct cp_taulop_hist *hist, double *t_s, unsigned *flags)
{
	struct tl_sink s;
	struct cp_coll_sink sink = { .xfer = tl_xfer, .reduce = tl_reduce,
				     .round = tl_round, .arg = &s,
				     .scratch = tl_scratch,
				     .xfer_same = tl_xfer_same,
				     .eager = tl_eager };
	int r, rc, np = c && c->nprocs > 0 && c->nprocs <= CP_COLL_MAXP ?
		     c->nprocs : 0;

	/* sc[]: only the call's ranks (the prediction is online) */
	memset(&s, 0, offsetof(struct tl_sink, sc));
	memset(s.sc, 0, sizeof(s.sc[0]) * (size_t)np);
	s.m = m;
	s.pl = pl;
	s.hist = hist;
	s.ch[0].src = s.ch[1].src = -1;
	*t_s = NAN;
	rc = cp_coll_sched(c, alg, mca, &sink);
	if (flags)
		*flags |= s.flags;
	if (rc < 0)
		return rc;
	if (!s.bad && !isnan(s.total))
		*t_s = s.total + tl_faults(&s, np);
	/* the call ran, priced or not: its frees move glibc's thresholds */
	for (r = 0; r < np && s.anysc; r++)
		cp_taulop_hist_raise(&m->heap, thr_of(&s, r), &s.sc[r]);
	return isnan(*t_s) ? -1 : 0;
}

/* ---- per-process baselines over the same rounds ---- */

struct base_sink {
	enum cp_coll_base kind;
	double a, b, c;
	int p;
	int src;
	double snd_cur, worst;
	double total;
	double rcv[CP_COLL_MAXP];	/* last: only P of them are zeroed */
};

static double base_cost(const struct base_sink *s, double bytes)
{
	if (s->kind == CP_COLL_HOCKNEY)
		return cp_hockney_eval(s->a, s->b, bytes);
	return cp_loggp_eval(s->a, s->b, s->c, bytes);
}

static void base_xfer(void *arg, int src, int dst, double bytes)
{
	struct base_sink *s = arg;
	double t = base_cost(s, bytes);

	if (s->src != src) {
		if (s->snd_cur > s->worst)
			s->worst = s->snd_cur;
		s->snd_cur = 0;
		s->src = src;
	}
	s->snd_cur += t;
	s->rcv[dst] += t;
}

static void base_round(void *arg)
{
	struct base_sink *s = arg;
	int r;

	if (s->snd_cur > s->worst)
		s->worst = s->snd_cur;
	for (r = 0; r < s->p; r++) {
		if (s->rcv[r] > s->worst)
			s->worst = s->rcv[r];
		s->rcv[r] = 0;
	}
	s->total += s->worst;
	s->worst = s->snd_cur = 0;
	s->src = -1;
}

int cp_coll_baseline(enum cp_coll_base kind, double a, double b, double c,
		     const struct cp_coll_call *call, int alg,
		     const struct cp_coll_mca *mca, double *t_s)
{
	struct base_sink s;
	struct cp_coll_sink sink = { .xfer = base_xfer, .round = base_round,
				     .arg = &s };
	int rc;

	*t_s = NAN;
	if (!call || call->nprocs > CP_COLL_MAXP || call->nprocs < 1)
		return -CP_COLL_E_ARG;
	memset(&s, 0, offsetof(struct base_sink, rcv));
	memset(s.rcv, 0, sizeof(double) * (size_t)call->nprocs);
	s.kind = kind;
	s.a = a;
	s.b = b;
	s.c = c;
	s.p = call->nprocs;
	s.src = -1;
	rc = cp_coll_sched(call, alg, mca, &sink);
	if (rc < 0)
		return rc;
	*t_s = s.total;
	return 0;
}
