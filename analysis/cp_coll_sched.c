/*
 * cp_coll_sched.c - the rounds of transfers of Open MPI 4.1's collective
 * algorithms (cp_coll.h), written from ompi/mca/coll/base/coll_base_*.c
 * and coll_base_topo.c of Open MPI 4.1.
 *
 * A round holds what the algorithm lets run at once.  Where a process
 * posts several nonblocking sends and waits for them all (a linear
 * broadcast, a tree node feeding its children) they share one round;
 * where it sends or receives one message after another with blocking
 * calls (a linear scatter's root, a linear gather's root) each message
 * is a round of its own, unless the sink says it is eager (its sender
 * does not wait for the receiver); a tree's nodes forward in the round
 * after the one in which they received (rounds by depth, or by height
 * for reductions), segment after segment when a segment size is set.
 * Element counts split into blocks as Open MPI splits them (early blocks
 * one element larger), so that the bytes of every transfer are the
 * bytes Open MPI sends: tests/test_coll_sched.sh compares them, pair by
 * pair, with what Open MPI's own pml/monitoring counts.
 */
#include <stddef.h>
#include <string.h>

#include "analysis/cp_coll.h"

/* One schedule in the making. */
struct gen {
	const struct cp_coll_mca *mca;
	const struct cp_coll_sink *s;
	int p;			/* communicator size */
	double tb;		/* bytes per element */
	int rounds;		/* rounds closed */
	bool open;		/* handed out something since the close */
	bool anyred;		/* red[] holds something */
	bool commute;		/* the call's operation commutes */
	double red[CP_COLL_MAXP];	/* elements reduced per rank, this
					 * round */
};

static void xfer(struct gen *g, int src, int dst, double elems)
{
	if (src == dst || elems < 0)
		return;
	g->s->xfer(g->s->arg, src, dst, elems * g->tb);
	g->open = true;
}

/* The same data as src's last message of the round, again to dst. */
static void xfer_same(struct gen *g, int src, int dst, double elems)
{
	if (src == dst || elems < 0)
		return;
	if (!g->s->xfer_same) {
		xfer(g, src, dst, elems);
		return;
	}
	g->s->xfer_same(g->s->arg, src, dst, elems * g->tb);
	g->open = true;
}

/* Rank r mallocs a temporary buffer of elems elements for the call and
 * writes used of them from element skip on (what it receives or copies
 * there). */
static void scratch_at(struct gen *g, int r, double elems, double skip,
		       double used)
{
	if (!(elems > 0) || !g->s->scratch)
		return;
	if (!(skip > 0))
		skip = 0;
	if (skip > elems)
		skip = elems;
	if (used > elems - skip)
		used = elems - skip;
	g->s->scratch(g->s->arg, r, elems * g->tb, skip * g->tb,
		      used * g->tb);
}

/* The same, written from the start (where a range elsewhere in the
 * buffer is not known, it counts as the same number of pages there). */
static void scratch(struct gen *g, int r, double elems, double used)
{
	scratch_at(g, r, elems, 0, used);
}

/* Rank r reduces elems this round (handed out, by rank, at its end). */
static void reduce(struct gen *g, int r, double elems)
{
	if (elems <= 0)
		return;
	g->red[r] += elems;
	g->anyred = true;
}

static void close_round(struct gen *g)
{
	int r;

	if (g->anyred) {
		for (r = 0; r < g->p; r++) {
			if (g->red[r] > 0 && g->s->reduce)
				g->s->reduce(g->s->arg, r, g->red[r] * g->tb);
			g->red[r] = 0;
		}
		g->anyred = false;
		g->open = true;
	}
	if (!g->open)
		return;
	g->s->round(g->s->arg);
	g->rounds++;
	g->open = false;
}

/* The round after a blocking send of elems from src to dst (or its
 * blocking receive): closed, unless the message is eager, whose sender
 * goes on at once, as the root of a linear scatter to its next peer,
 * and as the peers of a linear gather, which all send at once (their
 * messages are in flight together, the root takes them in order). */
static void close_blocking(struct gen *g, int src, int dst, double elems)
{
	if (g->s->eager && g->s->eager(g->s->arg, src, dst, elems * g->tb))
		return;
	close_round(g);
}

/* Real rank of virtual rank v (rooted algorithms number from root). */
static inline int real(int v, int root, int p)
{
	return (v + root) % p;
}

static inline int vrank(int r, int root, int p)
{
	return (r - root + p) % p;
}

/* Smallest power of two strictly above v (opal_next_poweroftwo). */
static int next_pow2(int v)
{
	int p2 = 1;

	while (p2 <= v)
		p2 <<= 1;
	return p2;
}

/* Largest power of two <= p (p >= 1). */
static int floor_pow2(int p)
{
	return next_pow2(p) >> 1;
}

/*
 * COLL_BASE_COMPUTE_BLOCKCOUNT: count split into n blocks, the first
 * split of them one element larger.
 */
static void blockcount(int64_t count, int n, int *split, int64_t *early,
		       int64_t *late)
{
	*late = count / n;
	*split = (int)(count % n);
	*early = *split ? *late + 1 : *late;
}

static int64_t block_of(int64_t count, int n, int b)
{
	int split;
	int64_t early, late;

	blockcount(count, n, &split, &early, &late);
	return b < split ? early : late;
}

/* COLL_BASE_COMPUTED_SEGCOUNT: elements per segment for segsize bytes. */
static int64_t segcount(int64_t count, double tb, int segsize)
{
	int64_t seg = count, res;

	if (tb > 0 && segsize >= tb && segsize < tb * count) {
		seg = (int64_t)(segsize / tb);
		res = (int64_t)(segsize - seg * tb);
		if (res > (int64_t)tb / 2)
			seg++;
	}
	return seg;
}

/* ---- trees of coll_base_topo.c, on virtual ranks (root 0) ---- */

enum tree_kind {
	T_KARY,		/* ompi_coll_base_topo_build_tree(fanout) */
	T_BM,		/* build_bmtree */
	T_BM_INORDER,	/* build_in_order_bmtree */
	T_CHAIN,	/* build_chain(fanout) */
	T_KM,		/* build_kmtree(radix) */
	T_INORDER_BIN,	/* build_in_order_bintree: root P-1, unshifted */
};

struct tree {
	enum tree_kind kind;
	int p;
	int k;			/* fanout or radix */
};

static int pown(int k, int n)
{
	int r = 1;

	while (n-- > 0)
		r *= k;
	return r;
}

static int kary_level(int k, int v)
{
	int level, num;

	for (level = 0, num = 0; num <= v; level++)
		num += pown(k, level);
	return level - 1;
}

/* Chain geometry: head and length of v's chain. */
static void chain_of(int f, int p, int v, int *head, int *len)
{
	int maxlen = (p - 1) / f, mark, col;

	if ((p - 1) % f) {
		maxlen++;
		mark = (p - 1) % f;
	} else {
		mark = f + 1;
	}
	if (v - 1 < mark * maxlen) {
		col = (v - 1) / maxlen;
		*head = 1 + col * maxlen;
		*len = maxlen;
	} else {
		col = mark + (v - 1 - mark * maxlen) / (maxlen - 1);
		*head = mark * maxlen + 1 + (col - mark) * (maxlen - 1);
		*len = maxlen - 1;
	}
}

/* Children of v into ch[] (at most CP_COLL_MAXP), in Open MPI's order;
 * returns their number. */
static int children(const struct tree *t, int v, int *ch)
{
	int n = 0, p = t->p, k = t->k, i, mask, head, len;

	switch (t->kind) {
	case T_KARY: {
		int delta = pown(k, kary_level(k, v));

		for (i = 0; i < k && v + delta * (i + 1) < p; i++)
			ch[n++] = v + delta * (i + 1);
		return n;
	}
	case T_BM:
		for (mask = next_pow2(v); mask < p; mask <<= 1) {
			if ((v ^ mask) >= p)
				break;
			ch[n++] = v ^ mask;
		}
		return n;
	case T_BM_INORDER:
		for (mask = 1; mask < p; mask <<= 1) {
			int rem = v ^ mask;

			if (rem < v)
				break;
			if (rem < p)
				ch[n++] = rem;
		}
		return n;
	case T_CHAIN:
		if (k > p - 1)
			k = p - 1;
		if (k <= 1) {
			if (v + 1 < p)
				ch[n++] = v + 1;
			return n;
		}
		if (v == 0) {
			for (i = 1; i < p; i++) {
				chain_of(k, p, i, &head, &len);
				if (head == i)
					ch[n++] = i;
			}
			return n;
		}
		chain_of(k, p, v, &head, &len);
		if (v != head + len - 1 && v + 1 < p)
			ch[n++] = v + 1;
		return n;
	case T_KM:
		for (mask = 1; mask < p; mask *= k)
			if (v % (k * mask))
				break;
		for (mask /= k; mask > 0; mask /= k)
			for (i = 1; i < k; i++)
				if (v + mask * i < p)
					ch[n++] = v + mask * i;
		return n;
	case T_INORDER_BIN:
		break;
	}
	/* in-order binary tree (build_in_order_bintree), real ranks */
	{
		int size = p, me = v, parent = p - 1, delta = 0, right, l, r;

		for (;;) {
			right = size >> 1;
			l = r = -1;
			if (size - 1 > 0) {
				l = parent - 1;
				if (l > 0)
					r = right - 1;
			}
			if (me == parent) {
				if (l >= 0)
					ch[n++] = l + delta;
				if (r >= 0)
					ch[n++] = r + delta;
				return n;
			}
			if (me > r) {
				size = size - right - 1;
				delta += right;
				me -= right;
				parent = size - 1;
			} else {
				size = right;
				parent = r;
			}
		}
	}
}

/* The tree's parent array par[] (-1 at the root) and its root. */
static int parents(const struct tree *t, int *par)
{
	int ch[CP_COLL_MAXP], v, i, n, root;

	for (v = 0; v < t->p; v++)
		par[v] = -1;
	for (v = 0; v < t->p; v++) {
		n = children(t, v, ch);
		for (i = 0; i < n; i++)
			par[ch[i]] = v;
	}
	root = t->kind == T_INORDER_BIN ? t->p - 1 : 0;
	par[root] = -1;
	return root;
}

static int depth(const int *par, int v)
{
	int d = 0;

	while (par[v] >= 0) {
		v = par[v];
		d++;
	}
	return d;
}

/* ---- broadcast ---- */

/*
 * ompi_coll_base_bcast_intra_generic: the root sends every segment to
 * all its children at once; a node forwards a segment in the round
 * after it arrived.  t over virtual ranks (kind T_INORDER_BIN unused).
 */
static void bcast_tree(struct gen *g, const struct tree *t, int root,
		       int64_t count, int64_t seg)
{
	int par[CP_COLL_MAXP], dep[CP_COLL_MAXP], ch[CP_COLL_MAXP];
	int v, r, i, n, nseg, maxd = 0, round;

	if (seg <= 0 || seg > count)
		seg = count;
	nseg = count ? (int)((count + seg - 1) / seg) : 1;
	parents(t, par);
	for (v = 0; v < g->p; v++) {
		dep[v] = depth(par, v);
		if (dep[v] > maxd)
			maxd = dep[v];
	}
	for (round = 0; round < maxd + nseg; round++) {
		for (r = 0; r < g->p; r++) {
			int s;

			v = vrank(r, root, g->p);
			s = round - dep[v];
			if (s < 0 || s >= nseg)
				continue;
			n = children(t, v, ch);
			for (i = 0; i < n; i++)
				(i ? xfer_same : xfer)(g, r,
					real(ch[i], root, g->p),
					s == nseg - 1 ? count - seg * s : seg);
		}
		close_round(g);
	}
}

static void bcast_linear(struct gen *g, int root, int64_t count)
{
	int r, first = 1;

	for (r = 0; r < g->p; r++) {
		if (r == root)
			continue;
		(first ? xfer : xfer_same)(g, root, r, count);
		first = 0;
	}
	close_round(g);
}

static int bcast(struct gen *g, int alg, int root, int64_t count)
{
	const struct cp_coll_mca *m = g->mca;
	bool forced = m && m->use_dynamic && m->alg[CP_COLL_BCAST] > 0;
	int segsize = forced ? m->segsize[CP_COLL_BCAST] : 0;
	int fan = forced ? m->chain_fanout[CP_COLL_BCAST] : 0;
	int radix = m && m->bcast_radix ? m->bcast_radix : 4;
	int64_t seg = segcount(count, g->tb, segsize);
	struct tree t = { T_KARY, g->p, 2 };

	switch (alg) {
	case 1:
		bcast_linear(g, root, count);
		return 0;
	case 2:
		t.kind = T_CHAIN;
		t.k = fan < 1 ? 1 : fan;
		break;
	case 3:
		t.kind = T_CHAIN;
		t.k = 1;
		break;
	case 5:
		break;
	case 6:
		t.kind = T_BM;
		break;
	case 7:
		if (radix < 2) {
			t.kind = T_BM;
		} else {
			t.kind = T_KM;
			t.k = radix;
		}
		break;
	default:
		return -CP_COLL_E_ALG;
	}
	bcast_tree(g, &t, root, count, seg);
	return 0;
}

/* ---- reduce ---- */

/*
 * The buffers of ompi_coll_base_reduce_generic: a node with children
 * mallocs an accumulator of the whole message unless it is the tree's
 * root (which reduces into its receive buffer), and one segment's
 * buffer, two when there are several segments or children.  The
 * accumulator takes the first child's segments (a commutative
 * operation) or a copy of the send buffer; the segment buffers take the
 * other children's segments, alternating child after child, so that
 * with one child and a commutative operation neither is written.  The
 * in-order binary tree's root P-1 receives into a buffer of its own
 * when the call's root is another rank.  par: parents (virtual ranks,
 * real for the in-order tree); troot: the tree's root; rroot: its real
 * rank.
 */
static void reduce_tree_scratch(struct gen *g, const int *par, int troot,
				int rroot, bool inorder, int root,
				int64_t count, int64_t seg, int nseg)
{
	int nch[CP_COLL_MAXP], v, r, s, i;

	for (v = 0; v < g->p; v++)
		nch[v] = 0;
	for (v = 0; v < g->p; v++)
		if (par[v] >= 0)
			nch[par[v]]++;
	for (v = 0; v < g->p; v++) {
		bool used[2] = { false, false };

		if (!nch[v])
			continue;
		r = inorder ? v : real(v, root, g->p);
		if (r != rroot)
			scratch(g, r, (double)count, (double)count);
		/* receive k = s * nch + i goes to buffer k % 2; two
		 * segments show every parity */
		for (s = 0; s < nseg && s < 2; s++)
			for (i = g->commute ? 1 : 0; i < nch[v]; i++)
				used[(s * nch[v] + i) % 2] = true;
		scratch(g, r, (double)seg, used[0] ? (double)seg : 0);
		if (nseg > 1 || nch[v] > 1)
			scratch(g, r, (double)seg, used[1] ? (double)seg : 0);
	}
	if (inorder && root != troot)
		scratch(g, troot, (double)count, (double)count);
}

/*
 * ompi_coll_base_reduce_generic: a node receives every segment from its
 * children, reduces it and sends it up; height(v) is the round of its
 * first send.  For T_INORDER_BIN the tree's own root is P-1 and the
 * ranks are real.
 */
static void reduce_tree(struct gen *g, const struct tree *t, int root,
			int64_t count, int64_t seg)
{
	int par[CP_COLL_MAXP], hgt[CP_COLL_MAXP];
	int v, u, r, h, nseg, maxh = 0, round, troot;
	bool inorder = t->kind == T_INORDER_BIN;

	if (seg <= 0 || seg > count)
		seg = count;
	nseg = count ? (int)((count + seg - 1) / seg) : 1;
	troot = parents(t, par);
	for (v = 0; v < g->p; v++)
		hgt[v] = 0;
	for (v = 0; v < g->p; v++)
		for (u = v, h = 0; par[u] >= 0; u = par[u]) {
			h++;
			if (hgt[par[u]] < h)
				hgt[par[u]] = h;
		}
	for (v = 0; v < g->p; v++)
		if (v != troot && hgt[v] + 1 > maxh)
			maxh = hgt[v] + 1;
	reduce_tree_scratch(g, par, troot, inorder ? troot : root, inorder,
			    root, count, seg, nseg);
	for (round = 0; round < maxh + nseg - 1; round++) {
		for (r = 0; r < g->p; r++) {
			int s, to;
			int64_t n;

			v = inorder ? r : vrank(r, root, g->p);
			s = round - hgt[v];
			if (v == troot || s < 0 || s >= nseg)
				continue;
			n = s == nseg - 1 ? count - seg * s : seg;
			to = inorder ? par[v] : real(par[v], root, g->p);
			xfer(g, r, to, n);
			reduce(g, to, n);
		}
		close_round(g);
	}
	if (inorder && root != troot) {
		xfer(g, troot, root, count);
		close_round(g);
	}
}

/* ompi_coll_base_reduce_intra_basic_linear: the root receives from
 * P-1, P-2, ..., 0 in turn and reduces each but the first. */
static void reduce_linear(struct gen *g, int root, int64_t count)
{
	int i;
	bool first = root != g->p - 1;

	/* the root receives all but rank P-1's block into a buffer */
	scratch(g, root, (double)count,
		g->p > 2 || root != 0 ? (double)count : 0);
	for (i = g->p - 1; i >= 0; i--) {
		if (i == root)
			continue;
		xfer(g, i, root, count);
		if (!first)
			reduce(g, root, count);
		first = false;
		close_round(g);
	}
	if (root != g->p - 1)
		reduce(g, root, count);
	close_round(g);
}

static int reduce_op(struct gen *g, int alg, int root, int64_t count)
{
	const struct cp_coll_mca *m = g->mca;
	bool forced = m && m->use_dynamic && m->alg[CP_COLL_REDUCE] > 0;
	int segsize = forced ? m->segsize[CP_COLL_REDUCE] : 0;
	int fan = forced ? m->chain_fanout[CP_COLL_REDUCE] : 0;
	int64_t seg = segcount(count, g->tb, segsize);
	struct tree t = { T_KARY, g->p, 2 };

	switch (alg) {
	case 1:
		reduce_linear(g, root, count);
		return 0;
	case 2:
		t.kind = T_CHAIN;
		t.k = fan < 1 ? 1 : fan;
		break;
	case 3:
		t.kind = T_CHAIN;
		t.k = 1;
		break;
	case 4:
		break;
	case 5:
		t.kind = T_BM_INORDER;
		break;
	case 6:
		t.kind = T_INORDER_BIN;
		break;
	case 7:	/* alg_ok() let through only Open MPI's fallback */
		reduce_linear(g, root, count);
		return 0;
	default:
		return -CP_COLL_E_ALG;
	}
	reduce_tree(g, &t, root, count, seg);
	return 0;
}

/* ---- allreduce ---- */

/* ompi_coll_base_allreduce_intra_recursivedoubling */
static void allreduce_rd(struct gen *g, int64_t count)
{
	int p = g->p, adj = floor_pow2(p), extra = p - adj, r, d;

	for (r = 0; r < p; r++)		/* the partial result */
		scratch(g, r, (double)count, (double)count);
	if (extra) {
		for (r = 0; r < 2 * extra; r += 2) {
			xfer(g, r, r + 1, count);
			reduce(g, r + 1, count);
		}
		close_round(g);
	}
	for (d = 1; d < adj; d <<= 1) {
		for (r = 0; r < p; r++) {
			int nr, nrem, rem;

			if (r < 2 * extra && r % 2 == 0)
				continue;
			nr = r < 2 * extra ? r >> 1 : r - extra;
			nrem = nr ^ d;
			rem = nrem < extra ? nrem * 2 + 1 : nrem + extra;
			xfer(g, r, rem, count);
			reduce(g, r, count);
		}
		close_round(g);
	}
	if (extra) {
		for (r = 1; r < 2 * extra; r += 2)
			xfer(g, r, r - 1, count);
		close_round(g);
	}
}

/* ompi_coll_base_allreduce_intra_ring: P-1 reduce-scatter steps then
 * P-1 allgather steps, blocks split early/late. */
static void allreduce_ring(struct gen *g, int64_t count)
{
	int p = g->p, r, k;

	if (count < p) {
		allreduce_rd(g, count);
		return;
	}
	for (r = 0; r < p; r++) {	/* one block in, two when P > 2 */
		double b = (double)block_of(count, p, 0);

		scratch(g, r, b, b);
		if (p > 2)
			scratch(g, r, b, b);
	}
	for (r = 0; r < p; r++)
		xfer(g, r, (r + 1) % p, block_of(count, p, r));
	close_round(g);
	for (k = 2; k < p; k++) {
		for (r = 0; r < p; r++) {
			int prev = (r + p - k + 1) % p;

			/* r received block prev last round: reduce, pass on */
			reduce(g, r, block_of(count, p, prev));
			xfer(g, r, (r + 1) % p, block_of(count, p, prev));
		}
		close_round(g);
	}
	for (r = 0; r < p; r++)
		reduce(g, r, block_of(count, p, (r + 1) % p));
	close_round(g);
	for (k = 0; k < p - 1; k++) {
		for (r = 0; r < p; r++)
			xfer(g, r, (r + 1) % p,
			     block_of(count, p, (r + 1 + p - k) % p));
		close_round(g);
	}
}

/* The step sizes of ompi_coll_base_allreduce_intra_redscat_allgather
 * for virtual rank vr of pof2 (scount/rcount per step). */
static void rsag_steps(int me, int vr, int pof2, int rem, int64_t count,
		       int64_t *sc, int64_t *rc, int *peer)
{
	int64_t w = count;
	int step = 0, mask;

	for (mask = 1; mask < pof2; mask <<= 1, step++) {
		int vd = vr ^ mask;
		int dest = vd < rem ? vd * 2 : vd + rem;

		if (me < dest) {
			rc[step] = w / 2;
			sc[step] = w - rc[step];
		} else {
			sc[step] = w / 2;
			rc[step] = w - sc[step];
		}
		peer[step] = dest;
		w = rc[step];
	}
}

static void allreduce_rsag(struct gen *g, int64_t count)
{
	int p = g->p, pof2 = floor_pow2(p), rem = p - pof2, r, step, nsteps;
	int64_t sc[32], rc[32];
	int peer[32];

	for (nsteps = 0; (1 << nsteps) < pof2; nsteps++)
		;
	for (r = 0; r < p; r++)		/* receives half, then less */
		scratch(g, r, (double)count, (double)(count - count / 2));
	if (rem) {
		int64_t lh = count / 2, rh = count - lh;

		for (r = 0; r < 2 * rem; r++) {
			xfer(g, r, r % 2 ? r - 1 : r + 1, r % 2 ? lh : rh);
			reduce(g, r, r % 2 ? rh : lh);
		}
		close_round(g);
		for (r = 1; r < 2 * rem; r += 2)
			xfer(g, r, r - 1, rh);
		close_round(g);
	}
	for (step = 0; step < nsteps; step++) {
		for (r = 0; r < p; r++) {
			int vr;

			if (r < 2 * rem && r % 2)
				continue;
			vr = r < 2 * rem ? r / 2 : r - rem;
			rsag_steps(r, vr, pof2, rem, count, sc, rc, peer);
			xfer(g, r, peer[step], sc[step]);
			reduce(g, r, rc[step]);
		}
		close_round(g);
	}
	for (step = nsteps - 1; step >= 0; step--) {
		for (r = 0; r < p; r++) {
			int vr;

			if (r < 2 * rem && r % 2)
				continue;
			vr = r < 2 * rem ? r / 2 : r - rem;
			rsag_steps(r, vr, pof2, rem, count, sc, rc, peer);
			xfer(g, r, peer[step], rc[step]);
		}
		close_round(g);
	}
	if (rem) {
		for (r = 0; r < 2 * rem; r += 2)
			xfer(g, r, r + 1, count);
		close_round(g);
	}
}

/* ---- allgather and allgatherv: a block per rank (c->count each for
 * allgather, whose call carries no counts here) ---- */

/* Elements of rank b's block (0 <= b < P). */
static int64_t vblk(const struct cp_coll_call *c, int b)
{
	return c->counts ? c->counts[b] : c->count;
}

/* Elements of the n blocks of ranks a, a + 1, ... (mod P). */
static int64_t vsum(const struct cp_coll_call *c, int a, int n)
{
	int64_t s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += vblk(c, (a + i) % c->nprocs);
	return s;
}

/* ompi_coll_base_allgather(v)_intra_ring: in step i rank r passes block
 * r - i on to r + 1, empty blocks too. */
static void allgather_ring(struct gen *g, const struct cp_coll_call *c)
{
	int p = g->p, r, i;

	for (i = 0; i < p - 1; i++) {
		for (r = 0; r < p; r++)
			xfer(g, r, (r + 1) % p, vblk(c, (r - i + p) % p));
		close_round(g);
	}
}

/* ompi_coll_base_allgather(v)_intra_bruck: at distance d rank r sends the
 * blocks r .. r + min(d, P - d) - 1 it holds to r - d. */
static void allgather_bruck(struct gen *g, const struct cp_coll_call *c)
{
	int p = g->p, r, d;

	for (d = 1; d < p; d <<= 1) {
		int bc = d <= (p >> 1) ? d : p - d;

		for (r = 0; r < p; r++)
			xfer(g, r, (r - d + p) % p, vsum(c, r, bc));
		close_round(g);
	}
}

/* ompi_coll_base_allgather(v)_intra_neighborexchange (odd P: the ring):
 * its own block to one neighbour, then pairs of blocks, alternating
 * between the two neighbours, each pair the one received last. */
static void allgather_neighbor(struct gen *g, const struct cp_coll_call *c)
{
	int p = g->p, r, i, nb[CP_COLL_MAXP][2], rdf[CP_COLL_MAXP][2];
	int sdf[CP_COLL_MAXP];

	if (p % 2) {
		allgather_ring(g, c);
		return;
	}
	for (r = 0; r < p; r++) {
		bool even = r % 2 == 0;

		nb[r][0] = (r + (even ? 1 : p - 1)) % p;
		nb[r][1] = (r + (even ? p - 1 : 1)) % p;
		rdf[r][0] = rdf[r][1] = even ? r : nb[r][0];
		sdf[r] = even ? r : rdf[r][0];
		xfer(g, r, nb[r][0], vblk(c, r));
	}
	close_round(g);
	for (i = 1; i < p / 2; i++) {
		int par = i % 2;

		for (r = 0; r < p; r++) {
			/* even ranks walk up by 2 on one side, down on the
			 * other; odd ranks the other way round */
			int off = (r % 2 == 0) == (par == 0) ? 2 : p - 2;

			rdf[r][par] = (rdf[r][par] + off) % p;
			xfer(g, r, nb[r][par],
			     vblk(c, sdf[r]) + vblk(c, sdf[r] + 1));
			sdf[r] = rdf[r][par];
		}
		close_round(g);
	}
}

static void allgather_rd(struct gen *g, const struct cp_coll_call *c)
{
	int p = g->p, r, d;

	if (floor_pow2(p) != p) {
		allgather_bruck(g, c);
		return;
	}
	for (d = 1; d < p; d <<= 1) {
		for (r = 0; r < p; r++)
			xfer(g, r, r ^ d, (int64_t)d * c->count);
		close_round(g);
	}
}

/* ---- gather and scatter ---- */

static void gather_linear(struct gen *g, int root, int64_t count)
{
	int i;

	for (i = 0; i < g->p; i++) {
		if (i == root)
			continue;
		xfer(g, i, root, count);
		close_blocking(g, i, root, count);
	}
	close_round(g);
}

/* ompi_coll_base_gather_intra_linear_sync without a first segment size:
 * for each peer in turn the root sends an empty message, then receives
 * the block as a first segment and the empty rest. */
static void gather_linear_sync(struct gen *g, int root, int64_t count)
{
	int i;

	for (i = 0; i < g->p; i++) {
		if (i == root)
			continue;
		xfer(g, root, i, 0);
		close_round(g);
		xfer(g, i, root, count);
		xfer(g, i, root, 0);
		close_round(g);
	}
}

/* Blocks below virtual rank v of the in-order binomial tree. */
static int subtree(int v, int p)
{
	int low = v & -v;

	return v + low > p ? p - v : low;
}

/* ompi_coll_base_gather_intra_binomial: v sends its subtree's blocks to
 * its parent once its children did: in round ctz(v). */
static void gather_binomial(struct gen *g, int root, int64_t count)
{
	int p = g->p, r, v, lev, maxlev = 0;

	while ((1 << maxlev) < p)
		maxlev++;
	/* a root other than 0 gathers into a buffer it then rotates; the
	 * other even virtual ranks take all P blocks' room and fill their
	 * subtree's */
	for (r = 0; r < p; r++) {
		v = vrank(r, root, p);
		if (!v && root)
			scratch(g, r, (double)count * p, (double)count * p);
		else if (v && v % 2 == 0)
			scratch(g, r, (double)count * p,
				(double)count * subtree(v, p));
	}
	for (lev = 0; lev < maxlev; lev++) {
		for (r = 0; r < p; r++) {
			v = vrank(r, root, p);
			if (v == 0 || __builtin_ctz((unsigned)v) != lev)
				continue;
			xfer(g, r, real(v & (v - 1), root, p),
			     (int64_t)subtree(v, p) * count);
		}
		close_round(g);
	}
}

static void scatter_linear(struct gen *g, int root, int64_t count)
{
	int i;

	for (i = 0; i < g->p; i++) {
		if (i == root)
			continue;
		xfer(g, root, i, count);
		close_blocking(g, root, i, count);
	}
	close_round(g);
}

/* ompi_coll_base_scatter_intra_linear_nb: nonblocking sends, every
 * max_reqs-th one blocking (0: none). */
static void scatter_linear_nb(struct gen *g, int root, int64_t count,
			      int max_reqs)
{
	int i;

	if (max_reqs <= 1)
		max_reqs = 0;
	for (i = 0; i < g->p; i++) {
		if (i == root)
			continue;
		xfer(g, root, i, count);
		if (max_reqs && !(i % max_reqs))
			close_round(g);
	}
	close_round(g);
}

/*
 * ompi_coll_base_scatter_intra_binomial: a node receives its subtree's
 * blocks, then sends to its children with blocking sends, largest
 * subtree first.  In step s every node that holds data sends to its
 * child v + 2^(L-1-s) (L = ceil(log2 P)): the root's first send and its
 * first child's first send are one step apart.
 */
static void scatter_binomial(struct gen *g, int root, int64_t count)
{
	int p = g->p, r, v, step, maxlev = 0;

	while ((1 << maxlev) < p)
		maxlev++;
	/* a root other than 0 packs the rotated blocks into a buffer; the
	 * other even virtual ranks receive their subtree's blocks */
	for (r = 0; r < p; r++) {
		v = vrank(r, root, p);
		if (!v && root)
			scratch(g, r, (double)count * p, (double)count * p);
		else if (v && v % 2 == 0)
			scratch(g, r, (double)count * subtree(v, p),
				(double)count * subtree(v, p));
	}
	for (step = 0; step < maxlev; step++) {
		int mask = 1 << (maxlev - 1 - step);

		for (r = 0; r < p; r++) {
			v = vrank(r, root, p);
			/* v holds data once its bits below 2*mask are 0 */
			if ((v & (2 * mask - 1)) || v + mask >= p)
				continue;
			xfer(g, r, real(v + mask, root, p),
			     (int64_t)subtree(v + mask, p) * count);
		}
		close_round(g);
	}
}

/* ---- scan and exscan (coll/basic) ---- */

/* ompi_coll_base_scan_intra_linear: a chain; rank r > 0 mallocs a
 * buffer of the message, receives r - 1's partial result into it,
 * reduces it into its own and sends that on.  An empty message sends
 * nothing (the MPI layer returns at once). */
static void scan_linear(struct gen *g, int64_t count)
{
	int r;

	if (!count)
		return;
	for (r = 1; r < g->p; r++)
		scratch(g, r, (double)count, (double)count);
	for (r = 0; r + 1 < g->p; r++) {
		xfer(g, r, r + 1, count);
		reduce(g, r + 1, count);
		close_round(g);
	}
}

/* ompi_coll_base_exscan_intra_linear: the same chain; a rank between
 * the first and the last copies its input into a buffer it mallocs,
 * receives r - 1's result, reduces it into that buffer and sends it
 * on; the last only receives. */
static void exscan_linear(struct gen *g, int64_t count)
{
	int r;

	if (!count)
		return;
	for (r = 1; r + 1 < g->p; r++)
		scratch(g, r, (double)count, (double)count);
	for (r = 0; r + 1 < g->p; r++) {
		xfer(g, r, r + 1, count);
		if (r + 2 < g->p)
			reduce(g, r + 1, count);
		close_round(g);
	}
}

/* ---- alltoall ---- */

/* Linear: every process posts all receives and sends at once (with
 * max_reqs > 0, linear_sync keeps that many of each in flight). */
static void alltoall_linear(struct gen *g, int64_t count, int max_reqs)
{
	int p = g->p, r, i, n, w, done;

	w = max_reqs > 0 && max_reqs < p - 1 ? max_reqs : p - 1;
	for (done = 0; done < p - 1; done += w) {
		n = done + w < p - 1 ? w : p - 1 - done;
		for (r = 0; r < p; r++)
			for (i = 0; i < n; i++)
				xfer(g, r, (r + p - 1 - done - i) % p, count);
		close_round(g);
	}
}

static void alltoall_pairwise(struct gen *g, int64_t count)
{
	int p = g->p, r, step;

	for (step = 1; step < p; step++) {
		for (r = 0; r < p; r++)
			xfer(g, r, (r + step) % p, count);
		close_round(g);
	}
}

static void alltoall_bruck(struct gen *g, int64_t count)
{
	int p = g->p, r, d, i, k;

	for (r = 0; r < p; r++)
		scratch(g, r, (double)count * p, (double)count * p);
	for (d = 1; d < p; d <<= 1) {
		for (k = 0, i = 1; i < p; i++)
			if (i & d)
				k++;
		for (r = 0; r < p; r++)
			xfer(g, r, (r + d) % p, (int64_t)k * count);
		close_round(g);
	}
}

/* ---- reduce_scatter_block ---- */

/* ompi_range_sum of coll_base_reduce_scatter_block.c: blocks a..b of
 * the virtual ranks, those at or below r counting twice. */
static int range_sum(int a, int b, int r)
{
	if (r < a)
		return b - a + 1;
	if (r > b)
		return 2 * (b - a + 1);
	return 2 * (r - a + 1) + b - r;
}

/* The two buffers of all P blocks of recursive halving, recursive
 * doubling and the butterfly, on every rank: the first takes a copy of
 * the send buffer, the second what the rank receives, the most at the
 * first step (recv: its elements; rem: ranks below 2*rem that are odd
 * first receive all P blocks).  halving: recursive halving's first step,
 * where a rank of the upper half of the virtual ranks receives the
 * upper blocks, at their place in the buffer (4 ranks of 24000 B: 13
 * faults a call there, 4 in the lower half, counted in Open MPI 4.1). */
static void rsb_scratch(struct gen *g, int64_t rcount, int64_t recv,
			int rem, bool halving)
{
	int pof2 = floor_pow2(g->p);
	double total = (double)rcount * g->p;
	double low = (double)rcount * range_sum(0, pof2 / 2 - 1, rem - 1);
	int r, vr;

	for (r = 0; r < g->p; r++) {
		scratch(g, r, total, total);
		vr = r < 2 * rem ? r / 2 : r - rem;
		if (r < 2 * rem && r % 2)
			scratch(g, r, total, total);
		else if (!halving || (r < 2 * rem && r % 2 == 0))
			scratch(g, r, total, (double)recv);
		else if (vr < pof2 / 2)
			scratch(g, r, total, low);
		else
			scratch_at(g, r, total, low, total - low);
	}
}

/* The virtual blocks of recursive halving and of reduce_scatter's
 * butterfly: below rem, ranks 2v and 2v + 1 together, above, rank
 * v + rem. */
static void rs_vblocks(const struct cp_coll_call *c, int pof2, int rem,
		       int64_t *t)
{
	int v;

	for (v = 0; v < pof2; v++)
		t[v] = v < rem ? vblk(c, 2 * v) + vblk(c, 2 * v + 1) :
				 vblk(c, v + rem);
}

static int64_t tsum(const int64_t *t, int a, int n)
{
	int64_t s = 0;

	while (n-- > 0)
		s += t[a++];
	return s;
}

/* Where virtual rank v is: below rem the odd one of its pair. */
static int rs_real(int v, int rem)
{
	return v < rem ? v * 2 + 1 : v + rem;
}

/* The rounds of recursive halving over the virtual blocks t (pof2 of
 * them, rem pairs folded, total elements): the pairs below 2 rem fold,
 * then halving steps (empty messages not sent), then the odd ranks of
 * the pairs hand the even ones their blocks (empty ones not sent).  The
 * reduce_scatter and the reduce_scatter_block of Open MPI send the same;
 * they malloc differently. */
static void halving_rounds(struct gen *g, const struct cp_coll_call *c,
			   const int64_t *t, int pof2, int rem, int64_t total)
{
	int p = g->p, r, mask;

	if (rem) {
		for (r = 0; r < 2 * rem; r += 2) {
			xfer(g, r, r + 1, total);
			reduce(g, r + 1, total);
		}
		close_round(g);
	}
	for (mask = pof2 >> 1; mask > 0; mask >>= 1) {
		for (r = 0; r < p; r++) {
			int vr, m, si = 0, ri = 0, last = pof2;

			if (r < 2 * rem && r % 2 == 0)
				continue;
			vr = r < 2 * rem ? r / 2 : r - rem;
			/* replay the index walk of the earlier steps */
			for (m = pof2 >> 1; m >= mask; m >>= 1) {
				int64_t sc, rc;

				if (vr < (vr ^ m)) {
					si = ri + m;
					sc = tsum(t, si, last - si);
					rc = tsum(t, ri, si - ri);
				} else {
					ri = si + m;
					sc = tsum(t, si, ri - si);
					rc = tsum(t, ri, last - ri);
				}
				if (m == mask) {
					if (sc > 0)
						xfer(g, r, rs_real(vr ^ m, rem),
						     sc);
					reduce(g, r, rc);
				}
				si = ri;
				last = ri + m;
			}
		}
		close_round(g);
	}
	if (rem) {
		for (r = 1; r < 2 * rem; r += 2)
			if (vblk(c, r - 1) > 0)
				xfer(g, r, r - 1, vblk(c, r - 1));
		close_round(g);
	}
}

/* ompi_coll_base_reduce_scatter_block_intra_recursivehalving */
static void rsb_halving(struct gen *g, int64_t rcount)
{
	struct cp_coll_call u = { .nprocs = g->p, .count = rcount };
	int pof2 = floor_pow2(g->p), rem = g->p - pof2;
	int64_t total = (int64_t)g->p * rcount, t[CP_COLL_MAXP];

	rs_vblocks(&u, pof2, rem, t);
	rsb_scratch(g, rcount, total - total / 2, rem, true);
	halving_rounds(g, &u, t, pof2, rem, total);
}

/* ompi_coll_base_reduce_scatter_intra_basic_recursivehalving: the
 * halving rounds (nothing for no elements at all); every rank mallocs
 * two buffers of all blocks: one takes a copy of its input, the other
 * what it receives (the most in its first step, in the half it keeps;
 * nothing on a rank that folds out). */
static void rs_halving(struct gen *g, const struct cp_coll_call *c)
{
	int p = g->p, pof2 = floor_pow2(p), rem = p - pof2, r;
	int64_t total = cp_coll_total(c), t[CP_COLL_MAXP], low;

	if (!total)
		return;
	rs_vblocks(c, pof2, rem, t);
	low = tsum(t, 0, pof2 / 2);
	for (r = 0; r < p; r++) {
		int vr = r < 2 * rem ? r / 2 : r - rem;

		scratch(g, r, (double)total, (double)total);
		if (r < 2 * rem)
			scratch(g, r, (double)total,
				r % 2 ? (double)total : 0);
		else if (vr < pof2 / 2)
			scratch(g, r, (double)total, (double)low);
		else
			scratch_at(g, r, (double)total, (double)low,
				   (double)(total - low));
	}
	halving_rounds(g, c, t, pof2, rem, total);
}

/* Elements a process sends in ompi_coll_base_reduce_scatter_block_intra_
 * recursivedoubling: every block but those of the subtree of mask
 * blocks that starts at t. */
static int64_t rsb_rd_len(int t, int mask, int p, int64_t rcount)
{
	return rcount * t + (p >= t + mask ? rcount * (p - t - mask) : 0);
}

static void rsb_rd(struct gen *g, int64_t rcount)
{
	int p = g->p, r, mask, rh;

	rsb_scratch(g, rcount, rcount * (p - 1), 0, false);
	for (mask = 1; mask < p; mask <<= 1) {
		for (r = 0; r < p; r++) {
			int rem = r ^ mask, cur = r & ~(mask - 1);

			if (rem < p) {
				xfer(g, r, rem, rsb_rd_len(cur, mask, p,
							    rcount));
				reduce(g, r, rsb_rd_len(rem & ~(mask - 1),
							mask, p, rcount));
			}
		}
		close_round(g);
		/* non-power-of-two: who got the blocks of a missing peer
		 * forwards them, halving the distance */
		for (rh = mask >> 1; rh > 0; rh >>= 1) {
			for (r = 0; r < p; r++) {
				int cur = r & ~(mask - 1);
				int rtr = (r ^ mask) & ~(mask - 1);
				int all = p - cur - mask, rem = r ^ rh;
				int tr = r & ~((rh << 1) - 1);

				if (rtr + mask <= p)
					continue;
				if (rem > r && r < tr + all &&
				    rem >= tr + all) {
					xfer(g, r, rem, rsb_rd_len(rtr, mask,
								   p, rcount));
					reduce(g, rem, rsb_rd_len(rtr, mask, p,
								  rcount));
				}
			}
			close_round(g);
		}
	}
}

/* ompi_mirror_perm: x with its log2(pof2) low bits reversed. */
static int mirror(int x, int pof2)
{
	int y = 0, b;

	for (b = 1; b < pof2; b <<= 1) {
		y <<= 1;
		if (x & b)
			y |= 1;
	}
	return y;
}

static void rsb_butterfly(struct gen *g, int64_t rcount)
{
	int p = g->p, pof2 = floor_pow2(p), rem = p - pof2, r, mask;
	int64_t total = (int64_t)p * rcount;

	rsb_scratch(g, rcount, total - total / 2, rem, false);
	if (!rem) {
		int64_t nb = total;

		for (mask = 1; mask < p; mask <<= 1) {
			nb /= 2;
			for (r = 0; r < p; r++) {
				xfer(g, r, r ^ mask, nb);
				reduce(g, r, nb);
			}
			close_round(g);
		}
		return;
	}
	for (r = 0; r < 2 * rem; r += 2) {
		xfer(g, r, r + 1, total);
		reduce(g, r + 1, total);
	}
	close_round(g);
	for (mask = 1; mask < pof2; mask <<= 1) {
		for (r = 0; r < p; r++) {
			int vr, m, nb = pof2, si = 0, ri = 0, vp, peer;
			int64_t sc, rc;

			if (r < 2 * rem && r % 2 == 0)
				continue;
			vr = r < 2 * rem ? r / 2 : r - rem;
			for (m = 1; m <= mask; m <<= 1) {
				nb /= 2;
				if (vr & m)
					ri += nb;
				else
					si += nb;
				if (m < mask)
					si = ri;
			}
			sc = rcount * range_sum(si, si + nb - 1, rem - 1);
			rc = rcount * range_sum(ri, ri + nb - 1, rem - 1);
			vp = vr ^ mask;
			peer = vp < rem ? vp * 2 + 1 : vp + rem;
			xfer(g, r, peer, sc);
			reduce(g, r, rc);
		}
		close_round(g);
	}
	/* the result blocks lie in bit-reversed order: survivors send the
	 * dropped ranks theirs, then swap with their mirror */
	for (r = 0; r < p; r++) {
		int vr, vp, peer;

		if (r < 2 * rem && r % 2 == 0)
			continue;
		vr = r < 2 * rem ? r / 2 : r - rem;
		vp = mirror(vr, pof2);
		peer = vp < rem ? vp * 2 + 1 : vp + rem;
		if (vp < rem)
			xfer(g, r, peer - 1, rcount);
	}
	close_round(g);
	for (r = 0; r < p; r++) {
		int vr, vp, peer;

		if (r < 2 * rem && r % 2 == 0)
			continue;
		vr = r < 2 * rem ? r / 2 : r - rem;
		vp = mirror(vr, pof2);
		peer = vp < rem ? vp * 2 + 1 : vp + rem;
		if (vp != vr)
			xfer(g, r, peer, rcount);
	}
	close_round(g);
}

/* ---- allgatherv and reduce_scatter: a block of its own per rank ---- */

static int sched(struct gen *g, const struct cp_coll_call *c, int alg);
static int nested(struct gen *g, const struct cp_coll_call *c,
		  enum cp_coll_op op, int root, int64_t count);

/* ompi_coll_base_allgatherv_intra_basic_default: a gatherv to rank 0
 * (coll/basic's: blocking receives in rank order, empty blocks not
 * sent), then a broadcast of one element that holds every block, as
 * coll/tuned decides it on all their bytes. */
static int allgatherv_default(struct gen *g, const struct cp_coll_call *c)
{
	struct cp_coll_call n = *c;
	int64_t total = cp_coll_total(c);
	double tb = g->tb;
	int i, alg, rc;

	for (i = 1; i < g->p; i++)
		if (vblk(c, i) > 0) {
			xfer(g, i, 0, vblk(c, i));
			close_round(g);
		}
	if (!total)
		return 0;
	n.op = CP_COLL_BCAST;
	n.root = 0;
	n.count = 1;
	n.type_bytes = (double)total * c->type_bytes;
	n.counts = NULL;
	alg = cp_coll_decide(&n, g->mca);
	if (alg < 0)
		return alg;
	g->tb = n.type_bytes;
	rc = sched(g, &n, alg);
	g->tb = tb;
	return rc;
}

/* ompi_coll_base_reduce_scatter_intra_ring: block r - k passes from r
 * to r + 1 in step k, reduced on the way (empty blocks sent too); each
 * rank mallocs a buffer of all blocks and one (two from 3 ranks) of
 * the largest for what it receives, step after step in turn. */
static void rs_ring(struct gen *g, const struct cp_coll_call *c)
{
	int p = g->p, r, k;
	int64_t total = cp_coll_total(c), maxc = 0;

	for (r = 0; r < p; r++)
		if (vblk(c, r) > maxc)
			maxc = vblk(c, r);
	for (r = 0; r < p; r++) {
		int64_t used[2] = { 0, 0 }, b;

		/* step k brings block r - 1 - k into buffer (k - 1) % 2 */
		for (k = 1; k < p; k++) {
			b = vblk(c, ((r - 1 - k) % p + p) % p);
			if (b > used[(k - 1) % 2])
				used[(k - 1) % 2] = b;
		}
		scratch(g, r, (double)total, (double)total);
		scratch(g, r, (double)maxc, (double)used[0]);
		if (p > 2)
			scratch(g, r, (double)maxc, (double)used[1]);
	}
	for (r = 0; r < p; r++)
		xfer(g, r, (r + 1) % p, vblk(c, (r + p - 1) % p));
	close_round(g);
	for (k = 2; k < p; k++) {
		for (r = 0; r < p; r++) {
			int prev = (r + p - k) % p;

			reduce(g, r, vblk(c, prev));
			xfer(g, r, (r + 1) % p, vblk(c, prev));
		}
		close_round(g);
	}
	for (r = 0; r < p; r++)
		reduce(g, r, vblk(c, r));
	close_round(g);
}

/* ompi_coll_base_reduce_scatter_intra_butterfly: the pairs below 2 rem
 * fold, then exchanges across bit 1, 2, 4, ... of the virtual rank,
 * each keeping half of its blocks (empty messages sent too); the
 * blocks end in bit-reversed order, so each survivor sends a folded-out
 * rank its block, then swaps with its mirror.  Two buffers of all
 * blocks on every rank, as in recursive halving. */
static void rs_butterfly(struct gen *g, const struct cp_coll_call *c)
{
	int p = g->p, pof2 = floor_pow2(p), rem = p - pof2, r, mask;
	int64_t total = cp_coll_total(c), t[CP_COLL_MAXP];

	rs_vblocks(c, pof2, rem, t);
	for (r = 0; r < p; r++) {
		int vr = r < 2 * rem ? r / 2 : r - rem;
		int64_t half = tsum(t, 0, pof2 / 2);

		scratch(g, r, (double)total, (double)total);
		if (r < 2 * rem && r % 2)
			scratch(g, r, (double)total, (double)total);
		else if (r < 2 * rem)
			scratch(g, r, (double)total, 0);
		else if (vr % 2 == 0)
			scratch(g, r, (double)total, (double)half);
		else
			scratch_at(g, r, (double)total, (double)half,
				   (double)(total - half));
	}
	if (rem) {
		for (r = 0; r < 2 * rem; r += 2) {
			xfer(g, r, r + 1, total);
			reduce(g, r + 1, total);
		}
		close_round(g);
	}
	for (mask = 1; mask < pof2; mask <<= 1) {
		for (r = 0; r < p; r++) {
			int vr, m, nb = pof2, si = 0, ri = 0;

			if (r < 2 * rem && r % 2 == 0)
				continue;
			vr = r < 2 * rem ? r / 2 : r - rem;
			for (m = 1; m <= mask; m <<= 1) {
				nb /= 2;
				if (vr & m)
					ri += nb;
				else
					si += nb;
				if (m < mask)
					si = ri;
			}
			xfer(g, r, rs_real(vr ^ mask, rem), tsum(t, si, nb));
			reduce(g, r, tsum(t, ri, nb));
		}
		close_round(g);
	}
	for (r = 0; r < p; r++) {
		int vp;

		if (r < 2 * rem && r % 2 == 0)
			continue;
		vp = mirror(r < 2 * rem ? r / 2 : r - rem, pof2);
		if (vp < rem)
			xfer(g, r, rs_real(vp, rem) - 1,
			     vblk(c, rs_real(vp, rem) - 1));
	}
	close_round(g);
	for (r = 0; r < p; r++) {
		int vr, vp;

		if (r < 2 * rem && r % 2 == 0)
			continue;
		vr = r < 2 * rem ? r / 2 : r - rem;
		vp = mirror(vr, pof2);
		if (vp != vr)
			xfer(g, r, rs_real(vp, rem), vblk(c, rs_real(vp, rem)));
	}
	close_round(g);
}

/* ompi_coll_base_reduce_scatter_intra_nonoverlapping: a reduce of all
 * blocks to rank 0 (into a buffer it mallocs), as coll/tuned decides
 * it, then coll/basic's scatterv: blocking sends in rank order, empty
 * blocks not sent. */
static int rs_nonoverlapping(struct gen *g, const struct cp_coll_call *c)
{
	int64_t total = cp_coll_total(c);
	int i, rc;

	scratch(g, 0, (double)total, (double)total);
	rc = nested(g, c, CP_COLL_REDUCE, 0, total);
	if (rc)
		return rc;
	for (i = 1; i < g->p; i++)
		if (vblk(c, i) > 0) {
			xfer(g, 0, i, vblk(c, i));
			close_round(g);
		}
	return 0;
}

/* ---- barrier ---- */

static void barrier(struct gen *g, int alg)
{
	int p = g->p, r, d, adj;

	switch (alg) {
	case 1:
		for (r = 1; r < p; r++)
			xfer(g, r, 0, 0);
		close_round(g);
		for (r = 1; r < p; r++)
			xfer(g, 0, r, 0);
		close_round(g);
		return;
	case 2:
		for (d = 0; d < 2; d++)
			for (r = 0; r < p; r++) {
				xfer(g, r, (r + 1) % p, 0);
				close_round(g);
			}
		return;
	case 3:
		adj = floor_pow2(p);
		if (adj != p) {
			for (r = adj; r < p; r++)
				xfer(g, r, r - adj, 0);
			close_round(g);
		}
		for (d = 1; d < adj; d <<= 1) {
			for (r = 0; r < adj; r++)
				xfer(g, r, r ^ d, 0);
			close_round(g);
		}
		if (adj != p) {
			for (r = 0; r < p - adj; r++)
				xfer(g, r, r + adj, 0);
			close_round(g);
		}
		return;
	case 4:
		for (d = 1; d < p; d <<= 1) {
			for (r = 0; r < p; r++)
				xfer(g, r, (r + d) % p, 0);
			close_round(g);
		}
		return;
	case 5:
		for (r = 0; r < 2; r++)
			xfer(g, r, r ^ 1, 0);
		close_round(g);
		return;
	default:
		/* tree: up by the lowest set bit, then down again */
		adj = next_pow2(p - 1);
		for (d = 1; d < adj; d <<= 1) {
			for (r = 0; r < p; r++)
				if ((r & (2 * d - 1)) == d)
					xfer(g, r, r - d, 0);
			close_round(g);
		}
		for (d = adj >> 1; d > 0; d >>= 1) {
			for (r = 0; r < p; r++)
				if (!(r & (2 * d - 1)) && r + d < p)
					xfer(g, r, r + d, 0);
			close_round(g);
		}
		return;
	}
}

/* ---- dispatch ---- */

/* A nested collective (cp_coll_decide with the same overrides). */
static int nested(struct gen *g, const struct cp_coll_call *c,
		  enum cp_coll_op op, int root, int64_t count)
{
	struct cp_coll_call n = *c;
	int alg;

	n.op = op;
	n.root = root;
	n.count = count;
	alg = cp_coll_decide(&n, g->mca);
	if (alg < 0)
		return alg;
	return sched(g, &n, alg);
}

/* Whether c has a schedule under alg: a modelled algorithm, and not the
 * part of one that is not (the reduce's Rabenseifner proper). */
static bool alg_ok(const struct cp_coll_call *c, int alg)
{
	if (!cp_coll_alg_modelled(c->op, alg))
		return false;
	if (c->op == CP_COLL_REDUCE && alg == 7)
		return c->count < floor_pow2(c->nprocs) || !c->commute;
	return true;
}

/* Whether the nested decisions of c under alg all land on modelled
 * algorithms (checked before anything is handed out). */
static int nested_ok(const struct cp_coll_call *c, int alg,
		     const struct cp_coll_mca *mca)
{
	struct cp_coll_call n = *c;
	enum cp_coll_op ops[2];
	int64_t counts[2];
	double tbytes[2] = { c->type_bytes, c->type_bytes };
	int k, nn = 0, a;

	switch (c->op) {
	case CP_COLL_ALLREDUCE:
		if (alg == 2 || alg == 6) {
			ops[0] = CP_COLL_REDUCE;
			ops[1] = CP_COLL_BCAST;
			counts[0] = counts[1] = c->count;
			nn = alg == 2 ? 2 : 0;
		}
		break;
	case CP_COLL_ALLGATHER:
		if (alg == 1) {
			ops[0] = CP_COLL_GATHER;
			ops[1] = CP_COLL_BCAST;
			counts[0] = c->count;
			counts[1] = c->count * c->nprocs;
			nn = 2;
		}
		break;
	case CP_COLL_REDUCE_SCATTER_BLOCK:
		if (alg == 1) {
			ops[0] = CP_COLL_REDUCE;
			ops[1] = CP_COLL_SCATTER;
			counts[0] = c->count * c->nprocs;
			counts[1] = c->count;
			nn = 2;
		}
		break;
	case CP_COLL_ALLGATHERV:	/* one element of all blocks */
		if (alg == 1 && cp_coll_total(c) > 0) {
			ops[0] = CP_COLL_BCAST;
			counts[0] = 1;
			tbytes[0] = (double)cp_coll_total(c) * c->type_bytes;
			nn = 1;
		}
		break;
	case CP_COLL_REDUCE_SCATTER:
		if (alg == 1) {
			ops[0] = CP_COLL_REDUCE;
			counts[0] = cp_coll_total(c);
			nn = 1;
		}
		break;
	default:
		break;
	}
	for (k = 0; k < nn; k++) {
		n.op = ops[k];
		n.root = 0;
		n.count = counts[k];
		n.type_bytes = tbytes[k];
		n.counts = NULL;
		a = cp_coll_decide(&n, mca);
		if (a < 0)
			return a;
		if (!alg_ok(&n, a))
			return -CP_COLL_E_ALG;
	}
	return 0;
}

/* The schedules Allgather and Allgatherv share, by each one's algorithm
 * number of coll/tuned; two_proc is the number that only 2 ranks may
 * use (the ring's one exchange). */
typedef void (*all_blocks_fn)(struct gen *, const struct cp_coll_call *);
struct all_blocks_algs {
	all_blocks_fn fn[7];
	int two_proc;
};
static const struct all_blocks_algs allgather_algs = {
	.fn = {[2] = allgather_bruck, [3] = allgather_rd,
	       [4] = allgather_ring, [5] = allgather_neighbor,
	       [6] = allgather_ring},
	.two_proc = 6,
};
static const struct all_blocks_algs allgatherv_algs = {
	.fn = {[2] = allgather_bruck, [3] = allgather_ring,
	       [4] = allgather_neighbor, [5] = allgather_ring},
	.two_proc = 5,
};

static int by_table(struct gen *g, const struct cp_coll_call *c, int alg,
		    const struct all_blocks_algs *t)
{
	if (alg < 0 || alg >= (int)(sizeof t->fn / sizeof t->fn[0]) ||
	    !t->fn[alg])
		return -CP_COLL_E_ALG;
	if (alg == t->two_proc && c->nprocs != 2)
		return -CP_COLL_E_ARG;
	t->fn[alg](g, c);
	return 0;
}

static int sched(struct gen *g, const struct cp_coll_call *c, int alg)
{
	const struct cp_coll_mca *m = g->mca;
	struct cp_coll_call u;
	int64_t n = c->count;
	int rc, maxreq;

	switch (c->op) {
	case CP_COLL_BARRIER:
		if (alg == 5 && c->nprocs != 2)
			return -CP_COLL_E_ARG;
		barrier(g, alg);
		return 0;
	case CP_COLL_BCAST:
		return bcast(g, alg, c->root, n);
	case CP_COLL_REDUCE:
		return reduce_op(g, alg, c->root, n);
	case CP_COLL_ALLREDUCE:
		switch (alg) {
		case 1:
			reduce_linear(g, 0, n);
			bcast_linear(g, 0, n);
			return 0;
		case 2:
			rc = nested(g, c, CP_COLL_REDUCE, 0, n);
			return rc ? rc : nested(g, c, CP_COLL_BCAST, 0, n);
		case 3:
			allreduce_rd(g, n);
			return 0;
		case 4:
		case 5:	/* segmented: the segment size of the fixed rules
			 * is 0, which makes it the plain ring */
			allreduce_ring(g, n);
			return 0;
		case 6:
			if (n < floor_pow2(c->nprocs) || !c->commute) {
				reduce_linear(g, 0, n);
				bcast_linear(g, 0, n);
				return 0;
			}
			allreduce_rsag(g, n);
			return 0;
		}
		break;
	case CP_COLL_ALLGATHER:
		if (alg == 1) {
			rc = nested(g, c, CP_COLL_GATHER, 0, n);
			return rc ? rc : nested(g, c, CP_COLL_BCAST, 0,
						n * c->nprocs);
		}
		u = *c;
		u.counts = NULL;	/* every block c->count */
		return by_table(g, &u, alg, &allgather_algs);
	case CP_COLL_ALLTOALL:
		maxreq = m ? m->max_requests[CP_COLL_ALLTOALL] : 0;
		switch (alg) {
		case 1:
			alltoall_linear(g, n, 0);
			return 0;
		case 2:
			alltoall_pairwise(g, n);
			return 0;
		case 3:
			alltoall_bruck(g, n);
			return 0;
		case 4:
			alltoall_linear(g, n, maxreq);
			return 0;
		case 5:
			if (c->nprocs != 2)
				return -CP_COLL_E_ARG;
			alltoall_pairwise(g, n);
			return 0;
		}
		break;
	case CP_COLL_GATHER:
		switch (alg) {
		case 1:
			gather_linear(g, c->root, n);
			return 0;
		case 2:
			gather_binomial(g, c->root, n);
			return 0;
		case 3:
			gather_linear_sync(g, c->root, n);
			return 0;
		}
		break;
	case CP_COLL_SCATTER:
		switch (alg) {
		case 1:
			scatter_linear(g, c->root, n);
			return 0;
		case 2:
			scatter_binomial(g, c->root, n);
			return 0;
		case 3:
			scatter_linear_nb(g, c->root, n,
					  m && m->use_dynamic ?
					  m->max_requests[CP_COLL_SCATTER] : 0);
			return 0;
		}
		break;
	case CP_COLL_REDUCE_SCATTER_BLOCK:
		switch (alg) {
		case 1:	/* rank 0 reduces into a buffer, then scatters */
			scratch(g, 0, (double)n * c->nprocs,
				(double)n * c->nprocs);
			rc = nested(g, c, CP_COLL_REDUCE, 0, n * c->nprocs);
			return rc ? rc : nested(g, c, CP_COLL_SCATTER, 0, n);
		case 2:
			rsb_rd(g, n);
			return 0;
		case 3:
			if (!c->commute)
				return sched(g, c, 1);
			rsb_halving(g, n);
			return 0;
		case 4:
			rsb_butterfly(g, n);
			return 0;
		}
		break;
	case CP_COLL_SCAN:
		if (alg != 1)
			break;
		scan_linear(g, n);
		return 0;
	case CP_COLL_EXSCAN:
		if (alg != 1)
			break;
		exscan_linear(g, n);
		return 0;
	case CP_COLL_ALLGATHERV:
		if (alg == 1)
			return allgatherv_default(g, c);
		return by_table(g, c, alg, &allgatherv_algs);
	case CP_COLL_REDUCE_SCATTER:
		switch (alg) {
		case 1:
			return rs_nonoverlapping(g, c);
		case 2:
			rs_halving(g, c);
			return 0;
		case 3:
			rs_ring(g, c);
			return 0;
		case 4:
			rs_butterfly(g, c);
			return 0;
		}
		break;
	default:
		break;
	}
	return -CP_COLL_E_ALG;
}

int cp_coll_sched(const struct cp_coll_call *c, int alg,
		  const struct cp_coll_mca *mca,
		  const struct cp_coll_sink *sink)
{
	struct gen g;
	int rc;

	if (!c || !sink || !sink->xfer || !sink->round || c->op < 0 ||
	    c->op >= CP_COLL_NOPS || c->nprocs < 2 || c->count < 0 ||
	    !(c->type_bytes >= 0) || c->root < 0 || c->root >= c->nprocs)
		return -CP_COLL_E_ARG;
	if (c->nprocs > CP_COLL_MAXP)
		return -CP_COLL_E_BIG;
	if ((c->op == CP_COLL_ALLGATHERV || c->op == CP_COLL_REDUCE_SCATTER) &&
	    cp_coll_total(c) < 0)
		return -CP_COLL_E_ARG;
	if (!alg_ok(c, alg))
		return -CP_COLL_E_ALG;
	rc = nested_ok(c, alg, mca);
	if (rc)
		return rc;
	memset(&g, 0, offsetof(struct gen, red));
	memset(g.red, 0, sizeof(double) * (size_t)c->nprocs);
	g.mca = mca;
	g.s = sink;
	g.p = c->nprocs;
	g.tb = c->type_bytes;
	g.commute = c->commute;
	rc = sched(&g, c, alg);
	close_round(&g);
	return rc < 0 ? rc : g.rounds;
}
