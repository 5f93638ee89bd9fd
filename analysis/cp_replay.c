/*
 * cp_replay.c - replay of Isend/Irecv/Wait sequences under PlogPT
 * (analysis/cp_replay.h): an event loop over the times at which a
 * transfer ends or a rank wakes; between two events every transfer in
 * flight moves at b_c = min over its edges of b(h)/c (eq. 7), and it ends
 * when it has moved b(1)*g(m) (eq. 6).  Edges are full duplex: a
 * transfer climbs the edges above its source and descends those above its
 * destination, up to its height.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_replay.h"

/* Where a rank is in its current operation. */
enum cp_rp_phase {
	CP_RP_BEFORE,		/* has yet to spend the op's before_s */
	CP_RP_ENTER,		/* enters the op now */
	CP_RP_WAITING,		/* in a Wait whose operation has no f yet */
	CP_RP_LEAVING,		/* slept in a Wait until its leave time */
};

/* An Isend or Irecv, by its place in the flat list of all operations. */
struct cp_rp_key {
	int src, dst, tag, id;
};

struct cp_rp {
	const struct cp_plogpt_net *net;
	struct cp_replay_rank *ranks;
	int nranks, nops, nleaves;
	int *first;		/* [rank]: id of its op 0 */
	struct cp_replay_op **op;	/* [id] */
	int *rank_of;		/* [id] */
	int *match;		/* [id]: the Isend of an Irecv, the Irecv of
				 * an Isend, or -1 */
	double *work;		/* [id]: Isend, b(1)*g(m) still to move */
	double *rate;		/* [id]: Isend, its last b_c */
	double *f_norto;	/* [id]: Isend, finish without T_RTO */
	bool *known;		/* [id]: f_s is set */
	bool *flag;		/* [id]: Isend draws T_RTO in this pass */
	int *active, nactive;	/* Isends moving data */
	int *up, *down;		/* transfers per edge: [h * nleaves + i] */
	int *pc;		/* [rank]: next op */
	double *wake;		/* [rank]: sleeps until then */
	enum cp_rp_phase *phase;	/* [rank] */
};

static int cp_rp_key_cmp(const void *a, const void *b)
{
	const struct cp_rp_key *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static int cp_rp_check(const struct cp_rp *rp)
{
	const struct cp_plogpt_net *net = rp->net;
	int r, i, h;

	if (net->height < 0 || net->height > CP_PLOGPT_MAX_HEIGHT)
		return -CP_EINVAL;
	for (h = 1; h <= net->height; h++)
		if (!(net->b_bps[h] > 0) || !isfinite(net->b_bps[h]))
			return -CP_EINVAL;
	for (r = 0; r < rp->nranks; r++) {
		const struct cp_replay_rank *k = &rp->ranks[r];

		if (k->leaf < 0 || k->leaf >= rp->nleaves || k->n < 0 ||
		    (k->n && !k->ops))
			return -CP_EINVAL;
		for (i = 0; i < k->n; i++) {
			const struct cp_replay_op *o = &k->ops[i];

			if (o->kind == CP_REPLAY_WAIT) {
				if (o->waits < 0 || o->waits >= i ||
				    k->ops[o->waits].kind == CP_REPLAY_WAIT)
					return -CP_EINVAL;
			} else if (o->kind != CP_REPLAY_ISEND &&
				   o->kind != CP_REPLAY_IRECV) {
				return -CP_EINVAL;
			} else if (o->peer < 0 || o->peer >= rp->nranks ||
				   !(o->bytes >= 0) || !isfinite(o->bytes)) {
				return -CP_EINVAL;
			}
		}
	}
	return 0;
}

/* Pair the k-th Isend of each (source, destination, tag) with the k-th
 * Irecv of the same triple. */
static int cp_rp_match(struct cp_rp *rp)
{
	struct cp_rp_key *s = malloc(sizeof(*s) * (rp->nops + 1));
	struct cp_rp_key *v = malloc(sizeof(*v) * (rp->nops + 1));
	int ns = 0, nv = 0, id, a, b;

	if (!s || !v) {
		free(s);
		free(v);
		return -CP_ENOMEM;
	}
	for (id = 0; id < rp->nops; id++) {
		const struct cp_replay_op *o = rp->op[id];
		int me = rp->rank_of[id];

		rp->match[id] = -1;
		if (o->kind == CP_REPLAY_ISEND)
			s[ns++] = (struct cp_rp_key){ me, o->peer, o->tag, id };
		else if (o->kind == CP_REPLAY_IRECV)
			v[nv++] = (struct cp_rp_key){ o->peer, me, o->tag, id };
	}
	qsort(s, ns, sizeof(*s), cp_rp_key_cmp);
	qsort(v, nv, sizeof(*v), cp_rp_key_cmp);
	for (a = 0, b = 0; a < ns && b < nv;) {
		int c = (s[a].src > v[b].src) - (s[a].src < v[b].src);

		if (!c)
			c = (s[a].dst > v[b].dst) - (s[a].dst < v[b].dst);
		if (!c)
			c = (s[a].tag > v[b].tag) - (s[a].tag < v[b].tag);
		if (c < 0) {
			a++;
		} else if (c > 0) {
			b++;
		} else {
			rp->match[s[a].id] = v[b].id;
			rp->match[v[b].id] = s[a].id;
			a++;
			b++;
		}
	}
	free(s);
	free(v);
	return 0;
}

/* Finish time f of op id known: an Isend's also sets its Irecv's,
 * f + L across the network, f for a local copy. */
static void cp_rp_finish(struct cp_rp *rp, int id, double f)
{
	struct cp_replay_op *o = rp->op[id];
	int m = rp->match[id];

	o->f_s = f;
	rp->known[id] = true;
	if (o->kind == CP_REPLAY_ISEND && m >= 0) {
		rp->op[m]->f_s = o->height ? f + rp->net->l_s : f;
		rp->known[m] = true;
	}
}

static int cp_rp_start(struct cp_rp *rp, int id, double now)
{
	struct cp_replay_op *o = rp->op[id];
	int me = rp->rank_of[id];
	double g;
	int rc;

	o->height = cp_plogpt_height(rp->ranks[me].leaf,
				     rp->ranks[o->peer].leaf);
	o->rto = false;
	if (!o->height) {
		rp->f_norto[id] = now;
		cp_rp_finish(rp, id, now);
		return 0;
	}
	rc = cp_plogpt_gap(rp->net, o->bytes, &g);
	if (rc)
		return rc;
	if (!(g >= 0) || !isfinite(g))
		return -CP_EINVAL;
	rp->work[id] = rp->net->b_bps[1] * g;
	rp->active[rp->nactive++] = id;
	return 0;
}

/* One step of rank r at time now.  Returns 1 when it moved, 0 when it
 * sleeps or waits, or the error of a transfer that could not start. */
static int cp_rp_step(struct cp_rp *rp, int r, double now)
{
	struct cp_replay_op *o = &rp->ranks[r].ops[rp->pc[r]];
	int id = rp->first[r] + rp->pc[r], w, rc;

	switch (rp->phase[r]) {
	case CP_RP_BEFORE:
		rp->phase[r] = CP_RP_ENTER;
		if (o->before_s > 0)
			rp->wake[r] = now + o->before_s;
		return 1;
	case CP_RP_ENTER:
		o->e_s = now;
		if (o->kind == CP_REPLAY_WAIT) {
			rp->phase[r] = CP_RP_WAITING;
			return 1;
		}
		o->l_s = now;
		if (o->kind == CP_REPLAY_ISEND) {
			rc = cp_rp_start(rp, id, now);
			if (rc)
				return rc;
		}
		break;
	case CP_RP_WAITING:
		w = rp->first[r] + o->waits;
		if (!rp->known[w])
			return 0;
		o->l_s = fmax(o->e_s, rp->op[w]->f_s);
		if (o->l_s > now) {
			rp->wake[r] = o->l_s;
			rp->phase[r] = CP_RP_LEAVING;
			return 1;
		}
		break;
	case CP_RP_LEAVING:
		break;
	}
	rp->pc[r]++;
	rp->phase[r] = CP_RP_BEFORE;
	return 1;
}

/* Move every rank as far as it goes at time now.  Returns 0 or the
 * error of a transfer that could not start. */
static int cp_rp_run_ranks(struct cp_rp *rp, double now)
{
	bool moved = true;
	int r, rc;

	while (moved) {
		moved = false;
		for (r = 0; r < rp->nranks; r++) {
			while (rp->pc[r] < rp->ranks[r].n &&
			       !(rp->wake[r] > now)) {
				rc = cp_rp_step(rp, r, now);
				if (rc < 0)
					return rc;
				if (!rc)
					break;
				moved = true;
			}
		}
	}
	return 0;
}

/* b_c of every transfer in flight (eq. 7). */
static void cp_rp_rates(struct cp_rp *rp)
{
	const struct cp_plogpt_net *net = rp->net;
	size_t cells = (size_t)(net->height + 1) * rp->nleaves;
	int a, h;

	memset(rp->up, 0, cells * sizeof(*rp->up));
	memset(rp->down, 0, cells * sizeof(*rp->down));
	for (a = 0; a < rp->nactive; a++) {
		int id = rp->active[a];
		const struct cp_replay_op *o = rp->op[id];
		int s = rp->ranks[rp->rank_of[id]].leaf;
		int d = rp->ranks[o->peer].leaf;

		for (h = 1; h <= o->height; h++) {
			rp->up[h * rp->nleaves + (s >> (h - 1))]++;
			rp->down[h * rp->nleaves + (d >> (h - 1))]++;
		}
	}
	for (a = 0; a < rp->nactive; a++) {
		int id = rp->active[a];
		const struct cp_replay_op *o = rp->op[id];
		int s = rp->ranks[rp->rank_of[id]].leaf;
		int d = rp->ranks[o->peer].leaf;
		double b = INFINITY;

		for (h = 1; h <= o->height; h++) {
			int cu = rp->up[h * rp->nleaves + (s >> (h - 1))];
			int cd = rp->down[h * rp->nleaves + (d >> (h - 1))];

			b = fmin(b, net->b_bps[h] / (cu > cd ? cu : cd));
		}
		rp->rate[id] = b;
	}
}

/* Advance the transfers to time next; those that end there finish. */
static void cp_rp_advance(struct cp_rp *rp, double now, double next)
{
	int a = 0;

	while (a < rp->nactive) {
		int id = rp->active[a];
		double end = now + rp->work[id] / rp->rate[id];

		/* next is the earliest end: ties within rounding end too */
		if (end > next + 1e-12 * fabs(next)) {
			rp->work[id] -= rp->rate[id] * (next - now);
			a++;
			continue;
		}
		rp->f_norto[id] = next;
		rp->op[id]->rto = rp->flag[id];
		cp_rp_finish(rp, id, next + (rp->flag[id] ?
					     rp->net->t_rto_s : 0));
		rp->active[a] = rp->active[--rp->nactive];
	}
}

/* One replay with the Isends of rp->flag drawing T_RTO. */
static int cp_rp_pass(struct cp_rp *rp)
{
	double now = 0;
	int id, r, a, rc;

	for (id = 0; id < rp->nops; id++) {
		struct cp_replay_op *o = rp->op[id];

		o->e_s = o->l_s = o->f_s = NAN;
		o->height = 0;
		o->rto = false;
		rp->known[id] = false;
		rp->f_norto[id] = NAN;
	}
	for (r = 0; r < rp->nranks; r++) {
		rp->pc[r] = 0;
		rp->wake[r] = -INFINITY;
		rp->phase[r] = CP_RP_BEFORE;
	}
	rp->nactive = 0;
	for (;;) {
		double next = INFINITY;

		rc = cp_rp_run_ranks(rp, now);
		if (rc)
			return rc;
		cp_rp_rates(rp);
		for (a = 0; a < rp->nactive; a++) {
			id = rp->active[a];
			next = fmin(next, now + rp->work[id] / rp->rate[id]);
		}
		for (r = 0; r < rp->nranks; r++)
			if (rp->wake[r] > now)
				next = fmin(next, rp->wake[r]);
		if (next == INFINITY)
			break;
		cp_rp_advance(rp, now, next);
		now = next;
	}
	for (r = 0; r < rp->nranks; r++)
		if (rp->pc[r] < rp->ranks[r].n)
			return -CP_ENOPRED;
	return 0;
}

static int cp_rp_by_start(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/*
 * Eq. 14 on the times of the last pass: Isend O draws T_RTO when another
 * Isend O' to its destination starts within eps_T of O's end, a switch
 * lies between their heights and O's message overflows the buffer where
 * O' can drop its last packets (ours, eq. 8 read for that buffer): the
 * edges into the destination that both cross, of the lower height hs,
 * whose buffer holds d(hs) b(hs) bytes (eq. 8 takes O's own height and
 * its share of the rate, which on the tree bed flagged sends of 64 KiB
 * that never stalled).  Sets rp->flag; true when it changed.
 */
static int cp_rp_rto(struct cp_rp *rp, bool *changed)
{
	const struct cp_plogpt_net *net = rp->net;
	double *st = malloc(sizeof(*st) * 3 * (rp->nops + 1));
	int *off = calloc(rp->nranks + 1, sizeof(*off));
	int id, r, n = 0;

	if (!st || !off) {
		free(st);
		free(off);
		return -CP_ENOMEM;
	}
	/* starts of the Isends to each destination, sorted: (e, h, id) */
	for (r = 0; r < rp->nranks; r++) {
		off[r] = n;
		for (id = 0; id < rp->nops; id++) {
			const struct cp_replay_op *o = rp->op[id];

			if (o->kind != CP_REPLAY_ISEND || o->peer != r ||
			    !o->height)
				continue;
			st[3 * n] = o->e_s;
			st[3 * n + 1] = o->height;
			st[3 * n + 2] = id;
			n++;
		}
		qsort(st + 3 * off[r], n - off[r], 3 * sizeof(*st),
		      cp_rp_by_start);
	}
	off[rp->nranks] = n;
	*changed = false;
	for (id = 0; id < rp->nops; id++) {
		const struct cp_replay_op *o = rp->op[id];
		double f = rp->f_norto[id];
		bool rto = false;
		int k;

		if (o->kind != CP_REPLAY_ISEND || !o->height ||
		    !(net->eps_t_s > 0))
			continue;
		for (k = off[o->peer]; k < off[o->peer + 1] && !rto; k++) {
			int h2 = (int)st[3 * k + 1];
			int hs = h2 < o->height ? h2 : o->height;

			rto = (int)st[3 * k + 2] != id &&
			      fabs(st[3 * k] - f) < net->eps_t_s &&
			      cp_plogpt_switch(net, o->height, h2) &&
			      cp_plogpt_buffer_full(net, hs, o->bytes);
		}
		if (rto && !rp->flag[id]) {
			rp->flag[id] = true;
			*changed = true;
		}
	}
	free(st);
	free(off);
	return 0;
}

static void cp_rp_free(struct cp_rp *rp)
{
	free(rp->first);
	free(rp->op);
	free(rp->rank_of);
	free(rp->match);
	free(rp->work);
	free(rp->rate);
	free(rp->f_norto);
	free(rp->known);
	free(rp->flag);
	free(rp->active);
	free(rp->up);
	free(rp->down);
	free(rp->pc);
	free(rp->wake);
	free(rp->phase);
}

static int cp_rp_alloc(struct cp_rp *rp)
{
	size_t n = (size_t)rp->nops + 1, r = (size_t)rp->nranks + 1;
	size_t cells = (size_t)(rp->net->height + 1) * rp->nleaves;
	int k, i, id = 0;

	rp->first = malloc(r * sizeof(*rp->first));
	rp->op = malloc(n * sizeof(*rp->op));
	rp->rank_of = malloc(n * sizeof(*rp->rank_of));
	rp->match = malloc(n * sizeof(*rp->match));
	rp->work = malloc(n * sizeof(*rp->work));
	rp->rate = malloc(n * sizeof(*rp->rate));
	rp->f_norto = malloc(n * sizeof(*rp->f_norto));
	rp->known = malloc(n * sizeof(*rp->known));
	rp->flag = calloc(n, sizeof(*rp->flag));
	rp->active = malloc(n * sizeof(*rp->active));
	rp->up = malloc(cells * sizeof(*rp->up));
	rp->down = malloc(cells * sizeof(*rp->down));
	rp->pc = malloc(r * sizeof(*rp->pc));
	rp->wake = malloc(r * sizeof(*rp->wake));
	rp->phase = malloc(r * sizeof(*rp->phase));
	if (!rp->first || !rp->op || !rp->rank_of || !rp->match ||
	    !rp->work || !rp->rate || !rp->f_norto || !rp->known ||
	    !rp->flag || !rp->active || !rp->up || !rp->down || !rp->pc ||
	    !rp->wake || !rp->phase)
		return -CP_ENOMEM;
	for (k = 0; k < rp->nranks; k++) {
		rp->first[k] = id;
		for (i = 0; i < rp->ranks[k].n; i++, id++) {
			rp->op[id] = &rp->ranks[k].ops[i];
			rp->rank_of[id] = k;
		}
	}
	return 0;
}

int cp_replay_run(const struct cp_plogpt_net *net,
		  struct cp_replay_rank *ranks, int nranks,
		  struct cp_replay_result *res)
{
	struct cp_rp rp = { .net = net, .ranks = ranks, .nranks = nranks };
	bool changed = true;
	int r, id, rc;

	memset(res, 0, sizeof(*res));
	if (!net || !ranks || nranks < 1 || net->height < 0 ||
	    net->height > CP_PLOGPT_MAX_HEIGHT)
		return -CP_EINVAL;
	rp.nleaves = 1 << net->height;
	rc = cp_rp_check(&rp);
	if (rc)
		return rc;
	for (r = 0; r < nranks; r++) {
		if (ranks[r].n > INT32_MAX - rp.nops)
			return -CP_EINVAL;
		rp.nops += ranks[r].n;
	}
	rc = cp_rp_alloc(&rp);
	if (!rc)
		rc = cp_rp_match(&rp);
	while (!rc && changed && res->passes < CP_REPLAY_MAX_PASSES) {
		rc = cp_rp_pass(&rp);
		res->passes++;
		if (!rc)
			rc = cp_rp_rto(&rp, &changed);
	}
	if (!rc || rc == -CP_ENOPRED) {
		res->settled = !rc && !changed;
		for (id = 0; id < rp.nops; id++)
			res->n_rto += rp.op[id]->kind == CP_REPLAY_ISEND &&
				      rp.op[id]->rto;
		for (r = 0; r < nranks; r++)
			if (ranks[r].n)
				res->total_s = fmax(res->total_s,
					ranks[r].ops[ranks[r].n - 1].l_s);
	}
	cp_rp_free(&rp);
	return rc;
}
