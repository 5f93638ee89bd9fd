/*
 * cli_open.c - how every subcommand opens a run's output directory
 * (src/cli/cli.h): merged when needed, and the merge matched
 * (cli_match.c).
 */
#include "db/cp_db_read.h"
#include "src/cli/cli.h"

static void cp_cli_warn(void *arg, const char *msg)
{
	(void)arg;
	cp_cli_err("%s", msg);
}

int cp_cli_open(const char **dir, struct cp_db **db)
{
	static char run[4200];

	if (cp_cli_run_dir(*dir, run, sizeof(run)))
		return CP_CLI_FAIL;
	*dir = run;
	if (!cp_db_open_dir(run, cp_cli_warn, cp_cli_match, NULL, db))
		return 0;
	cp_cli_err("%s", cp_db_errmsg(NULL));
	return CP_CLI_FAIL;
}
