/*
 * cli_runs.c - which run of an output directory a command reads, and the
 * runs subcommand (src/cli/cli.h).
 *
 * The library writes each run into a directory of its own,
 * DIR/run-YYYYMMDD_HHMMSS_mmm (src/lib/cp_rt.c), so the names sort in
 * start order.  A directory written before runs had directories of their
 * own holds its rank files itself: it is a run too, older than every
 * run-* directory in it.  Runs are numbered from 1, oldest first; a
 * command reads the latest unless DIR@N (or DIR@run-...) names another.
 * Only names are read here, never a rank file.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"

/* The runs of one directory, oldest first; name "" is the directory. */
struct cp_cli_runs {
	char **name;
	int *ranks;			/* rank files in each */
	int n;
};

static bool cp_cli_is_rank_file(const char *s)
{
	size_t n = strlen(s);

	return (!strncmp(s, "rank-", 5) && n > 8 &&
		!strcmp(s + n - 3, ".db")) || !strcmp(s, "commprof.db");
}

static bool cp_cli_is_run_name(const char *s)
{
	return !strncmp(s, "run-", 4) && !strchr(s, '/');
}

/* Rank files in dir (commprof.db alone counts as one); -1 if unreadable. */
static int cp_cli_rank_files(const char *dir)
{
	struct dirent *de;
	int n = 0, merged = 0;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!cp_cli_is_rank_file(de->d_name))
			continue;
		if (!strcmp(de->d_name, "commprof.db"))
			merged = 1;
		else
			n++;
	}
	closedir(d);
	return n ? n : merged;
}

static int cp_cli_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void cp_cli_runs_free(struct cp_cli_runs *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->name[i]);
	free(r->name);
	free(r->ranks);
}

static int cp_cli_runs_add(struct cp_cli_runs *r, const char *name, int k)
{
	char **nn = realloc(r->name, (r->n + 1) * sizeof(*nn));
	int *nk = nn ? realloc(r->ranks, (r->n + 1) * sizeof(*nk)) : NULL;

	if (nn)
		r->name = nn;
	if (!nk)
		return -ENOMEM;
	r->ranks = nk;
	r->name[r->n] = strdup(name);
	if (!r->name[r->n])
		return -ENOMEM;
	r->ranks[r->n++] = k;
	return 0;
}

/* The runs of dir, oldest first.  0, or -errno (dir unreadable). */
static int cp_cli_runs_scan(const char *dir, struct cp_cli_runs *r)
{
	char path[4096];
	struct dirent *de;
	int k, rc = 0;
	DIR *d;

	memset(r, 0, sizeof(*r));
	d = opendir(dir);
	if (!d)
		return -errno;
	while (!rc && (de = readdir(d))) {
		if (!cp_cli_is_run_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		k = cp_cli_rank_files(path);
		if (k > 0)
			rc = cp_cli_runs_add(r, de->d_name, k);
	}
	closedir(d);
	if (!rc && r->n)
		qsort(r->name, r->n, sizeof(*r->name), cp_cli_cmp);
	/* the ranks follow their names: count again in sorted order */
	for (int i = 0; !rc && i < r->n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, r->name[i]);
		r->ranks[i] = cp_cli_rank_files(path);
	}
	k = cp_cli_rank_files(dir);
	if (!rc && k > 0) {
		rc = cp_cli_runs_add(r, "", k);
		if (!rc) {	/* the flat run is the oldest */
			char *flat = r->name[r->n - 1];

			memmove(r->name + 1, r->name,
				(r->n - 1) * sizeof(*r->name));
			memmove(r->ranks + 1, r->ranks,
				(r->n - 1) * sizeof(*r->ranks));
			r->name[0] = flat;
			r->ranks[0] = k;
		}
	}
	return rc;
}

/* Split "DIR@SEL" into dir (in buf) and sel; sel NULL when arg names no
 * run, or is itself a directory. */
static const char *cp_cli_split(const char *arg, char *buf, size_t len)
{
	const char *at = strrchr(arg, '@'), *s;
	DIR *d;

	snprintf(buf, len, "%s", arg);
	if (!at || !at[1] || strchr(at, '/'))
		return NULL;
	d = opendir(arg);
	if (d) {
		closedir(d);
		return NULL;
	}
	s = at + 1;
	if (!cp_cli_is_run_name(s))
		for (const char *p = s; *p; p++)
			if (!isdigit((unsigned char)*p))
				return NULL;
	buf[at - arg] = '\0';
	return s;
}

int cp_cli_run_dir(const char *arg, char *out, size_t len)
{
	struct cp_cli_runs r;
	char dir[4096];
	const char *sel = cp_cli_split(arg, dir, sizeof(dir));
	int i = -1, rc = cp_cli_runs_scan(dir, &r);

	if (rc) {
		if (sel) {
			cp_cli_err("cannot open %s: %s", dir,
				   cp_cli_strerror(-rc));
			return CP_CLI_FAIL;
		}
		snprintf(out, len, "%s", arg);	/* the reader says why */
		return 0;
	}
	if (!sel) {
		i = r.n - 1;
	} else if (isdigit((unsigned char)*sel)) {
		long n = strtol(sel, NULL, 10);

		if (n >= 1 && n <= r.n)
			i = (int)n - 1;
	} else {
		for (int k = 0; k < r.n; k++)
			if (!strcmp(r.name[k], sel))
				i = k;
	}
	if (sel && i < 0) {
		if (r.n)
			cp_cli_err("no run %s in %s: it has runs 1 to %d "
				   "(commprof runs %s)", sel, dir, r.n, dir);
		else
			cp_cli_err("no run %s in %s: it has no runs", sel,
				   dir);
		cp_cli_runs_free(&r);
		return CP_CLI_FAIL;
	}
	if (i < 0 || !r.name[i][0])
		snprintf(out, len, "%s", dir);
	else
		snprintf(out, len, "%s/%s", dir, r.name[i]);
	cp_cli_runs_free(&r);
	return 0;
}

int cp_cli_runs(int argc, char **argv)
{
	struct cp_cli_runs r;
	int rc;

	if (argc != 2 || argv[1][0] == '-') {
		cp_cli_err("usage: commprof runs DIR");
		return CP_CLI_USAGE;
	}
	rc = cp_cli_runs_scan(argv[1], &r);
	if (rc) {
		cp_cli_err("cannot open %s: %s", argv[1], cp_cli_strerror(-rc));
		return CP_CLI_FAIL;
	}
	printf("runs of %s, oldest first; commands read the latest (*), "
	       "%s@N reads run N\n", argv[1], argv[1]);
	printf("  run  ranks  directory\n");
	for (int i = 0; i < r.n; i++)
		printf("%c %3d  %5d  %s%s%s\n", i == r.n - 1 ? '*' : ' ',
		       i + 1, r.ranks[i], argv[1], r.name[i][0] ? "/" : "",
		       r.name[i]);
	if (!r.n)
		printf("(none: no rank files)\n");
	cp_cli_runs_free(&r);
	return fflush(stdout) ? CP_CLI_FAIL : CP_CLI_OK;
}
