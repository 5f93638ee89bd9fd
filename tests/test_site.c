/*
 * test_site.c - resolves return addresses with src/cli/cp_site.c and checks
 * the exact text.  Usage: test_site [DEBUGLESS STRIPPED], where the two
 * optional files are copies of this program made by `strip -g` and
 * `strip -s` (tests/test_site.sh makes them): the same address must then
 * give "caller+0x.." from the symbol table, and "STRIPPED+0x.." from
 * nothing.  Prints "ok N" per check group; exits 1 on any mismatch.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/cli/cp_site.h"

#if defined(__GNUC__) && !defined(__clang__)
#define NOIPA __attribute__((noinline, noipa))
#else
#define NOIPA __attribute__((noinline))
#endif

static int fails;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "FAIL %s:%d: ", __FILE__,	\
				__LINE__);				\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			fails++;					\
		}							\
	} while (0)

NOIPA static void *ret_addr(void)
{
	void *r = __builtin_return_address(0);

	__asm__ volatile("" : : "r"(r) : "memory");
	return r;
}

/* the call whose line the test expects: keep both on one line */
NOIPA static void *caller(int *line)
{
	void *ra;

	ra = ret_addr(); *line = __LINE__;
	__asm__ volatile("" : : "r"(ra) : "memory");
	return ra;
}

static void *libc_ra;

static int cmp_int(const void *a, const void *b)
{
	if (!libc_ra)
		libc_ra = __builtin_return_address(0);
	return *(const int *)a - *(const int *)b;
}

struct find {
	uintptr_t addr;
	uintptr_t base;
	char path[4096];
	int found;
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find *f = arg;
	uintptr_t lo;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_LOAD)
			continue;
		lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
		if (f->addr < lo || f->addr >= lo + info->dlpi_phdr[i].p_memsz)
			continue;
		f->base = info->dlpi_addr;
		snprintf(f->path, sizeof(f->path), "%s", info->dlpi_name);
		f->found = 1;
		return 1;
	}
	return 0;
}

/* Module path and load base (dlpi_addr) of addr, as the recorder keeps
 * them; the main program's empty name becomes its real path. */
static int find_module(void *addr, struct find *f)
{
	ssize_t n;

	memset(f, 0, sizeof(*f));
	f->addr = (uintptr_t)addr;
	dl_iterate_phdr(find_cb, f);
	if (f->found && !f->path[0]) {
		n = readlink("/proc/self/exe", f->path, sizeof(f->path) - 1);
		if (n <= 0)
			return -1;
		f->path[n] = '\0';
	}
	return f->found ? 0 : -1;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* "file:LINE": the debug-info form.  Its file need not end in .c: under
 * ASan the caller of cmp_int is the qsort interceptor of libasan
 * (sanitizer_common_interceptors.inc). */
static int is_file_line(const char *s)
{
	const char *c = strrchr(s, ':');

	return c && c > s && c[1] >= '0' && c[1] <= '9';
}

int main(int argc, char **argv)
{
	struct cp_site_cache *c = cp_site_cache_new();
	char buf[256], func[128], want[256];
	int line, rc, i, v[64];
	struct find f, lf;
	void *ra;

	CHECK(c != NULL, "cp_site_cache_new");
	ra = caller(&line);
	CHECK(find_module(ra, &f) == 0, "no module for %p", ra);
	printf("# module %s base 0x%lx ra 0x%lx\n", f.path,
	       (unsigned long)f.base, (unsigned long)(uintptr_t)ra);

	/* 1: debug info: file:line of the call, function name */
	snprintf(want, sizeof(want), "test_site.c:%d", line);
	for (i = 0; i < 2; i++) {	/* second time from the cache */
		rc = cp_site_resolve(c, f.path, NULL, f.base, (uintptr_t)ra,
				     buf, sizeof(buf), func, sizeof(func));
		printf("# own: %d %s %s\n", rc, buf, func);
		CHECK(rc == 0 && !strcmp(buf, want), "got %d '%s' want '%s'",
		      rc, buf, want);
		CHECK(!strcmp(func, "caller"), "func '%s'", func);
	}
	/* the run's build id is not the file's: module+offset only */
	rc = cp_site_resolve(c, f.path, "00", f.base, (uintptr_t)ra, buf,
			     sizeof(buf), func, sizeof(func));
	snprintf(want, sizeof(want), "%.200s+0x%lx", base_name(f.path),
		 (unsigned long)((uintptr_t)ra - f.base));
	printf("# rebuilt: %d %s\n", rc, buf);
	CHECK(rc == CP_SITE_REBUILT && !strcmp(buf, want) && !func[0],
	      "rebuilt: %d '%s' '%s' want '%s'", rc, buf, func, want);
	printf("ok 1 file:line\n");

	/* 2: no such file: module+offset, -1, empty function */
	strcpy(func, "x");
	rc = cp_site_resolve(c, "/nonexistent/libnope.so", NULL, 0x1000,
			     0x2234, buf, sizeof(buf), func, sizeof(func));
	CHECK(rc == -1 && !strcmp(buf, "libnope.so+0x1234") && !func[0],
	      "missing module: %d '%s' '%s'", rc, buf, func);
	rc = cp_site_resolve(c, "/nonexistent/libnope.so", NULL, 0x1000,
			     0x2234, buf, 6, NULL, 0);
	CHECK(rc == -1 && !strcmp(buf, "libno"), "truncation: '%s'", buf);
	printf("ok 2 missing module\n");

	/* 3: libc, stripped on disk: symbol+offset, module+offset, or
	 * file:line when its detached debug info is installed */
	for (i = 0; i < 64; i++)
		v[i] = (i * 37) % 64;
	qsort(v, 64, sizeof(v[0]), cmp_int);
	CHECK(libc_ra && find_module(libc_ra, &lf) == 0, "libc address");
	rc = cp_site_resolve(c, lf.path, NULL, lf.base, (uintptr_t)libc_ra,
			     buf, sizeof(buf), func, sizeof(func));
	printf("# libc: %d %s %s (%s)\n", rc, buf, func, lf.path);
	snprintf(want, sizeof(want), "%.200s+0x%lx", base_name(lf.path),
		 (unsigned long)((uintptr_t)libc_ra - lf.base));
	if (rc == -1)
		CHECK(!strcmp(buf, want), "libc: '%s' want '%s'", buf, want);
	else
		CHECK(rc == 0 && func[0] && (strstr(buf, "+0x") ||
		      is_file_line(buf)), "libc: %d '%s' '%s'", rc, buf,
		      func);
	printf("ok 3 libc\n");

	if (argc >= 3) {
		/* 4: same address, debug info stripped: the symbol table */
		snprintf(want, sizeof(want), "caller+0x%lx",
			 (unsigned long)((uintptr_t)ra -
					 (uintptr_t)(void *)caller));
		rc = cp_site_resolve(c, argv[1], NULL, f.base, (uintptr_t)ra,
				     buf, sizeof(buf), func, sizeof(func));
		printf("# strip -g: %d %s %s\n", rc, buf, func);
		CHECK(rc == 0 && !strcmp(buf, want) &&
		      !strcmp(func, "caller"), "strip -g: %d '%s' want '%s'",
		      rc, buf, want);
		/* 5: all symbols stripped: module+offset */
		snprintf(want, sizeof(want), "%.200s+0x%lx", base_name(argv[2]),
			 (unsigned long)((uintptr_t)ra - f.base));
		rc = cp_site_resolve(c, argv[2], NULL, f.base, (uintptr_t)ra,
				     buf, sizeof(buf), func, sizeof(func));
		printf("# strip -s: %d %s %s\n", rc, buf, func);
		CHECK(rc == -1 && !strcmp(buf, want) && !func[0],
		      "strip -s: %d '%s' want '%s'", rc, buf, want);
		printf("ok 4 stripped copies\n");
	}
	cp_site_cache_free(c);
	cp_site_cache_free(NULL);
	if (fails)
		fprintf(stderr, "%d check(s) failed\n", fails);
	return fails ? 1 : 0;
}
