/*
 * cp_rt.c - start and end of profiling: set-up after PMPI_Init (the
 * job clock, the rank file, the flusher, signal and exit handling), and
 * the end at MPI_Finalize or MPI_Abort.  The top of the library: it
 * drives every other module, and none calls it.
 *
 * Every failure here ends in one warning line and the application running
 * on unprofiled (cp_warn_once); nothing here may stop the process.
 */
#include "config.h"

#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db/cp_db_write.h"
#include "pmpi/cp_calls_gen.h"
#include "src/lib/cp_comm.h"
#include "src/lib/cp_env.h"
#include "src/lib/cp_fin.h"
#include "src/lib/cp_flush.h"
#include "src/lib/cp_fortran.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_pred_rt.h"
#include "src/lib/cp_rt.h"
#include "src/lib/cp_state.h"
#include "src/lib/cp_time.h"

static int inited, finished, forked;
static int joined;	/* took part in the start-up's collective calls */
static char run_name[64];	/* the run directory's name */
static struct cp_db *db;
static struct sigaction old_term, old_int;

/*
 * Offset of this host's CLOCK_MONOTONIC to rank 0's: ranks that share a
 * node share the clock, so one leader per node measures it against rank
 * 0's leader by ping-pong and keeps the estimate of the fastest of ten
 * round trips (Cristian's method), then tells its node.
 */
static int64_t clock_offset(void)
{
	MPI_Comm node = MPI_COMM_NULL, lead = MPI_COMM_NULL;
	int lr = 0, nl = 0, me = 0;
	int64_t off = 0, best = INT64_MAX, t[2];

	if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, cp_rank,
				 MPI_INFO_NULL, &node) ||
	    PMPI_Comm_rank(node, &lr) ||
	    PMPI_Comm_split(MPI_COMM_WORLD, lr ? MPI_UNDEFINED : 0, cp_rank,
			    &lead))
		return 0;
	if (lead != MPI_COMM_NULL) {
		PMPI_Comm_size(lead, &nl);
		PMPI_Comm_rank(lead, &me);
		for (int i = 1; i < nl; i++)
			for (int k = 0; k < 10; k++) {
				if (me == 0) {
					PMPI_Recv(t, 0, MPI_INT64_T, i, 7, lead,
						  MPI_STATUS_IGNORE);
					t[0] = (int64_t)cp_mono_ns();
					PMPI_Send(t, 1, MPI_INT64_T, i, 7, lead);
				} else if (me == i) {
					int64_t a = (int64_t)cp_mono_ns(), c;

					PMPI_Send(t, 0, MPI_INT64_T, 0, 7, lead);
					PMPI_Recv(t, 1, MPI_INT64_T, 0, 7, lead,
						  MPI_STATUS_IGNORE);
					c = (int64_t)cp_mono_ns();
					if (c - a < best) {
						best = c - a;
						off = t[0] - (a + c) / 2;
					}
				}
			}
		PMPI_Comm_free(&lead);
	}
	PMPI_Bcast(&off, 1, MPI_INT64_T, 0, node);
	PMPI_Comm_free(&node);
	return off;
}

/*
 * The GNU build id of a loaded module, read from its PT_NOTE segments in
 * memory (mapped with the module: no file is opened), as hex into
 * hex[len], "" when it has none.  The CLI compares it with the file it
 * resolves callsites in: a module rebuilt since the run gets
 * module+offset, never another build's line.
 */
static void module_build_id(const struct dl_phdr_info *info, char *hex,
			    size_t len)
{
	hex[0] = '\0';
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		size_t al = ph->p_align == 8 ? 8 : 4, off = 0;
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);

		if (ph->p_type != PT_NOTE)
			continue;
		while (off + sizeof(ElfW(Nhdr)) <= ph->p_memsz) {
			const ElfW(Nhdr) *nh = (const void *)(p + off);
			size_t name = off + sizeof(*nh), desc;
			size_t pad = (nh->n_namesz + al - 1) & ~(al - 1);
			const unsigned char *d;

			desc = name + pad;
			d = (const void *)(p + desc);
			if (desc + nh->n_descsz > ph->p_memsz)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID &&
			    nh->n_namesz == 4 && !memcmp(p + name, "GNU", 4)) {
				for (size_t k = 0; k < nh->n_descsz &&
				     2 * k + 2 < len; k++)
					snprintf(hex + 2 * k, 3, "%02x", d[k]);
				return;
			}
			off = desc + ((nh->n_descsz + al - 1) & ~(al - 1));
		}
	}
}

static int module_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct cp_db_module m = { .base = info->dlpi_addr, .start = UINT64_MAX };
	char exe[PATH_MAX], id[128];
	ssize_t n;

	(void)size;
	module_build_id(info, id, sizeof(id));
	m.build_id = id[0] ? id : NULL;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (a < m.start)
			m.start = a;
		if (a + ph->p_memsz > m.end)
			m.end = a + ph->p_memsz;
	}
	m.path = info->dlpi_name;
	if (!m.path || !*m.path) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0 || *(int *)arg)
			return 0;	/* the vdso or a second nameless one */
		exe[n] = '\0';
		m.path = exe;
		*(int *)arg = 1;
	}
	if (m.start < m.end)
		cp_db_put_modules(db, &m, 1);
	return 0;
}

static void put_modules(void)
{
	int seen_exe = 0;

	dl_iterate_phdr(module_cb, &seen_exe);
}

static void put_meta_int(const char *k, long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	cp_db_put_meta(db, k, s);
}

/* A job started by MPI_Comm_spawn says so: spawned 1 and the size of
 * the job that spawned it (parent_size); its files are its own run. */
static void put_parent(void)
{
	MPI_Comm parent = MPI_COMM_NULL;
	int n = 0;

	if (PMPI_Comm_get_parent(&parent) || parent == MPI_COMM_NULL)
		return;
	put_meta_int("spawned", 1);
	if (!PMPI_Comm_remote_size(parent, &n))
		put_meta_int("parent_size", n);
}

static void put_meta(void)
{
	char host[256] = "", lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	const char *names[] = CP_CALL_NAMES, *kinds[] = CP_CALL_KINDS;
	const char *classes[] = CP_CALL_CLASSES;
	struct timespec now;
	int len = 0;

	gethostname(host, sizeof(host) - 1);
	PMPI_Get_library_version(lib, &len);
	for (char *p = lib; *p; p++)
		if (*p == '\n')
			*p = ' ';
	put_meta_int("rank", cp_rank);
	put_meta_int("size", cp_size);
	put_meta_int("pid", getpid());
	clock_gettime(CLOCK_REALTIME, &now);
	put_meta_int("start_unix_ns", (long long)now.tv_sec * 1000000000 +
				      now.tv_nsec);
	cp_db_put_meta(db, "host", host);
	cp_db_put_meta(db, "run", run_name);
	put_parent();
	cp_db_put_meta(db, "mpi_library", lib);
	cp_db_put_meta(db, "clock", cp_time_tsc ? "tsc" : "monotonic");
	put_meta_int("clock_offset_ns", cp_clock_off_ns);
	put_meta_int("epoch_ns", cp_epoch_ns);
	put_meta_int("init_ns", (long long)cp_init_entry_ns + cp_clock_off_ns -
				cp_epoch_ns);
	put_meta_int("max_rows", (long long)cp_env.max_rows);
	put_meta_int("sample", (long long)cp_env.sample);
	cp_db_put_meta(db, "sample_by", "identity");
	put_meta_int("finished", 0);
	if (cp_env.params[0])
		cp_db_put_meta(db, "params", cp_env.params);
	cp_db_put_meta(db, "pred_models", cp_pred_models);
	cp_db_put_meta(db, "pred_note", cp_pred_note);
	if (cp_pred_coll[0])
		cp_db_put_meta(db, "coll_mca", cp_pred_coll);
	cp_db_put_ops(db, names, kinds, classes, CP_CALL_COUNT);
}

static void on_signal(int sig)
{
	int saved = errno;

	cp_flush_wait(2000);
	sigaction(sig, sig == SIGTERM ? &old_term : &old_int, NULL);
	errno = saved;
	raise(sig);	/* delivered, by the old disposition, on return */
}

static void catch_signal(int sig, struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = on_signal };

	if (sigaction(sig, NULL, old) || old->sa_handler == SIG_IGN)
		return;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void finalize(bool in_mpi);

static void at_exit(void)
{
	/* without MPI_Finalize the ranks cannot meet: no reduction */
	finalize(false);
}

static void in_child(void)
{
	forked = 1;
	cp_off();
}

/* mkdir -p; 0 or -errno. */
static int make_dir(const char *path)
{
	char p[sizeof(cp_env.dir)];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(p, 0777) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Every run writes into a directory of its own under COMMPROF_DIR,
 * run-YYYYMMDD_HHMMSS_mmm after rank 0's start (local time, to the
 * millisecond), so that a second run into the same COMMPROF_DIR never
 * mixes with the first, and the names sort in start order (as Score-P's
 * scorep-<date>_<time>_<id>).  Rank 0 picks the name and creates the
 * directory exclusively (a name a concurrent job took gets "-2", ...);
 * every rank then creates it where its own COMMPROF_DIR is, if needed.
 * A spawned job has its own MPI_COMM_WORLD, hence a run of its own.
 * Returns 0 with the name in name[CP_RUN_LEN], or -errno (name "").
 */
#define CP_RUN_LEN 64
static int run_pick(char *name)
{
	char path[sizeof(cp_env.dir) + CP_RUN_LEN], base[32];
	struct timespec now;
	struct tm tm;
	int rc = make_dir(cp_env.dir);

	name[0] = '\0';
	if (rc)
		return rc;
	clock_gettime(CLOCK_REALTIME, &now);
	localtime_r(&now.tv_sec, &tm);
	strftime(base, sizeof(base), "run-%Y%m%d_%H%M%S", &tm);
	for (int k = 1; k <= 100; k++) {
		snprintf(name, CP_RUN_LEN, k > 1 ? "%s_%03ld-%d" : "%s_%03ld",
			 base, now.tv_nsec / 1000000, k);
		snprintf(path, sizeof(path), "%s/%s", cp_env.dir, name);
		if (!mkdir(path, 0777))
			return 0;
		if (errno != EEXIST)
			break;
	}
	rc = -errno;
	name[0] = '\0';
	return rc;
}

/* The run's directory, the same on every rank (a collective call). */
static int run_dir(char *dir, size_t len)
{
	char name[CP_RUN_LEN];
	int rc = 0;

	if (cp_rank == 0)
		rc = run_pick(name);
	PMPI_Bcast(name, sizeof(name), MPI_CHAR, 0, MPI_COMM_WORLD);
	name[sizeof(name) - 1] = '\0';
	if (!name[0])
		return rc ? rc : -EIO;
	snprintf(run_name, sizeof(run_name), "%s", name);
	snprintf(dir, len, "%s/%s", cp_env.dir, name);
	return make_dir(dir);
}

static int open_db(void)
{
	char dir[sizeof(cp_env.dir) + CP_RUN_LEN];
	char path[sizeof(dir) + 32], what[sizeof(path) + 64];
	int rc = run_dir(dir, sizeof(dir));

	snprintf(path, sizeof(path), "%s/rank-%05d.db", dir, cp_rank);
	if (!rc && strlen(dir) >= sizeof(cp_env.dir))
		rc = -ENAMETOOLONG;
	if (rc) {
		snprintf(what, sizeof(what), "cannot create a run directory "
			 "in %s: %s", cp_env.dir, strerror(-rc));
		cp_warn_once(what);
		return rc;
	}
	/* from here on the output directory is the run's: what names the
	 * rank file (the flusher's messages) names it there */
	memcpy(cp_env.dir, dir, strlen(dir) + 1);
	if (cp_db_rank_open(path, &db)) {
		snprintf(what, sizeof(what), "cannot write %s: %s", path,
			 cp_db_errmsg(db));
		cp_db_close(db);
		db = NULL;
		cp_warn_once(what);
		return -EIO;
	}
	return 0;
}

/* This process's rank as its launcher says, -1 when none says. */
static int launcher_rank(void)
{
	static const char *const var[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
	};

	for (unsigned i = 0; i < sizeof(var) / sizeof(*var); i++) {
		const char *v = getenv(var[i]);

		if (v && *v)
			return atoi(v);
	}
	return -1;
}

/*
 * A library built for one MPI, preloaded into a C application linked
 * with the other, would hand that MPI handles of the wrong kind (Open
 * MPI's are pointers, MPICH's integers) and crash the application at the
 * first one.  (A Fortran application cannot be saved so: its MPI's
 * Fortran layer binds PMPI_* to the MPI library we bring along.)  So
 * before any handle is used, the version string of the MPI behind us must
 * name the family we were built for (MPICH's includes its derivatives:
 * anything but Open MPI).  False, after one line from the
 * first rank, when it does not.
 */
static bool our_mpi(void)
{
	/* larger than either MPI's MPI_MAX_LIBRARY_VERSION_STRING: the
	 * other MPI's may be longer than ours */
	static char lib[16384];
	int len = 0;
	bool ompi;

	if (PMPI_Get_library_version(lib, &len) != MPI_SUCCESS)
		return true;
	lib[sizeof(lib) - 1] = '\0';
	ompi = !strncmp(lib, "Open MPI", 8);
	if (ompi == CP_MPI_OPENMPI)
		return true;
	lib[strcspn(lib, ",\n")] = '\0';
	for (char *p = lib; *p; p++)
		if (*p == '\t')
			*p = ' ';
	if (launcher_rank() <= 0)
		fprintf(stderr, "commprof: built for %s, but the application "
			"runs %s: not profiling (use a commprof built "
			"--with-mpi=%s)\n", CP_MPI_NAME, lib,
			ompi ? "openmpi" : "mpich");
	return false;
}

void cp_rt_init(void)
{
	char warn[1024];
	int64_t start;

	if (inited)
		return;
	inited = 1;
	if (!our_mpi()) {
		cp_off();
		return;
	}
	cp_time_init();
	PMPI_Comm_rank(MPI_COMM_WORLD, &cp_rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &cp_size);
	cp_env_read(&cp_env, warn, sizeof(warn));
	if (cp_rank == 0 && warn[0])
		fputs(warn, stderr);
	if (cp_env.disable)
		return;
	if (cp_comm_init()) {
		cp_warn_once("out of memory for the handle tables");
		return;
	}
	cp_fortran_init();
	if (cp_layout_init()) {
		cp_warn_once("out of memory for datatype layouts");
		return;
	}
	cp_clock_off_ns = clock_offset();
	start = (int64_t)cp_init_entry_ns + cp_clock_off_ns;
	PMPI_Allreduce(&start, &cp_epoch_ns, 1, MPI_INT64_T, MPI_MIN,
		       MPI_COMM_WORLD);
	joined = 1;	/* from here on every rank reaches cp_fin_reduce */
	cp_pred_rt_init();
	if (open_db())
		return;
	cp_db_begin(db);	/* one commit: see cp_db_begin() */
	put_meta();
	put_modules();
	cp_db_commit(db);
	cp_db_checkpoint(db);	/* best effort: it only saves room */
	if (cp_flush_start(db)) {
		cp_warn_once("cannot start the flusher thread");
		return;
	}
	catch_signal(SIGTERM, &old_term);
	catch_signal(SIGINT, &old_int);
	pthread_atfork(NULL, NULL, in_child);
	atexit(at_exit);
	atomic_store(&cp_active, true);
	/* a deeper callsite is found on the wrappers' slow path */
	__atomic_store_n(&cp_fast, (uint8_t)(cp_time_tsc && cp_env.stack == 1),
			 __ATOMIC_SEQ_CST);
}

/* The rank file's last writes, on the flusher thread (cp_flush_stop()):
 * modules loaded since MPI_Init, the run's time, whether it finished. */
static long long app_time_ns;

static void last_writes(struct cp_db *d)
{
	(void)d;	/* the same as db */
	cp_db_begin(db);
	put_modules();
	put_meta_int("app_time_ns", app_time_ns);
	if (!cp_warned())
		put_meta_int("finished", 1);
	cp_db_commit(db);
}

/* The end of profiling; in_mpi: from MPI_Finalize, where the ranks
 * still meet, so the job reduces itself (src/lib/cp_fin.h). */
static void finalize(bool in_mpi)
{
	if (!inited || finished || forked)
		return;
	finished = 1;
	cp_off();
	if (!db) {
		if (in_mpi && joined)	/* the others wait for this rank */
			cp_fin_reduce(NULL);
		return;
	}
	app_time_ns = (long long)(cp_mono_ns() - cp_init_entry_ns);
	/* the job's reduction reads the rank file back on this thread, the
	 * one that may call MPI */
	cp_flush_stop(last_writes, in_mpi && joined);
	if (in_mpi && joined) {
		cp_fin_reduce(db);
		cp_db_close(db);
	}
	db = NULL;
	cp_layout_fini();
}

void cp_rt_finalize(void)
{
	finalize(true);
}

void cp_rt_abort(int errorcode)
{
	(void)errorcode;
	if (!inited || finished || !db)
		return;
	cp_off();
	cp_flush_wait(2000);
}
