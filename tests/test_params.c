/*
 * test_params.c - "test_params show FILE [--format F]" runs
 * cp_params_show_main as "commprof params show" will; "test_params
 * roundtrip IN OUT" loads IN and writes it again to OUT (the reader and
 * writer must agree byte for byte on a file the writer made).
 */
#include <stdio.h>
#include <string.h>

#include "src/common/cp_params.h"
#include "src/cli/cp_params_show.h"

static int roundtrip(const char *in, const char *out)
{
	struct cp_params *p;
	char err[512];
	FILE *f;
	int rc;

	if (cp_params_load(in, &p, err, sizeof(err))) {
		fprintf(stderr, "commprof: %s\n", err);
		return 1;
	}
	f = fopen(out, "w");
	if (!f) {
		cp_params_free(p);
		return 1;
	}
	rc = cp_params_write(p, f);
	rc |= fclose(f);
	cp_params_free(p);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "show"))
		return cp_params_show_main(argc - 1, argv + 1);
	if (argc == 4 && !strcmp(argv[1], "roundtrip"))
		return roundtrip(argv[2], argv[3]);
	fprintf(stderr, "usage: test_params show FILE [--format F] | "
		"roundtrip IN OUT\n");
	return 2;
}
