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
#include "src/common/cp_pt_params.h"
#include "src/common/cp_tl_params.h"

/* How a parameter is indexed. */
enum cp_pk {
	PK_SCALAR,	/* no index */
	PK_VARIANT,	/* 0 or 1 (kappa variants) */
	PK_REG_RANK,	/* regime rank */
	PK_REG_PAIR,	/* regime rank rank, i < j */
	PK_L3S,		/* log3p size */
	PK_L3SBG,	/* log3p strided size, block, gap */
	PK_PLOGP,	/* plogp size */
};

#define MAXIDX	3

struct cp_pdesc {
	const char *name;	/* as in the file */
	enum cp_pk kind;
	size_t off;		/* struct cp_pval, or pointer to an array */
	const char *unit;	/* for people */
	bool required;		/* must be present (value or fail) */
	bool inf_ok;		/* the value may be +inf */
};

#define OFF(f) offsetof(struct cp_params, f)

static const struct cp_pdesc cp_params_desc[] = {
	{ "lmo.C", PK_REG_RANK, OFF(lmo_c_s), "s", true, false },
	{ "lmo.t", PK_REG_RANK, OFF(lmo_t_spb), "s/B", true, false },
	{ "lmo.beta", PK_REG_PAIR, OFF(lmo_beta_Bps), "B/s", true, true },
	{ "lmo.Csum", PK_REG_PAIR, OFF(lmo_csum_s), "s", true, false },
	{ "lmo.tsum", PK_REG_PAIR, OFF(lmo_tsum_spb), "s/B", true, false },
	{ "lmo.S", PK_SCALAR, OFF(lmo_s_bytes), "B", false, false },
	{ "lmo.M1", PK_SCALAR, OFF(lmo_m1_bytes), "B", false, false },
	{ "lmo.M2", PK_SCALAR, OFF(lmo_m2_bytes), "B", false, false },
	{ "lmo.kappa1", PK_VARIANT, OFF(lmo_kappa1_spb), "s/B", false, false },
	{ "lmo.kappa2", PK_VARIANT, OFF(lmo_kappa2_spb), "s/B", false, false },
	{ "log3p.t_mem", PK_L3S, OFF(l3_t_mem_s), "s", false, false },
	{ "log3p.o_mw", PK_L3S, OFF(l3_o_mw_s), "s", false, false },
	{ "log3p.o_net", PK_L3S, OFF(l3_o_net_s), "s", false, false },
	{ "log3p.l_mw", PK_L3SBG, OFF(l3_l_mw_s), "s", false, false },
	{ "hockney.alpha", PK_SCALAR, OFF(hockney_alpha_s), "s", false, false },
	{ "hockney.beta", PK_SCALAR, OFF(hockney_beta_spb), "s/B", false,
	  false },
	{ "loggp.L", PK_SCALAR, OFF(loggp_l_s), "s", false, false },
	{ "loggp.o", PK_SCALAR, OFF(loggp_o_s), "s", false, false },
	{ "loggp.os", PK_SCALAR, OFF(loggp_os_s), "s", false, false },
	{ "loggp.or", PK_SCALAR, OFF(loggp_or_s), "s", false, false },
	{ "loggp.g", PK_SCALAR, OFF(loggp_g_s), "s", false, false },
	{ "loggp.G", PK_SCALAR, OFF(loggp_gb_spb), "s/B", false, false },
	{ "plogp.L", PK_SCALAR, OFF(plogp_l_s), "s", false, false },
	{ "plogp.g", PK_PLOGP, OFF(plogp_g_s), "s", false, false },
	{ "calib.gauge", PK_SCALAR, OFF(calib_gauge_s), "s", false, false },
};

#define NDESC (sizeof(cp_params_desc) / sizeof(cp_params_desc[0]))

/* "assume LINE" in the file, TEXT in `params show`. */
static const struct {
	unsigned bit;
	const char *line;
	const char *text;
} assume_tab[] = {
	{ CP_PARAMS_A_N2, "lmo.n2 split_assumed",
	  "LMO, 2 ranks: only the sums C_0 + C_1 and t_0 + t_1 + 1/beta_01 "
	  "are determined; the split is assumed (C_0 = C_1, t = 0)" },
	{ CP_PARAMS_A_OVERSUB, "oversubscribed",
	  "warning: measured with more ranks than CPUs" },
	{ CP_PARAMS_A_QUICK, "quick",
	  "quick calibration (--quick): a first look, few samples; "
	  "calibrate without it for predictions to rely on" },
	{ CP_PARAMS_A_UNSTEADY, "unsteady",
	  "warning: the host changed speed while it was measured (calib.gauge: "
	  "the same message's fastest time at several moments, from lo to "
	  "hi); a run in another spell can be off by up to hi/lo whatever "
	  "the model: calibrate again on a quiet host" },
};
#define NASSUME ((int)(sizeof(assume_tab) / sizeof(assume_tab[0])))

static int nidx(enum cp_pk k)
{
	switch (k) {
	case PK_SCALAR:
		return 0;
	case PK_REG_RANK:
		return 2;
	case PK_REG_PAIR:
	case PK_L3SBG:
		return 3;
	default:
		return 1;
	}
}

static bool dims_ok(const struct cp_params_dims *d)
{
	return d->nranks >= 1 && d->nhosts >= 1 && d->nranks <= 1 << 16 &&
	       d->nhosts <= d->nranks && d->lmo_nreg >= 0 &&
	       d->lmo_nreg <= 64 && d->lmo_nsizes >= 0 &&
	       d->l3_nsizes >= 0 && d->l3_nssizes >= 0 &&
	       d->l3_nblocks >= 0 && d->l3_ngaps >= 0 && d->plogp_n >= 0 &&
	       d->lmo_nsizes <= 4096 && d->l3_nsizes <= 4096 &&
	       d->l3_nssizes <= 4096 && d->l3_nblocks <= 4096 &&
	       d->l3_ngaps <= 4096 && d->plogp_n <= 4096;
}

/* The LMO arrays of nreg regimes (p->nranks set). */
static int alloc_lmo(struct cp_params *p, int nreg)
{
	size_t r = (size_t)p->nranks, k = (size_t)nreg;

	p->lmo_nreg = nreg;
	p->lmo_first_bytes = calloc(k + 1, sizeof(double));
	p->lmo_source = calloc(k + 1, sizeof(*p->lmo_source));
	p->lmo_c_s = calloc(k * r + 1, sizeof(struct cp_pval));
	p->lmo_t_spb = calloc(k * r + 1, sizeof(struct cp_pval));
	p->lmo_beta_Bps = calloc(k * r * r + 1, sizeof(struct cp_pval));
	p->lmo_csum_s = calloc(k * r * r + 1, sizeof(struct cp_pval));
	p->lmo_tsum_spb = calloc(k * r * r + 1, sizeof(struct cp_pval));
	return p->lmo_first_bytes && p->lmo_source && p->lmo_c_s &&
	       p->lmo_t_spb && p->lmo_beta_Bps && p->lmo_csum_s &&
	       p->lmo_tsum_spb ? 0 : -CP_PARAMS_ENOMEM;
}

static int alloc_l3(struct cp_params *p, int ns, int nss, int nb, int ng)
{
	size_t nc = (size_t)nss * nb * ng;

	p->l3_nsizes = ns;
	p->l3_nssizes = nss;
	p->l3_nblocks = nb;
	p->l3_ngaps = ng;
	p->l3_size_bytes = calloc((size_t)ns + 1, sizeof(double));
	p->l3_t_mem_s = calloc((size_t)ns + 1, sizeof(struct cp_pval));
	p->l3_o_mw_s = calloc((size_t)ns + 1, sizeof(struct cp_pval));
	p->l3_o_net_s = calloc((size_t)ns + 1, sizeof(struct cp_pval));
	p->l3_ssize_bytes = calloc((size_t)nss + 1, sizeof(double));
	p->l3_block_bytes = calloc((size_t)nb + 1, sizeof(double));
	p->l3_gap_bytes = calloc((size_t)ng + 1, sizeof(double));
	p->l3_l_mw_s = calloc(nc + 1, sizeof(struct cp_pval));
	return p->l3_size_bytes && p->l3_t_mem_s && p->l3_o_mw_s &&
	       p->l3_o_net_s && p->l3_ssize_bytes && p->l3_block_bytes &&
	       p->l3_gap_bytes && p->l3_l_mw_s ? 0 : -CP_PARAMS_ENOMEM;
}

int cp_params_alloc(struct cp_params *p, const struct cp_params_dims *d)
{
	int rc;

	memset(p, 0, sizeof(*p));
	if (!dims_ok(d))
		return -CP_PARAMS_EFORMAT;
	p->nranks = d->nranks;
	p->nhosts = d->nhosts;
	p->plogp_n = d->plogp_n;
	p->lmo_nsizes = d->lmo_nsizes;
	p->hosts = calloc((size_t)d->nhosts, sizeof(*p->hosts));
	p->rank_host = calloc((size_t)d->nranks, sizeof(*p->rank_host));
	p->lmo_size_bytes = calloc((size_t)d->lmo_nsizes + 1, sizeof(double));
	p->plogp_size_bytes = calloc((size_t)d->plogp_n + 1, sizeof(double));
	p->plogp_g_s = calloc((size_t)d->plogp_n + 1, sizeof(struct cp_pval));
	rc = p->hosts && p->rank_host && p->lmo_size_bytes &&
	     p->plogp_size_bytes && p->plogp_g_s ? 0 : -CP_PARAMS_ENOMEM;
	if (!rc)
		rc = alloc_lmo(p, d->lmo_nreg);
	if (!rc)
		rc = alloc_l3(p, d->l3_nsizes, d->l3_nssizes, d->l3_nblocks,
			      d->l3_ngaps);
	if (rc)
		cp_params_clear(p);
	return rc;
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
	free(p->lmo_first_bytes);
	free(p->lmo_source);
	free(p->lmo_size_bytes);
	free(p->lmo_c_s);
	free(p->lmo_t_spb);
	free(p->lmo_beta_Bps);
	free(p->lmo_csum_s);
	free(p->lmo_tsum_spb);
	free(p->l3_size_bytes);
	free(p->l3_t_mem_s);
	free(p->l3_o_mw_s);
	free(p->l3_o_net_s);
	free(p->l3_ssize_bytes);
	free(p->l3_block_bytes);
	free(p->l3_gap_bytes);
	free(p->l3_l_mw_s);
	free(p->plogp_size_bytes);
	free(p->plogp_g_s);
	cp_tl_params_free(p->tl);
	cp_pt_params_free(p->pt);
	memset(p, 0, sizeof(*p));
}

void cp_params_free(struct cp_params *p)
{
	cp_params_clear(p);
	free(p);
}

/* The parameter of d at indices ix (already range-checked). */
static struct cp_pval *slot(const struct cp_params *p,
			    const struct cp_pdesc *d, const int *ix)
{
	const char *base = (const char *)p + d->off;
	struct cp_pval *a;
	size_t r = (size_t)p->nranks;

	if (d->kind == PK_SCALAR)
		return (struct cp_pval *)base;
	if (d->kind == PK_VARIANT)
		return (struct cp_pval *)base + ix[0];
	a = *(struct cp_pval *const *)base;
	switch (d->kind) {
	case PK_REG_RANK:
		return a + (size_t)ix[0] * r + ix[1];
	case PK_REG_PAIR:
		return a + ((size_t)ix[0] * r + ix[1]) * r + ix[2];
	case PK_L3SBG:
		return a + ((size_t)ix[0] * p->l3_nblocks + ix[1]) *
			   p->l3_ngaps + ix[2];
	default:
		return a + ix[0];
	}
}

/* Number of values of index position k of d. */
static int idx_count(const struct cp_params *p, const struct cp_pdesc *d,
		     int k)
{
	switch (d->kind) {
	case PK_REG_RANK:
	case PK_REG_PAIR:
		return k ? p->nranks : p->lmo_nreg;
	case PK_VARIANT:
		return 2;
	case PK_L3S:
		return p->l3_nsizes;
	case PK_L3SBG:
		return k == 0 ? p->l3_nssizes : k == 1 ? p->l3_nblocks :
		       p->l3_ngaps;
	case PK_PLOGP:
		return p->plogp_n;
	default:
		return 0;
	}
}

/* The value written for index i at position k of d (a regime, rank or
 * variant number, or a size in bytes). */
static double idx_value(const struct cp_params *p, const struct cp_pdesc *d,
			int k, int i)
{
	switch (d->kind) {
	case PK_L3S:
		return p->l3_size_bytes[i];
	case PK_L3SBG:
		return k == 0 ? p->l3_ssize_bytes[i] :
		       k == 1 ? p->l3_block_bytes[i] : p->l3_gap_bytes[i];
	case PK_PLOGP:
		return p->plogp_size_bytes[i];
	default:
		return i;
	}
}

typedef int (*each_fn)(const struct cp_params *, const struct cp_pdesc *,
		       const int *, void *);

/* Call fn for every index tuple of d from position k on (pairs only
 * with i < j). */
static int each_from(const struct cp_params *p, const struct cp_pdesc *d,
		     int *ix, int k, each_fn fn, void *arg)
{
	int n, rc;

	if (k == nidx(d->kind))
		return fn(p, d, ix, arg);
	n = idx_count(p, d, k);
	for (ix[k] = 0; ix[k] < n; ix[k]++) {
		if (d->kind == PK_REG_PAIR && k == 2 && ix[2] <= ix[1])
			continue;
		rc = each_from(p, d, ix, k + 1, fn, arg);
		if (rc)
			return rc;
	}
	return 0;
}

static int each_idx(const struct cp_params *p, const struct cp_pdesc *d,
		    each_fn fn, void *arg)
{
	int ix[MAXIDX] = { 0 };

	return each_from(p, d, ix, 0, fn, arg);
}

/* "name i j k" into buf. */
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
	char nm[160];

	pname(p, d, ix, nm, sizeof(nm));
	if (v->state == CP_PV_OK)
		fprintf(f, "%s %.9g lo %.9g hi %.9g n %d\n", nm, v->val,
			v->lo, v->hi, v->n);
	else if (v->state == CP_PV_FAIL)
		fprintf(f, "fail %s : %s\n", nm, v->fail);
	if (v->state == CP_PV_OK && v->ambig[0])
		fprintf(f, "ambiguous %s : %s\n", nm, v->ambig);
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
	write_table(f, "lmo.regimes", p->lmo_first_bytes, p->lmo_nreg);
	for (i = 1; i < p->lmo_nreg; i++)
		if (p->lmo_source[i][0])
			fprintf(f, "lmo.source %d %s\n", i, p->lmo_source[i]);
	write_table(f, "lmo.sizes", p->lmo_size_bytes, p->lmo_nsizes);
	write_table(f, "log3p.sizes", p->l3_size_bytes, p->l3_nsizes);
	write_table(f, "log3p.ssizes", p->l3_ssize_bytes, p->l3_nssizes);
	write_table(f, "log3p.blocks", p->l3_block_bytes, p->l3_nblocks);
	write_table(f, "log3p.gaps", p->l3_gap_bytes, p->l3_ngaps);
	write_table(f, "plogp.sizes", p->plogp_size_bytes, p->plogp_n);
	for (i = 0; i < NASSUME; i++)
		if (p->assume & assume_tab[i].bit)
			fprintf(f, "assume %s\n", assume_tab[i].line);
	fputs("# name index... value lo LO hi HI n SAMPLES; seconds, bytes,"
	      " bytes/s\n", f);
	for (k = 0; k < NDESC; k++)
		each_idx(p, &cp_params_desc[k], write_one, f);
	cp_tl_params_write(p->tl, f);
	cp_pt_params_write(p->pt, f);
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

/* Table bits of struct rd.tables. */
#define T_LMO_REG	0x01
#define T_LMO_SIZES	0x02
#define T_L3_SIZES	0x04
#define T_L3_SSIZES	0x08
#define T_L3_BLOCKS	0x10
#define T_L3_GAPS	0x20
#define T_PLOGP		0x40

/* A table declaration "name N v1 ... vN" into *arr, *count: N <= 4096
 * values increasing from 0 (from above 0 when positive). */
static int rd_table(struct rd *r, char **tok, int ntok, int bit, int *count,
		    double **arr, bool positive)
{
	double *a;
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
		if (!rc && (a[i] < 0 || (positive && a[i] == 0) ||
			    (i && a[i] <= a[i - 1])))
			rc = fmt_err(r, "'%s' values must increase from %s",
				     tok[0], positive ? "above 0" : "0");
		if (rc) {
			free(a);
			return rc;
		}
	}
	free(*arr);
	*arr = a;
	*count = n;
	r->tables |= bit;
	return 0;
}

/* Replace *v by n zeroed parameters. */
static int new_vals(struct cp_pval **v, size_t n)
{
	free(*v);
	*v = calloc(n + 1, sizeof(**v));
	return *v ? 0 : -CP_PARAMS_ENOMEM;
}

static int rd_lmo_regimes(struct rd *r, char **tok, int ntok)
{
	struct cp_params *p = r->p;
	double *first = NULL;
	int n = 0, rc;

	rc = rd_table(r, tok, ntok, T_LMO_REG, &n, &first, false);
	if (rc)
		return rc;
	if (n < 1 || n > 64 || first[0] != 0) {
		free(first);
		return fmt_err(r, "'lmo.regimes' must list 1 to 64 first "
			       "sizes, the first 0");
	}
	rc = alloc_lmo(p, n);
	if (!rc)
		memcpy(p->lmo_first_bytes, first, (size_t)n * sizeof(double));
	free(first);
	return rc;
}

/* log3p.ssizes, log3p.blocks, log3p.gaps, in this order; l_mw once all
 * three are known. */
static int rd_l3_strided(struct rd *r, char **tok, int ntok)
{
	struct cp_params *p = r->p;
	int rc;

	if (!strcmp(tok[0], "log3p.ssizes"))
		return rd_table(r, tok, ntok, T_L3_SSIZES, &p->l3_nssizes,
				&p->l3_ssize_bytes, true);
	if (!strcmp(tok[0], "log3p.blocks")) {
		if (!(r->tables & T_L3_SSIZES))
			return fmt_err(r, "'log3p.blocks' before "
				       "'log3p.ssizes'");
		return rd_table(r, tok, ntok, T_L3_BLOCKS, &p->l3_nblocks,
				&p->l3_block_bytes, true);
	}
	if (!(r->tables & T_L3_BLOCKS))
		return fmt_err(r, "'log3p.gaps' before 'log3p.blocks'");
	rc = rd_table(r, tok, ntok, T_L3_GAPS, &p->l3_ngaps,
		      &p->l3_gap_bytes, true);
	if (!rc)
		rc = new_vals(&p->l3_l_mw_s, (size_t)p->l3_nssizes *
			      p->l3_nblocks * p->l3_ngaps);
	return rc;
}

static int rd_tables(struct rd *r, char **tok, int ntok, bool *done)
{
	struct cp_params *p = r->p;
	int rc;

	*done = true;
	if (!strcmp(tok[0], "lmo.regimes"))
		return rd_lmo_regimes(r, tok, ntok);
	if (!strcmp(tok[0], "lmo.sizes"))
		return rd_table(r, tok, ntok, T_LMO_SIZES, &p->lmo_nsizes,
				&p->lmo_size_bytes, true);
	if (!strcmp(tok[0], "log3p.sizes")) {
		rc = rd_table(r, tok, ntok, T_L3_SIZES, &p->l3_nsizes,
			      &p->l3_size_bytes, false);
		if (!rc)
			rc = new_vals(&p->l3_t_mem_s, p->l3_nsizes);
		if (!rc)
			rc = new_vals(&p->l3_o_mw_s, p->l3_nsizes);
		if (!rc)
			rc = new_vals(&p->l3_o_net_s, p->l3_nsizes);
		return rc;
	}
	if (!strcmp(tok[0], "log3p.ssizes") ||
	    !strcmp(tok[0], "log3p.blocks") || !strcmp(tok[0], "log3p.gaps"))
		return rd_l3_strided(r, tok, ntok);
	if (!strcmp(tok[0], "plogp.sizes")) {
		rc = rd_table(r, tok, ntok, T_PLOGP, &p->plogp_n,
			      &p->plogp_size_bytes, false);
		if (!rc)
			rc = new_vals(&p->plogp_g_s, p->plogp_n);
		return rc;
	}
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

/* Index position k of d from tok[at]: a regime, rank, variant or a
 * declared size. */
static int rd_index(struct rd *r, const struct cp_pdesc *d, char **tok,
		    int ntok, int at, int k, int *ix)
{
	static const char *const l3w[] = { "size", "block", "gap" };
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
		if ((d->kind == PK_REG_RANK || d->kind == PK_REG_PAIR) && !k)
			return fmt_err(r, "regime %s out of range (%d "
				       "regimes)", tok[at], r->p->lmo_nreg);
		if (d->kind == PK_REG_RANK || d->kind == PK_REG_PAIR)
			return fmt_err(r, "rank %s out of range (nranks %d)",
				       tok[at], r->p->nranks);
		if (d->kind == PK_VARIANT)
			return fmt_err(r, "variant %s is not 0 or 1",
				       tok[at]);
		return fmt_err(r, "%s %s not declared in its table",
			       d->kind == PK_L3SBG ? l3w[k] : "size",
			       tok[at]);
	}
	if (d->kind == PK_REG_PAIR && k == 2 && i <= ix[1])
		return fmt_err(r, "pair '%s %s' must have i < j", tok[at - 1],
			       tok[at]);
	ix[k] = i;
	return 0;
}

/* "lo LO hi HI n N" after the value at tok[at]. */
static int rd_interval(struct rd *r, const struct cp_pdesc *d, char **tok,
		       int ntok, int at, struct cp_pval *nv)
{
	static const char *const kw[] = { "lo", "hi", "n" };
	double x[3];
	int k, rc;
	char b[256];

	rc = expect_num(r, tok, ntok, at, &x[0], d->inf_ok);
	for (k = 0; !rc && k < 3; k++) {
		at++;
		if (at >= ntok || strcmp(tok[at], kw[k]))
			return fmt_err(r, "expected '%s' after '%s'", kw[k],
				       joined(tok, at, b, sizeof(b)));
		at++;
		if (k < 2)
			rc = expect_num(r, tok, ntok, at, &x[k + 1], k == 1);
		else if (at >= ntok ||
			 !parse_int(tok[at], 0, INT32_MAX, &nv->n))
			rc = fmt_err(r, "expected a count after '%s'",
				     joined(tok, at, b, sizeof(b)));
	}
	if (rc)
		return rc;
	if (++at < ntok)
		return fmt_err(r, "unexpected '%s' after '%s'", tok[at],
			       joined(tok, at, b, sizeof(b)));
	if (!(x[1] <= x[0] && x[0] <= x[2]))
		return fmt_err(r, "'%s': value outside its interval",
			       joined(tok, 1 + nidx(d->kind), b, sizeof(b)));
	nv->val = x[0];
	nv->lo = x[1];
	nv->hi = x[2];
	nv->state = CP_PV_OK;
	return 0;
}

/* What a "fail" or "ambiguous" line carries, besides the name. */
enum note { NOTE_NONE, NOTE_FAIL, NOTE_AMBIG };

static int rd_param(struct rd *r, char **tok, int ntok, enum note kind,
		    const char *cause)
{
	const struct cp_pdesc *d = find_desc(tok[0]);
	struct cp_pval *v, nv = { 0 };
	int ix[MAXIDX] = { 0 }, k, at, rc;
	char b[256];

	if (!d)
		return fmt_err(r, "unknown parameter '%s'", tok[0]);
	for (k = 0; k < nidx(d->kind); k++) {
		rc = rd_index(r, d, tok, ntok, 1 + k, k, ix);
		if (rc)
			return rc;
	}
	at = 1 + nidx(d->kind);
	v = slot(r->p, d, ix);
	joined(tok, at, b, sizeof(b));
	if (kind != NOTE_NONE && ntok != at)
		return fmt_err(r, "unexpected '%s' after '%s'", tok[at], b);
	if (kind == NOTE_AMBIG) {
		if (v->state != CP_PV_OK || v->ambig[0])
			return fmt_err(r, "'ambiguous %s' without a value "
				       "before it, or twice", b);
		snprintf(v->ambig, sizeof(v->ambig), "%s", cause);
		if (d->kind == PK_REG_PAIR)
			*slot(r->p, d, (int[]){ ix[0], ix[2], ix[1] }) = *v;
		return 0;
	}
	if (kind == NOTE_FAIL) {
		nv.state = CP_PV_FAIL;
		snprintf(nv.fail, sizeof(nv.fail), "%s", cause);
	} else {
		rc = rd_interval(r, d, tok, ntok, at, &nv);
		if (rc)
			return rc;
	}
	if (v->state != CP_PV_UNSET)
		return fmt_err(r, "duplicate '%s'", b);
	*v = nv;
	if (d->kind == PK_REG_PAIR)
		*slot(r->p, d, (int[]){ ix[0], ix[2], ix[1] }) = nv;
	return 0;
}

/* "lmo.source K TEXT": where regime K >= 1 starts. */
static int rd_source(struct rd *r, char **tok, int ntok)
{
	int k;

	if (!(r->tables & T_LMO_REG))
		return fmt_err(r, "'lmo.source' before 'lmo.regimes'");
	if (ntok != 3 || !parse_int(tok[1], 1, r->p->lmo_nreg - 1, &k) ||
	    strlen(tok[2]) >= sizeof(r->p->lmo_source[0]))
		return fmt_err(r, "expected 'lmo.source K TEXT', K a regime "
			       "after the first, TEXT one word under 64 "
			       "bytes");
	if (r->p->lmo_source[k][0])
		return fmt_err(r, "duplicate 'lmo.source %d'", k);
	snprintf(r->p->lmo_source[k], sizeof(r->p->lmo_source[k]), "%s",
		 tok[2]);
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
	return 0;
}

static int check_present(const struct cp_params *p, const struct cp_pdesc *d,
			 const int *ix, void *arg)
{
	struct rd *r = arg;
	char nm[160];

	if (!d->required || slot(p, d, ix)->state != CP_PV_UNSET)
		return 0;
	pname(p, d, ix, nm, sizeof(nm));
	return fmt_err(r, "missing '%s'", nm);
}

/* A line of the tau-Lop or the PlogPT section
 * (src/common/cp_tl_params.c, src/common/cp_pt_params.c). */
static int rd_section(struct rd *r, char **tok, int ntok, const char *cause)
{
	char msg[256];
	int rc = !strncmp(tok[0], "taulop.", 7) ?
		 cp_tl_params_line(r->p, tok, ntok, cause, msg, sizeof(msg)) :
		 cp_pt_params_line(r->p, tok, ntok, cause, msg, sizeof(msg));

	if (rc == -2)
		return -CP_PARAMS_ENOMEM;
	return rc ? fmt_err(r, "%s", msg) : 0;
}

/* "fail NAME INDEX... : cause" or "ambiguous ...": the note, the rest of
 * raw cut before the colon; NOTE_NONE for other lines. */
static enum note note_of(char **raw, char **cause)
{
	static const char *const kw[] = { "fail ", "ambiguous " };
	char *colon;
	int k;

	for (k = 0; k < 2; k++) {
		if (strncmp(*raw, kw[k], strlen(kw[k])))
			continue;
		colon = strstr(*raw, " : ");
		*cause = colon && colon[3] ? colon + 3 : NULL;
		if (colon)
			*colon = '\0';
		*raw += strlen(kw[k]);
		return k ? NOTE_AMBIG : NOTE_FAIL;
	}
	return NOTE_NONE;
}

/* The table a parameter line needs, or NULL when it is declared. */
static const char *needs_table(const struct rd *r, const char *name)
{
	if (!strncmp(name, "lmo.", 4) && !(r->tables & T_LMO_REG))
		return "'lmo.regimes'";
	if (!strcmp(name, "log3p.l_mw") &&
	    !(r->tables & T_L3_GAPS))
		return "'log3p.ssizes', 'log3p.blocks' and 'log3p.gaps'";
	if (!strncmp(name, "log3p.", 6) && strcmp(name, "log3p.l_mw") &&
	    !(r->tables & T_L3_SIZES))
		return "'log3p.sizes'";
	if (!strncmp(name, "plogp.g", 7) && !(r->tables & T_PLOGP))
		return "'plogp.sizes'";
	return NULL;
}

/* One line after the header; *end set on "end". */
static int rd_line(struct rd *r, char *raw, bool *end)
{
	char *tok[MAXTOK], *cause = NULL;
	const char *need;
	enum note kind = note_of(&raw, &cause);
	int ntok, rc;
	bool done;

	if (kind != NOTE_NONE && !cause)
		return fmt_err(r, "expected '%s NAME INDEX... : %s'",
			       kind == NOTE_FAIL ? "fail" : "ambiguous",
			       kind == NOTE_FAIL ? "cause" : "why");
	ntok = split(raw, tok, MAXTOK);
	if (ntok < 0)
		return fmt_err(r, "too many fields");
	if (ntok == 0)
		return fmt_err(r, "expected a name");
	if (!strncmp(tok[0], "taulop.", 7) || !strncmp(tok[0], "plogpt.", 7)) {
		if (kind == NOTE_AMBIG)
			return fmt_err(r, "'ambiguous' on '%s'", tok[0]);
		return rd_section(r, tok, ntok, cause);
	}
	if (kind == NOTE_NONE && !strcmp(tok[0], "end")) {
		if (ntok != 1)
			return fmt_err(r, "unexpected '%s' after 'end'",
				       tok[1]);
		*end = true;
		return 0;
	}
	if (kind == NOTE_NONE && !strcmp(tok[0], "assume"))
		return rd_assume(r, tok, ntok);
	if (kind == NOTE_NONE && !strcmp(tok[0], "lmo.source"))
		return rd_source(r, tok, ntok);
	if (kind == NOTE_NONE) {
		rc = rd_tables(r, tok, ntok, &done);
		if (done)
			return rc;
	}
	need = needs_table(r, tok[0]);
	if (need)
		return fmt_err(r, "'%s' before %s", tok[0], need);
	return rd_param(r, tok, ntok, kind, cause);
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
	if (!(r->tables & T_LMO_REG))
		return fmt_err(r, "missing 'lmo.regimes'");
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

/* One value: "NAME  value unit [lo, hi]  n=N", or failed, and its
 * ambiguity on the next line. */
static void print_val(FILE *f, const char *nm, const struct cp_pval *v,
		      const char *unit)
{
	if (v->state == CP_PV_OK)
		fprintf(f, "%-30s %12.4g %-4s [%.4g, %.4g]  n=%d\n", nm,
			v->val, unit, v->lo, v->hi, v->n);
	else if (v->state == CP_PV_FAIL)
		fprintf(f, "%-30s failed: %s\n", nm, v->fail);
	if (v->state == CP_PV_OK && v->ambig[0])
		fprintf(f, "%-30s   ambiguous: %s\n", "", v->ambig);
}

static int print_one(const struct cp_params *p, const struct cp_pdesc *d,
		     const int *ix, void *arg)
{
	FILE *f = arg;
	char nm[160];

	if (d->kind == PK_L3SBG && !ix[0] && !ix[1] && !ix[2])
		fputs("log3p.l_mw SIZE BLOCK GAP: a message of SIZE bytes in "
		      "blocks of BLOCK, the stride BLOCK + GAP\n", f);
	pname(p, d, ix, nm, sizeof(nm));
	print_val(f, nm, slot(p, d, ix), d->unit);
	return 0;
}

/* Where a regime that starts at first bytes comes from: a break in the
 * data, or a library's limit "name=value" (the regime may start above
 * it, or a header below it: ob1 counts its header in an eager limit). */
static void print_source(const char *src, double first, FILE *f)
{
	const char *eq = strchr(src, '=');
	double lim = eq ? strtod(eq + 1, NULL) : 0;

	if (!strcmp(src, "data"))
		fputs(" (starts at a break in the data)", f);
	else if (lim > 0 && first == lim + 1)
		fprintf(f, " (above %s)", src);
	else if (lim > 0 && first < lim)
		fprintf(f, " (%.0f B below %s: the library counts its "
			"header in the limit)", lim - first, src);
	else
		fprintf(f, " (starts at %s)", src);
}

/* "lmo regime K: from A B to B B (source)" before its values. */
static void print_regime(const struct cp_params *p, int k, FILE *f)
{
	fprintf(f, "lmo regime %d: messages of %.0f B", k,
		p->lmo_first_bytes[k]);
	if (k + 1 < p->lmo_nreg)
		fprintf(f, " to %.0f B", p->lmo_first_bytes[k + 1] - 1);
	else
		fputs(" and more", f);
	if (k && p->lmo_source[k][0])
		print_source(p->lmo_source[k], p->lmo_first_bytes[k], f);
	fputc('\n', f);
}

static int print_lmo(const struct cp_params *p, FILE *f)
{
	size_t k;
	int reg, ix[MAXIDX] = { 0 };

	for (reg = 0; reg < p->lmo_nreg; reg++) {
		print_regime(p, reg, f);
		ix[0] = reg;
		for (k = 0; k < NDESC; k++) {
			const struct cp_pdesc *d = &cp_params_desc[k];

			if (d->kind == PK_REG_RANK || d->kind == PK_REG_PAIR)
				each_from(p, d, ix, 1, print_one, f);
		}
	}
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
	print_lmo(p, f);
	for (k = 0; k < NDESC; k++) {
		const struct cp_pdesc *d = &cp_params_desc[k];

		if (d->kind != PK_REG_RANK && d->kind != PK_REG_PAIR)
			each_idx(p, d, print_one, f);
	}
	cp_tl_params_print(p->tl, f);
	cp_pt_params_print(p->pt, f);
	return ferror(f) ? -CP_PARAMS_EIO : 0;
}

static void json_field(FILE *f, const char *name, const struct cp_pval *v)
{
	fprintf(f, ",\n  \"%s\": ", name);
	cp_json_pval(f, v);
}

/* v + off; a table that is empty is NULL, and C allows no arithmetic on
 * NULL, not even + 0 */
static const struct cp_pval *pv_at(const struct cp_pval *v, size_t off)
{
	return off ? v + off : v;
}

/* rows x cols values, row-major, as an array of row arrays. */
static void json_matrix(FILE *f, const struct cp_pval *v, int rows, int cols)
{
	fputc('[', f);
	for (int i = 0; i < rows; i++) {
		fputs(i ? ",\n      " : "\n      ", f);
		cp_json_pvals(f, pv_at(v, (size_t)i * cols), cols);
	}
	fputc(']', f);
}

static void json_regime(const struct cp_params *p, int k, FILE *f)
{
	size_t r = (size_t)p->nranks;

	fprintf(f, "%s{\"first_bytes\": %.17g, \"source\": ",
		k ? ",\n    " : "\n    ", p->lmo_first_bytes[k]);
	if (k && p->lmo_source[k][0])
		cp_json_str(f, p->lmo_source[k]);
	else
		fputs("null", f);
	fputs(",\n     \"C_s\": ", f);
	cp_json_pvals(f, pv_at(p->lmo_c_s, k * r), p->nranks);
	fputs(",\n     \"t_spb\": ", f);
	cp_json_pvals(f, pv_at(p->lmo_t_spb, k * r), p->nranks);
	fputs(",\n     \"beta_Bps\": ", f);
	json_matrix(f, pv_at(p->lmo_beta_Bps, k * r * r), p->nranks, p->nranks);
	fputs(",\n     \"Csum_s\": ", f);
	json_matrix(f, pv_at(p->lmo_csum_s, k * r * r), p->nranks, p->nranks);
	fputs(",\n     \"tsum_spb\": ", f);
	json_matrix(f, pv_at(p->lmo_tsum_spb, k * r * r), p->nranks, p->nranks);
	fputc('}', f);
}

static void json_lmo(const struct cp_params *p, FILE *f)
{
	int k;

	fputs(",\n  \"lmo\": {\"sizes_bytes\": ", f);
	cp_json_nums(f, p->lmo_size_bytes, p->lmo_nsizes);
	fputs(",\n    \"regimes\": [", f);
	for (k = 0; k < p->lmo_nreg; k++)
		json_regime(p, k, f);
	fputs("],\n    \"S_bytes\": ", f);
	cp_json_pval(f, &p->lmo_s_bytes);
	fputs(", \"M1_bytes\": ", f);
	cp_json_pval(f, &p->lmo_m1_bytes);
	fputs(", \"M2_bytes\": ", f);
	cp_json_pval(f, &p->lmo_m2_bytes);
	fputs(",\n    \"kappa1_spb\": ", f);
	cp_json_pvals(f, p->lmo_kappa1_spb, 2);
	fputs(", \"kappa2_spb\": ", f);
	cp_json_pvals(f, p->lmo_kappa2_spb, 2);
	fputc('}', f);
}

static void json_log3p(const struct cp_params *p, FILE *f)
{
	size_t bg = (size_t)p->l3_nblocks * p->l3_ngaps;
	int i;

	fputs(",\n  \"log3p\": {\"size_bytes\": ", f);
	cp_json_nums(f, p->l3_size_bytes, p->l3_nsizes);
	fputs(",\n    \"t_mem_s\": ", f);
	cp_json_pvals(f, p->l3_t_mem_s, p->l3_nsizes);
	fputs(",\n    \"o_mw_s\": ", f);
	cp_json_pvals(f, p->l3_o_mw_s, p->l3_nsizes);
	fputs(",\n    \"o_net_s\": ", f);
	cp_json_pvals(f, p->l3_o_net_s, p->l3_nsizes);
	fputs(",\n    \"ssize_bytes\": ", f);
	cp_json_nums(f, p->l3_ssize_bytes, p->l3_nssizes);
	fputs(", \"block_bytes\": ", f);
	cp_json_nums(f, p->l3_block_bytes, p->l3_nblocks);
	fputs(", \"gap_bytes\": ", f);
	cp_json_nums(f, p->l3_gap_bytes, p->l3_ngaps);
	fputs(",\n    \"l_mw_s\": [", f);
	for (i = 0; i < p->l3_nssizes; i++) {
		fputs(i ? ",\n     " : "\n     ", f);
		json_matrix(f, pv_at(p->l3_l_mw_s, i * bg), p->l3_nblocks,
			    p->l3_ngaps);
	}
	fputs("]}", f);
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
	json_field(f, "gauge_s", &p->calib_gauge_s);
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
	cp_json_pvals(f, p->plogp_g_s, p->plogp_n);
	fputc('}', f);
	cp_tl_params_json(p->tl, f);
	cp_pt_params_json(p->pt, f);
	fputs("}\n", f);
	return ferror(f) ? -CP_PARAMS_EIO : 0;
}
