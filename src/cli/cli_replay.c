/*
 * cli_replay.c - commprof replay DIR [--model plogpt] [--params FILE]:
 * the point-to-point calls of a recorded run replayed under
 * PlogPT (analysis/cp_replay.h), each rank's predicted time against the
 * measured one.
 *
 * Each send or receive row becomes an Isend or Irecv at its start and a
 * Wait where its completing call was entered (at once for a blocking
 * call); the time between two of them that the rank did not spend in
 * them (computation, and every call that is not replayed: collectives,
 * probes, ...) is kept as measured, as the op's before_s.  Messages match
 * in order per (sender, receiver): tags and communicators are not told
 * apart.  The tree's leaves are the run's hosts, or its ranks when it ran
 * on one host; the parameter file's calibrated tree (b(h), d(h), g(m)
 * with both ends sending) when it has one of as many leaves; else the
 * tree has full bisection, b(1) is g's rate at its largest size, and no
 * buffer delay is known, so no RTO stall is predicted.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "analysis/cp_model.h"
#include "analysis/cp_replay.h"
#include "analysis/cp_stats.h"
#include "db/cp_db.h"
#include "db/cp_db_read.h"
#include "src/cli/cli.h"
#include "src/common/cp_params.h"
#include "src/common/cp_pt_params.h"
#include "src/common/cp_row.h"

#define CP_RPL_HOST	256

/* One send or receive row: its post and its wait. */
struct cp_rpl_msg {
	int32_t rank, peer;
	int64_t seq;
	bool recv;
	double post_s, wait_s, leave_s;	/* job clock */
	double bytes;
};

struct cp_rpl {
	struct cp_rpl_msg *m;
	size_t n, cap;
	int32_t nranks;
	double mpi_s;			/* MPI time of every row */
	double p2p_s;			/* of the rows replayed */
	size_t *from;			/* [nranks + 1]: rows of rank r are
					 * m[from[r] .. from[r + 1]) */
	char (*host)[CP_RPL_HOST];	/* [nranks] */
	int *leaf;			/* [nranks] */
	int nleaves;
	bool leaves_are_hosts;
};

/* An op before sorting: time it is entered, then post before wait. */
struct cp_rpl_ev {
	double t_s;
	int64_t seq;
	int wait;			/* 0 post, 1 its wait */
	size_t msg;
};

/* mu of measured m and predicted p, NAN when either is not positive */
static double cp_rpl_mu(double m, double p)
{
	double mu;

	return m > 0 && p > 0 && !cp_stats_mu(m, p, &mu) ? mu : NAN;
}

static bool cp_rpl_is_p2p(const struct cp_db_row *r)
{
	const char *n = r->op_name;

	if (!n || r->call.peer < 0 ||
	    (r->call.flags & (CP_F_CANCELLED | CP_F_NOTDONE | CP_F_PROCNULL)))
		return false;
	return strstr(n, "send") || strstr(n, "Send") || strstr(n, "recv") ||
	       strstr(n, "Recv");
}

static int cp_rpl_row(void *arg, const struct cp_db_row *r)
{
	struct cp_rpl *x = arg;
	const struct cp_db_call *c = &r->call;
	struct cp_rpl_msg *m;
	double t0 = c->t_start_ns * 1e-9, dt = c->t_measured_ns * 1e-9;

	if (r->rank >= x->nranks)
		x->nranks = r->rank + 1;
	if (!(c->flags & CP_F_NONBLOCK))
		x->mpi_s += dt;
	else if (c->t_incall_ns > 0)
		x->mpi_s += c->t_incall_ns * 1e-9;
	if (!cp_rpl_is_p2p(r))
		return 0;
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 4096;
		void *p = realloc(x->m, cap * sizeof(*x->m));

		if (!p)
			return -ENOMEM;
		x->m = p;
		x->cap = cap;
	}
	if (r->call.peer >= x->nranks)
		x->nranks = r->call.peer + 1;
	m = &x->m[x->n++];
	m->rank = r->rank;
	m->peer = c->peer;
	m->seq = c->seq;
	m->recv = c->flags & CP_F_RECV;
	m->post_s = t0;
	m->leave_s = t0 + dt;
	m->wait_s = m->post_s;
	if (c->flags & CP_F_NONBLOCK)
		m->wait_s = m->leave_s - fmax(0, c->t_incall_ns * 1e-9);
	m->bytes = (double)c->bytes;
	x->p2p_s += (c->flags & CP_F_NONBLOCK) ?
		    fmax(0, c->t_incall_ns * 1e-9) : dt;
	return 0;
}

static int cp_rpl_ev_cmp(const void *a, const void *b)
{
	const struct cp_rpl_ev *x = a, *y = b;

	if (x->t_s != y->t_s)
		return x->t_s < y->t_s ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->wait - y->wait;
}

/* Leaves: one per host in rank order of first appearance, or one per
 * rank when the run had one host. */
static int cp_rpl_leaves(struct cp_db *db, struct cp_rpl *x)
{
	int32_t r, k;
	size_t i;

	x->host = calloc(x->nranks, sizeof(*x->host));
	x->leaf = calloc(x->nranks, sizeof(*x->leaf));
	x->from = calloc(x->nranks + 1, sizeof(*x->from));
	if (!x->host || !x->leaf || !x->from)
		return -ENOMEM;
	/* rows come in (rank, seq) order */
	for (i = 0, r = 0; r <= x->nranks; r++) {
		while (i < x->n && x->m[i].rank < r)
			i++;
		x->from[r] = i;
	}
	x->nleaves = 0;
	for (r = 0; r < x->nranks; r++) {
		if (cp_db_get_rank_meta(db, r, "host", x->host[r],
					sizeof(x->host[r])))
			snprintf(x->host[r], sizeof(x->host[r]), "?");
		for (k = 0; k < r && strcmp(x->host[k], x->host[r]); k++)
			;
		x->leaf[r] = k < r ? x->leaf[k] : x->nleaves++;
	}
	x->leaves_are_hosts = x->nleaves > 1;
	if (!x->leaves_are_hosts) {
		for (r = 0; r < x->nranks; r++)
			x->leaf[r] = r;
		x->nleaves = x->nranks;
	}
	return 0;
}

/* The ops of every rank, in the order the rank entered them. */
static int cp_rpl_build(const struct cp_rpl *x, struct cp_replay_rank *rk)
{
	struct cp_rpl_ev *ev = malloc(sizeof(*ev) * (2 * x->n + 1));
	size_t *at = malloc(sizeof(*at) * (x->n + 1));
	size_t i, k, n = 0;
	int32_t r;

	if (!ev || !at) {
		free(ev);
		free(at);
		return -ENOMEM;
	}
	for (r = 0; r < x->nranks; r++) {
		double last = 0;

		n = 0;
		for (i = x->from[r]; i < x->from[r + 1]; i++) {
			ev[n++] = (struct cp_rpl_ev){ x->m[i].post_s,
						       x->m[i].seq, 0, i };
			ev[n++] = (struct cp_rpl_ev){ x->m[i].wait_s,
						       x->m[i].seq, 1, i };
		}
		qsort(ev, n, sizeof(*ev), cp_rpl_ev_cmp);
		rk[r].leaf = x->leaf[r];
		rk[r].n = (int)n;
		rk[r].ops = calloc(n + 1, sizeof(*rk[r].ops));
		if (!rk[r].ops) {
			free(ev);
			free(at);
			return -ENOMEM;
		}
		for (k = 0; k < n; k++) {
			const struct cp_rpl_msg *m = &x->m[ev[k].msg];
			struct cp_replay_op *o = &rk[r].ops[k];

			o->before_s = fmax(0, ev[k].t_s - last);
			if (ev[k].wait) {
				o->kind = CP_REPLAY_WAIT;
				o->waits = (int)at[ev[k].msg];
				last = fmax(last, m->leave_s);
				continue;
			}
			o->kind = m->recv ? CP_REPLAY_IRECV : CP_REPLAY_ISEND;
			o->peer = m->peer;
			o->bytes = m->bytes;
			at[ev[k].msg] = k;
			last = fmax(last, ev[k].t_s);
		}
	}
	free(ev);
	free(at);
	return 0;
}

/* The g(m) table of sizes x and values v (n of them, named what) into
 * gx, g: failed entries left out and said in note (at bytes written of
 * len).  Returns the entries kept. */
static int cp_rpl_gtab(const double *x, const struct cp_pval *v, int n,
		       const char *what, double *gx, double *g, char *note,
		       size_t len, size_t *at)
{
	int i, k = 0, nfail = 0;

	for (i = 0; i < n; i++) {
		if (v[i].state != CP_PV_OK) {
			if (!nfail++ && *at < len)
				*at += (size_t)snprintf(note + *at, len - *at,
					"%s%s's g(%.0f) %s: left out",
					*at ? "; " : "", what, x[i],
					v[i].state == CP_PV_FAIL ? v[i].fail :
					"missing");
			continue;
		}
		gx[k] = x[i];
		g[k++] = v[i].val;
	}
	if (nfail > 1 && *at < len)
		*at += (size_t)snprintf(note + *at, len - *at,
					" (and %d more)", nfail - 1);
	return k;
}

/* The calibrated tree of p's PlogPT section, when it has L, a rate for
 * every height and at least nleaves leaves: b(h), d(h) (a failed d
 * NAN: no RTO there), eps_S, eps_T.  Returns true when taken. */
static bool cp_rpl_tree(const struct cp_pt_params *pt, int nleaves,
			struct cp_plogpt_net *net)
{
	int h;

	if (!pt || pt->height < 1 || pt->height > CP_PLOGPT_MAX_HEIGHT ||
	    (1 << pt->height) < nleaves || pt->l_s.state != CP_PV_OK)
		return false;
	for (h = 1; h <= pt->height; h++)
		if (pt->b_bps[h].state != CP_PV_OK)
			return false;
	net->height = pt->height;
	for (h = 1; h <= pt->height; h++) {
		net->b_bps[h] = pt->b_bps[h].val;
		net->d_s[h] = pt->d_s[h].state == CP_PV_OK ? pt->d_s[h].val :
			      NAN;
	}
	net->l_s = pt->l_s.val;
	net->eps_s = pt->eps_s.state == CP_PV_OK ? pt->eps_s.val : 0.1;
	net->eps_t_s = pt->eps_t_s.state == CP_PV_OK ? pt->eps_t_s.val : 0;
	return true;
}

/*
 * The tree of the run from the parameter file: the calibrated tree of
 * its PlogPT section with g(m) measured both ends sending, when the
 * section has one of at least the run's leaves; else PLogP's L and
 * g(m) (PlogPT's g when the section has it), full bisection from
 * b(1) = m/g(m) at the table's largest size and no buffer delay.  g:
 * room for 2 * (plogp_n + the section's sizes) doubles.  *tree: out,
 * true for the calibrated tree.  Returns 0, or -1 with why in msg; note
 * (len bytes too): what was assumed, or "".
 */
static int cp_rpl_net(const struct cp_params *p, int nleaves,
		      struct cp_plogpt_net *net, double *g, char *msg,
		      char *note, size_t len, bool *tree)
{
	const struct cp_pt_params *pt = p->pt;
	bool bidir = pt && pt->nsizes >= 2;
	int ng = bidir ? pt->nsizes : p->plogp_n, i, h = 0, n;
	double *gx = g + ng;	/* sizes of the entries kept */
	size_t at = 0;

	note[0] = '\0';
	memset(net, 0, sizeof(*net));
	n = bidir ? cp_rpl_gtab(pt->size_bytes, pt->g_s, pt->nsizes,
				"PlogPT", gx, g, note, len, &at) :
		    cp_rpl_gtab(p->plogp_size_bytes, p->plogp_g_s,
				p->plogp_n, "PLogP", gx, g, note, len, &at);
	if (n < 2) {
		snprintf(msg, len, "fewer than 2 sizes of g(m) estimated");
		return -1;
	}
	net->g_bytes = gx;
	net->g_s = g;
	net->g_n = n;
	net->t_rto_s = CP_PLOGPT_T_RTO_S;
	*tree = cp_rpl_tree(pt, nleaves, net);
	if (*tree)
		return 0;
	/* L only delays a receive after its send: a failed L (negative
	 * within noise on shared memory) is taken as 0, and said */
	{
		const struct cp_pval *l = bidir ? &pt->l_s : &p->plogp_l_s;

		if (l->state != CP_PV_OK && at < len)
			snprintf(note + at, len - at, "%s%s's L %s: taken "
				 "as 0", at ? "; " : "", bidir ? "PlogPT" :
				 "PLogP", l->state == CP_PV_FAIL ? l->fail :
				 "missing");
		net->l_s = l->state == CP_PV_OK ? l->val : 0;
	}
	while ((1 << h) < nleaves && h < CP_PLOGPT_MAX_HEIGHT)
		h++;
	net->height = h;
	net->eps_s = 0.1;
	net->b_bps[1] = gx[n - 1] / g[n - 1];
	if (!(net->b_bps[1] > 0) || !isfinite(net->b_bps[1])) {
		snprintf(msg, len, "g(m) gives no rate");
		return -1;
	}
	for (i = 2; i <= h; i++)
		net->b_bps[i] = 2 * net->b_bps[i - 1];
	for (i = 1; i <= h; i++)
		net->d_s[i] = NAN;
	return 0;
}

/* Rank r's measured and predicted times: in its replayed calls (the
 * Waits' leave minus enter) and to the end of its last one. */
struct cp_rpl_times {
	double in_m, in_p, end_m, end_p;
	int msgs, rto;
};

static void cp_rpl_rank(const struct cp_rpl *x,
			const struct cp_replay_rank *rk, int32_t r,
			struct cp_rpl_times *t)
{
	size_t i;
	int k;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < rk->n; k++) {
		const struct cp_replay_op *o = &rk->ops[k];

		t->msgs += o->kind != CP_REPLAY_WAIT;
		t->rto += o->kind == CP_REPLAY_ISEND && o->rto;
		if (o->kind == CP_REPLAY_WAIT)
			t->in_p += o->l_s - o->e_s;
	}
	for (i = x->from[r]; i < x->from[r + 1]; i++) {
		t->in_m += x->m[i].leave_s - x->m[i].wait_s;
		t->end_m = fmax(t->end_m, x->m[i].leave_s);
	}
	t->end_p = rk->n ? rk->ops[rk->n - 1].l_s : NAN;
}

static void cp_rpl_print(const struct cp_rpl *x,
			 const struct cp_replay_rank *rk,
			 const struct cp_rpl_times *q,
			 const struct cp_plogpt_net *net,
			 const struct cp_replay_result *res, const char *dir,
			 const char *pfile, bool tree)
{
	struct cp_rpl_times t, all = { 0 };
	double mu_sum = 0, in_q = 0, end_q = 0;
	int32_t r;
	int nmu = 0, k, shown = 0;

	printf("replay of %s under PlogPT, parameters %s\n", dir, pfile);
	if (tree) {
		printf("%d ranks on %d leaves (%s), the calibrated tree of "
		       "height %d, L = %.2f us:\n", x->nranks, x->nleaves,
		       x->leaves_are_hosts ? "hosts" : "ranks of one host",
		       net->height, net->l_s * 1e6);
		for (k = 1; k <= net->height; k++)
			printf("  height %d: b = %.1f MB/s, d = %.1f us%s\n",
			       k, net->b_bps[k] * 1e-6, net->d_s[k] * 1e6,
			       isnan(net->d_s[k]) ? " (failed: no RTO stall "
			       "predicted there)" : "");
	} else {
		printf("%d ranks on %d leaves (%s), tree of height %d, full "
		       "bisection (no tree calibration);\nb(1) = %.1f MB/s "
		       "from g(m) at %.0f bytes, L = %.2f us; no buffer "
		       "delays d(h): no RTO stall is predicted\n",
		       x->nranks, x->nleaves, x->leaves_are_hosts ? "hosts" :
		       "ranks of one host", net->height, net->b_bps[1] * 1e-6,
		       net->g_bytes[net->g_n - 1], net->l_s * 1e6);
	}
	printf("\n%-6s %-16s %8s | %-48s | %-38s | %4s\n", "", "", "",
	       "time in replayed calls, s", "end of the last one, s", "");
	printf("%-6s %-16s %8s | %9s %9s %8s %9s %8s | %12s %12s %12s | "
	       "%4s\n", "rank", "host", "messages", "measured", "predicted",
	       "mu", "no RTO", "mu", "measured", "predicted", "no RTO",
	       "RTO");
	for (r = 0; r < x->nranks; r++) {
		cp_rpl_rank(x, &rk[r], r, &t);
		all.msgs += t.msgs;
		all.in_m += t.in_m;
		all.in_p += t.in_p;
		in_q += q[r].in_p;
		all.end_m = fmax(all.end_m, t.end_m);
		if (!isnan(q[r].end_p))
			end_q = fmax(end_q, q[r].end_p);
		if (!isnan(cp_rpl_mu(t.in_m, t.in_p))) {
			mu_sum += cp_rpl_mu(t.in_m, t.in_p);
			nmu++;
		}
		printf("%-6d %-16.16s %8d | %9.6f %9.6f %8.3f %9.6f %8.3f | "
		       "%12.6f %12.6f %12.6f | %4d\n", r, x->host[r], t.msgs,
		       t.in_m, t.in_p, cp_rpl_mu(t.in_m, t.in_p), q[r].in_p,
		       cp_rpl_mu(t.in_m, q[r].in_p), t.end_m, t.end_p,
		       q[r].end_p, t.rto);
	}
	printf("%-6s %-16s %8d | %9.6f %9.6f %8.3f %9.6f %8.3f | %12.6f "
	       "%12.6f %12.6f | %4d\n", "all", "", all.msgs, all.in_m,
	       all.in_p, cp_rpl_mu(all.in_m, all.in_p), in_q,
	       cp_rpl_mu(all.in_m, in_q), all.end_m, res->total_s, end_q,
	       res->n_rto);
	printf("\nmu_bar of the time in replayed calls over ranks: %.3f\n",
	       nmu ? mu_sum / nmu : NAN);
	printf("replayed: %.1f%% of the MPI time (point to point); the rest, "
	       "and the computation between calls, is kept as measured\n",
	       cp_cli_pct((int64_t)(x->p2p_s * 1e9),
			  (int64_t)(x->mpi_s * 1e9)));
	if (!res->settled)
		printf("note: the RTO stalls did not settle in %d passes\n",
		       res->passes);
	for (r = 0; r < x->nranks && shown < 20; r++)
		for (k = 0; k < rk[r].n && shown < 20; k++) {
			const struct cp_replay_op *o = &rk[r].ops[k];

			if (o->kind != CP_REPLAY_ISEND || !o->rto)
				continue;
			if (!shown++)
				printf("\nsends that drew an RTO (T_RTO %.0f "
				       "ms):\n", net->t_rto_s * 1e3);
			printf("  rank %d -> %d, %.0f bytes, at %.6f s\n", r,
			       o->peer, o->bytes, o->e_s);
		}
}

static int cp_rpl_parse(int argc, char **argv, const char **dir,
			const char **pfile)
{
	int i;

	*dir = *pfile = NULL;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--params") && i + 1 < argc) {
			*pfile = argv[++i];
		} else if (!strcmp(argv[i], "--model") && i + 1 < argc) {
			if (strcmp(argv[++i], "plogpt")) {
				cp_cli_err("replay: no model '%s' to replay "
					   "with (plogpt)", argv[i]);
				return CP_CLI_USAGE;
			}
		} else if (argv[i][0] == '-' || *dir) {
			return cp_cli_bad_arg("replay", argv[i],
					      " --params --model ");
		} else {
			*dir = argv[i];
		}
	}
	if (!*dir) {
		cp_cli_err("replay: missing DIR; try 'commprof --help'");
		return CP_CLI_USAGE;
	}
	return 0;
}

int cp_cli_replay(int argc, char **argv)
{
	struct cp_rpl x = { 0 };
	struct cp_replay_rank *rk = NULL;
	struct cp_replay_result res;
	struct cp_plogpt_net net;
	struct cp_params *p = NULL;
	char pbuf[4096], err[512], note[512];
	const char *dir, *pfile;
	double *g = NULL, t_rto;
	struct cp_rpl_times *q = NULL;
	struct cp_db *db;
	bool tree = false;
	int ret, rc;
	int32_t r;

	ret = cp_rpl_parse(argc, argv, &dir, &pfile);
	if (ret)
		return ret;
	if (cp_cli_open(&dir, &db))
		return CP_CLI_FAIL;
	ret = CP_CLI_FAIL;
	if (!pfile) {
		if (cp_db_get_rank_meta(db, 0, "params", pbuf, sizeof(pbuf)) ||
		    !*pbuf) {
			cp_cli_err("replay: the run had no COMMPROF_PARAMS; "
				   "give --params FILE");
			goto out;
		}
		pfile = pbuf;
	}
	if (cp_params_load(pfile, &p, err, sizeof(err))) {
		cp_cli_err("%s", err);
		goto out;
	}
	if (cp_cli_rows(db))	/* the merge holds no call rows until now */
		goto out;
	rc = cp_db_each_call(db, cp_rpl_row, &x);
	if (rc) {
		cp_cli_err("%s", rc == -ENOMEM ? "out of memory" :
			   cp_db_errmsg(db));
		goto out;
	}
	if (!x.n) {
		cp_cli_err("replay: %s has no point-to-point call row", dir);
		goto out;
	}
	g = calloc(2 * ((size_t)p->plogp_n + (p->pt ? p->pt->nsizes : 0)) +
		   1, sizeof(*g));
	rk = calloc(x.nranks, sizeof(*rk));
	q = calloc(x.nranks, sizeof(*q));
	if (!g || !rk || !q || cp_rpl_leaves(db, &x) || cp_rpl_build(&x, rk)) {
		cp_cli_err("out of memory");
		goto out;
	}
	if (cp_rpl_net(p, x.nleaves, &net, g, err, note, sizeof(err),
		       &tree)) {
		cp_cli_err("replay: %s: %s: nothing to replay with", pfile,
			   err);
		goto out;
	}
	/* first with no RTO stall (T_RTO 0: the rule's worst case apart),
	 * then as eq. 14 says, when it flagged a send */
	t_rto = net.t_rto_s;
	net.t_rto_s = 0;
	rc = cp_replay_run(&net, rk, x.nranks, &res);
	for (r = 0; (!rc || rc == -CP_ENOPRED) && r < x.nranks; r++)
		cp_rpl_rank(&x, &rk[r], r, &q[r]);
	net.t_rto_s = t_rto;
	if ((!rc || rc == -CP_ENOPRED) && res.n_rto)
		rc = cp_replay_run(&net, rk, x.nranks, &res);
	if (rc && rc != -CP_ENOPRED) {
		cp_cli_err("replay: %s", rc == -CP_ENOMEM ? "out of memory" :
			   "the run's calls cannot be replayed");
		goto out;
	}
	cp_rpl_print(&x, rk, q, &net, &res, dir, pfile, tree);
	if (*note)
		printf("note: %s\n", note);
	if (rc)
		printf("note: a receive has no matching send in the rows "
		       "(sampled or capped run?): later calls of its rank "
		       "are not predicted\n");
	ret = fflush(stdout) ? CP_CLI_FAIL : CP_CLI_OK;
	if (ret)
		cp_cli_err("cannot write standard output");
out:
	if (rk)
		for (r = 0; r < x.nranks; r++)
			free(rk[r].ops);
	free(rk);
	free(q);
	free(g);
	free(x.m);
	free(x.host);
	free(x.leaf);
	free(x.from);
	cp_params_free(p);
	cp_db_close(db);
	return ret;
}
