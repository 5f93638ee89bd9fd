/*
 * fuzz_params.c - libFuzzer target of the parameter file reader
 * (src/common/cp_params.c), which the profiling library runs inside the
 * application when COMMPROF_PARAMS is set.  The input is the file.  A
 * file that is refused must say why; a file that loads must print (text
 * and JSON), write out and load back, and build the prediction tables
 * that price calls (src/lib/cp_predict.c) for its own job and a larger one.
 * Built and run by tests/test_fuzz.sh; abort() marks a broken promise.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "src/common/cp_params.h"
#include "src/lib/cp_predict.h"

static FILE *fz_null;

/* A file holding d[0..n) as fd and path "/proc/self/fd/N"; -1 on a
 * failure of the harness. */
static int fz_file(const void *d, size_t n, char *path, size_t len)
{
	int fd = memfd_create("fuzz_params", 0);

	if (fd < 0)
		return -1;
	if (n && write(fd, d, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Every model prices a few calls of a job of nranks ranks. */
static void fz_predict(const struct cp_params *p, int nranks)
{
	static const double bytes[] = { 0, 1, 999, 1000, 4096, 1e6, 1e12 };
	struct cp_pred_in in = { 0 };
	struct cp_pred_out out;
	struct cp_pred *m;
	unsigned models;
	bool differs;
	char note[256];
	size_t i;
	int k;

	if (cp_pred_build(p, nranks, NULL, &m, &models, &differs, note,
			  sizeof(note)))
		return;
	for (i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
		for (k = CP_PK_P2P; k <= CP_PK_GATHER; k++) {
			in.kind = k;
			in.src = 0;
			in.dst = nranks - 1;
			in.root = nranks - 1;
			in.members = NULL;
			in.nmembers = nranks;
			in.bytes = bytes[i];
			in.stride_bytes = i % 3 == 1 ? 64 : i % 3 == 2 ? -1 : 0;
			in.block_bytes = 8;
			cp_pred_eval(m, &in, &out);
		}
	}
	cp_pred_free(m);
}

/* p written out must load back. */
static void fz_roundtrip(const struct cp_params *p)
{
	char path[64], err[512];
	struct cp_params *q;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int fd;

	if (!f)
		return;
	if (cp_params_write(p, f)) {
		fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	fd = fz_file(buf, len, path, sizeof(path));
	free(buf);
	if (fd < 0)
		return;
	if (cp_params_load(path, &q, err, sizeof(err))) {
		fprintf(stderr, "fuzz_params: written file does not load "
			"back: %s\n", err);
		abort();
	}
	if (q->nranks != p->nranks || q->nhosts != p->nhosts ||
	    q->l3_nsizes != p->l3_nsizes || q->plogp_n != p->plogp_n) {
		fprintf(stderr, "fuzz_params: written file loads back "
			"different\n");
		abort();
	}
	cp_params_free(q);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char path[64], err[512];
	struct cp_params *p;
	int fd, rc;

	if (!fz_null && !(fz_null = fopen("/dev/null", "w")))
		abort();
	fd = fz_file(d, n, path, sizeof(path));
	if (fd < 0)
		abort();
	err[0] = 'x';
	rc = cp_params_load(path, &p, err, sizeof(err));
	close(fd);
	if (rc) {
		if (p || !err[0] || rc > 0) {
			fprintf(stderr, "fuzz_params: failure %d without "
				"message or with a result\n", rc);
			abort();
		}
		return 0;
	}
	cp_params_print(p, fz_null);
	cp_params_print_json(p, fz_null);
	fz_roundtrip(p);
	fz_predict(p, p->nranks);
	fz_predict(p, p->nranks + 1);
	cp_params_free(p);
	return 0;
}
