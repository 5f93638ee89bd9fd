/*
 * cli_rtab.c - the tables of "commprof report" and their four printed
 * forms (cli.h): text for a terminal, markdown, one JSON object, CSV with
 * a leading "section" column.  Cells are built once, so every format
 * shows the same rows; only the rendering differs.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/common/cp_json.h"

void cp_cli_tab_init(struct cp_cli_tab *t, const char *name,
		     const char *title, size_t ncols, const char *const *cols,
		     const char *const *heads, bool kv)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->title = title;
	t->ncols = ncols;
	t->cols = cols;
	t->heads = heads;
	t->kv = kv;
}

void cp_cli_tab_row(struct cp_cli_tab *t)
{
	struct cp_cli_cell *c;
	size_t cap;

	if (t->oom)
		return;
	if (t->nrows == t->cap) {
		cap = t->cap ? 2 * t->cap : 16;
		c = realloc(t->cells, cap * t->ncols * sizeof(*c));
		if (!c) {
			t->oom = true;
			return;
		}
		t->cells = c;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0,
	       t->ncols * sizeof(*t->cells));
	t->nrows++;
}

/* The cell col of the last row, emptied, or NULL when t->oom. */
static struct cp_cli_cell *cp_cli_cell(struct cp_cli_tab *t, size_t col)
{
	struct cp_cli_cell *c;

	if (t->oom || !t->nrows || col >= t->ncols)
		return NULL;
	c = &t->cells[(t->nrows - 1) * t->ncols + col];
	free(c->txt);
	free(c->raw);
	memset(c, 0, sizeof(*c));
	return c;
}

/* strdup that marks t->oom; NULL stays NULL. */
static char *cp_cli_dup(struct cp_cli_tab *t, const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		t->oom = true;
	return d;
}

void cp_cli_put_str2(struct cp_cli_tab *t, size_t col, const char *txt,
		     const char *raw)
{
	struct cp_cli_cell *c = cp_cli_cell(t, col);

	if (!c)
		return;
	c->txt = cp_cli_dup(t, txt);
	c->raw = cp_cli_dup(t, raw);
	c->str = true;
}

void cp_cli_put_str(struct cp_cli_tab *t, size_t col, const char *s)
{
	cp_cli_put_str2(t, col, s, s);
}

/* A number cell: txt and raw texts (NULL: null). */
static void cp_cli_put_numtxt(struct cp_cli_tab *t, size_t col,
			      const char *txt, const char *raw)
{
	struct cp_cli_cell *c = cp_cli_cell(t, col);

	if (!c)
		return;
	c->txt = cp_cli_dup(t, txt);
	c->raw = cp_cli_dup(t, raw);
}

void cp_cli_put_int(struct cp_cli_tab *t, size_t col, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	cp_cli_put_numtxt(t, col, buf, buf);
}

void cp_cli_put_num(struct cp_cli_tab *t, size_t col, double v,
		    const char *fmt)
{
	char txt[64], raw[64];

	if (isnan(v)) {
		cp_cli_put_numtxt(t, col, NULL, NULL);
		return;
	}
	snprintf(txt, sizeof(txt), fmt, v);
	snprintf(raw, sizeof(raw), "%.12g", v);
	cp_cli_put_numtxt(t, col, txt, raw);
}

void cp_cli_put_time(struct cp_cli_tab *t, size_t col, double ns)
{
	char txt[64], raw[64];

	if (isnan(ns) || ns < 0) {
		cp_cli_put_numtxt(t, col, NULL, NULL);
		return;
	}
	if (ns < 1e3)
		snprintf(txt, sizeof(txt), "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(txt, sizeof(txt), "%.2f us", ns / 1e3);
	else if (ns < 1e9)
		snprintf(txt, sizeof(txt), "%.3f ms", ns / 1e6);
	else
		snprintf(txt, sizeof(txt), "%.3f s", ns / 1e9);
	snprintf(raw, sizeof(raw), "%.12g", ns / 1e9);
	cp_cli_put_numtxt(t, col, txt, raw);
}

void cp_cli_put_bool(struct cp_cli_tab *t, size_t col, bool v,
		     const char *mark)
{
	cp_cli_put_numtxt(t, col, v ? mark : "", v ? "true" : "false");
}

void cp_cli_put_hide(struct cp_cli_tab *t, size_t col)
{
	struct cp_cli_cell *c;

	if (t->oom || !t->nrows || col >= t->ncols)
		return;
	c = &t->cells[(t->nrows - 1) * t->ncols + col];
	free(c->txt);
	c->txt = cp_cli_dup(t, "");
}

void cp_cli_tab_note(struct cp_cli_tab *t, const char *note)
{
	free(t->note);
	t->note = cp_cli_dup(t, note);
}

void cp_cli_tab_free(struct cp_cli_tab *t)
{
	size_t i;

	for (i = 0; i < t->nrows * t->ncols; i++) {
		free(t->cells[i].txt);
		free(t->cells[i].raw);
	}
	free(t->cells);
	free(t->note);
	t->cells = NULL;
	t->note = NULL;
	t->nrows = t->cap = 0;
}

static const struct cp_cli_cell *cp_cli_at(const struct cp_cli_tab *t,
					   size_t row, size_t col)
{
	return &t->cells[row * t->ncols + col];
}

static const char *cp_cli_txt(const struct cp_cli_cell *c)
{
	return c->txt ? c->txt : "-";
}

/* ---- text ---- */

/* Write s (n bytes) then pad spaces.  Cannot fail (errors: ferror). */
static void cp_cli_put(FILE *f, const char *s, size_t n, size_t pad)
{
	fwrite(s, 1, n, f);
	fprintf(f, "%*s", (int)pad, "");
}

/*
 * Text s in a column of w characters: as is when it fits, else cut with
 * "..." (a "file:line" callsite keeps its end, where the line number is;
 * anything else its start).  right: aligned right; last: no padding.
 */
static void cp_cli_text_cell(FILE *f, const char *s, size_t w, bool right,
			     bool last)
{
	size_t l = strlen(s), k;
	const char *c;

	if (l <= w) {
		if (right)
			fprintf(f, "%*s", (int)(w - l), "");
		cp_cli_put(f, s, l, right || last ? 0 : w - l);
		return;
	}
	k = w > 3 ? w - 3 : 0;
	c = strrchr(s, ':');
	if (c && c[1] && strspn(c + 1, "0123456789") == strlen(c + 1)) {
		fputs("...", f);
		cp_cli_put(f, s + l - k, k, 0);
	} else {
		cp_cli_put(f, s, k, 0);
		fputs("...", f);
	}
}

/*
 * Print the words of text from column col (what precedes them is
 * printed), wrapped so that no line passes width (0: one line); lines
 * after the first start at column indent.  A word longer than a line
 * stays whole.
 */
static void cp_cli_wrap(FILE *f, const char *text, size_t col,
			size_t indent, size_t width)
{
	const char *p = text + strspn(text, " ");
	size_t l;

	while (*p) {
		l = strcspn(p, " ");
		if (p > text && width && col + 1 + l > width) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (p > text) {
			fputc(' ', f);
			col++;
		}
		cp_cli_put(f, p, l, 0);
		col += l;
		p += l;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

static void cp_cli_text_kv(FILE *f, const struct cp_cli_tab *t, size_t width)
{
	size_t i, w = 0;
	const char *k;

	for (i = 0; i < t->nrows; i++)
		if (strlen(cp_cli_txt(cp_cli_at(t, i, 0))) > w)
			w = strlen(cp_cli_txt(cp_cli_at(t, i, 0)));
	fprintf(f, "%s\n", t->title);
	for (i = 0; i < t->nrows; i++) {
		k = cp_cli_txt(cp_cli_at(t, i, 0));
		fprintf(f, "%s:%*s ", k, (int)(w - strlen(k)), "");
		cp_cli_wrap(f, cp_cli_txt(cp_cli_at(t, i, 1)), w + 2, w + 2,
			    width);
	}
}

/* A column is right-aligned when its first row holds a number. */
static bool cp_cli_right(const struct cp_cli_tab *t, size_t col)
{
	return t->nrows && !cp_cli_at(t, 0, col)->str;
}

/* Width of columns [a, b) side by side, two spaces apart. */
static size_t cp_cli_span(const size_t *w, size_t a, size_t b)
{
	size_t s = 0, j;

	for (j = a; j < b; j++)
		s += w[j] + (j > a ? 2 : 0);
	return s;
}

static void cp_cli_text_narrow(const struct cp_cli_tab *t, size_t *w,
			       size_t width);

/*
 * Narrow the text columns of t (widths w) until the table fits width:
 * the widest first, none below its heading nor below 24 characters (a cut
 * name helps nobody).  When that is not enough, the table keeps its
 * widths and cp_cli_text_line folds it, no column wider than a line.
 * Returns 0 or -1 out of memory.
 */
static int cp_cli_text_fit(const struct cp_cli_tab *t, size_t *w,
			   size_t width)
{
	size_t j, *w0;

	if (!width || cp_cli_span(w, 0, t->ncols) <= width)
		return 0;
	w0 = malloc(t->ncols * sizeof(*w0));
	if (!w0)
		return -1;
	memcpy(w0, w, t->ncols * sizeof(*w0));
	cp_cli_text_narrow(t, w, width);
	if (cp_cli_span(w, 0, t->ncols) > width)
		for (j = 0; j < t->ncols; j++)
			w[j] = w0[j] > width - 4 ? width - 4 : w0[j];
	free(w0);
	return 0;
}

/* The narrowing of cp_cli_text_fit. */
static void cp_cli_text_narrow(const struct cp_cli_tab *t, size_t *w,
			       size_t width)
{
	size_t j, best, min;

	while (cp_cli_span(w, 0, t->ncols) > width) {
		best = t->ncols;
		for (j = 0; j < t->ncols; j++) {
			min = strlen(t->heads[j]) > 24 ? strlen(t->heads[j]) :
			      24;
			if (!cp_cli_right(t, j) && w[j] > min &&
			    (best == t->ncols || w[j] > w[best]))
				best = j;
		}
		if (best == t->ncols)
			return;
		w[best]--;
	}
}

/* Past the last column of the line that starts at column a: the columns
 * that fit width (4 of indent on a folded line), at least one. */
static size_t cp_cli_fold(const struct cp_cli_tab *t, const size_t *w,
			  size_t a, size_t width)
{
	size_t b = a + 1;

	while (b < t->ncols && (!width || (a ? 4 : 0) +
				cp_cli_span(w, a, b + 1) <= width))
		b++;
	return b;
}

/* Print row (or the headings, row -1) of t: the columns that fit width
 * on a line, the rest folded onto lines indented by 4; a line whose
 * cells are all empty (repeated values hidden) is left out. */
static void cp_cli_text_line(FILE *f, const struct cp_cli_tab *t,
			     const size_t *w, size_t row, size_t width)
{
	const char *s;
	size_t j, a, b;
	bool empty;

	for (a = 0; a < t->ncols; a = b) {
		b = cp_cli_fold(t, w, a, width);
		for (j = a, empty = row != (size_t)-1; empty && j < b; j++)
			empty = !*cp_cli_txt(cp_cli_at(t, row, j));
		if (empty)
			continue;
		fputs(a ? "    " : "", f);
		for (j = a; j < b; j++) {
			s = row == (size_t)-1 ? t->heads[j] :
			    cp_cli_txt(cp_cli_at(t, row, j));
			fputs(j > a ? "  " : "", f);
			cp_cli_text_cell(f, s, w[j], cp_cli_right(t, j),
					 j + 1 == b);
		}
		fputc('\n', f);
	}
}

static void cp_cli_text_tab(FILE *f, const struct cp_cli_tab *t,
			    size_t width)
{
	size_t i, j, l, *w;

	fprintf(f, "\n%s\n", t->title);
	if (t->note) {
		fputs("  ", f);
		cp_cli_wrap(f, t->note, 2, 2, width);
	}
	if (!t->nrows)
		return;
	w = calloc(t->ncols, sizeof(*w));
	if (!w)
		return;
	for (j = 0; j < t->ncols; j++) {
		w[j] = strlen(t->heads[j]);
		for (i = 0; i < t->nrows; i++) {
			l = strlen(cp_cli_txt(cp_cli_at(t, i, j)));
			w[j] = l > w[j] ? l : w[j];
		}
	}
	if (cp_cli_text_fit(t, w, width)) {
		free(w);
		return;
	}
	cp_cli_text_line(f, t, w, (size_t)-1, width);
	for (i = 0; i < t->nrows; i++)
		cp_cli_text_line(f, t, w, i, width);
	free(w);
}

/* ---- markdown ---- */

static void cp_cli_md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc(' ', f);
}

static void cp_cli_md_tab(FILE *f, const struct cp_cli_tab *t)
{
	size_t i, j;

	fprintf(f, "\n## %s\n\n", t->title);
	if (t->note)
		fprintf(f, "%s\n\n", t->note);
	if (!t->nrows)
		return;
	for (j = 0; j < t->ncols; j++)
		cp_cli_md_cell(f, t->heads[j]);
	fputs("|\n", f);
	for (j = 0; j < t->ncols; j++)
		fputs(cp_cli_right(t, j) ? "|---:" : "|---", f);
	fputs("|\n", f);
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < t->ncols; j++)
			cp_cli_md_cell(f, cp_cli_txt(cp_cli_at(t, i, j)));
		fputs("|\n", f);
	}
}

static void cp_cli_md_kv(FILE *f, const struct cp_cli_tab *t)
{
	size_t i;

	fprintf(f, "# %s\n\n| | |\n|---|---|\n", t->title);
	for (i = 0; i < t->nrows; i++) {
		cp_cli_md_cell(f, cp_cli_txt(cp_cli_at(t, i, 0)));
		cp_cli_md_cell(f, cp_cli_txt(cp_cli_at(t, i, 1)));
		fputs("|\n", f);
	}
}

/* ---- JSON ---- */

static void cp_cli_json_val(FILE *f, const struct cp_cli_cell *c)
{
	if (!c->raw)
		fputs("null", f);
	else if (c->str)
		cp_json_str(f, c->raw);
	else
		fputs(c->raw, f);
}

static void cp_cli_json_kv(FILE *f, const struct cp_cli_tab *t)
{
	size_t i;

	fputs("{\n", f);
	for (i = 0; i < t->nrows; i++) {
		fputs(i ? ",\n  " : "  ", f);
		cp_json_str(f, cp_cli_at(t, i, 0)->raw);
		fputs(": ", f);
		cp_cli_json_val(f, cp_cli_at(t, i, 1));
	}
	fputs("\n}", f);
}

static void cp_cli_json_tab(FILE *f, const struct cp_cli_tab *t)
{
	size_t i, j;

	fputs("{\"title\": ", f);
	cp_json_str(f, t->title);
	fputs(", \"note\": ", f);
	if (t->note)
		cp_json_str(f, t->note);
	else
		fputs("null", f);
	fputs(", \"rows\": [", f);
	for (i = 0; i < t->nrows; i++) {
		fputs(i ? ",\n  {" : "\n  {", f);
		for (j = 0; j < t->ncols; j++) {
			fprintf(f, "%s\"%s\": ", j ? ", " : "", t->cols[j]);
			cp_cli_json_val(f, cp_cli_at(t, i, j));
		}
		fputc('}', f);
	}
	fputs(t->nrows ? "\n]}" : "]}", f);
}

static void cp_cli_json(FILE *f, const struct cp_cli_tab *t, size_t n)
{
	size_t i;

	fprintf(f, "{\"%s\": ", t[0].name);
	cp_cli_json_kv(f, &t[0]);
	for (i = 1; i < n; i++) {
		fprintf(f, ",\n\"%s\": ", t[i].name);
		cp_cli_json_tab(f, &t[i]);
	}
	fputs("}\n", f);
}

/* ---- CSV ---- */

void cp_cli_csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void cp_cli_csv_field(FILE *f, const char *s)
{
	fputc(',', f);
	cp_cli_csv_str(f, s);
}

/* The header as "section,key,value"; the notes of the other sections
 * join it as (section, "note", text) rows. */
static void cp_cli_csv_kv(FILE *f, const struct cp_cli_tab *t, size_t n)
{
	size_t i;

	fputs("section,key,value\n", f);
	for (i = 0; i < t[0].nrows; i++) {
		fputs(t[0].name, f);
		cp_cli_csv_field(f, cp_cli_at(&t[0], i, 0)->raw);
		cp_cli_csv_field(f, cp_cli_at(&t[0], i, 1)->raw);
		fputc('\n', f);
	}
	for (i = 1; i < n; i++) {
		if (!t[i].note)
			continue;
		fputs(t[i].name, f);
		cp_cli_csv_field(f, "note");
		cp_cli_csv_field(f, t[i].note);
		fputc('\n', f);
	}
}

static void cp_cli_csv_tab(FILE *f, const struct cp_cli_tab *t)
{
	size_t i, j;

	fputs("\nsection", f);
	for (j = 0; j < t->ncols; j++)
		cp_cli_csv_field(f, t->cols[j]);
	fputc('\n', f);
	for (i = 0; i < t->nrows; i++) {
		fputs(t->name, f);
		for (j = 0; j < t->ncols; j++)
			cp_cli_csv_field(f, cp_cli_at(t, i, j)->raw);
		fputc('\n', f);
	}
}

int cp_cli_tabs_print(FILE *f, enum cp_cli_fmt fmt,
		      const struct cp_cli_tab *t, size_t n, size_t width)
{
	size_t i;

	switch (fmt) {
	case CP_CLI_FMT_TEXT:
		cp_cli_text_kv(f, &t[0], width);
		for (i = 1; i < n; i++)
			cp_cli_text_tab(f, &t[i], width);
		break;
	case CP_CLI_FMT_MD:
		cp_cli_md_kv(f, &t[0]);
		for (i = 1; i < n; i++)
			cp_cli_md_tab(f, &t[i]);
		break;
	case CP_CLI_FMT_JSON:
		cp_cli_json(f, t, n);
		break;
	case CP_CLI_FMT_CSV:
		cp_cli_csv_kv(f, t, n);
		for (i = 1; i < n; i++)
			cp_cli_csv_tab(f, &t[i]);
		break;
	}
	return ferror(f) ? -1 : 0;
}
