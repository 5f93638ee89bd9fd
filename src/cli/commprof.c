/*
 * commprof.c - the commprof command-line tool: reads the output directory
 * that the profiling library wrote (one SQLite file per rank) and prints a
 * summary, a report of the predictions, or exports every recorded call.
 * Usage errors exit 2, other failures 1, each with one "commprof: ..."
 * line on stderr.  This file only reads the command line and hands it to
 * a subcommand (cli_summary.c, cli_export.c, cli_report.c, cli_replay.c,
 * cp_params_show.c); what they share is in cli_io.c and cli_open.c.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "analysis/cp_stats.h"
#include "src/cli/cli.h"
#include "src/cli/cp_params_show.h"

static const char cp_cli_usage_text[] =
"usage: commprof <command> [arguments]\n"
"\n"
"commands:\n"
"  summary DIR [--top N]\n"
"        totals, the N (default 20) callsites with the most MPI time,\n"
"        per-class and per-function totals of the run recorded in DIR\n"
"  export DIR [--format csv|json] [-o FILE]\n"
"        one record per recorded call (CSV by default) on stdout or FILE\n"
"  report DIR [--format text|markdown|json|csv|html] [--top N]\n"
"         [--wide] [-o FILE]\n"
"        how far each model's predictions are off (mu_bar, median, p90\n"
"        per model, op and size class), where MPI time goes, strided\n"
"        sends dominated by middleware with the savings of packing, and\n"
"        the N (default 10) worst-predicted calls per model; text ends\n"
"        its lines by column 120 unless --wide; html: one self-contained\n"
"        page of charts (communication matrix, measured against\n"
"        predicted, mu per size and op, callsites, strided sends,\n"
"        timeline, links, ranks), each with its table\n"
"  replay DIR [--model plogpt] [--params FILE]\n"
"        the run's point-to-point calls replayed under PlogPT: each\n"
"        rank's predicted time against the measured one, and the sends\n"
"        that drew a TCP retransmission timeout; FILE defaults to the\n"
"        run's COMMPROF_PARAMS\n"
"  runs DIR\n"
"        the runs recorded in DIR, oldest first, and which is the latest\n"
"  params show FILE [--format text|json|html]\n"
"        every model parameter of a calibration file with its interval\n"
"        (made by commprof-calibrate, see commprof-params(5)); html: one\n"
"        page that draws the LMO link rates, the scatter and gather\n"
"        thresholds and the log3P tables\n"
"  help, --help, -h\n"
"        this text\n"
"  --version\n"
"        the version of commprof\n"
"\n"
"DIR is an output directory (COMMPROF_DIR): each run writes one\n"
"rank-NNNNN.db per rank into a directory of its own in it,\n"
"run-YYYYMMDD_HHMMSS_mmm, merged into commprof.db there when needed.\n"
"Commands read the latest run; DIR@N reads run N of 'commprof runs DIR',\n"
"and a run's own directory may be given too.\n"
"\"mpirun -np K commprof report DIR\" reduces the run on K MPI ranks\n"
"(commprof-mpi; COMMPROF_MPI=0: never, 1: always).\n"
"\n"
"profiling: LD_PRELOAD=libcommprof.so mpirun ... (see commprof(1))\n"
"environment of the profiled run (see commprof-env(7)):\n"
"  COMMPROF_DIR       output directory, default ./commprof-out relative to\n"
"                     each rank's working directory; a run writes into\n"
"                     its own run-* directory in it\n"
"  COMMPROF_MAX_ROWS  call rows kept per rank, default 1000000;\n"
"                     0 keeps aggregates only\n"
"  COMMPROF_SAMPLE    keep about one call row in N, the same messages\n"
"                     at both ends, default 1 (all)\n"
"  COMMPROF_FLUSH_MS  how often aggregates and counts are written (rows\n"
"                     go as they come), milliseconds, default 1000\n"
"  COMMPROF_RING      calls a thread's ring holds, a power of two,\n"
"                     default 65536\n"
"  COMMPROF_FINALIZE_MS  budget of the job's own reduction at\n"
"                     MPI_Finalize, default 10000; 0: none\n"
"  COMMPROF_FLUSH_CPU  where the flusher runs: socket (default: any CPU\n"
"                     of a bound rank's sockets) or rank (its own CPUs)\n"
"  COMMPROF_STACK     which caller is a call's callsite: 1 (the\n"
"                     caller of MPI_X, default) to 16\n"
"  COMMPROF_DISABLE   1: load but record nothing\n"
"  COMMPROF_PARAMS    model parameter file: each call is predicted by\n"
"                     every calibrated model (see commprof report)\n"
"a bad value gives one warning line and the default.\n";

static int cp_cli_help(void)
{
	fputs(cp_cli_usage_text, stdout);
	return fflush(stdout) ? CP_CLI_FAIL : CP_CLI_OK;
}

/* cmd is one of commprof's commands. */
static bool known(const char *cmd)
{
	static const char *const cmds[] = { "summary", "export", "runs",
		"report", "replay", "params" };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmd, cmds[i]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	cp_stats_init();
	cp_cli_mpi_dispatch(argv);
	if (!cmd) {
		cp_cli_err("missing command; try 'commprof --help'");
		return CP_CLI_USAGE;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
	    !strcmp(cmd, "-h"))
		return cp_cli_help();
	if (!strcmp(cmd, "--version")) {
		printf("commprof %s\n", PACKAGE_VERSION);
		return CP_CLI_OK;
	}
	/* "commprof report --help": the usage, as git and mpirun do */
	for (int i = 2; known(cmd) && i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return cp_cli_help();
	if (!strcmp(cmd, "summary"))
		return cp_cli_summary(argc - 1, argv + 1);
	if (!strcmp(cmd, "export"))
		return cp_cli_export(argc - 1, argv + 1);
	if (!strcmp(cmd, "runs"))
		return cp_cli_runs(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cp_cli_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "replay"))
		return cp_cli_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "params") && argc > 2 && !strcmp(argv[2], "show"))
		return cp_params_show_main(argc - 2, argv + 2);
	if (!strcmp(cmd, "params")) {
		cp_cli_err("params: expected 'show FILE'; try 'commprof "
			   "--help'");
		return CP_CLI_USAGE;
	}
	cp_cli_err("unknown command '%s'; try 'commprof --help'", cmd);
	return CP_CLI_USAGE;
}
