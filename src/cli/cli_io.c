/*
 * cli_io.c - messages and output files of every commprof subcommand
 * (src/cli/cli.h).  Uses nothing else of the tool.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/cli/cli.h"

void cp_cli_err(const char *fmt, ...)
{
	va_list ap;

	fputs("commprof: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cp_cli_bad_arg(const char *cmd, const char *arg, const char *valued)
{
	char key[104];

	/* a word of valued: the option came last, without its value */
	snprintf(key, sizeof(key), " %.100s ", arg);
	if (strlen(arg) <= 100 && strstr(valued, key))
		cp_cli_err("%s: missing the value of '%s'; try 'commprof "
			   "--help'", cmd, arg);
	else
		cp_cli_err("%s: unexpected argument '%s'; try 'commprof "
			   "--help'", cmd, arg);
	return CP_CLI_USAGE;
}

const char *cp_cli_strerror(int e)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "%s", strerror(e));
	buf[0] = tolower((unsigned char)buf[0]);
	return buf;
}

FILE *cp_cli_out_open(const char *path)
{
	FILE *f = path ? fopen(path, "w") : stdout;

	if (!f)
		cp_cli_err("cannot open %s: %s", path, cp_cli_strerror(errno));
	return f;
}

int cp_cli_out_close(FILE *f, const char *path, bool wrote_ok, bool quiet)
{
	if (!(path ? fclose(f) : fflush(f)) && wrote_ok)
		return 0;
	if (!quiet)
		cp_cli_err("cannot write %s: %s",
			   path ? path : "standard output",
			   cp_cli_strerror(errno));
	return CP_CLI_FAIL;
}
