/*
 * cli_mpi.c - "mpirun -np K commprof report DIR": started by an MPI
 * launcher as one of several processes, commprof hands itself over to
 * commprof-mpi beside it (src/mpicli/commprof_mpi.c), the MPI form that
 * reduces the run on the K ranks and then runs this program again on
 * rank 0 with COMMPROF_MPI=0.  This file knows no MPI: it reads the
 * launcher's environment and the name of its parent process.
 */
#include <errno.h>
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

void cp_cli_mpi_dispatch(char **argv)
{
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE",
					     "PMI_SIZE", "PMIX_SIZE", NULL };
	static const char *const ranks[] = { "OMPI_COMM_WORLD_RANK",
					     "PMI_RANK", "PMIX_RANK", NULL };
	const char *force = getenv("COMMPROF_MPI");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if ((force && !strcmp(force, "0")) ||
	    cp_cli_mpi_env(sizes, 1) <= 1 ||
	    (!(force && !strcmp(force, "1")) && !cp_cli_mpi_parent()))
		return;
	n = readlink("/proc/self/exe", self, sizeof(self) - 16);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		strcpy(slash ? slash + 1 : self, "commprof-mpi");
		argv[0] = self;
		execv(self, argv);
	}
	/* no MPI form: one process does the work, the others are done */
	if (cp_cli_mpi_env(ranks, 0) != 0)
		exit(CP_CLI_OK);
	cp_cli_err("cannot run commprof-mpi (%s); working on one process",
		   n > 0 ? cp_cli_strerror(errno) : "no /proc/self/exe");
}
