/*
 * cli_mpi.c - "mpirun -np K commprof report DIR": started by an MPI
 * launcher as one of several processes, commprof hands itself over to
 * commprof-mpi beside it (src/mpicli/commprof_mpi.c), the MPI form that
 * reduces the run on the K ranks and then runs this program again on
 * rank 0 with COMMPROF_MPI=0.  The run that DIR names (its latest run,
 * DIR@N) is resolved here, on every rank, and handed over as
 * COMMPROF_MPI_RUN and as DIR of the command line.  This file knows no
 * MPI: it reads the launcher's environment and the name of its parent
 * process.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/cli/cli.h"

/* The value of the first of the launcher variables names that is set,
 * else dflt. */
static long cp_cli_mpi_env(const char *const *names, long dflt)
{
	const char *v;

	for (; *names; names++) {
		v = getenv(*names);
		if (v && *v)
			return strtol(v, NULL, 10);
	}
	return dflt;
}

/* True when the parent process is an MPI launcher's (mpirun and its
 * variants such as mpirun.openmpi, its daemons, Hydra's proxy, Slurm's
 * step daemon): a process that merely inherited a rank's environment
 * (an application's system()) must not start MPI again. */
static bool cp_cli_mpi_parent(void)
{
	static const char *const launchers[] = {
		"mpirun", "mpiexec", "orterun", "orted", "prted", "prterun",
		"hydra_pmi_proxy", "slurmstepd", NULL
	};
	char path[64], name[64] = "";
	const char *const *l;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)getppid());
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(name, sizeof(name), f))
		name[0] = '\0';
	fclose(f);
	name[strcspn(name, "\n")] = '\0';
	for (l = launchers; *l; l++)
		if (!strncmp(name, *l, strlen(*l)))
			return true;
	return false;
}

/* The index in argv of the run directory of a command line: the first
 * argument of summary, report or export that is neither an option nor an
 * option's value; 0 when there is none. */
static int cp_cli_mpi_dir(char **argv)
{
	static const char *const valued[] = { "--format", "-o", "--output",
					      "--top" };
	size_t k;
	int i;

	if (!argv[1] || (strcmp(argv[1], "summary") &&
			 strcmp(argv[1], "report") && strcmp(argv[1], "export")))
		return 0;
	for (i = 2; argv[i]; i++) {
		for (k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
			if (!strcmp(argv[i], valued[k]))
				break;
		if (k < sizeof(valued) / sizeof(valued[0]) && argv[i + 1])
			i++;
		else if (argv[i][0] != '-')
			return i;
	}
	return 0;
}

/* The run that argv[i] names (cp_cli_run_dir), into run; every rank
 * resolves it, rank 0 alone says why it cannot. */
static int cp_cli_mpi_run(const char *arg, long rank, char *run, size_t len)
{
	int err = -1, null, ret;

	if (rank) {
		fflush(stderr);
		err = dup(STDERR_FILENO);
		null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	ret = cp_cli_run_dir(arg, run, len);
	if (err >= 0) {
		dup2(err, STDERR_FILENO);
		close(err);
	}
	return ret;
}

void cp_cli_mpi_dispatch(char **argv)
{
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE",
					     "PMI_SIZE", "PMIX_SIZE", NULL };
	static const char *const ranks[] = { "OMPI_COMM_WORLD_RANK",
					     "PMI_RANK", "PMIX_RANK", NULL };
	static char run[4200];
	const char *force = getenv("COMMPROF_MPI");
	long rank = cp_cli_mpi_env(ranks, 0);
	char self[PATH_MAX], *slash;
	ssize_t n = 0;
	int i;

	if ((force && !strcmp(force, "0")) ||
	    cp_cli_mpi_env(sizes, 1) <= 1 ||
	    (!(force && !strcmp(force, "1")) && !cp_cli_mpi_parent()))
		return;
	i = cp_cli_mpi_dir(argv);
	if (i && cp_cli_mpi_run(argv[i], rank, run, sizeof(run)))
		exit(CP_CLI_FAIL);	/* rank 0 said why */
	if (i) {
		/* commprof-mpi reduces that run, and gives argv (with the
		 * run's own directory) to the plain commprof on rank 0 */
		argv[i] = run;
		n = readlink("/proc/self/exe", self, sizeof(self) - 16);
	}
	if (n > 0 && !setenv("COMMPROF_MPI_RUN", run, 1)) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		strcpy(slash ? slash + 1 : self, "commprof-mpi");
		argv[0] = self;
		execv(self, argv);
	}
	/* nothing to reduce, or no MPI form: one process does the work,
	 * the others are done */
	if (rank != 0)
		exit(CP_CLI_OK);
	if (i)
		cp_cli_err("cannot run commprof-mpi (%s); working on one "
			   "process", n > 0 ? cp_cli_strerror(errno) :
			   "no /proc/self/exe");
}
