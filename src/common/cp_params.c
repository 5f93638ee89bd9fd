/*
 * cp_params.c - writer, strict reader and printers of the model parameter
 * file (src/common/cp_params.h, man/commprof-params.5).  Plain libc.
 *
 * One table (cp_params_desc) names every parameter, its indices and where
 * it lives in struct cp_params, so that the writer, the reader and the
 * printers cannot disagree on a name.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/cp_json.h"
#include "src/common/cp_params.h"
#include "src/common/cp_tl_params.h"

/* How a parameter is indexed. */
enum cp_pk {
	PK_SCALAR,	/* no index */
	PK_RANK,	/* rank */
	PK_PAIR,	/* rank rank, i < j */
	PK_VARIANT,	/* 0 or 1 (kappa variants) */
	PK_L3S,		/* log3p size */
	PK_L3SD,	/* log3p size stride */
	PK_PLOGP,	/* plogp size */
};

struct cp_pdesc {
	const char *name;	/* as in the file */
	enum cp_pk kind;
	size_t off;		/* struct cp_pval, or pointer to an array */
	const char *unit;	/* for people */
	bool required;		/* must be present (value or fail) */
};

#define OFF(f) offsetof(struct cp_params, f)

static const struct cp_pdesc cp_params_desc[] = {
	{ "lmo.M", PK_SCALAR, OFF(lmo_msg_bytes), "B", true },
	{ "lmo.C", PK_RANK, OFF(lmo_c_s), "s", true },
	{ "lmo.t", PK_RANK, OFF(lmo_t_spb), "s/B", true },
	{ "lmo.beta", PK_PAIR, OFF(lmo_beta_Bps), "B/s", true },
	{ "lmo.S", PK_SCALAR, OFF(lmo_s_bytes), "B", false },
	{ "lmo.M1", PK_SCALAR, OFF(lmo_m1_bytes), "B", false },
	{ "lmo.M2", PK_SCALAR, OFF(lmo_m2_bytes), "B", false },
	{ "lmo.kappa1", PK_VARIANT, OFF(lmo_kappa1_spb), "s/B", false },
	{ "lmo.kappa2", PK_VARIANT, OFF(lmo_kappa2_spb), "s/B", false },
	{ "log3p.t_mem", PK_L3S, OFF(l3_t_mem_s), "s", false },
	{ "log3p.o_mw", PK_L3S, OFF(l3_o_mw_s), "s", false },
	{ "log3p.o_net", PK_L3S, OFF(l3_o_net_s), "s", false },
	{ "log3p.l_mw", PK_L3SD, OFF(l3_l_mw_s), "s", false },
	{ "hockney.alpha", PK_SCALAR, OFF(hockney_alpha_s), "s", false },
	{ "hockney.beta", PK_SCALAR, OFF(hockney_beta_spb), "s/B", false },
	{ "loggp.L", PK_SCALAR, OFF(loggp_l_s), "s", false },
	{ "loggp.o", PK_SCALAR, OFF(loggp_o_s), "s", false },
	{ "loggp.os", PK_SCALAR, OFF(loggp_os_s), "s", false },
	{ "loggp.or", PK_SCALAR, OFF(loggp_or_s), "s", false },
	{ "loggp.g", PK_SCALAR, OFF(loggp_g_s), "s", false },
	{ "loggp.G", PK_SCALAR, OFF(loggp_gb_spb), "s/B", false },
	{ "plogp.L", PK_SCALAR, OFF(plogp_l_s), "s", false },
	{ "plogp.g", PK_PLOGP, OFF(plogp_g_s), "s", false },
};

#define NDESC (sizeof(cp_params_desc) / sizeof(cp_params_desc[0]))

/* "assume LINE" in the file, TEXT in `params show`. */
static const struct {
	unsigned bit;
	const char *line;
	const char *text;
} assume_tab[] = {
	{ CP_PARAMS_A_N2, "lmo.n2 C_equal t_zero",
	  "assumed: 2 ranks, LMO C_0 = C_1 and t_0 = t_1 = 0" },
	{ CP_PARAMS_A_OVERSUB, "oversubscribed",
	  "warning: measured with more ranks than CPUs" },
	{ CP_PARAMS_A_T_FIXED, "lmo.t fixed_measured",
	  "LMO t_i: fixed part of the one-to-two measured, not taken as "
	  "2C_i" },
	{ CP_PARAMS_A_T_CLAMPED, "lmo.t clamped",
	  "LMO t_i: a value below 0 within noise set to 0" },
	{ CP_PARAMS_A_STAT_MIN, "lmo.stat min",
	  "LMO: each experiment by the minimum of its repetitions; no "
	  "intervals" },
};
#define NASSUME ((int)(sizeof(assume_tab) / sizeof(assume_tab[0])))

static int nidx(enum cp_pk k)
{
	switch (k) {
	case PK_SCALAR:
		return 0;
	case PK_PAIR:
	case PK_L3SD:
		return 2;
	default:
		return 1;
	}
}

int cp_params_alloc(struct cp_params *p, int nranks, int nhosts,
		    int nsizes, int nstrides, int plogp_n)
{
	size_t r = (size_t)nranks, l3 = (size_t)nsizes * (size_t)nstrides;

	memset(p, 0, sizeof(*p));
	if (nranks < 1 || nhosts < 1 || nsizes < 0 || nstrides < 0 ||
	    plogp_n < 0 || nranks > 1 << 16 || nhosts > nranks)
		return -CP_PARAMS_EFORMAT;
	p->nranks = nranks;
	p->nhosts = nhosts;
	p->l3_nsizes = nsizes;
	p->l3_nstrides = nstrides;
	p->plogp_n = plogp_n;
	p->hosts = calloc((size_t)nhosts, sizeof(*p->hosts));
	p->rank_host = calloc(r, sizeof(*p->rank_host));
	p->lmo_c_s = calloc(r, sizeof(struct cp_pval));
	p->lmo_t_spb = calloc(r, sizeof(struct cp_pval));
	p->lmo_beta_Bps = calloc(r * r, sizeof(struct cp_pval));
	p->l3_size_bytes = calloc((size_t)nsizes + 1, sizeof(double));
	p->l3_stride_bytes = calloc((size_t)nstrides + 1, sizeof(double));
	p->l3_t_mem_s = calloc((size_t)nsizes + 1, sizeof(struct cp_pval));
	p->l3_o_mw_s = calloc((size_t)nsizes + 1, sizeof(struct cp_pval));
	p->l3_o_net_s = calloc((size_t)nsizes + 1, sizeof(struct cp_pval));
	p->l3_l_mw_s = calloc(l3 + 1, sizeof(struct cp_pval));
	p->plogp_size_bytes = calloc((size_t)plogp_n + 1, sizeof(double));
	p->plogp_g_s = calloc((size_t)plogp_n + 1, sizeof(struct cp_pval));
	if (!p->hosts || !p->rank_host || !p->lmo_c_s || !p->lmo_t_spb ||
	    !p->lmo_beta_Bps || !p->l3_size_bytes || !p->l3_stride_bytes ||
	    !p->l3_t_mem_s || !p->l3_o_mw_s || !p->l3_o_net_s ||
	    !p->l3_l_mw_s || !p->plogp_size_bytes || !p->plogp_g_s) {
		cp_params_clear(p);
		return -CP_PARAMS_ENOMEM;
	}
	return 0;
}

void cp_params_clear(struct cp_params *p)
{
	int i;

	if (!p)
		return;
	if (p->hosts)
		for (i = 0; i < p->nhosts; i++)
			free(p->hosts[i]);
	free(p->hosts);
	free(p->rank_host);
	free(p->lmo_c_s);
	free(p->lmo_t_spb);
	free(p->lmo_beta_Bps);
	free(p->l3_size_bytes);
	free(p->l3_stride_bytes);
	free(p->l3_t_mem_s);
	free(p->l3_o_mw_s);
	free(p->l3_o_net_s);
	free(p->l3_l_mw_s);
	free(p->plogp_size_bytes);
	free(p->plogp_g_s);
	cp_tl_params_free(p->tl);
	memset(p, 0, sizeof(*p));
}

void cp_params_free(struct cp_params *p)
{
	cp_params_clear(p);
	free(p);
}

/* The parameter of d at indices ix (already range-checked), or NULL when
 * its table is empty. */
static struct cp_pval *slot(const struct cp_params *p,
			    const struct cp_pdesc *d, const int *ix)
{
	const char *base = (const char *)p + d->off;
	struct cp_pval *a;

	if (d->kind == PK_SCALAR)
		return (struct cp_pval *)base;
	if (d->kind == PK_VARIANT)
		return (struct cp_pval *)base + ix[0];
	a = *(struct cp_pval *const *)base;
	switch (d->kind) {
	case PK_PAIR:
		return a + (size_t)ix[0] * p->nranks + ix[1];
	case PK_L3SD:
		return a + (size_t)ix[0] * p->l3_nstrides + ix[1];
	default:
		return a + ix[0];
	}
}

/* Number of values of index position k of d. */
static int idx_count(const struct cp_params *p, const struct cp_pdesc *d,
		     int k)
{
	switch (d->kind) {
	case PK_RANK:
	case PK_PAIR:
		return p->nranks;
	case PK_VARIANT:
		return 2;
	case PK_L3S:
		return p->l3_nsizes;
	case PK_L3SD:
		return k ? p->l3_nstrides : p->l3_nsizes;
	case PK_PLOGP:
		return p->plogp_n;
	default:
		return 0;
	}
}

/* The value written for index i at position k of d (a rank, a variant
 * or a size in bytes). */
static double idx_value(const struct cp_params *p, const struct cp_pdesc *d,
			int k, int i)
{
	switch (d->kind) {
	case PK_L3S:
		return p->l3_size_bytes[i];
	case PK_L3SD:
		return k ? p->l3_stride_bytes[i] : p->l3_size_bytes[i];
	case PK_PLOGP:
		return p->plogp_size_bytes[i];
	default:
		return i;
	}
}

/* Call fn for every index tuple of d (pairs only with i < j). */
static int each_idx(const struct cp_params *p, const struct cp_pdesc *d,
		    int (*fn)(const struct cp_params *, const struct cp_pdesc *,
			      const int *, void *), void *arg)
{
	int ix[2] = { 0, 0 }, n0, n1, rc;

	if (nidx(d->kind) == 0)
		return fn(p, d, ix, arg);
	n0 = idx_count(p, d, 0);
	n1 = nidx(d->kind) == 2 ? idx_count(p, d, 1) : 1;
	for (ix[0] = 0; ix[0] < n0; ix[0]++)
		for (ix[1] = 0; ix[1] < n1; ix[1]++) {
			if (d->kind == PK_PAIR && ix[1] <= ix[0])
				continue;
			rc = fn(p, d, ix, arg);
			if (rc)
				return rc;
		}
	return 0;
}

/* "name i j" into buf. */
static void pname(const struct cp_params *p, const struct cp_pdesc *d,
		  const int *ix, char *buf, size_t len)
{
	int k, w;

	w = snprintf(buf, len, "%s", d->name);
	for (k = 0; k < nidx(d->kind) && w >= 0 && (size_t)w < len; k++)
		w += snprintf(buf + w, len - w, " %.17g",
			      idx_value(p, d, k, ix[k]));
}

static int write_one(const struct cp_params *p, const struct cp_pdesc *d,
		     const int *ix, void *arg)
{
	const struct cp_pval *v = slot(p, d, ix);
	FILE *f = arg;
	char nm[128];

	pname(p, d, ix, nm, sizeof(nm));
	if (v->state == CP_PV_OK)
		fprintf(f, "%s %.9g lo %.9g hi %.9g n %d\n", nm, v->val,
			v->lo, v->hi, v->n);
	else if (v->state == CP_PV_FAIL)
		fprintf(f, "fail %s : %s\n", nm, v->fail);
	return 0;
}

static void write_table(FILE *f, const char *name, const double *a, int n)
{
	int i;

	fprintf(f, "%s %d", name, n);
	for (i = 0; i < n; i++)
		fprintf(f, " %.17g", a[i]);
	fputc('\n', f);
}

int cp_params_write(const struct cp_params *p, FILE *f)
{
	size_t k;
	int i;

	fprintf(f, "commprof-params %d\n", CP_PARAMS_VERSION);
	fprintf(f, "mpi_library %s\n", p->mpi_library);
	fprintf(f, "date %s\n", p->date);
	fprintf(f, "hosts %d", p->nhosts);
	for (i = 0; i < p->nhosts; i++)
		fprintf(f, " %s", p->hosts[i]);
	fprintf(f, "\nrankmap %d", p->nranks);
	for (i = 0; i < p->nranks; i++)
		fprintf(f, " %d", p->rank_host[i]);
	fprintf(f, "\nnranks %d\n", p->nranks);
	write_table(f, "log3p.sizes", p->l3_size_bytes, p->l3_nsizes);
	write_table(f, "log3p.strides", p->l3_stride_bytes, p->l3_nstrides);
	write_table(f, "plogp.sizes", p->plogp_size_bytes, p->plogp_n);
	for (i = 0; i < NASSUME; i++)
		if (p->assume & assume_tab[i].bit)
			fprintf(f, "assume %s\n", assume_tab[i].line);
	fputs("# name index... value lo LO hi HI n SAMPLES; seconds, bytes,"
	      " bytes/s\n", f);
	for (k = 0; k < NDESC; k++)
		each_idx(p, &cp_params_desc[k], write_one, f);
	cp_tl_params_write(p->tl, f);
	fputs("end\n", f);
	return ferror(f) ? -CP_PARAMS_EIO : 0;
}

/* ---- reader ---- */

#define MAXTOK	1024

struct rd {
	const char *path;
	int line;
	char *err;
	size_t errlen;
	struct cp_params *p;
	int tables;		/* bit k: table k declared */
};

static int fmt_err(struct rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fmt_err(struct rd *r, const char *fmt, ...)
{
	va_list ap;
	int w;

	w = snprintf(r->err, r->errlen, "%s:%d: ", r->path, r->line);
	if (w >= 0 && (size_t)w < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + w, r->errlen - w, fmt, ap);
		va_end(ap);
	}
	return -CP_PARAMS_EFORMAT;
}

/* Split s in place at blanks; returns the count, or -1 if too many. */
static int split(char *s, char **tok, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return -1;
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static bool parse_num(const char *s, double *d, bool inf_ok)
{
	char *end;

	errno = 0;
	*d = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || isnan(*d))
		return false;
	return inf_ok || isfinite(*d);
}

static bool parse_int(const char *s, long lo, long hi, int *v)
{
	char *end;
	long l;

	errno = 0;
	l = strtol(s, &end, 10);
	if (end == s || *end || errno || l < lo || l > hi)
		return false;
	*v = (int)l;
	return true;
}

/* "tok[0] ... tok[n-1]" for messages. */
static const char *joined(char **tok, int n, char *buf, size_t len)
{
	int i, w = 0;

	buf[0] = '\0';
	for (i = 0; i < n && w >= 0 && (size_t)w < len; i++)
		w += snprintf(buf + w, len - w, "%s%s", i ? " " : "", tok[i]);
	return buf;
}

static int expect_num(struct rd *r, char **tok, int ntok, int at, double *d,
		      bool inf_ok)
{
	char b[256];

	if (at >= ntok || !parse_num(tok[at], d, inf_ok))
		return fmt_err(r, "expected a number after '%s'",
			       joined(tok, at, b, sizeof(b)));
	return 0;
}

/* A table declaration "name N v1 ... vN", increasing sizes > (or >=
 * for zero_ok) 0. */
static int rd_table(struct rd *r, char **tok, int ntok, int bit,
		    int *count, double **arr, void **vals, size_t vsz,
		    int mult)
{
	double *a;
	void *v;
	int n, i, rc;

	if (r->tables & bit)
		return fmt_err(r, "duplicate '%s'", tok[0]);
	if (ntok < 2 || !parse_int(tok[1], 0, 4096, &n))
		return fmt_err(r, "expected a count after '%s'", tok[0]);
	if (ntok != n + 2)
		return fmt_err(r, "'%s' declares %d values, has %d", tok[0],
			       n, ntok - 2);
	a = calloc((size_t)n + 1, sizeof(*a));
	if (!a)
		return -CP_PARAMS_ENOMEM;
	for (i = 0; i < n; i++) {
		rc = expect_num(r, tok, ntok, i + 2, &a[i], false);
		if (!rc && (a[i] < 0 || (i && a[i] <= a[i - 1])))
			rc = fmt_err(r, "'%s' values must increase from 0",
				     tok[0]);
		if (rc) {
			free(a);
			return rc;
		}
	}
	free(*arr);
	*arr = a;
	*count = n;
	r->tables |= bit;
	if (vals) {
		v = calloc((size_t)n * mult + 1, vsz);
		if (!v)
			return -CP_PARAMS_ENOMEM;
		free(*vals);
		*vals = v;
	}
	return 0;
}

/* Replace *v by n zeroed parameters. */
static int new_vals(struct cp_pval **v, int n)
{
	free(*v);
	*v = calloc((size_t)n + 1, sizeof(**v));
	return *v ? 0 : -CP_PARAMS_ENOMEM;
}

static int rd_tables(struct rd *r, char **tok, int ntok, bool *done)
{
	struct cp_params *p = r->p;
	size_t sz = sizeof(struct cp_pval);
	int rc;

	*done = true;
	if (!strcmp(tok[0], "log3p.sizes")) {
		rc = rd_table(r, tok, ntok, 1, &p->l3_nsizes,
			      &p->l3_size_bytes, (void **)&p->l3_t_mem_s,
			      sz, 1);
		if (!rc)
			rc = new_vals(&p->l3_o_mw_s, p->l3_nsizes);
		if (!rc)
			rc = new_vals(&p->l3_o_net_s, p->l3_nsizes);
		return rc;
	}
	if (!strcmp(tok[0], "log3p.strides")) {
		if (!(r->tables & 1))
			return fmt_err(r, "'log3p.strides' before "
				       "'log3p.sizes'");
		return rd_table(r, tok, ntok, 2, &p->l3_nstrides,
				&p->l3_stride_bytes, (void **)&p->l3_l_mw_s,
				sz, p->l3_nsizes);
	}
	if (!strcmp(tok[0], "plogp.sizes"))
		return rd_table(r, tok, ntok, 4, &p->plogp_n,
				&p->plogp_size_bytes, (void **)&p->plogp_g_s,
				sz, 1);
	*done = false;
	return 0;
}

static const struct cp_pdesc *find_desc(const char *name)
{
	size_t k;

	for (k = 0; k < NDESC; k++)
		if (!strcmp(cp_params_desc[k].name, name))
			return &cp_params_desc[k];
	return NULL;
}

/* Index position k of d from tok[at]: a rank, variant or a declared
 * size. */
static int rd_index(struct rd *r, const struct cp_pdesc *d, char **tok,
		    int ntok, int at, int k, int *ix)
{
	int n = idx_count(r->p, d, k), i;
	double v;
	char b[256];

	if (at >= ntok || !parse_num(tok[at], &v, false))
		return fmt_err(r, "expected a number after '%s'",
			       joined(tok, at, b, sizeof(b)));
	for (i = 0; i < n; i++)
		if (idx_value(r->p, d, k, i) == v)
			break;
	if (i == n) {
		if (d->kind == PK_RANK || d->kind == PK_PAIR)
			return fmt_err(r, "rank %s out of range (nranks %d)",
				       tok[at], r->p->nranks);
		if (d->kind == PK_VARIANT)
			return fmt_err(r, "variant %s is not 0 or 1",
				       tok[at]);
		return fmt_err(r, "%s %s not declared in its table",
			       k && d->kind == PK_L3SD ? "stride" : "size",
			       tok[at]);
	}
	if (d->kind == PK_PAIR && k == 1 && i <= ix[0])
		return fmt_err(r, "pair '%s %s' must have i < j", tok[at - 1],
			       tok[at]);
	ix[k] = i;
	return 0;
}

static int rd_param(struct rd *r, char **tok, int ntok, const char *cause)
{
	static const char *const kw[] = { "lo", "hi", "n" };
	const struct cp_pdesc *d = find_desc(tok[0]);
	struct cp_pval *v, nv = { 0 };
	double x[3];
	int ix[2] = { 0, 0 }, k, at, rc;
	char b[256];

	if (!d)
		return fmt_err(r, "unknown parameter '%s'", tok[0]);
	for (k = 0; k < nidx(d->kind); k++) {
		rc = rd_index(r, d, tok, ntok, 1 + k, k, ix);
		if (rc)
			return rc;
	}
	at = 1 + nidx(d->kind);
	if (cause) {
		if (ntok != at)
			return fmt_err(r, "unexpected '%s' after '%s'",
				       tok[at], joined(tok, at, b, sizeof(b)));
		nv.state = CP_PV_FAIL;
		snprintf(nv.fail, sizeof(nv.fail), "%s", cause);
	} else {
		rc = expect_num(r, tok, ntok, at, &x[0], false);
		for (k = 0; !rc && k < 3; k++) {
			at++;
			if (at >= ntok || strcmp(tok[at], kw[k]))
				return fmt_err(r, "expected '%s' after '%s'",
					       kw[k],
					       joined(tok, at, b, sizeof(b)));
			at++;
			if (k < 2)
				rc = expect_num(r, tok, ntok, at, &x[k + 1],
						k == 1);
			else if (at >= ntok ||
				 !parse_int(tok[at], 0, INT32_MAX, &nv.n))
				rc = fmt_err(r, "expected a count after '%s'",
					     joined(tok, at, b, sizeof(b)));
		}
		if (rc)
			return rc;
		if (++at < ntok)
			return fmt_err(r, "unexpected '%s' after '%s'",
				       tok[at], joined(tok, at, b, sizeof(b)));
		if (!(x[1] <= x[0] && x[0] <= x[2]))
			return fmt_err(r, "'%s': value outside its interval",
				       joined(tok, 1 + nidx(d->kind), b,
					      sizeof(b)));
		nv.val = x[0];
		nv.lo = x[1];
		nv.hi = x[2];
		nv.state = CP_PV_OK;
	}
	v = slot(r->p, d, ix);
	if (v->state != CP_PV_UNSET)
		return fmt_err(r, "duplicate '%s'",
			       joined(tok, 1 + nidx(d->kind), b, sizeof(b)));
	*v = nv;
	if (d->kind == PK_PAIR)
		*slot(r->p, d, (int[]){ ix[1], ix[0] }) = nv;
	return 0;
}

static int rd_assume(struct rd *r, char **tok, int ntok)
{
	char b[256];
	int i;

	joined(tok + 1, ntok - 1, b, sizeof(b));
	for (i = 0; i < NASSUME; i++)
		if (!strcmp(b, assume_tab[i].line)) {
			r->p->assume |= assume_tab[i].bit;
			return 0;
		}
	return fmt_err(r, "unknown assumption '%s'", b);
}

/* The header lines, in order: mpi_library, date, hosts, rankmap,
 * nranks.  raw is the untokenised line; step counts header lines read. */
static int rd_header(struct rd *r, char *raw, int step)
{
	static const char *const key[] = { "mpi_library", "date", "hosts",
					   "rankmap", "nranks" };
	struct cp_params *p = r->p;
	char *tok[MAXTOK], *rest;
	size_t kl = strlen(key[step]);
	int ntok, i, n;

	if (strncmp(raw, key[step], kl) || (raw[kl] && raw[kl] != ' '))
		return fmt_err(r, "expected '%s'", key[step]);
	rest = raw + kl + (raw[kl] == ' ');
	if (step == 0) {
		snprintf(p->mpi_library, sizeof(p->mpi_library), "%s", rest);
		return 0;
	}
	if (step == 1) {
		snprintf(p->date, sizeof(p->date), "%s", rest);
		return 0;
	}
	ntok = split(rest, tok, MAXTOK);
	if (ntok < 1 || !parse_int(tok[0], 1, 1 << 16, &n))
		return fmt_err(r, "expected a count after '%s'", key[step]);
	if (step == 2) {
		if (ntok != n + 1)
			return fmt_err(r, "'hosts' declares %d names, has %d",
				       n, ntok - 1);
		p->hosts = calloc((size_t)n, sizeof(*p->hosts));
		if (!p->hosts)
			return -CP_PARAMS_ENOMEM;
		p->nhosts = n;
		for (i = 0; i < n; i++)
			if (!(p->hosts[i] = strdup(tok[i + 1])))
				return -CP_PARAMS_ENOMEM;
		return 0;
	}
	if (step == 3) {
		if (ntok != n + 1)
			return fmt_err(r, "'rankmap' declares %d ranks, has %d",
				       n, ntok - 1);
		p->rank_host = calloc((size_t)n, sizeof(int));
		if (!p->rank_host)
			return -CP_PARAMS_ENOMEM;
		p->nranks = n;
		for (i = 0; i < n; i++)
			if (!parse_int(tok[i + 1], 0, p->nhosts - 1,
				       &p->rank_host[i]))
				return fmt_err(r, "rankmap: bad host index "
					       "'%s'", tok[i + 1]);
		return 0;
	}
	if (ntok != 1 || n != p->nranks)
		return fmt_err(r, "nranks %s does not match rankmap (%d)",
			       tok[0], p->nranks);
	p->lmo_c_s = calloc((size_t)n, sizeof(struct cp_pval));
	p->lmo_t_spb = calloc((size_t)n, sizeof(struct cp_pval));
	p->lmo_beta_Bps = calloc((size_t)n * n, sizeof(struct cp_pval));
	if (!p->lmo_c_s || !p->lmo_t_spb || !p->lmo_beta_Bps)
		return -CP_PARAMS_ENOMEM;
	return 0;
}

static int check_present(const struct cp_params *p, const struct cp_pdesc *d,
			 const int *ix, void *arg)
{
	struct rd *r = arg;
	char nm[128];

	if (!d->required || slot(p, d, ix)->state != CP_PV_UNSET)
		return 0;
	pname(p, d, ix, nm, sizeof(nm));
	return fmt_err(r, "missing '%s'", nm);
}

/* A line of the tau-Lop section (src/common/cp_tl_params.c). */
static int rd_taulop(struct rd *r, char **tok, int ntok, const char *cause)
{
	char msg[256];
	int rc = cp_tl_params_line(r->p, tok, ntok, cause, msg, sizeof(msg));

	if (rc == -2)
		return -CP_PARAMS_ENOMEM;
	return rc ? fmt_err(r, "%s", msg) : 0;
}

/* One line after the header; *end set on "end". */
static int rd_line(struct rd *r, char *raw, bool *end)
{
	char *tok[MAXTOK], *cause = NULL, *colon;
	int ntok, rc;
	bool done;

	if (!strncmp(raw, "fail ", 5)) {
		colon = strstr(raw, " : ");
		if (!colon || !colon[3])
			return fmt_err(r, "expected 'fail NAME INDEX... : "
				       "cause'");
		*colon = '\0';
		cause = colon + 3;
		raw += 5;
	}
	ntok = split(raw, tok, MAXTOK);
	if (ntok < 0)
		return fmt_err(r, "too many fields");
	if (!strncmp(tok[0], "taulop.", 7))
		return rd_taulop(r, tok, ntok, cause);
	if (cause)
		return rd_param(r, tok, ntok, cause);
	if (!strcmp(tok[0], "end")) {
		if (ntok != 1)
			return fmt_err(r, "unexpected '%s' after 'end'",
				       tok[1]);
		*end = true;
		return 0;
	}
	if (!strcmp(tok[0], "assume"))
		return rd_assume(r, tok, ntok);
	rc = rd_tables(r, tok, ntok, &done);
	if (done)
		return rc;
	if (!strncmp(tok[0], "log3p.", 6) && (r->tables & 3) != 3)
		return fmt_err(r, "'%s' before 'log3p.sizes' and "
			       "'log3p.strides'", tok[0]);
	if (!strncmp(tok[0], "plogp.g", 7) && !(r->tables & 4))
		return fmt_err(r, "'%s' before 'plogp.sizes'", tok[0]);
	return rd_param(r, tok, ntok, NULL);
}

/* Read a line into buf; 1 on a line, 0 at end of file; errors for a
 * line too long or cut short (no newline). */
static int rd_get(struct rd *r, FILE *f, char *buf, size_t len)
{
	size_t l;

	if (!fgets(buf, (int)len, f))
		return 0;
	r->line++;
	l = strlen(buf);
	if (l && buf[l - 1] == '\n') {
		buf[--l] = '\0';
		return 1;
	}
	if (l == len - 1)
		return fmt_err(r, "line too long");
	return fmt_err(r, "truncated line (no newline at end of file)");
}

static int rd_file(struct rd *r, FILE *f)
{
	char buf[16384];
	int rc, step = 0, ver;
	bool end = false;
	size_t k;

	rc = rd_get(r, f, buf, sizeof(buf));
	if (rc <= 0) {
		if (rc == 0)
			r->line = 1;
		return rc ? rc : fmt_err(r, "empty file, expected "
					 "'commprof-params %d'",
					 CP_PARAMS_VERSION);
	}
	if (strncmp(buf, "commprof-params ", 16) ||
	    !parse_int(buf + 16, 0, 1000, &ver))
		return fmt_err(r, "expected 'commprof-params %d'",
			       CP_PARAMS_VERSION);
	if (ver != CP_PARAMS_VERSION)
		return fmt_err(r, "unsupported format version %d (this "
			       "reader knows %d)", ver, CP_PARAMS_VERSION);
	while (!end && (rc = rd_get(r, f, buf, sizeof(buf))) > 0) {
		if (step >= 2 && (buf[0] == '#' || !buf[strspn(buf, " \t")]))
			continue;
		if (step < 5)
			rc = rd_header(r, buf, step++);
		else
			rc = rd_line(r, buf, &end);
		if (rc)
			return rc;
	}
	if (rc < 0)
		return rc;
	if (!end)
		return fmt_err(r, "unexpected end of file, expected 'end'");
	if (fgets(buf, sizeof(buf), f)) {
		r->line++;
		return fmt_err(r, "text after 'end'");
	}
	for (k = 0; k < NDESC; k++) {
		rc = each_idx(r->p, &cp_params_desc[k], check_present, r);
		if (rc)
			return rc;
	}
	return 0;
}

/* Lowercase the letter after mark in err, as our messages are. */
static void lower_after(char *err, size_t errlen, const char *mark)
{
	char *m = errlen ? strstr(err, mark) : NULL;

	if (m && m[strlen(mark)] >= 'A' && m[strlen(mark)] <= 'Z')
		m[strlen(mark)] += 'a' - 'A';
}

int cp_params_load(const char *path, struct cp_params **out, char *err,
		   size_t errlen)
{
	struct rd r = { path, 0, err, errlen, NULL, 0 };
	FILE *f;
	int rc;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	r.p = calloc(1, sizeof(*r.p));
	if (!r.p) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -CP_PARAMS_ENOMEM;
	}
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 strerror(errno));
		lower_after(err, errlen, "cannot open: ");
		free(r.p);
		return -CP_PARAMS_EIO;
	}
	rc = rd_file(&r, f);
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		rc = -CP_PARAMS_EIO;
	}
	fclose(f);
	if (rc == -CP_PARAMS_ENOMEM)
		snprintf(err, errlen, "%s:%d: out of memory", path, r.line);
	if (rc) {
		cp_params_free(r.p);
		return rc;
	}
	*out = r.p;
	return 0;
}

/* ---- printers ---- */

static int print_one(const struct cp_params *p, const struct cp_pdesc *d,
		     const int *ix, void *arg)
{
	const struct cp_pval *v = slot(p, d, ix);
	FILE *f = arg;
	char nm[128];

	pname(p, d, ix, nm, sizeof(nm));
	if (v->state == CP_PV_OK)
		fprintf(f, "%-26s %12.4g %-4s [%.4g, %.4g]  n=%d\n", nm,
			v->val, d->unit, v->lo, v->hi, v->n);
	else if (v->state == CP_PV_FAIL)
		fprintf(f, "%-26s failed: %s\n", nm, v->fail);
	return 0;
}

int cp_params_print(const struct cp_params *p, FILE *f)
{
	size_t k;
	int i;

	fprintf(f, "mpi library: %s\ndate: %s\nranks: %d on", p->mpi_library,
		p->date, p->nranks);
	for (i = 0; i < p->nhosts; i++)
		fprintf(f, " %s", p->hosts[i]);
	fputc('\n', f);
	for (i = 0; i < NASSUME; i++)
		if (p->assume & assume_tab[i].bit)
			fprintf(f, "%s\n", assume_tab[i].text);
	for (k = 0; k < NDESC; k++)
		each_idx(p, &cp_params_desc[k], print_one, f);
	cp_tl_params_print(p->tl, f);
	return ferror(f) ? -CP_PARAMS_EIO : 0;
}

static void json_arr(FILE *f, const struct cp_pval *a, int n)
{
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		cp_json_pval(f, &a[i]);
	}
	fputc(']', f);
}

static void json_field(FILE *f, const char *name, const struct cp_pval *v)
{
	fprintf(f, ",\n  \"%s\": ", name);
	cp_json_pval(f, v);
}

/* rows x cols values, row-major, as an array of row arrays. */
static void json_matrix(FILE *f, const struct cp_pval *v, int rows, int cols)
{
	fputc('[', f);
	for (int i = 0; i < rows; i++) {
		fputs(i ? ",\n      " : "\n      ", f);
		/* v is NULL for an empty table: no arithmetic on it */
		json_arr(f, cols ? v + (size_t)i * cols : v, cols);
	}
	fputc(']', f);
}

static void json_lmo(const struct cp_params *p, FILE *f)
{
	fputs(",\n  \"lmo\": {\"M_bytes\": ", f);
	cp_json_pval(f, &p->lmo_msg_bytes);
	fputs(",\n    \"C_s\": ", f);
	json_arr(f, p->lmo_c_s, p->nranks);
	fputs(",\n    \"t_spb\": ", f);
	json_arr(f, p->lmo_t_spb, p->nranks);
	fputs(",\n    \"beta_Bps\": ", f);
	json_matrix(f, p->lmo_beta_Bps, p->nranks, p->nranks);
	fputs(",\n    \"S_bytes\": ", f);
	cp_json_pval(f, &p->lmo_s_bytes);
	fputs(", \"M1_bytes\": ", f);
	cp_json_pval(f, &p->lmo_m1_bytes);
	fputs(", \"M2_bytes\": ", f);
	cp_json_pval(f, &p->lmo_m2_bytes);
	fputs(",\n    \"kappa1_spb\": ", f);
	json_arr(f, p->lmo_kappa1_spb, 2);
	fputs(", \"kappa2_spb\": ", f);
	json_arr(f, p->lmo_kappa2_spb, 2);
	fputc('}', f);
}

static void json_log3p(const struct cp_params *p, FILE *f)
{
	fputs(",\n  \"log3p\": {\"size_bytes\": ", f);
	cp_json_nums(f, p->l3_size_bytes, p->l3_nsizes);
	fputs(", \"stride_bytes\": ", f);
	cp_json_nums(f, p->l3_stride_bytes, p->l3_nstrides);
	fputs(",\n    \"t_mem_s\": ", f);
	json_arr(f, p->l3_t_mem_s, p->l3_nsizes);
	fputs(",\n    \"o_mw_s\": ", f);
	json_arr(f, p->l3_o_mw_s, p->l3_nsizes);
	fputs(",\n    \"o_net_s\": ", f);
	json_arr(f, p->l3_o_net_s, p->l3_nsizes);
	fputs(",\n    \"l_mw_s\": ", f);
	json_matrix(f, p->l3_l_mw_s, p->l3_nsizes, p->l3_nstrides);
	fputc('}', f);
}

int cp_params_print_json(const struct cp_params *p, FILE *f)
{
	int i, k;

	fprintf(f, "{\"format\": %d,\n  \"mpi_library\": ",
		CP_PARAMS_VERSION);
	cp_json_str(f, p->mpi_library);
	fputs(",\n  \"date\": ", f);
	cp_json_str(f, p->date);
	fputs(",\n  \"hosts\": [", f);
	for (i = 0; i < p->nhosts; i++) {
		fputs(i ? ", " : "", f);
		cp_json_str(f, p->hosts[i]);
	}
	fputs("],\n  \"rank_host\": [", f);
	for (i = 0; i < p->nranks; i++)
		fprintf(f, "%s%d", i ? ", " : "", p->rank_host[i]);
	fprintf(f, "],\n  \"nranks\": %d,\n  \"assume\": [", p->nranks);
	for (i = 0, k = 0; i < NASSUME; i++)
		if (p->assume & assume_tab[i].bit)
			fprintf(f, "%s\"%s\"", k++ ? ", " : "",
				assume_tab[i].line);
	fputc(']', f);
	json_lmo(p, f);
	json_log3p(p, f);
	fputs(",\n  \"hockney\": {\"alpha_s\": ", f);
	cp_json_pval(f, &p->hockney_alpha_s);
	fputs(", \"beta_spb\": ", f);
	cp_json_pval(f, &p->hockney_beta_spb);
	fputs("},\n  \"loggp\": {\"L_s\": ", f);
	cp_json_pval(f, &p->loggp_l_s);
	json_field(f, "o_s", &p->loggp_o_s);
	json_field(f, "os_s", &p->loggp_os_s);
	json_field(f, "or_s", &p->loggp_or_s);
	json_field(f, "g_s", &p->loggp_g_s);
	json_field(f, "G_spb", &p->loggp_gb_spb);
	fputs("},\n  \"plogp\": {\"L_s\": ", f);
	cp_json_pval(f, &p->plogp_l_s);
	fputs(", \"size_bytes\": ", f);
	cp_json_nums(f, p->plogp_size_bytes, p->plogp_n);
	fputs(", \"g_s\": ", f);
	json_arr(f, p->plogp_g_s, p->plogp_n);
	fputc('}', f);
	cp_tl_params_json(p->tl, f);
	fputs("}\n", f);
	return ferror(f) ? -CP_PARAMS_EIO : 0;
}
