/*
 * cli_html_params.c - a parameter file in the HTML pages (cli_views.h):
 * the page of "commprof params show --format html", and the calibrated
 * link rates on the page of a run.  Apart from cli_html_report.c so that
 * "params show" links without the database.
 */
#include <stdio.h>

#include "src/common/cp_json.h"
#include "src/common/cp_params.h"
#include "src/cli/cli_views.h"

/* The calibrated parameters (LMO's link rates) or why there are none. */
void cp_cli_html_links(FILE *f, const char *path)
{
	struct cp_params *p;
	char err[512];

	fputs("\"params\": ", f);
	if (!path) {
		fputs("null, \"params_note\": \"the run was not recorded with "
		      "one parameter file (COMMPROF_PARAMS)\"", f);
		return;
	}
	if (cp_params_load(path, &p, err, sizeof(err))) {
		fputs("null, \"params_note\": ", f);
		cp_json_str(f, err);
		return;
	}
	cp_params_print_json(p, f);
	cp_params_free(p);
	fputs(", \"params_note\": ", f);
	cp_json_str(f, path);
}

int cp_cli_html_params(FILE *f, void *arg)
{
	fputs("{", f);
	cp_cli_html_links(f, arg);
	fputs("}\n", f);
	return 0;
}
