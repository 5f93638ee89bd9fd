/*
 * cp_tl_params.c - writer, reader and printers of the tau-Lop section of
 * the parameter file (src/common/cp_tl_params.h).  Plain libc.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/cp_json.h"
#include "src/common/cp_sec.h"
#include "src/common/cp_tl_params.h"

#define MAXN 4096

static const char *const chan_name[2] = { "shared memory", "network" };

struct cp_tl_params *cp_tl_params_get(struct cp_params *p)
{
	if (!p->tl)
		p->tl = calloc(1, sizeof(*p->tl));
	return p->tl;
}

static void chan_clear(struct cp_tl_chan_params *ch)
{
	free(ch->size_bytes);
	free(ch->tau);
	free(ch->o_s);
	free(ch->l_s);
	free(ch->lw_s);
	free(ch->ls_s);
	free(ch->gap_s);
	free(ch->lg_s);
	memset(ch, 0, sizeof(*ch));
}

int cp_tl_params_alloc_chan(struct cp_tl_params *tl, int c, int nsizes,
			    int ntau)
{
	struct cp_tl_chan_params *ch;
	int ranks;

	if (!tl || c < 0 || c > 1 || nsizes < 1 || ntau < 1 ||
	    nsizes > MAXN || ntau > MAXN)
		return -1;
	ch = &tl->ch[c];
	ranks = ch->ranks;
	chan_clear(ch);
	ch->ranks = ranks;
	ch->size_bytes = calloc((size_t)nsizes, sizeof(double));
	ch->tau = calloc((size_t)ntau, sizeof(double));
	ch->o_s = calloc((size_t)nsizes, sizeof(struct cp_pval));
	ch->l_s = calloc((size_t)nsizes * ntau, sizeof(struct cp_pval));
	ch->lw_s = calloc((size_t)nsizes * ntau, sizeof(struct cp_pval));
	ch->ls_s = calloc((size_t)nsizes * ntau, sizeof(struct cp_pval));
	if (!ch->size_bytes || !ch->tau || !ch->o_s || !ch->l_s ||
	    !ch->lw_s || !ch->ls_s) {
		chan_clear(ch);
		return -2;
	}
	ch->nsizes = nsizes;
	ch->ntau = ntau;
	return 0;
}

int cp_tl_params_alloc_gaps(struct cp_tl_params *tl, int c, int ngap)
{
	struct cp_tl_chan_params *ch;
	double *g;
	struct cp_pval *v;

	if (!tl || c < 0 || c > 1 || !tl->ch[c].nsizes || ngap < 1 ||
	    ngap > MAXN)
		return -1;
	ch = &tl->ch[c];
	g = calloc((size_t)ngap, sizeof(double));
	v = calloc((size_t)ch->nsizes * ngap, sizeof(struct cp_pval));
	if (!g || !v) {
		free(g);
		free(v);
		return -2;
	}
	free(ch->gap_s);
	free(ch->lg_s);
	ch->gap_s = g;
	ch->lg_s = v;
	ch->ngap = ngap;
	return 0;
}

void cp_tl_params_free(struct cp_tl_params *tl)
{
	if (!tl)
		return;
	chan_clear(&tl->ch[0]);
	chan_clear(&tl->ch[1]);
	free(tl);
}

/* ---- writer ---- */

/* "NAME INDEX... value lo LO hi HI n N" or "fail NAME INDEX... : cause";
 * nothing for an unset value. */
static void put_list(FILE *f, const char *what, int c, const double *a,
		     int n)
{
	int i;

	fprintf(f, "taulop.%s %d %d", what, c, n);
	for (i = 0; i < n; i++)
		fprintf(f, " %.17g", a[i]);
	fputc('\n', f);
}

/* How a cell of a table goes out: to the file (machine precision, no
 * line when unset) or to people (set_only: no line when unset). */
enum cell_to { TO_FILE, TO_PEOPLE, TO_PEOPLE_SET };

/* One cell "taulop.NAME C SIZE X" of channel c: X a tau or a gap. */
static void put_cell(FILE *f, enum cell_to to, const char *name, int c,
		     double size, double x, const struct cp_pval *v)
{
	char nm[160];

	if (to == TO_FILE) {
		snprintf(nm, sizeof(nm), "taulop.%s %d %.17g %.17g", name, c,
			 size, x);
		cp_sec_put_val(f, nm, v);
		return;
	}
	if (to == TO_PEOPLE_SET && v->state == CP_PV_UNSET)
		return;
	snprintf(nm, sizeof(nm), "taulop.%s %d %.0f %g", name, c, size, x);
	cp_sec_print_val(f, nm, "s", v);
}

/* Size is's cells of L, Lw, Ls (each tau) and Lg (each gap) of ch. */
static void put_cells(FILE *f, bool file, int c,
		      const struct cp_tl_chan_params *ch, int is)
{
	double m = ch->size_bytes[is];
	int k;

	for (k = 0; k < ch->ntau; k++) {
		put_cell(f, file ? TO_FILE : TO_PEOPLE, "L", c, m, ch->tau[k],
			 &ch->l_s[is * ch->ntau + k]);
		put_cell(f, file ? TO_FILE : TO_PEOPLE_SET, "Lw", c, m,
			 ch->tau[k], &ch->lw_s[is * ch->ntau + k]);
		put_cell(f, file ? TO_FILE : TO_PEOPLE_SET, "Ls", c, m,
			 ch->tau[k], &ch->ls_s[is * ch->ntau + k]);
	}
	for (k = 0; k < ch->ngap; k++)
		put_cell(f, file ? TO_FILE : TO_PEOPLE_SET, "Lg", c, m,
			 ch->gap_s[k], &ch->lg_s[is * ch->ngap + k]);
}

int cp_tl_params_write(const struct cp_tl_params *tl, FILE *f)
{
	char nm[160];
	int c, is;

	if (!tl)
		return 0;
	for (c = 0; c < 2; c++) {
		const struct cp_tl_chan_params *ch = &tl->ch[c];

		if (!ch->nsizes)
			continue;
		put_list(f, "sizes", c, ch->size_bytes, ch->nsizes);
		put_list(f, "taus", c, ch->tau, ch->ntau);
		fprintf(f, "taulop.ranks %d %d\n", c, ch->ranks);
		if (ch->ngap)
			put_list(f, "gaps", c, ch->gap_s, ch->ngap);
		for (is = 0; is < ch->nsizes; is++) {
			snprintf(nm, sizeof(nm), "taulop.o %d %.17g", c,
				 ch->size_bytes[is]);
			cp_sec_put_val(f, nm, &ch->o_s[is]);
			put_cells(f, true, c, ch, is);
		}
	}
	cp_sec_put_val(f, "taulop.red", &tl->red_spb);
	if (tl->page_s.state != CP_PV_UNSET)
		cp_sec_put_val(f, "taulop.page", &tl->page_s);
	return ferror(f) ? -1 : 0;
}

/* ---- reader ---- */

/* The channel named by tok, or NULL after a message. */
static struct cp_tl_chan_params *chan_of(struct cp_tl_params *tl,
					 const char *tok, char *err,
					 size_t len)
{
	int c;

	if (!cp_sec_count(tok, 0, 1, &c)) {
		cp_sec_bad(err, len, "channel '%s' is not 0 or 1", tok);
		return NULL;
	}
	return &tl->ch[c];
}

/* The channel and count N of a list line "NAME C N v1 ... vN";
 * -1 after a message. */
static int list_head(struct cp_tl_params *tl, char **tok, int ntok,
		     struct cp_tl_chan_params **ch, int *n, char *err,
		     size_t len)
{
	if (ntok < 3)
		return cp_sec_bad(err, len, "'%s' needs a channel and a count",
				  tok[0]);
	*ch = chan_of(tl, tok[1], err, len);
	if (!*ch)
		return -1;
	if (!cp_sec_count(tok[2], 1, MAXN, n) || ntok != *n + 3)
		return cp_sec_bad(err, len, "'%s %s' must declare N values and "
				  "give them", tok[0], tok[1]);
	return 0;
}

/* "taulop.sizes C N ..." or "taulop.taus C N ...". */
static int rd_list(struct cp_tl_params *tl, char **tok, int ntok, bool sizes,
		   char *err, size_t len)
{
	struct cp_tl_chan_params *ch;
	double *a;
	int n, i, c;

	if (list_head(tl, tok, ntok, &ch, &n, err, len))
		return -1;
	c = (int)(ch - tl->ch);
	if (sizes ? ch->nsizes : (ch->ntau || !ch->nsizes))
		return cp_sec_bad(err, len, sizes ? "duplicate '%s %s'" :
				  "'%s %s' must follow its sizes, once",
				  tok[0], tok[1]);
	a = calloc((size_t)n, sizeof(double));
	if (!a)
		return -2;
	for (i = 0; i < n; i++)
		if (!cp_sec_num(tok[i + 3], &a[i]) || !isfinite(a[i]) ||
		    a[i] < 0 || (i && a[i] <= a[i - 1]) ||
		    (!sizes && !i && a[i] != 1)) {
			free(a);
			return cp_sec_bad(err, len, "'%s %s' values must "
					  "increase %s", tok[0], tok[1],
					  sizes ? "from 0" : "from 1");
		}
	if (sizes) {
		free(ch->size_bytes);
		ch->size_bytes = a;
		ch->nsizes = n;
		return 0;
	}
	{
		double *s = ch->size_bytes;
		int ns = ch->nsizes, ranks = ch->ranks;

		ch->size_bytes = NULL;
		if (cp_tl_params_alloc_chan(tl, c, ns, n)) {
			free(s);
			free(a);
			return -2;
		}
		memcpy(ch->size_bytes, s, sizeof(double) * ns);
		memcpy(ch->tau, a, sizeof(double) * n);
		ch->ranks = ranks;
		free(s);
		free(a);
	}
	return 0;
}

/* Index of x in a[0..n), or -1. */
static int find(const double *a, int n, double x)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i] == x)
			return i;
	return -1;
}

/* The tables of a channel, by the name of their lines. */
enum tab { TAB_O, TAB_L, TAB_LW, TAB_LS, TAB_LG };

/* "taulop.o C SIZE ...", "taulop.L C SIZE TAU ...", "taulop.Lw C SIZE
 * TAU ...", "taulop.Ls C SIZE TAU ..." and "taulop.Lg C SIZE GAP ...". */
static int rd_table(struct cp_tl_params *tl, char **tok, int ntok,
		    const char *cause, enum tab which, char *err, size_t len)
{
	struct cp_tl_chan_params *ch;
	const double *ax = NULL;
	struct cp_pval *tab = NULL;
	int is, it = 0, nax = 1, first = which == TAB_O ? 3 : 4;
	double s, t;

	if (ntok < first)
		return cp_sec_bad(err, len, "'%s' needs its indices", tok[0]);
	ch = chan_of(tl, tok[1], err, len);
	if (!ch)
		return -1;
	if (!ch->ntau || (which == TAB_LG && !ch->ngap))
		return cp_sec_bad(err, len, "'%s %s' before its sizes and %s",
				  tok[0], tok[1], which == TAB_LG ? "gaps" :
				  "taus");
	switch (which) {
	case TAB_O:
		tab = ch->o_s;
		break;
	case TAB_L: case TAB_LW: case TAB_LS:
		tab = which == TAB_L ? ch->l_s : which == TAB_LW ? ch->lw_s :
		      ch->ls_s;
		ax = ch->tau;
		nax = ch->ntau;
		break;
	case TAB_LG:
		tab = ch->lg_s;
		ax = ch->gap_s;
		nax = ch->ngap;
		break;
	}
	if (!cp_sec_num(tok[2], &s) ||
	    (is = find(ch->size_bytes, ch->nsizes, s)) < 0)
		return cp_sec_bad(err, len, "'%s %s': size %s not declared",
				  tok[0], tok[1], tok[2]);
	if (ax && (!cp_sec_num(tok[3], &t) || (it = find(ax, nax, t)) < 0))
		return cp_sec_bad(err, len, "'%s %s': %s %s not declared",
				  tok[0], tok[1], which == TAB_LG ? "gap" :
				  "tau", tok[3]);
	return cp_sec_rd_val(tok, ntok, first, cause, tok[0],
			     &tab[is * nax + it], err, len);
}

/* "taulop.gaps C G ...": after the channel's taus. */
static int rd_gaps(struct cp_tl_params *tl, char **tok, int ntok, char *err,
		   size_t len)
{
	struct cp_tl_chan_params *ch;
	int n, i, c;

	if (list_head(tl, tok, ntok, &ch, &n, err, len))
		return -1;
	c = (int)(ch - tl->ch);
	if (!ch->ntau || ch->ngap)
		return cp_sec_bad(err, len, "'%s %s' must follow its taus, "
				  "once", tok[0], tok[1]);
	if (cp_tl_params_alloc_gaps(tl, c, n))
		return -2;
	for (i = 0; i < n; i++)
		if (!cp_sec_num(tok[i + 3], &ch->gap_s[i]) ||
		    !isfinite(ch->gap_s[i]) || ch->gap_s[i] <= 0 ||
		    (i && ch->gap_s[i] <= ch->gap_s[i - 1])) {
			ch->ngap = 0;
			return cp_sec_bad(err, len, "'%s %s' values must be "
					  "above 0 and increase", tok[0],
					  tok[1]);
		}
	return 0;
}

int cp_tl_params_line(struct cp_params *p, char **tok, int ntok,
		      const char *cause, char *err, size_t errlen)
{
	struct cp_tl_params *tl = cp_tl_params_get(p);
	struct cp_tl_chan_params *ch;

	if (!tl)
		return -2;
	if (!cause && !strcmp(tok[0], "taulop.sizes"))
		return rd_list(tl, tok, ntok, true, err, errlen);
	if (!cause && !strcmp(tok[0], "taulop.taus"))
		return rd_list(tl, tok, ntok, false, err, errlen);
	if (!cause && !strcmp(tok[0], "taulop.ranks")) {
		if (ntok != 3)
			return cp_sec_bad(err, errlen, "'taulop.ranks' needs "
					  "C R");
		ch = chan_of(tl, tok[1], err, errlen);
		if (!ch)
			return -1;
		if (!cp_sec_count(tok[2], 0, 1 << 20, &ch->ranks))
			return cp_sec_bad(err, errlen, "'taulop.ranks': bad "
					  "count '%s'", tok[2]);
		return 0;
	}
	if (!cause && !strcmp(tok[0], "taulop.gaps"))
		return rd_gaps(tl, tok, ntok, err, errlen);
	if (!strcmp(tok[0], "taulop.o"))
		return rd_table(tl, tok, ntok, cause, TAB_O, err, errlen);
	if (!strcmp(tok[0], "taulop.L"))
		return rd_table(tl, tok, ntok, cause, TAB_L, err, errlen);
	if (!strcmp(tok[0], "taulop.Lw"))
		return rd_table(tl, tok, ntok, cause, TAB_LW, err, errlen);
	if (!strcmp(tok[0], "taulop.Ls"))
		return rd_table(tl, tok, ntok, cause, TAB_LS, err, errlen);
	if (!strcmp(tok[0], "taulop.Lg"))
		return rd_table(tl, tok, ntok, cause, TAB_LG, err, errlen);
	if (!strcmp(tok[0], "taulop.red"))
		return cp_sec_rd_val(tok, ntok, 1, cause, tok[0], &tl->red_spb,
				     err, errlen);
	if (!strcmp(tok[0], "taulop.page"))
		return cp_sec_rd_val(tok, ntok, 1, cause, tok[0], &tl->page_s,
				     err, errlen);
	return cp_sec_bad(err, errlen, "unknown parameter '%s'", tok[0]);
}

/* ---- printers ---- */

int cp_tl_params_print(const struct cp_tl_params *tl, FILE *f)
{
	char nm[96];
	int c, is;

	if (!tl)
		return 0;
	for (c = 0; c < 2; c++) {
		const struct cp_tl_chan_params *ch = &tl->ch[c];

		if (!ch->nsizes)
			continue;
		fprintf(f, "tau-Lop channel %d (%s): %d sizes, tau up to %g, "
			"measured on %d processes\n", c, chan_name[c],
			ch->nsizes, ch->tau[ch->ntau - 1], ch->ranks);
		for (is = 0; is < ch->nsizes; is++) {
			snprintf(nm, sizeof(nm), "taulop.o %d %.0f", c,
				 ch->size_bytes[is]);
			cp_sec_print_val(f, nm, "s", &ch->o_s[is]);
			put_cells(f, false, c, ch, is);
		}
	}
	cp_sec_print_val(f, "taulop.red", "s/B", &tl->red_spb);
	if (tl->page_s.state != CP_PV_UNSET)
		cp_sec_print_val(f, "taulop.page", "s", &tl->page_s);
	return ferror(f) ? -1 : 0;
}

/* ",\n      \"NAME\": [[...], ...]": a table of sizes x w (taus or
 * gaps). */
static void json_table(FILE *f, const struct cp_tl_chan_params *ch,
		       const char *name, const struct cp_pval *tab, int w)
{
	int is;

	fprintf(f, ",\n      \"%s\": [", name);
	for (is = 0; is < ch->nsizes; is++) {
		fputs(is ? ",\n        " : "\n        ", f);
		cp_json_pvals(f, tab + (size_t)is * w, w);
	}
	fputc(']', f);
}

static void json_chan(FILE *f, const struct cp_tl_chan_params *ch)
{
	if (!ch->nsizes) {
		fputs("null", f);
		return;
	}
	fputs("{\"size_bytes\": ", f);
	cp_json_nums(f, ch->size_bytes, ch->nsizes);
	fputs(", \"tau\": ", f);
	cp_json_nums(f, ch->tau, ch->ntau);
	fprintf(f, ", \"ranks\": %d,\n      \"o_s\": ", ch->ranks);
	cp_json_pvals(f, ch->o_s, ch->nsizes);
	json_table(f, ch, "L_s", ch->l_s, ch->ntau);
	json_table(f, ch, "Lw_s", ch->lw_s, ch->ntau);
	json_table(f, ch, "Ls_s", ch->ls_s, ch->ntau);
	if (ch->ngap) {
		fputs(",\n      \"gap_s\": ", f);
		cp_json_nums(f, ch->gap_s, ch->ngap);
		json_table(f, ch, "Lg_s", ch->lg_s, ch->ngap);
	}
	fputc('}', f);
}

int cp_tl_params_json(const struct cp_tl_params *tl, FILE *f)
{
	if (!tl) {
		fputs(",\n  \"taulop\": null", f);
		return ferror(f) ? -1 : 0;
	}
	fputs(",\n  \"taulop\": {\"shm\": ", f);
	json_chan(f, &tl->ch[0]);
	fputs(",\n    \"net\": ", f);
	json_chan(f, &tl->ch[1]);
	fputs(",\n    \"red_spb\": ", f);
	cp_json_pval(f, &tl->red_spb);
	fputs(",\n    \"page_s\": ", f);
	cp_json_pval(f, &tl->page_s);
	fputc('}', f);
	return ferror(f) ? -1 : 0;
}
