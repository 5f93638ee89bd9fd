/*
 * flush_cpu.c - where commprof's flusher may run (tests/test_flush_cpu.sh).
 * Before MPI_Init the main thread binds itself to the first CPU it may
 * use, as a launcher binds a rank, or with the argument "nobind" to
 * every CPU (a launcher's binding undone: the kernel keeps the job's
 * cpuset); it then prints that CPU and the CPUs (Cpus_allowed_list) of the main
 * thread and of the thread named "commprof" (the flusher; "none" when
 * there is no such thread).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Cpus_allowed_list of task tid into out ("?" unreadable). */
static void cpus_of(const char *tid, char *out, size_t len)
{
	char path[64], line[512];
	FILE *f;

	snprintf(out, len, "?");
	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Cpus_allowed_list: %511s", out) == 1)
			break;
	fclose(f);
}

/* The task id of the thread named name into out, or 0 when none. */
static int task_named(const char *name, char *out, size_t len)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	char path[300], comm[64];
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			if (!strcmp(comm, name)) {
				snprintf(out, len, "%s", e->d_name);
				found = 1;
			}
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	cpu_set_t s;
	char tid[32], main_cpus[512], fl_cpus[512] = "none", self[32];
	int first = -1;

	if (sched_getaffinity(0, sizeof(s), &s))
		return 1;
	for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
		if (CPU_ISSET(c, &s))
			first = c;
	CPU_ZERO(&s);
	if (argc < 2 || strcmp(argv[1], "nobind"))
		CPU_SET(first, &s);
	else			/* every CPU the job's cpuset allows */
		for (int c = 0; c < CPU_SETSIZE; c++)
			CPU_SET(c, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		return 1;
	MPI_Init(&argc, &argv);
	MPI_Send(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
	usleep(300000);		/* the flusher places itself as it starts */
	snprintf(self, sizeof(self), "%d", (int)getpid());
	cpus_of(self, main_cpus, sizeof(main_cpus));
	if (task_named("commprof", tid, sizeof(tid)))
		cpus_of(tid, fl_cpus, sizeof(fl_cpus));
	printf("first %d\nmain %s\nflusher %s\n", first, main_cpus, fl_cpus);
	MPI_Finalize();
	return 0;
}
