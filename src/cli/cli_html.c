/*
 * cli_html.c - one self-contained HTML page (cli_views.h): the charting
 * library, the page's script and style (src/cli/cli_html.js and .css,
 * built into the program as src/cli/cli_html_gen.h) and the data, all
 * inline, so that the page opens without a network on a laptop after
 * being copied off a cluster.
 *
 * The library is Chart.js, from Debian's libjs-chart.js: one 200 KB file
 * that draws scatter plots on log axes, bars, floating bars (the
 * timeline) and, through its scriptable point styles, the heat maps.
 * Debian's vega comes as some thirty module files without a bundle, d3 is
 * a drawing toolkit (the charts would be ours), and plotly.js (8.6 MB in
 * python3-plotly) would dwarf the data.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "src/cli/cli_views.h"
#include "src/cli/cli_html_gen.h"
#include "src/common/cp_json.h"

/* Where Debian (libjs-chart.js, node-chart.js) and npm put Chart.js. */
static const char *const cp_cli_html_places[] = {
	"/usr/share/javascript/chart.js/chart.min.js",
	"/usr/share/javascript/chart.js/chart.umd.js",
	"/usr/share/nodejs/chart.js/dist/chart.umd.js",
	"/usr/share/nodejs/chart.js/dist/chart.min.js",
	"/usr/local/lib/node_modules/chart.js/dist/chart.umd.js",
	"/usr/lib/node_modules/chart.js/dist/chart.umd.js",
};

static bool cp_cli_html_is_file(const char *path)
{
	struct stat st;

	return path && *path && !stat(path, &st) && S_ISREG(st.st_mode);
}

/* cp_cli_html_lib without the line: *tried lists what was looked at
 * when it returns NULL (a static buffer). */
static const char *cp_cli_html_find(const char **tried)
{
	static char buf[2048];
	const char *env = getenv("COMMPROF_CHARTJS");
	size_t i, l;

	if (env && *env) {
		snprintf(buf, sizeof(buf), "%s (COMMPROF_CHARTJS)", env);
		*tried = buf;
		return cp_cli_html_is_file(env) ? env : NULL;
	}
	if (cp_cli_html_is_file(CP_CHARTJS_PATH))
		return CP_CHARTJS_PATH;
	l = (size_t)snprintf(buf, sizeof(buf), "%s", CP_CHARTJS_PATH);
	for (i = 0; i < sizeof(cp_cli_html_places) /
		    sizeof(cp_cli_html_places[0]); i++) {
		if (cp_cli_html_is_file(cp_cli_html_places[i]))
			return cp_cli_html_places[i];
		if (l < sizeof(buf))
			l += (size_t)snprintf(buf + l, sizeof(buf) - l, ", %s",
					      cp_cli_html_places[i]);
	}
	*tried = buf;
	return NULL;
}

const char *cp_cli_html_lib(void)
{
	const char *tried = "", *path = cp_cli_html_find(&tried);

	if (!path)
		cp_cli_err("no Chart.js to draw the page (looked at %s); "
			   "install Debian's libjs-chart.js or set "
			   "COMMPROF_CHARTJS", tried);
	return path;
}

/* The whole file at path, NUL-terminated, into *out (malloc'ed) and its
 * length into *n.  Returns 0 or an errno value. */
static int cp_cli_html_slurp(const char *path, char **out, size_t *n)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 18, k;
	char *b = NULL, *nb;
	int e = 0;

	*out = NULL;
	*n = 0;
	if (!f)
		return errno;
	for (;;) {
		nb = realloc(b, cap + 1);
		if (!nb) {
			e = ENOMEM;
			break;
		}
		b = nb;
		k = fread(b + *n, 1, cap - *n, f);
		*n += k;
		if (*n < cap)
			break;
		cap *= 2;
	}
	if (!e && ferror(f))
		e = EIO;
	fclose(f);
	if (e) {
		free(b);
		return e;
	}
	b[*n] = '\0';
	*out = b;
	return 0;
}

/* True when s[0..n) holds "</script" in any case: it would end the
 * element that inlines it. */
static bool cp_cli_html_ends_script(const char *s, size_t n)
{
	static const char tag[] = "</script";
	size_t i, j;

	for (i = 0; i + sizeof(tag) - 1 <= n; i++) {
		for (j = 0; j < sizeof(tag) - 1; j++)
			if (tolower((unsigned char)s[i + j]) != tag[j])
				break;
		if (j == sizeof(tag) - 1)
			return true;
	}
	return false;
}

int cp_cli_html_json(FILE *f, const char *s, size_t n)
{
	size_t i, a = 0;

	for (i = 0; i < n; i++) {
		if (s[i] != '<')
			continue;
		fwrite(s + a, 1, i - a, f);
		fputs("\\u003c", f);
		a = i + 1;
	}
	fwrite(s + a, 1, n - a, f);
	return ferror(f) ? -1 : 0;
}

/* text with &, <, > and " as entities. */
static void cp_cli_html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* The data as JSON into a buffer, then into f escaped.  Returns 0,
 * CP_CLI_FAIL (write_data said why) or -1 (a write to f failed). */
static int cp_cli_html_data(FILE *f, const char *title, const char *kind,
			    int (*write_data)(FILE *f, void *arg), void *arg)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m;
	int ret;

	m = open_memstream(&buf, &n);
	if (!m) {
		cp_cli_err("out of memory");
		return CP_CLI_FAIL;
	}
	fprintf(m, "{\"kind\": \"%s\", \"title\": ", kind);
	cp_json_str(m, title);
	fputs(", \"data\": ", m);
	ret = write_data(m, arg);
	fputs("}", m);
	if (fclose(m) && !ret) {
		cp_cli_err("out of memory");
		ret = CP_CLI_FAIL;
	}
	if (!ret)
		ret = cp_cli_html_json(f, buf, n);
	else
		ret = CP_CLI_FAIL;
	free(buf);
	return ret;
}

int cp_cli_html_page(FILE *f, const char *title, const char *kind,
		     int (*write_data)(FILE *f, void *arg), void *arg)
{
	const char *path;
	char *lib;
	size_t n;
	int e, ret;

	path = cp_cli_html_lib();
	if (!path)
		return CP_CLI_FAIL;
	e = cp_cli_html_slurp(path, &lib, &n);
	if (e) {
		cp_cli_err("cannot read %s: %s", path, cp_cli_strerror(e));
		return CP_CLI_FAIL;
	}
	if (cp_cli_html_ends_script(lib, n)) {
		cp_cli_err("cannot inline %s: it holds </script>", path);
		free(lib);
		return CP_CLI_FAIL;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head>"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>", f);
	cp_cli_html_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n<script>\n",
		cp_cli_html_css);
	fwrite(lib, 1, n, f);
	free(lib);
	fprintf(f, "\n</script>\n</head>\n<body>\n<script type=\"application/"
		"json\" id=\"cp-data\">");
	ret = cp_cli_html_data(f, title, kind, write_data, arg);
	if (ret)
		return ret;
	fprintf(f, "</script>\n<script>\n%s</script>\n</body></html>\n",
		cp_cli_html_js);
	return ferror(f) ? -1 : 0;
}
