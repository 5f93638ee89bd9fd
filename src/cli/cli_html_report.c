/*
 * cli_html_report.c - the data of "commprof report --format html"
 * (cli_views.h): the report's tables and, for the charts, the traffic
 * between ranks, a sample of measured-against-predicted rows, a timeline
 * and the calibrated link rates.  Everything is aggregated or sampled
 * here, never in the browser, so that a run of 1,000 ranks and ten
 * million rows gives a page of a few megabytes at most: the matrix has at
 * most CP_HR_BLOCKS x CP_HR_BLOCKS cells, the scatter CP_HR_POINTS rows,
 * the timeline CP_HR_TL_RANKS ranks x CP_HR_TL_BINS bins.
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "db/cp_db_read.h"
#include "src/cli/cli_views.h"
#include "src/common/cp_json.h"
#include "src/common/cp_row.h"

#define CP_HR_BLOCKS	64	/* matrix: ranks grouped into this many */
#define CP_HR_POINTS	4000	/* scatter: compared rows at most */
#define CP_HR_TL_RANKS	32	/* timeline: ranks shown at most */
#define CP_HR_TL_BINS	400	/* timeline: bins per rank */

/* Names of operations, by first appearance. */
struct cp_hr_ops {
	char *name[256];
	int n;
};

/* Index of name in o (added when new); -1 when o is full. */
static int cp_hr_op(struct cp_hr_ops *o, const char *name)
{
	int i;

	name = name ? name : "?";
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->name[i], name))
			return i;
	if (o->n == 256)
		return -1;
	o->name[o->n] = strdup(name);
	return o->name[o->n] ? o->n++ : -1;
}

static void cp_hr_ops_put(FILE *f, const struct cp_hr_ops *o)
{
	int i;

	fputs("\"ops\": [", f);
	for (i = 0; i < o->n; i++) {
		fputs(i ? ", " : "", f);
		cp_json_str(f, o->name[i]);
	}
	fputs("]", f);
}

static void cp_hr_ops_free(struct cp_hr_ops *o)
{
	int i;

	for (i = 0; i < o->n; i++)
		free(o->name[i]);
	o->n = 0;
}

/* A list of rows being written, with the names of their operations. */
struct cp_hr_out {
	FILE *f;
	struct cp_hr_ops ops;
	bool first;
};

/* Close the list of o (when its walk returned ret == 0) with the names
 * of its operations, and free them.  Returns ret. */
static int cp_hr_out_end(struct cp_hr_out *o, int ret)
{
	if (!ret) {
		fputs("], ", o->f);
		cp_hr_ops_put(o->f, &o->ops);
		fputs("}", o->f);
	}
	cp_hr_ops_free(&o->ops);
	return ret;
}

/* ---- communication matrix ---- */

struct cp_hr_cell {
	uint64_t bytes, msgs;
	int64_t time_ns;
};

struct cp_hr_mat {
	int32_t ranks, block, nb;
	struct cp_hr_cell *p2p, *coll;	/* [nb * nb], sender-major */
};

static void cp_hr_mat_add(struct cp_hr_mat *m, struct cp_hr_cell *v,
			  int32_t src, int32_t dst,
			  const struct cp_db_pair *p)
{
	struct cp_hr_cell *c;

	if (src < 0 || dst < 0 || src >= m->ranks || dst >= m->ranks)
		return;
	c = &v[(src / m->block) * m->nb + dst / m->block];
	c->bytes += p->bytes;
	c->msgs += p->msgs;
	c->time_ns += p->time_ns;
}

static int cp_hr_pair(void *arg, const struct cp_db_pair *p)
{
	struct cp_hr_mat *m = arg;

	cp_hr_mat_add(m, m->p2p, p->src, p->dst, p);
	return 0;
}

/*
 * True when rooted collective name sends to its root: MPI_Gather,
 * MPI_Reduce, their v and nonblocking forms (MPI_Igatherv); false for
 * Bcast and Scatter.  The ops table has a name, kind and class but no
 * direction, so the name tells.
 */
static bool cp_hr_to_root(const char *name)
{
	if (!strncmp(name, "MPI_", 4))
		name += 4;
	if (name[0] == 'I' && islower((unsigned char)name[1]))
		name++;
	return !strncasecmp(name, "gather", 6) ||
	       !strncasecmp(name, "reduce", 6);
}

/* A rooted collective as the linear schedule LMO models: the root sends
 * to every rank (Bcast, Scatter) or every rank to the root (Gather,
 * Reduce). */
static int cp_hr_rooted(void *arg, const struct cp_db_pair *p)
{
	struct cp_hr_mat *m = arg;

	if (cp_hr_to_root(p->op_name ? p->op_name : ""))
		cp_hr_mat_add(m, m->coll, p->src, p->dst, p);
	else
		cp_hr_mat_add(m, m->coll, p->dst, p->src, p);
	return 0;
}

static void cp_hr_cells_put(FILE *f, const char *key,
			    const struct cp_hr_mat *m,
			    const struct cp_hr_cell *v)
{
	int32_t i;
	bool first = true;

	fprintf(f, ", \"%s\": [", key);
	for (i = 0; i < m->nb * m->nb; i++) {
		if (!v[i].msgs && !v[i].time_ns)
			continue;
		fprintf(f, "%s[%d, %d, %llu, %llu, %.6g]", first ? "" : ", ",
			(int)(i / m->nb), (int)(i % m->nb),
			(unsigned long long)v[i].bytes,
			(unsigned long long)v[i].msgs, v[i].time_ns / 1e9);
		first = false;
	}
	fputs("]", f);
}

static int cp_hr_matrix(FILE *f, struct cp_db *db, int32_t ranks)
{
	struct cp_hr_mat m = { .ranks = ranks > 0 ? ranks : 1 };
	int ret;

	m.block = (m.ranks + CP_HR_BLOCKS - 1) / CP_HR_BLOCKS;
	m.nb = (m.ranks + m.block - 1) / m.block;
	m.p2p = calloc((size_t)m.nb * m.nb, sizeof(*m.p2p));
	m.coll = calloc((size_t)m.nb * m.nb, sizeof(*m.coll));
	ret = m.p2p && m.coll ? 0 : 1;
	if (!ret)
		ret = cp_db_each_pair(db, cp_hr_pair, &m);
	if (!ret)
		ret = cp_db_each_rooted(db, cp_hr_rooted, &m);
	if (!ret) {
		fprintf(f, "{\"ranks\": %d, \"block\": %d, \"n\": %d",
			(int)m.ranks, (int)m.block, (int)m.nb);
		cp_hr_cells_put(f, "p2p", &m, m.p2p);
		cp_hr_cells_put(f, "coll", &m, m.coll);
		fputs("}", f);
	}
	free(m.p2p);
	free(m.coll);
	return ret;
}

/* ---- measured against predicted ---- */

static void cp_hr_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ", %.5g", v);
	else
		fputs(", null", f);
}

static int cp_hr_cmp(void *arg, const struct cp_db_cmp *c)
{
	struct cp_hr_out *o = arg;
	int k, op = cp_hr_op(&o->ops, c->op_name);

	if (op < 0)
		return 1;
	fprintf(o->f, "%s[%d, %llu, %.5g", o->first ? "" : ",\n", op,
		(unsigned long long)c->bytes, c->t_transfer_ns / 1e9);
	for (k = 0; k < CP_NMODELS; k++)
		cp_hr_num(o->f, c->pred_ns[k] / 1e9);
	fputs("]", o->f);
	o->first = false;
	return 0;
}

static int cp_hr_scatter(FILE *f, struct cp_db *db)
{
	struct cp_hr_out o = { .f = f, .first = true };
	uint64_t n, step;
	int k, ret;

	ret = cp_db_count_compared(db, &n);
	if (ret)
		return ret;
	step = n > CP_HR_POINTS ? (n + CP_HR_POINTS - 1) / CP_HR_POINTS : 1;
	fputs("{\"models\": [", f);
	for (k = 0; k < CP_NMODELS; k++) {
		fputs(k ? ", " : "", f);
		cp_json_str(f, cp_model_name(k));
	}
	fprintf(f, "], \"rows\": %llu, \"step\": %llu, \"points\": [\n",
		(unsigned long long)n, (unsigned long long)step);
	ret = cp_db_each_compared(db, step, cp_hr_cmp, &o);
	return cp_hr_out_end(&o, ret);
}

/* ---- timeline ---- */

static int cp_hr_tl(void *arg, const struct cp_db_tl *t)
{
	struct cp_hr_out *o = arg;
	int op = cp_hr_op(&o->ops, t->op_name);

	if (op < 0)
		return 1;
	fprintf(o->f, "%s[%d, %d, %.7g, %.5g]", o->first ? "" : ",\n",
		(int)t->rank, op, t->t_start_ns / 1e9, t->t_measured_ns / 1e9);
	o->first = false;
	return 0;
}

static int cp_hr_timeline(FILE *f, struct cp_db *db, int32_t ranks)
{
	struct cp_hr_out o = { .f = f, .first = true };
	int64_t end, bin;
	int32_t step;
	int ret;

	ret = cp_db_get_span(db, &end);
	if (ret)
		return ret;
	bin = end / CP_HR_TL_BINS + 1;
	step = ranks > CP_HR_TL_RANKS ?
	       (ranks + CP_HR_TL_RANKS - 1) / CP_HR_TL_RANKS : 1;
	fprintf(f, "{\"t_end\": %.7g, \"bin\": %.5g, \"rank_step\": %d, "
		"\"ranks\": %d, \"calls\": [\n", end / 1e9, bin / 1e9,
		(int)step, (int)ranks);
	ret = cp_db_each_tl(db, bin, step, cp_hr_tl, &o);
	return cp_hr_out_end(&o, ret);
}

int cp_cli_html_report(FILE *f, void *arg)
{
	struct cp_cli_html_run *run = arg;
	struct cp_db_totals tot;
	int ret;

	ret = cp_db_get_totals(run->db, &tot);
	if (ret)
		goto out_fail;
	fputs("{\"tables\": ", f);
	if (cp_cli_tabs_print(f, CP_CLI_FMT_JSON, run->t, run->n, 0)) {
		cp_cli_err("out of memory");
		return 1;
	}
	fputs(", \"matrix\": ", f);
	ret = cp_hr_matrix(f, run->db, tot.ranks);
	if (!ret) {
		fputs(",\n\"scatter\": ", f);
		ret = cp_hr_scatter(f, run->db);
	}
	if (!ret) {
		fputs(",\n\"timeline\": ", f);
		ret = cp_hr_timeline(f, run->db, tot.ranks);
	}
	if (ret)
		goto out_fail;
	fputs(",\n", f);
	cp_cli_html_links(f, run->params);
	fputs("}\n", f);
	return 0;
out_fail:
	cp_cli_err("%s", ret < 0 ? cp_db_errmsg(run->db) : "out of memory");
	return 1;
}
