/*
 * fuzz_cli.c - libFuzzer target of the commprof command line
 * (src/cli/commprof.c, built with -Dmain=cp_cli_main): its arguments and the
 * files it reads.  The input is "ARGS\0FILE": ARGS are the words after
 * "commprof" separated by blanks, where "@" stands for the input file;
 * FILE is written as that file: a parameter file for "params ...", else
 * the only rank file of an output directory (rank-00000.db, which the
 * CLI merges into commprof.db), so that summary, report and export read
 * a fuzzed SQLite database.  The words may not name other files ('/' or
 * a leading '.'): everything happens in a scratch directory.  Whatever
 * the input, the tool must return 0, 1 or 2.  Built and run by
 * tests/test_fuzz.sh.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FZ_MAXARGS	12

int cp_cli_main(int argc, char **argv);

/* Once: work in a scratch directory, nothing on stdin or stdout. */
static void fz_init(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/fuzz_cli.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir) || chdir(dir) || mkdir("run", 0700) ||
	    !freopen("/dev/null", "r", stdin) ||
	    !freopen("/dev/null", "w", stdout))
		abort();
}

/* d[0..n) into path, alone: the files of the previous input (its merge,
 * SQLite's journals) are removed. */
static void fz_put(const char *path, const uint8_t *d, size_t n)
{
	static const char *const old[] = {
		"run/commprof.db", "run/commprof.db-wal", "run/commprof.db-shm",
		"run/commprof.db-journal", "run/rank-00000.db-wal",
		"run/rank-00000.db-shm", "run/rank-00000.db-journal" };
	FILE *f;
	size_t i;

	for (i = 0; i < sizeof(old) / sizeof(old[0]); i++)
		unlink(old[i]);
	f = fopen(path, "w");
	if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static int ready;
	char *argv[FZ_MAXARGS + 2], *args, *w, *save = NULL;
	const uint8_t *file;
	const char *path;
	size_t alen;
	int argc = 1, i, rc;

	if (!ready++)
		fz_init();
	file = memchr(d, '\0', n);
	alen = file ? (size_t)(file - d) : n;
	file = file ? file + 1 : d + n;
	args = strndup((const char *)d, alen);
	if (!args)
		abort();
	argv[0] = "commprof";
	for (w = strtok_r(args, " \t\n", &save); w && argc <= FZ_MAXARGS;
	     w = strtok_r(NULL, " \t\n", &save)) {
		if (strchr(w, '/') || w[0] == '.')
			goto out;
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	path = argc > 1 && !strcmp(argv[1], "params") ? "in.params" : "run";
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "@"))
			argv[i] = (char *)path;
	fz_put(path[0] == 'r' ? "run/rank-00000.db" : path, file,
	       (size_t)(d + n - file));
	fflush(stdout);
	rc = cp_cli_main(argc, argv);
	if (rc < 0 || rc > 2) {
		fprintf(stderr, "fuzz_cli: exit status %d\n", rc);
		abort();
	}
out:
	free(args);
	return 0;
}
