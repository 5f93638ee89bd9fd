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

static void cp_cli_text_kv(FILE *f, const struct cp_cli_tab *t)
{
	size_t i, w = 0;

	for (i = 0; i < t->nrows; i++)
		if (strlen(cp_cli_txt(cp_cli_at(t, i, 0))) > w)
			w = strlen(cp_cli_txt(cp_cli_at(t, i, 0)));
	fprintf(f, "%s\n", t->title);
	for (i = 0; i < t->nrows; i++)
		fprintf(f, "%s:%*s %s\n", cp_cli_txt(cp_cli_at(t, i, 0)),
			(int)(w - strlen(cp_cli_txt(cp_cli_at(t, i, 0)))), "",
			cp_cli_txt(cp_cli_at(t, i, 1)));
}

/* A column is right-aligned when its first row holds a number. */
static bool cp_cli_right(const struct cp_cli_tab *t, size_t col)
{
	return t->nrows && !cp_cli_at(t, 0, col)->str;
}

static void cp_cli_text_line(FILE *f, const struct cp_cli_tab *t,
			     const size_t *w, size_t row)
{
	const char *s;
	size_t j;
	int pad;

	for (j = 0; j < t->ncols; j++) {
		s = row == (size_t)-1 ? t->heads[j] :
		    cp_cli_txt(cp_cli_at(t, row, j));
		pad = (int)(w[j] - strlen(s));
		if (cp_cli_right(t, j))
			fprintf(f, "%s%*s%s", j ? "  " : "", pad, "", s);
		else if (j + 1 < t->ncols)
			fprintf(f, "%s%s%*s", j ? "  " : "", s, pad, "");
		else
			fprintf(f, "%s%s", j ? "  " : "", s);
	}
	fputc('\n', f);
}

static void cp_cli_text_tab(FILE *f, const struct cp_cli_tab *t)
{
	size_t i, j, l, *w;

	fprintf(f, "\n%s\n", t->title);
	if (t->note)
		fprintf(f, "  %s\n", t->note);
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
	cp_cli_text_line(f, t, w, (size_t)-1);
	for (i = 0; i < t->nrows; i++)
		cp_cli_text_line(f, t, w, i);
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
		      const struct cp_cli_tab *t, size_t n)
{
	size_t i;

	switch (fmt) {
	case CP_CLI_FMT_TEXT:
		cp_cli_text_kv(f, &t[0]);
		for (i = 1; i < n; i++)
			cp_cli_text_tab(f, &t[i]);
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
