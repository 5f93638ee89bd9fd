/*
 * cp_pt_params.c - writer, reader and printers of the PlogPT section of
 * the parameter file (src/common/cp_pt_params.h).  Plain libc.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/cp_json.h"
#include "src/common/cp_pt_params.h"
#include "src/common/cp_sec.h"

#define MAXN 4096

struct cp_pt_params *cp_pt_params_get(struct cp_params *p)
{
	struct cp_pt_params *pt = p->pt;

	if (pt)
		return pt;
	pt = calloc(1, sizeof(*pt));
	if (!pt)
		return NULL;
	pt->height = -1;
	pt->pair[0] = pt->pair[1] = -1;
	p->pt = pt;
	return pt;
}

static void sizes_clear(struct cp_pt_params *pt)
{
	free(pt->size_bytes);
	free(pt->g_s);
	free(pt->os_s);
	free(pt->or_s);
	pt->size_bytes = NULL;
	pt->g_s = pt->os_s = pt->or_s = NULL;
	pt->nsizes = 0;
}

int cp_pt_params_alloc_sizes(struct cp_pt_params *pt, int nsizes)
{
	size_t n = (size_t)nsizes;

	if (!pt || nsizes < 1 || nsizes > MAXN)
		return -1;
	sizes_clear(pt);
	pt->size_bytes = calloc(n, sizeof(double));
	pt->g_s = calloc(n, sizeof(struct cp_pval));
	pt->os_s = calloc(n, sizeof(struct cp_pval));
	pt->or_s = calloc(n, sizeof(struct cp_pval));
	if (!pt->size_bytes || !pt->g_s || !pt->os_s || !pt->or_s) {
		sizes_clear(pt);
		return -2;
	}
	pt->nsizes = nsizes;
	return 0;
}

void cp_pt_params_free(struct cp_pt_params *pt)
{
	if (!pt)
		return;
	sizes_clear(pt);
	free(pt);
}

/* D clamped to the heights b_bps and d_s hold: 0 without a tree. */
static int heights(const struct cp_pt_params *pt)
{
	if (pt->height < 0)
		return 0;
	return pt->height < CP_PT_MAX_HEIGHT ? pt->height : CP_PT_MAX_HEIGHT;
}

/* ---- writer ---- */

/* "NAME value lo LO hi HI n N" or "fail NAME : cause"; nothing for an
 * unset value. */
/* put_val of "NAME X": X a size or a height. */
static void put_at(FILE *f, const char *name, double x,
		   const struct cp_pval *v)
{
	char nm[96];

	snprintf(nm, sizeof(nm), "%s %.17g", name, x);
	cp_sec_put_val(f, nm, v);
}

int cp_pt_params_write(const struct cp_pt_params *pt, FILE *f)
{
	int i, h;

	if (!pt)
		return 0;
	if (pt->height >= 0)
		fprintf(f, "plogpt.tree %d\n", pt->height);
	if (pt->pair[0] >= 0)
		fprintf(f, "plogpt.pair %d %d\n", pt->pair[0], pt->pair[1]);
	if (pt->nsizes) {
		fprintf(f, "plogpt.sizes %d", pt->nsizes);
		for (i = 0; i < pt->nsizes; i++)
			fprintf(f, " %.17g", pt->size_bytes[i]);
		fputc('\n', f);
	}
	cp_sec_put_val(f, "plogpt.L", &pt->l_s);
	for (i = 0; i < pt->nsizes; i++) {
		put_at(f, "plogpt.g", pt->size_bytes[i], &pt->g_s[i]);
		put_at(f, "plogpt.os", pt->size_bytes[i], &pt->os_s[i]);
		put_at(f, "plogpt.or", pt->size_bytes[i], &pt->or_s[i]);
	}
	for (h = 1; h <= heights(pt); h++) {
		put_at(f, "plogpt.b", h, &pt->b_bps[h]);
		put_at(f, "plogpt.d", h, &pt->d_s[h]);
	}
	cp_sec_put_val(f, "plogpt.eps_s", &pt->eps_s);
	cp_sec_put_val(f, "plogpt.eps_t", &pt->eps_t_s);
	return ferror(f) ? -1 : 0;
}

/* ---- reader ---- */

/* The value of tok[at..) into v, named with its index in messages. */
static int rd_val(char **tok, int ntok, int at, const char *cause,
		  struct cp_pval *v, char *err, size_t len)
{
	char nm[96];

	snprintf(nm, sizeof(nm), "%s%s%s", tok[0], at > 1 ? " " : "",
		 at > 1 ? tok[1] : "");
	return cp_sec_rd_val(tok, ntok, at, cause, nm, v, err, len);
}

/* "plogpt.tree D". */
static int rd_tree(struct cp_pt_params *pt, char **tok, int ntok, char *err,
		   size_t len)
{
	if (pt->height >= 0)
		return cp_sec_bad(err, len, "duplicate 'plogpt.tree'");
	if (ntok != 2 || !cp_sec_count(tok[1], 0, CP_PT_MAX_HEIGHT,
				       &pt->height)) {
		pt->height = -1;
		return cp_sec_bad(err, len, "'plogpt.tree' needs a height "
				  "from 0 to %d", CP_PT_MAX_HEIGHT);
	}
	return 0;
}

/* "plogpt.pair A B": two ranks of the file. */
static int rd_pair(struct cp_pt_params *pt, int nranks, char **tok, int ntok,
		   char *err, size_t len)
{
	int a, b;

	if (pt->pair[0] >= 0)
		return cp_sec_bad(err, len, "duplicate 'plogpt.pair'");
	if (ntok != 3 || !cp_sec_count(tok[1], 0, nranks - 1, &a) ||
	    !cp_sec_count(tok[2], 0, nranks - 1, &b) || a == b)
		return cp_sec_bad(err, len, "'plogpt.pair' needs two different "
				  "ranks below nranks (%d)", nranks);
	pt->pair[0] = a;
	pt->pair[1] = b;
	return 0;
}

/* "plogpt.sizes N S1 ... SN", increasing from 0. */
static int rd_sizes(struct cp_pt_params *pt, char **tok, int ntok,
		    char *err, size_t len)
{
	double *a;
	int n, i, rc;

	if (pt->nsizes)
		return cp_sec_bad(err, len, "duplicate 'plogpt.sizes'");
	if (ntok < 2 || !cp_sec_count(tok[1], 1, MAXN, &n) || ntok != n + 2)
		return cp_sec_bad(err, len, "'plogpt.sizes' must declare N "
				  "values and give them");
	rc = cp_pt_params_alloc_sizes(pt, n);
	if (rc)
		return rc == -2 ? -2 : -1;
	a = pt->size_bytes;
	for (i = 0; i < n; i++)
		if (!cp_sec_num(tok[i + 2], &a[i]) || !isfinite(a[i]) ||
		    (i ? a[i] <= a[i - 1] : a[i] != 0)) {
			sizes_clear(pt);
			return cp_sec_bad(err, len, "'plogpt.sizes' values "
					  "must increase from 0");
		}
	return 0;
}

/* "VALUE lo LO hi HI n N" from tok[at], or the cause of a fail line;
 * at is 1 or 2: the parameter is tok[0] and its index tok[1]. */
/* "plogpt.g SIZE ..." (and os, or) into tab[SIZE's index]. */
static int rd_sized(struct cp_pt_params *pt, struct cp_pval *tab, char **tok,
		    int ntok, const char *cause, char *err, size_t len)
{
	double s;
	int i;

	if (!pt->nsizes)
		return cp_sec_bad(err, len, "'%s' before 'plogpt.sizes'",
				  tok[0]);
	if (ntok < 2)
		return cp_sec_bad(err, len, "'%s' needs a size", tok[0]);
	i = cp_sec_num(tok[1], &s) ? 0 : pt->nsizes;
	for (; i < pt->nsizes; i++)
		if (pt->size_bytes[i] == s)
			return rd_val(tok, ntok, 2, cause, &tab[i], err, len);
	return cp_sec_bad(err, len, "'%s': size %s not in 'plogpt.sizes'",
			  tok[0], tok[1]);
}

/* "plogpt.b H ..." (and d) into tab[H], H = 1..D. */
static int rd_height(struct cp_pt_params *pt, struct cp_pval *tab,
		     char **tok, int ntok, const char *cause, char *err,
		     size_t len)
{
	int h;

	if (pt->height < 0)
		return cp_sec_bad(err, len, "'%s' before 'plogpt.tree'",
				  tok[0]);
	if (ntok < 2)
		return cp_sec_bad(err, len, "'%s' needs a height", tok[0]);
	if (!cp_sec_count(tok[1], 1, pt->height, &h))
		return cp_sec_bad(err, len, "'%s': height %s outside 1..%d",
				  tok[0], tok[1], pt->height);
	return rd_val(tok, ntok, 2, cause, &tab[h], err, len);
}

/* How a name is indexed: 1 by size, 2 by height, with its table in
 * *tab (NULL before its sizes); 0 for another name. */
static int indexed(struct cp_pt_params *pt, const char *name,
		   struct cp_pval **tab)
{
	static const char *const nm[] = { "plogpt.g", "plogpt.os",
					  "plogpt.or", "plogpt.b",
					  "plogpt.d" };
	struct cp_pval *const t[] = { pt->g_s, pt->os_s, pt->or_s,
				      pt->b_bps, pt->d_s };
	int k;

	for (k = 0; k < 5; k++)
		if (!strcmp(name, nm[k])) {
			*tab = t[k];
			return k < 3 ? 1 : 2;
		}
	return 0;
}

/* The parameter of a name without index, else NULL. */
static struct cp_pval *scalar(struct cp_pt_params *pt, const char *name)
{
	if (!strcmp(name, "plogpt.L"))
		return &pt->l_s;
	if (!strcmp(name, "plogpt.eps_s"))
		return &pt->eps_s;
	if (!strcmp(name, "plogpt.eps_t"))
		return &pt->eps_t_s;
	return NULL;
}

int cp_pt_params_line(struct cp_params *p, char **tok, int ntok,
		      const char *cause, char *err, size_t errlen)
{
	struct cp_pt_params *pt = cp_pt_params_get(p);
	struct cp_pval *v;

	if (!pt)
		return -2;
	if (cause && (!strcmp(tok[0], "plogpt.tree") ||
		      !strcmp(tok[0], "plogpt.pair") ||
		      !strcmp(tok[0], "plogpt.sizes")))
		return cp_sec_bad(err, errlen, "'%s' cannot fail", tok[0]);
	if (!strcmp(tok[0], "plogpt.tree"))
		return rd_tree(pt, tok, ntok, err, errlen);
	if (!strcmp(tok[0], "plogpt.pair"))
		return rd_pair(pt, p->nranks, tok, ntok, err, errlen);
	if (!strcmp(tok[0], "plogpt.sizes"))
		return rd_sizes(pt, tok, ntok, err, errlen);
	v = scalar(pt, tok[0]);
	if (v)
		return rd_val(tok, ntok, 1, cause, v, err, errlen);
	switch (indexed(pt, tok[0], &v)) {
	case 1:
		return rd_sized(pt, v, tok, ntok, cause, err, errlen);
	case 2:
		return rd_height(pt, v, tok, ntok, cause, err, errlen);
	}
	return cp_sec_bad(err, errlen, "unknown parameter '%s'", tok[0]);
}

/* ---- printers ---- */

/* A cell of the size table: "value [lo, hi]", "failed" or "-". */
static const char *cell(const struct cp_pval *v, char *buf, size_t len)
{
	if (v->state == CP_PV_OK)
		snprintf(buf, len, "%.4g [%.4g, %.4g]", v->val, v->lo, v->hi);
	else
		snprintf(buf, len, "%s", v->state == CP_PV_FAIL ? "failed" :
			 "-");
	return buf;
}

/* g, o_s and o_r by size, then the causes of their failures. */
static void print_sizes(const struct cp_pt_params *pt, FILE *f)
{
	static const char *const nm[] = { "plogpt.g", "plogpt.os",
					  "plogpt.or" };
	const struct cp_pval *const tab[] = { pt->g_s, pt->os_s, pt->or_s };
	char c[3][64], at[96];
	int i, k;

	fprintf(f, "%10s  %-32s %-32s %s\n", "size B", "g(m) s", "o_s(m) s",
		"o_r(m) s");
	for (i = 0; i < pt->nsizes; i++)
		fprintf(f, "%10.0f  %-32s %-32s %s\n", pt->size_bytes[i],
			cell(&pt->g_s[i], c[0], sizeof(c[0])),
			cell(&pt->os_s[i], c[1], sizeof(c[1])),
			cell(&pt->or_s[i], c[2], sizeof(c[2])));
	for (k = 0; k < 3; k++)
		for (i = 0; i < pt->nsizes; i++)
			if (tab[k][i].state == CP_PV_FAIL) {
				snprintf(at, sizeof(at), "%s %.0f", nm[k],
					 pt->size_bytes[i]);
				cp_sec_print_val(f, at, "s", &tab[k][i]);
			}
}

int cp_pt_params_print(const struct cp_pt_params *pt, FILE *f)
{
	char nm[64];
	int h;

	if (!pt)
		return 0;
	fputs("PlogPT (both ends sending", f);
	if (pt->pair[0] >= 0)
		fprintf(f, ", ranks %d and %d", pt->pair[0], pt->pair[1]);
	if (pt->height >= 0)
		fprintf(f, "; tree of height %d over %d %s", pt->height,
			1 << heights(pt), pt->height ? "leaves" : "leaf");
	fputs(")\n", f);
	cp_sec_print_val(f, "plogpt.L", "s", &pt->l_s);
	if (pt->nsizes)
		print_sizes(pt, f);
	for (h = 1; h <= heights(pt); h++) {
		snprintf(nm, sizeof(nm), "plogpt.b %d", h);
		cp_sec_print_val(f, nm, "B/s", &pt->b_bps[h]);
		snprintf(nm, sizeof(nm), "plogpt.d %d", h);
		cp_sec_print_val(f, nm, "s", &pt->d_s[h]);
	}
	cp_sec_print_val(f, "plogpt.eps_s", "", &pt->eps_s);
	cp_sec_print_val(f, "plogpt.eps_t", "s", &pt->eps_t_s);
	return ferror(f) ? -1 : 0;
}

int cp_pt_params_json(const struct cp_pt_params *pt, FILE *f)
{
	int d;

	if (!pt) {
		fputs(",\n  \"plogpt\": null", f);
		return ferror(f) ? -1 : 0;
	}
	d = heights(pt);
	fputs(",\n  \"plogpt\": {\"height\": ", f);
	if (pt->height >= 0)
		fprintf(f, "%d", pt->height);
	else
		fputs("null", f);
	if (pt->pair[0] >= 0)
		fprintf(f, ", \"pair\": [%d, %d]", pt->pair[0], pt->pair[1]);
	else
		fputs(", \"pair\": null", f);
	fputs(",\n    \"L_s\": ", f);
	cp_json_pval(f, &pt->l_s);
	fputs(",\n    \"size_bytes\": ", f);
	cp_json_nums(f, pt->size_bytes, pt->nsizes);
	fputs(",\n    \"g_s\": ", f);
	cp_json_pvals(f, pt->g_s, pt->nsizes);
	fputs(",\n    \"os_s\": ", f);
	cp_json_pvals(f, pt->os_s, pt->nsizes);
	fputs(",\n    \"or_s\": ", f);
	cp_json_pvals(f, pt->or_s, pt->nsizes);
	/* heights 1..D: element 0 is height 1 */
	fputs(",\n    \"b_Bps\": ", f);
	cp_json_pvals(f, pt->b_bps + 1, d);
	fputs(",\n    \"d_s\": ", f);
	cp_json_pvals(f, pt->d_s + 1, d);
	fputs(",\n    \"eps_S\": ", f);
	cp_json_pval(f, &pt->eps_s);
	fputs(", \"eps_T_s\": ", f);
	cp_json_pval(f, &pt->eps_t_s);
	fputc('}', f);
	return ferror(f) ? -1 : 0;
}
