/*
 * test_db.c - writes synthetic rank files through the writer API of
 * db/cp_db.h for tests/test_db.sh, which reads them back with the
 * commprof tool.  No MPI.  Modes:
 *   test_db DIR         two rank files with known rows (expected output
 *                       is in test_db.sh); the modules table points at
 *                       this program, so the callsite marked "callsite"
 *                       below resolves to test_db.c:<its line> in main
 *   test_db --big DIR   one rank file of CP_TEST_BIG rows, to be cut
 *   test_db --kill DIR  a child writes one batch and is SIGKILLed right
 *                       after the commit; the batch must survive
 *   test_db --many DIR  CP_TEST_MANY rank files of one row each
 * Exit 0 on success; on failure one line on stderr and exit 1.
 */
#define _GNU_SOURCE
#include <link.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/cp_db_write.h"
#include "src/common/cp_row.h"

#define CP_TEST_BIG 20000
#define CP_TEST_MANY 40

/* Where this program is mapped: the modules row of the rank files. */
struct cp_test_self {
	char path[PATH_MAX];
	uint64_t base, start, end;
};

static const char *const cp_test_ops[] = {
	"MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Bcast", "MPI_Allreduce",
	"MPI_Odd,\"x\"",
};

static int cp_test_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct cp_test_self *s = arg;
	uint64_t lo = UINT64_MAX, hi = 0, a;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_LOAD)
			continue;
		a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
		lo = a < lo ? a : lo;
		a += info->dlpi_phdr[i].p_memsz;
		hi = a > hi ? a : hi;
	}
	s->base = info->dlpi_addr;
	s->start = lo;
	s->end = hi;
	return 1;			/* the first object is the program */
}

static void cp_test_die(const char *what, struct cp_db *db)
{
	fprintf(stderr, "test_db: %s: %s\n", what, cp_db_errmsg(db));
	exit(1);
}

static __attribute__((noinline)) uint64_t cp_test_here(void)
{
	return (uint64_t)(uintptr_t)__builtin_return_address(0);
}

static struct cp_db *cp_test_open(const char *dir, int rank)
{
	char path[PATH_MAX], v[32];
	struct cp_db *db;

	snprintf(path, sizeof(path), "%s/rank-%05d.db", dir, rank);
	if (cp_db_rank_open(path, &db))
		cp_test_die(path, NULL);
	snprintf(v, sizeof(v), "%d", rank);
	if (cp_db_put_meta(db, "rank", v) || cp_db_put_meta(db, "size", "2") ||
	    cp_db_put_ops(db, cp_test_ops, NULL, NULL, 6))
		cp_test_die("meta", db);
	return db;
}

/* A module `shift` bytes above where this program really is: the
 * callsite offsets stay the same. */
static void cp_test_module(struct cp_db *db, const struct cp_test_self *s,
			   uint64_t shift)
{
	struct cp_db_module m = {
		.base = s->base + shift, .start = s->start + shift,
		.end = s->end + shift, .path = s->path, .build_id = NULL,
	};

	if (cp_db_put_modules(db, &m, 1))
		cp_test_die("modules", db);
}

static void cp_test_rank0(const char *dir, const struct cp_test_self *s,
			  uint64_t site)
{
	static const struct cp_db_layout l[] = {
		{ 0, 1, 0, 8, 8, 8, -1, 1, "MPI_DOUBLE" },
		{ 1, 0, 0, 128, 904, 8, 64, 16,
		  "vector(16,1,8) of MPI_DOUBLE" },
	};
	struct cp_db_call c[] = {
		{ 0, 0, 0, 1, -1, 7, 2, 0, 0, 0, 1000, 125, site,
		  1000000, 2500, -1 },
		{ 1, 2, 0, CP_PEER_PROCNULL, -1, 9, 2, 0, 1,
		  CP_F_PROCNULL | CP_F_NONBLOCK, 0, 4, site, 2000000, 100,
		  50 },
		{ 2, 3, 1, -1, 0, INT32_MIN, 2, 3, -1, CP_F_INPLACE, 4096,
		  512, 0x10, 3000000001LL, 300, -1 },
	};
	struct cp_db_agg bogus = { site, 0, 1, 10, 0, 999, 999, 999, 1, 1, 1 };
	struct cp_db_agg a[] = {
		{ site, 0, 1, 10, 0, 3, 3000, 7600, 2500, 2600, 1 },
		{ site, 2, -2, 0, 1, 1, 0, 100, 100, 100, 1 },
		{ 0x10, 3, -1, 13, -1, 1, 4096, 300, 300, 300, 1 },
	};
	struct cp_db *db = cp_test_open(dir, 0);

	c[2].alg = 6;	/* the broadcast's: binomial (analysis/cp_coll.h) */
	if (cp_db_put_meta(db, "app_time_ns", "2000000000") ||
	    cp_db_put_layouts(db, l, 2) || cp_db_put_calls(db, c, 2) ||
	    cp_db_put_calls(db, c + 2, 1) || cp_db_put_aggs(db, &bogus, 1) ||
	    cp_db_put_aggs(db, a, 3))
		cp_test_die("rank 0", db);
	cp_test_module(db, s, 0);
	cp_db_close(db);
}

/* Rank 1's module sits 1 MiB higher, as ASLR would put it. */
static void cp_test_rank1(const char *dir, const struct cp_test_self *s,
			  uint64_t site)
{
	static const struct cp_db_layout l = { 0, 1, 0, 1, 1, 1, -1, 1,
					       "MPI_BYTE" };
	uint64_t s1 = site + 0x100000;
	struct cp_db_call c[] = {
		{ 1, 1, 0, CP_PEER_ANY, -1, INT32_MIN, 2, 0, 0,
		  CP_F_RECV | CP_F_ANYSRC | CP_F_ANYTAG | CP_F_NOTDONE |
		  CP_F_NONBLOCK, 0, 0, s1, 5000000, 1234567890, -1 },
		{ 0, 1, 0, 0, -1, 7, 2, 0, 0, CP_F_RECV, 1000, 1000, s1,
		  1000500, 2000, 0 },
		{ 2, 5, 0, -1, 1, 0, 3, 1, -1, CP_F_VARBLOCK | CP_F_INTER |
		  CP_F_FORTRAN | CP_F_PERSIST | CP_F_CANCELLED | CP_F_ZERO,
		  1099511627776ULL, 0, s1, 6000000, 7, -1 },
	};
	struct cp_db_agg a[] = {
		{ s1, 1, 0, 10, 0, 5, 5000, 1234569890, 2000, 1234567890, 2 },
		{ s1, 5, -1, 41, -1, 1, 1099511627776ULL, 7, 7, 7, 1 },
	};
	struct cp_db *db = cp_test_open(dir, 1);

	if (cp_db_put_meta(db, "app_time_ns", "3000000000") ||
	    cp_db_put_meta(db, "rows_dropped", "2") ||
	    cp_db_put_meta(db, "rows_not_kept", "3") ||
	    cp_db_put_layouts(db, &l, 1) || cp_db_put_calls(db, c, 3) ||
	    cp_db_put_aggs(db, a, 2))
		cp_test_die("rank 1", db);
	cp_test_module(db, s, 0x100000);
	cp_db_close(db);
}

/* CP_TEST_BIG rows in batches of 1000, calls first so that the cut
 * takes the tail of the calls table. */
static void cp_test_big(const char *dir, const struct cp_test_self *s)
{
	static struct cp_db_call c[1000];
	struct cp_db *db = cp_test_open(dir, 0);
	int i, b;

	for (b = 0; b < CP_TEST_BIG / 1000; b++) {
		for (i = 0; i < 1000; i++) {
			c[i] = (struct cp_db_call){
				b * 1000 + i, 0, 0, 1, -1, 7, 2, 0, -1, 0,
				8 * (b * 1000 + i), b * 1000 + i, 0x10,
				1000 * (b * 1000 + i), 10, -1 };
		}
		if (cp_db_put_calls(db, c, 1000))
			cp_test_die("big", db);
	}
	cp_test_module(db, s, 0);
	cp_db_close(db);
}

/* CP_TEST_MANY ranks of one row each, bytes = 100 * rank. */
static void cp_test_many(const char *dir)
{
	struct cp_db_call c = { 0, 0, 0, 1, -1, 1, CP_TEST_MANY, 0, -1, 0,
				0, 1, 0x10, 1, 1, -1 };
	int r;

	for (r = CP_TEST_MANY - 1; r >= 0; r--) {
		struct cp_db *db = cp_test_open(dir, r);

		c.bytes = 100 * r;
		if (cp_db_put_calls(db, &c, 1))
			cp_test_die("many", db);
		cp_db_close(db);
	}
}

/* CP_TEST_BINDS rows whose columns go between NULL and values and repeat
 * them (the writer binds only what changed: db/cp_db_write.c), in
 * batches of 70 and 33 (multi-row statements and single rows in turn);
 * tests/test_db.sh checks each against the same rule. */
#define CP_TEST_BINDS 206
static void cp_test_binds(const char *dir)
{
	static struct cp_db_call c[CP_TEST_BINDS];
	struct cp_db *db = cp_test_open(dir, 0);
	int i, k, n;

	for (i = 0; i < CP_TEST_BINDS; i++) {
		c[i] = (struct cp_db_call){ .seq = i, .op = i % 2,
			.peer = i % 3 ? i % 5 : -1, .root = -1,
			.tag = i % 4 ? 7 : INT32_MIN, .comm_size = 2,
			.layout = -1, .bytes = (uint64_t)(i / 10),
			.count = 1, .site = 0x10, .t_start_ns = i,
			.t_measured_ns = i % 6, .t_incall_ns = i % 2 ? -1 : i,
			.pred_lmw_ns = NAN, .alg = i % 3 ? 0 : 2 };
		for (k = 0; k < CP_NMODELS; k++)
			c[i].pred_ns[k] = (i + k) % 4 ? ((i + k) % 7) * 1.5 :
					  NAN;
	}
	for (i = 0; i < CP_TEST_BINDS; i += n) {
		n = (i / 103) % 2 ? 33 : 70;
		n = n < CP_TEST_BINDS - i ? n : CP_TEST_BINDS - i;
		if (cp_db_put_calls(db, c + i, (size_t)n))
			cp_test_die("binds", db);
	}
	cp_db_close(db);
}

/* The child commits one batch of 3 rows and is killed before closing. */
static void cp_test_kill(const char *dir)
{
	struct cp_db_call c[3] = {
		{ 0, 0, 0, 1, -1, 1, 2, 0, -1, 0, 10, 10, 0x10, 1, 1, -1 },
		{ 1, 0, 0, 1, -1, 2, 2, 0, -1, 0, 20, 20, 0x10, 2, 1, -1 },
		{ 2, 0, 0, 1, -1, 3, 2, 0, -1, 0, 30, 30, 0x10, 3, 1, -1 },
	};
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct cp_db *db = cp_test_open(dir, 0);

		if (cp_db_put_calls(db, c, 3))
			cp_test_die("kill", db);
		raise(SIGKILL);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
		fprintf(stderr, "test_db: child was not killed\n");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct cp_test_self s;
	uint64_t site;
	ssize_t n;

	if (argc < 2) {
		fprintf(stderr, "usage: test_db [--big|--kill|--many|--binds] "
			"DIR\n");
		return 2;
	}
	n = readlink("/proc/self/exe", s.path, sizeof(s.path) - 1);
	if (n < 0)
		return 1;
	s.path[n] = '\0';
	dl_iterate_phdr(cp_test_phdr, &s);
	if (!strcmp(argv[1], "--kill") && argc == 3)
		cp_test_kill(argv[2]);
	else if (!strcmp(argv[1], "--big") && argc == 3)
		cp_test_big(argv[2], &s);
	else if (!strcmp(argv[1], "--many") && argc == 3)
		cp_test_many(argv[2]);
	else if (!strcmp(argv[1], "--binds") && argc == 3)
		cp_test_binds(argv[2]);
	site = cp_test_here();	/* callsite */
	if (argc == 2) {
		cp_test_rank0(argv[1], &s, site);
		cp_test_rank1(argv[1], &s, site);
	}
	return 0;
}
