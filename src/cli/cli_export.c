/*
 * cli_export.c - "commprof export DIR [--format csv|json] [-o FILE]": one
 * record per recorded call, in (rank, seq) order.  Times in seconds with
 * nine decimals (exact: printed from integer ns; predictions rounded to
 * the ns), sentinels as empty fields (CSV) or null (JSON), peers
 * MPI_PROC_NULL / MPI_ANY_SOURCE by name, flags as a '|'-joined list of
 * names, the late side of a matched message as sender or receiver.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/cp_db_read.h"
#include "src/cli/cli.h"
#include "src/common/cp_json.h"
#include "src/common/cp_row.h"

static const char *const cp_cli_cols[] = {
	"rank", "op", "peer", "root", "tag", "comm_size", "bytes",
	"contiguous", "block_bytes", "stride_bytes", "nblocks", "callsite",
	"t_start", "t_measured", "count", "comm", "t_incall", "flags",
	"thread", "seq", "function",
#define CP_CLI_COL_PRED_NAME(id, name) "pred_" #name,
	CP_MODEL_MAP(CP_CLI_COL_PRED_NAME)
#undef CP_CLI_COL_PRED_NAME
	"t_transfer", "t_wait", "late",
#define CP_CLI_COL_MU_NAME(id, name) "mu_" #name,
	CP_MODEL_MAP(CP_CLI_COL_MU_NAME)
#undef CP_CLI_COL_MU_NAME
	"layout", "algorithm",
};

/* First columns of the predictions, of the matching and of mu (one per
 * model, in CP_MODEL_* order), the layout description and the
 * collective's algorithm, the last. */
#define CP_CLI_COL_PRED		21
#define CP_CLI_COL_XFER		(CP_CLI_COL_PRED + CP_NMODELS)
#define CP_CLI_COL_MU		(CP_CLI_COL_XFER + 3)
#define CP_CLI_COL_LAYOUT	(CP_CLI_COL_MU + CP_NMODELS)
#define CP_CLI_COL_ALG		(CP_CLI_COL_LAYOUT + 1)

#define CP_CLI_NCOLS (sizeof(cp_cli_cols) / sizeof(cp_cli_cols[0]))
_Static_assert(CP_CLI_COL_ALG + 1 == CP_CLI_NCOLS,
	       "cp_cli_cols and its column numbers disagree");

/* CP_F_* names, in bit order. */
static const struct {
	uint32_t bit;
	const char *name;
} cp_cli_flags[] = {
	{ CP_F_PROCNULL, "procnull" }, { CP_F_INPLACE, "inplace" },
	{ CP_F_ZERO, "zero" }, { CP_F_NONBLOCK, "nonblock" },
	{ CP_F_PERSIST, "persistent" }, { CP_F_FORTRAN, "fortran" },
	{ CP_F_NOTDONE, "notdone" }, { CP_F_CANCELLED, "cancelled" },
	{ CP_F_ANYSRC, "anysrc" }, { CP_F_ANYTAG, "anytag" },
	{ CP_F_RECV, "recv" }, { CP_F_VARBLOCK, "varblock" },
	{ CP_F_INTER, "inter" }, { CP_F_HALF, "half" },
	{ CP_F_LARGE, "large" }, { CP_F_NONCOMMUTE, "noncommute" },
};

/* One output field: s NULL is empty (CSV) or null (JSON); str marks a
 * JSON string, else s is a JSON number. */
struct cp_cli_field {
	const char *s;
	bool str;
};

/* Why the row callback stopped the walk. */
#define CP_CLI_EXPORT_NOMEM	1	/* reported already */
#define CP_CLI_EXPORT_EWRITE	2	/* reported when the file closes */

struct cp_cli_export {
	FILE *f;
	bool json;
	uint64_t rows;
	struct cp_cli_sites *sites;
	char buf[CP_CLI_NCOLS][96];	/* text of numeric fields */
	char flags[256];
	char op[32];
};

/* ns as seconds with nine decimals, exactly. */
static void cp_cli_secs(char *buf, size_t len, int64_t ns)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "",
		 a / 1000000000u, a % 1000000000u);
}

static void cp_cli_flag_names(char *buf, size_t len, uint32_t flags)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(cp_cli_flags) / sizeof(cp_cli_flags[0]); i++) {
		if (!(flags & cp_cli_flags[i].bit))
			continue;
		flags &= ~cp_cli_flags[i].bit;
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
			      n ? "|" : "", cp_cli_flags[i].name);
	}
	if (flags)
		snprintf(buf + n, n < len ? len - n : 0, "%s0x%x",
			 n ? "|" : "", flags);
}

/* Field i as a number, or empty when v is the sentinel none. */
static void cp_cli_num(struct cp_cli_export *x, struct cp_cli_field *f,
		       int i, int64_t v, int64_t none)
{
	f[i].str = false;
	f[i].s = NULL;
	if (v == none)
		return;
	snprintf(x->buf[i], sizeof(x->buf[i]), "%" PRId64, v);
	f[i].s = x->buf[i];
}

static void cp_cli_unum(struct cp_cli_export *x, struct cp_cli_field *f,
			int i, uint64_t v)
{
	snprintf(x->buf[i], sizeof(x->buf[i]), "%" PRIu64, v);
	f[i].s = x->buf[i];
	f[i].str = false;
}

static void cp_cli_time(struct cp_cli_export *x, struct cp_cli_field *f,
			int i, int64_t ns, bool none)
{
	f[i].str = false;
	f[i].s = NULL;
	if (none)
		return;
	cp_cli_secs(x->buf[i], sizeof(x->buf[i]), ns);
	f[i].s = x->buf[i];
}

/* A prediction in ns as seconds, nine decimals; empty when NAN. */
static void cp_cli_pred(struct cp_cli_export *x, struct cp_cli_field *f,
			int i, double ns)
{
	f[i].str = false;
	f[i].s = NULL;
	if (!isfinite(ns))
		return;
	snprintf(x->buf[i], sizeof(x->buf[i]), "%.9f", ns / 1e9);
	f[i].s = x->buf[i];
}

/* A plain number (mu); empty when NAN. */
static void cp_cli_real(struct cp_cli_export *x, struct cp_cli_field *f,
			int i, double v)
{
	f[i].str = false;
	f[i].s = NULL;
	if (!isfinite(v))
		return;
	snprintf(x->buf[i], sizeof(x->buf[i]), "%.9g", v);
	f[i].s = x->buf[i];
}

/* A peer or root: world rank, a sentinel name, or empty. */
static void cp_cli_peer(struct cp_cli_export *x, struct cp_cli_field *f,
			int i, int32_t p)
{
	f[i].str = true;
	if (p == CP_PEER_PROCNULL)
		f[i].s = "MPI_PROC_NULL";
	else if (p == CP_PEER_ANY)
		f[i].s = "MPI_ANY_SOURCE";
	else
		cp_cli_num(x, f, i, p, CP_PEER_NONE);
}

static void cp_cli_str(struct cp_cli_field *f, int i, const char *s)
{
	f[i].s = s && s[0] ? s : NULL;
	f[i].str = true;
}

/* The columns of predictions, matching and mu of row r. */
static void cp_cli_model_fields(struct cp_cli_export *x,
				const struct cp_db_row *r,
				struct cp_cli_field *f)
{
	int i;

	for (i = 0; i < CP_NMODELS; i++) {
		cp_cli_pred(x, f, CP_CLI_COL_PRED + i, r->call.pred_ns[i]);
		cp_cli_real(x, f, CP_CLI_COL_MU + i, r->mu[i]);
	}
	cp_cli_time(x, f, CP_CLI_COL_XFER, r->t_transfer_ns,
		    r->t_transfer_ns < 0);
	cp_cli_time(x, f, CP_CLI_COL_XFER + 1, r->t_wait_ns, r->t_wait_ns < 0);
	cp_cli_str(f, CP_CLI_COL_XFER + 2, r->late == 1 ? "sender" :
		   r->late == 2 ? "receiver" : NULL);
}

/* Fill the fields of row r, in the order of cp_cli_cols.  Returns 0 or
 * -1 when out of memory. */
static int cp_cli_fields(struct cp_cli_export *x, const struct cp_db_row *r,
			 struct cp_cli_field *f)
{
	const struct cp_db_call *c = &r->call;
	const char *site, *func;

	if (cp_cli_site_get(x->sites, r->mod_path, r->mod_base, c->site,
			    &site, &func))
		return -1;
	cp_cli_num(x, f, 0, r->rank, INT64_MIN);
	cp_cli_str(f, 1, cp_row_op_name(x->op, sizeof(x->op), r->op_name,
					c->op));
	cp_cli_peer(x, f, 2, c->peer);
	cp_cli_peer(x, f, 3, c->root);
	cp_cli_num(x, f, 4, c->tag, INT32_MIN);
	cp_cli_num(x, f, 5, c->comm_size, -1);
	cp_cli_unum(x, f, 6, c->bytes);
	cp_cli_num(x, f, 7, r->contiguous, -1);
	cp_cli_num(x, f, 8, r->block_bytes, -1);
	cp_cli_num(x, f, 9, r->stride_bytes, -1);
	cp_cli_num(x, f, 10, r->nblocks, -1);
	cp_cli_str(f, 11, site);
	cp_cli_time(x, f, 12, c->t_start_ns, false);
	cp_cli_time(x, f, 13, c->t_measured_ns, false);
	cp_cli_unum(x, f, 14, c->count);
	cp_cli_unum(x, f, 15, c->comm_id);
	cp_cli_time(x, f, 16, c->t_incall_ns, c->t_incall_ns == -1);
	cp_cli_flag_names(x->flags, sizeof(x->flags), c->flags);
	cp_cli_str(f, 17, x->flags);
	cp_cli_num(x, f, 18, c->thread, INT64_MIN);
	cp_cli_num(x, f, 19, c->seq, INT64_MIN);
	cp_cli_str(f, 20, func);
	cp_cli_model_fields(x, r, f);
	cp_cli_str(f, CP_CLI_COL_LAYOUT, r->layout_descr);
	cp_cli_str(f, CP_CLI_COL_ALG, cp_cli_alg(r->op_name, r->call.alg));
	return 0;
}

static void cp_cli_put_csv(FILE *f, const struct cp_cli_field *fl)
{
	size_t i;

	for (i = 0; i < CP_CLI_NCOLS; i++) {
		if (i)
			fputc(',', f);
		cp_cli_csv_str(f, fl[i].s);
	}
	fputc('\n', f);
}

static void cp_cli_put_json(FILE *f, const struct cp_cli_field *fl,
			    bool first)
{
	size_t i;

	fputs(first ? "[\n{" : ",\n{", f);
	for (i = 0; i < CP_CLI_NCOLS; i++) {
		fprintf(f, "%s\"%s\": ", i ? ", " : "", cp_cli_cols[i]);
		if (!fl[i].s)
			fputs("null", f);
		else if (fl[i].str)
			cp_json_str(f, fl[i].s);
		else
			fputs(fl[i].s, f);
	}
	fputc('}', f);
}

static int cp_cli_export_row(void *arg, const struct cp_db_row *r)
{
	struct cp_cli_field fl[CP_CLI_NCOLS];
	struct cp_cli_export *x = arg;

	if (cp_cli_fields(x, r, fl)) {
		cp_cli_err("out of memory");
		return CP_CLI_EXPORT_NOMEM;
	}
	if (x->json)
		cp_cli_put_json(x->f, fl, !x->rows);
	else
		cp_cli_put_csv(x->f, fl);
	x->rows++;
	return ferror(x->f) ? CP_CLI_EXPORT_EWRITE : 0;
}

static void cp_cli_csv_header(FILE *f)
{
	size_t i;

	for (i = 0; i < CP_CLI_NCOLS; i++)
		fprintf(f, "%s%s", i ? "," : "", cp_cli_cols[i]);
	fputc('\n', f);
}

/* Parsed command line of export. */
struct cp_cli_export_args {
	const char *dir, *out, *format;
};

static int cp_cli_export_parse(int argc, char **argv,
			       struct cp_cli_export_args *a)
{
	int i;

	a->dir = a->out = NULL;
	a->format = "csv";
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			a->format = argv[++i];
		else if (!strncmp(argv[i], "--format=", 9))
			a->format = argv[i] + 9;
		else if ((!strcmp(argv[i], "-o") ||
			  !strcmp(argv[i], "--output")) && i + 1 < argc)
			a->out = argv[++i];
		else if (argv[i][0] == '-' || a->dir)
			goto out_usage;
		else
			a->dir = argv[i];
	}
	if (!a->dir) {
		cp_cli_err("export: missing DIR; try 'commprof --help'");
		return CP_CLI_USAGE;
	}
	if (strcmp(a->format, "csv") && strcmp(a->format, "json")) {
		cp_cli_err("export: unknown format '%s'; use csv or json",
			   a->format);
		return CP_CLI_USAGE;
	}
	return 0;
out_usage:
	return cp_cli_bad_arg("export", argv[i], " --format -o --output ");
}

/* Walk the rows into x->f.  Returns 0, CP_CLI_FAIL after printing why,
 * or CP_CLI_EXPORT_EWRITE. */
static int cp_cli_export_run(struct cp_db *db, struct cp_cli_export *x)
{
	int ret;

	if (!x->json)
		cp_cli_csv_header(x->f);
	ret = cp_db_each_call(db, cp_cli_export_row, x);
	if (ret < 0) {
		cp_cli_err("%s", cp_db_errmsg(db));
		return CP_CLI_FAIL;
	}
	if (ret == CP_CLI_EXPORT_NOMEM)
		return CP_CLI_FAIL;
	if (x->json && !ret)
		fputs(x->rows ? "\n]\n" : "[]\n", x->f);
	return ret;
}

int cp_cli_export(int argc, char **argv)
{
	struct cp_cli_export_args a;
	struct cp_cli_export *x;
	struct cp_db *db;
	int ret;

	ret = cp_cli_export_parse(argc, argv, &a);
	if (ret)
		return ret;
	if (cp_cli_open(&a.dir, &db))
		return CP_CLI_FAIL;
	ret = CP_CLI_FAIL;
	if (cp_cli_rows(db)) {
		cp_db_close(db);
		return CP_CLI_FAIL;
	}
	x = calloc(1, sizeof(*x));
	if (!x || !(x->sites = cp_cli_sites_new(db))) {
		cp_cli_err("out of memory");
		goto out_free;
	}
	x->json = !strcmp(a.format, "json");
	x->f = cp_cli_out_open(a.out);
	if (!x->f)
		goto out_free;
	ret = cp_cli_export_run(db, x);
	if (cp_cli_out_close(x->f, a.out, ret != CP_CLI_EXPORT_EWRITE,
			     ret == CP_CLI_FAIL))
		ret = CP_CLI_FAIL;
out_free:
	if (x)
		cp_cli_sites_free(x->sites);
	free(x);
	cp_db_close(db);
	return ret;
}
