/*
 * cp_params_show.c - "commprof params show FILE [--format text|json|html]":
 * print a parameter file (src/common/cp_params.h) for people or for
 * scripts, or draw it as one HTML page (src/cli/cli_html.c).
 * Exit 0, 1 on an unreadable file (one line "commprof: FILE:LINE: what"),
 * 2 on a bad command line.
 */
#include <stdio.h>
#include <string.h>

#include "src/common/cp_params.h"
#include "src/cli/cli_views.h"
#include "src/cli/cp_params_show.h"

static int usage(const char *what)
{
	fprintf(stderr, "commprof: %s; usage: commprof params show FILE "
		"[--format text|json|html]\n", what);
	return 2;
}

/* The page of file path on standard output.  Returns 0, 1 after one
 * line (no charting library), or -1 on a write error. */
static int cp_params_show_html(const char *path)
{
	char title[4200];
	int rc;

	snprintf(title, sizeof(title), "commprof parameters of %s", path);
	rc = cp_cli_html_page(stdout, title, "params", cp_cli_html_params,
			      (void *)path);
	return rc > 0 ? 1 : rc;
}

int cp_params_show_main(int argc, char **argv)
{
	const char *path = NULL, *fmt = "text";
	struct cp_params *p;
	char err[512];
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			fmt = argv[++i];
		else if (!strncmp(argv[i], "--format=", 9))
			fmt = argv[i] + 9;
		else if (argv[i][0] == '-' || path)
			return usage("bad argument");
		else
			path = argv[i];
	}
	if (!path)
		return usage("missing FILE");
	if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "html"))
		return usage("--format must be text, json or html");
	if (cp_params_load(path, &p, err, sizeof(err))) {
		fprintf(stderr, "commprof: %s\n", err);
		return 1;
	}
	if (!strcmp(fmt, "html"))
		rc = cp_params_show_html(path);
	else if (!strcmp(fmt, "json"))
		rc = cp_params_print_json(p, stdout);
	else
		rc = cp_params_print(p, stdout);
	cp_params_free(p);
	if (rc > 0)
		return 1;
	if (rc || fflush(stdout)) {
		fprintf(stderr, "commprof: cannot write the output\n");
		return 1;
	}
	return 0;
}
