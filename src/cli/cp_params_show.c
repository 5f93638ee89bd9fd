/*
 * cp_params_show.c - "commprof params show FILE [--format text|json]":
 * print a parameter file (src/common/cp_params.h) for people or for scripts.
 * Exit 0, 1 on an unreadable file (one line "commprof: FILE:LINE: what"),
 * 2 on a bad command line.
 */
#include <stdio.h>
#include <string.h>

#include "src/common/cp_params.h"
#include "src/cli/cp_params_show.h"

static int usage(const char *what)
{
	fprintf(stderr, "commprof: %s; usage: commprof params show FILE "
		"[--format text|json]\n", what);
	return 2;
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
	if (strcmp(fmt, "text") && strcmp(fmt, "json"))
		return usage("--format must be text or json");
	if (cp_params_load(path, &p, err, sizeof(err))) {
		fprintf(stderr, "commprof: %s\n", err);
		return 1;
	}
	if (!strcmp(fmt, "json"))
		rc = cp_params_print_json(p, stdout);
	else
		rc = cp_params_print(p, stdout);
	cp_params_free(p);
	if (rc || fflush(stdout)) {
		fprintf(stderr, "commprof: cannot write the output\n");
		return 1;
	}
	return 0;
}
