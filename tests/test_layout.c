/*
 * test_layout.c - decodes known datatypes with src/lib/cp_layout.c linked in
 * directly (no preload) and checks every number of their layouts, the
 * handle cache across MPI_Type_free and address reuse, and lock-free
 * lookups from four threads.  Run by tests/test_layout.sh under mpirun
 * -np 1.  Prints "ok N" per check group; exits 1 on the first mismatch.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#include "db/cp_db_write.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_time.h"

#define NTHREADS	4
#define NHAMMER		8

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

/* expected numbers of one layout, in struct cp_db_layout order */
struct want {
	int contiguous, irregular;
	long long size, extent, block, stride, nblocks;
	const char *desc;	/* NULL: not checked */
};

/* Look up count elements of t, compare with w (size: of the count
 * elements); returns the index. */
static uint32_t expect_n(const char *what, MPI_Datatype t, uint64_t count,
			 const struct want *w)
{
	struct cp_db_layout l;
	uint64_t size = 12345;
	uint32_t idx = cp_layout_get_n(t, count, &size);

	CHECK(idx != 0, "%s: unknown layout", what);
	CHECK(size * count == (uint64_t)w->size, "%s: size_out %llu want %lld",
	      what, (unsigned long long)size, w->size / (long long)count);
	if (cp_layout_describe(idx, &l)) {
		CHECK(0, "%s: describe(%u) failed", what, idx);
		return idx;
	}
	printf("# %-22s idx %3u c%d i%d size %lld ext %lld block %lld "
	       "stride %lld nb %lld \"%s\"\n", what, idx, l.contiguous,
	       l.irregular, (long long)l.size_bytes,
	       (long long)l.extent_bytes, (long long)l.block_bytes,
	       (long long)l.stride_bytes, (long long)l.nblocks, l.desc);
	CHECK(l.index == (int32_t)idx, "%s: index %d", what, l.index);
	CHECK(l.contiguous == w->contiguous, "%s: contiguous %d", what,
	      l.contiguous);
	CHECK(l.irregular == w->irregular, "%s: irregular %d", what,
	      l.irregular);
	CHECK(l.size_bytes == w->size, "%s: size %lld", what,
	      (long long)l.size_bytes);
	CHECK(l.extent_bytes == w->extent, "%s: extent %lld", what,
	      (long long)l.extent_bytes);
	CHECK(l.block_bytes == w->block, "%s: block %lld", what,
	      (long long)l.block_bytes);
	CHECK(l.stride_bytes == w->stride, "%s: stride %lld", what,
	      (long long)l.stride_bytes);
	CHECK(l.nblocks == w->nblocks, "%s: nblocks %lld", what,
	      (long long)l.nblocks);
	CHECK(!w->desc || !strcmp(l.desc, w->desc), "%s: desc '%s' want '%s'",
	      what, l.desc, w->desc);
	/* second lookup: the cached path gives the same answer */
	size = 0;
	CHECK(cp_layout_get_n(t, count, &size) == idx &&
	      size * count == (uint64_t)w->size,
	      "%s: cached lookup differs", what);
	return idx;
}

static uint32_t expect(const char *what, MPI_Datatype t,
		       const struct want *w)
{
	return expect_n(what, t, 1, w);
}

/* Free *t as the wrapper and the flusher do: the type is marked freed,
 * and its retire record read in drain 1 (cut by cp_layout_gc(1)). */
static void tfree(MPI_Datatype *t)
{
	cp_layout_drop(*t);
	cp_layout_retire(*t, cp_ticks(), 1);
	MPI_Type_free(t);
}

static MPI_Datatype commit(MPI_Datatype t)
{
	MPI_Type_commit(&t);
	return t;
}

static MPI_Datatype vec(int n, int bl, int stride, MPI_Datatype old)
{
	MPI_Datatype t;

	MPI_Type_vector(n, bl, stride, old, &t);
	return commit(t);
}

static void test_predefined(void)
{
	struct cp_db_layout l;
	uint64_t size = 99;

	expect("MPI_DOUBLE", MPI_DOUBLE,
	       &(struct want){ 1, 0, 8, 8, 8, 8, 1, "MPI_DOUBLE" });
	expect("MPI_INT", MPI_INT,
	       &(struct want){ 1, 0, 4, 4, 4, 4, 1, "MPI_INT" });
	expect("MPI_SHORT_INT", MPI_SHORT_INT,
	       &(struct want){ 0, 1, 6, 8, -1, -1, 2, "MPI_SHORT_INT" });
	CHECK(cp_layout_get(MPI_DATATYPE_NULL, &size) == 0 && size == 0,
	      "MPI_DATATYPE_NULL: not index 0 / size 0");
	size = 99;
	CHECK(cp_layout_get((MPI_Datatype)0, &size) == 0 && size == 0,
	      "null handle: not index 0 / size 0");
	CHECK(cp_layout_count() > 40, "predefined not preloaded: count %u",
	      cp_layout_count());
	CHECK(cp_layout_describe(0, &l) == 0 && !strcmp(l.desc, "unknown") &&
	      l.size_bytes == -1 && l.nblocks == -1, "index 0 not unknown");
	CHECK(cp_layout_describe(cp_layout_count(), &l) == -EINVAL,
	      "describe past the end did not fail");
	printf("ok 1 predefined\n");
}

static void test_vectors(void)
{
	MPI_Datatype c10, v, v4, hv, in, vv, vvi, rs, rsv, cv, cvr, dv, big;

	MPI_Type_contiguous(10, MPI_DOUBLE, &c10);
	expect("contiguous(10,double)", commit(c10),
	       &(struct want){ 1, 0, 80, 80, 80, 80, 1,
			       "contiguous(10) of MPI_DOUBLE" });
	v = vec(16, 1, 128, MPI_DOUBLE);
	expect("vector(16,1,128)", v,
	       &(struct want){ 0, 0, 128, 15368, 8, 1024, 16,
			       "vector(16,1,128) of MPI_DOUBLE" });
	v4 = vec(4, 4, 4, MPI_DOUBLE);
	expect("vector(4,4,4)", v4,
	       &(struct want){ 1, 0, 128, 128, 128, 128, 1, NULL });
	MPI_Type_create_hvector(3, 2, 100, MPI_INT, &hv);
	expect("hvector(3,2,100B,int)", commit(hv),
	       &(struct want){ 0, 0, 24, 208, 8, 100, 3,
			       "hvector(3,2,100B) of MPI_INT" });
	/* blocks of 8 bytes every 16: 4 per inner, inner copies 64 apart */
	in = vec(4, 1, 2, MPI_DOUBLE);
	MPI_Type_create_hvector(3, 1, 64, in, &vv);
	expect("hvector of vector", commit(vv),
	       &(struct want){ 0, 0, 96, 184, 8, 16, 12,
			       "hvector(3,1,64B) of vector(4,1,2) of "
			       "MPI_DOUBLE" });
	/* inner copies 56 bytes apart: the 4th block touches the 5th */
	vvi = vec(2, 1, 1, in);
	expect("vector of vector", vvi,
	       &(struct want){ 0, 1, 64, 112, -1, -1, 7, NULL });
	MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &rs);
	expect("resized(double,0,16)", commit(rs),
	       &(struct want){ 0, 0, 8, 16, 8, 16, 1,
			       "resized(0,16) of MPI_DOUBLE" });
	/* contiguous of vector: the second element starts at the vector's
	 * extent, right after the first's last block: 15 + 1 + 15 blocks */
	MPI_Type_contiguous(2, v, &cv);
	expect("contiguous of vector", commit(cv),
	       &(struct want){ 0, 1, 256, 30736, -1, -1, 31, NULL });
	/* ... unless resized to 16 strides: one regular run */
	MPI_Type_create_resized(v, 0, 16 * 1024, &rsv);
	MPI_Type_contiguous(2, commit(rsv), &cvr);
	expect("contiguous of resized", commit(cvr),
	       &(struct want){ 0, 0, 256, 32768, 8, 1024, 32, NULL });
	MPI_Type_dup(v, &dv);
	expect("dup of vector", dv,
	       &(struct want){ 0, 0, 128, 15368, 8, 1024, 16,
			       "dup of vector(16,1,128) of MPI_DOUBLE" });
	big = vec(1000000, 1, 2, MPI_DOUBLE);
	expect("vector(1e6,1,2)", big,
	       &(struct want){ 0, 0, 8000000, 15999992, 8, 16, 1000000,
			       NULL });
	tfree(&c10);
	tfree(&v);
	tfree(&v4);
	tfree(&hv);
	tfree(&in);
	tfree(&vv);
	tfree(&vvi);
	tfree(&rs);
	tfree(&rsv);
	tfree(&cv);
	tfree(&cvr);
	tfree(&dv);
	tfree(&big);
	printf("ok 2 vectors\n");
}

static void test_indexed(void)
{
	int bl_eq[] = { 2, 2, 2 }, d_eq[] = { 0, 5, 10 };
	int bl_ne[] = { 1, 2, 3 }, d_ne[] = { 0, 4, 10 };
	int d_blk[] = { 0, 4, 8 };
	MPI_Aint hd[] = { 0, 40, 80 };
	MPI_Datatype a, b, c, d, e;
	static int bl_big[2000], d_big[2000];
	long long ints = 0;
	int i;

	MPI_Type_indexed(3, bl_eq, d_eq, MPI_DOUBLE, &a);
	expect("indexed regular", commit(a),
	       &(struct want){ 0, 0, 48, 96, 16, 40, 3,
			       "indexed(3) of MPI_DOUBLE" });
	MPI_Type_indexed(3, bl_ne, d_ne, MPI_DOUBLE, &b);
	expect("indexed irregular", commit(b),
	       &(struct want){ 0, 1, 48, 104, -1, -1, 3, NULL });
	MPI_Type_create_indexed_block(3, 2, d_blk, MPI_DOUBLE, &c);
	expect("indexed_block", commit(c),
	       &(struct want){ 0, 0, 48, 80, 16, 32, 3,
			       "indexed_block(3,2) of MPI_DOUBLE" });
	MPI_Type_create_hindexed_block(3, 2, hd, MPI_INT, &d);
	expect("hindexed_block", commit(d),
	       &(struct want){ 0, 0, 24, 88, 8, 40, 3,
			       "hindexed_block(3,2) of MPI_INT" });
	/* 2000 blocks of 1..3 ints with gaps: past the exact-run cap */
	for (i = 0; i < 2000; i++) {
		bl_big[i] = 1 + i % 3;
		d_big[i] = 4 * i;
		ints += bl_big[i];
	}
	MPI_Type_indexed(2000, bl_big, d_big, MPI_INT, &e);
	expect("indexed(2000)", commit(e),
	       &(struct want){ 0, 1, 4 * ints, 4 * (4 * 1999 + 2), -1, -1,
			       2000, NULL });
	tfree(&a);
	tfree(&b);
	tfree(&c);
	tfree(&d);
	tfree(&e);
	printf("ok 3 indexed\n");
}

static void test_struct_subarray(void)
{
	int bl[] = { 1, 1 }, one = 1;
	MPI_Aint disp[] = { 0, 8 }, zero = 0;
	MPI_Datatype ty[] = { MPI_INT, MPI_DOUBLE };
	int sz[] = { 8, 16 }, col[] = { 8, 2 }, cst[] = { 0, 3 };
	int rows[] = { 4, 16 }, rst[] = { 2, 0 };
	MPI_Datatype s, sv, in, sa, sr, sf;

	MPI_Type_create_struct(2, bl, disp, ty, &s);
	expect("struct{int,double}", commit(s),
	       &(struct want){ 0, 1, 12, 16, -1, -1, 2,
			       "struct{MPI_INT,MPI_DOUBLE}" });
	in = vec(4, 1, 2, MPI_DOUBLE);
	MPI_Type_create_struct(1, &one, &zero, &in, &sv);
	expect("struct of one vector", commit(sv),
	       &(struct want){ 0, 0, 32, 56, 8, 16, 4,
			       "struct{vector(4,1,2) of MPI_DOUBLE}" });
	MPI_Type_create_subarray(2, sz, col, cst, MPI_ORDER_C, MPI_DOUBLE,
				 &sa);
	expect("subarray column block", commit(sa),
	       &(struct want){ 0, 0, 128, 1024, 16, 128, 8,
			       "subarray([8,16],[8,2],[0,3]) of MPI_DOUBLE" });
	MPI_Type_create_subarray(2, sz, rows, rst, MPI_ORDER_C, MPI_DOUBLE,
				 &sr);
	expect("subarray full rows", commit(sr),
	       &(struct want){ 0, 0, 512, 1024, 512, 1024, 1, NULL });
	/* Fortran order: dimension 0 is the fast one and is taken whole,
	 * so the two selected columns are one 128-byte block */
	MPI_Type_create_subarray(2, sz, col, cst, MPI_ORDER_FORTRAN,
				 MPI_DOUBLE, &sf);
	expect("subarray fortran", commit(sf),
	       &(struct want){ 0, 0, 128, 1024, 128, 1024, 1,
			       "subarray([8,16],[8,2],[0,3],F) of "
			       "MPI_DOUBLE" });
	tfree(&s);
	tfree(&sv);
	tfree(&in);
	tfree(&sa);
	tfree(&sr);
	tfree(&sf);
	printf("ok 4 struct and subarray\n");
}

/*
 * A message of count elements: the element's layout when its copies one
 * extent apart keep its numbers, else the count elements' own.  Blocks
 * are taken in address order, whatever the order of the type map.
 */
static void test_count(void)
{
	MPI_Datatype col, colr, r16, s3, s2, s2r, tys[] = { MPI_DOUBLE,
		MPI_DOUBLE, MPI_DOUBLE };
	MPI_Aint d3[] = { 16, 0, 8 }, d2[] = { 0, 16 };
	int bl[] = { 1, 1, 1 };
	uint64_t size;
	uint32_t i1, ic, i4;

	/* column of a 6 x 10 matrix of doubles, resized to one double: the
	 * idiom for sending several adjacent columns */
	col = vec(6, 1, 10, MPI_DOUBLE);
	MPI_Type_create_resized(col, 0, 8, &colr);
	i1 = ic = expect("resized column", commit(colr),
			 &(struct want){ 0, 0, 48, 8, 8, 80, 6, NULL });
	i4 = expect_n("4 x resized column", colr, 4,
		      &(struct want){ 0, 0, 192, 8, 32, 80, 6,
				      "4 x resized(0,8) of vector(6,1,10) "
				      "of MPI_DOUBLE" });
	CHECK(cp_layout_get_n(colr, 1, &size) == i1, "count 1 differs");
	/* 10 columns: the whole matrix, one block */
	expect_n("10 x resized column", colr, 10,
		 &(struct want){ 1, 0, 480, 8, 480, 480, 1, NULL });
	/* a type that tiles keeps its own layout for any count */
	MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &r16);
	i1 = cp_layout_get(commit(r16), &size);
	CHECK(i1 && cp_layout_get_n(r16, 5, &size) == i1,
	      "resized(double,0,16) x 5: not the element's layout");
	/* ... and so does a vector, whose copies only touch */
	CHECK(cp_layout_get_n(col, 3, &size) == cp_layout_get(col, &size),
	      "vector(6,1,10) x 3: not the element's layout");
	/* struct members out of address order: one 24-byte block */
	MPI_Type_create_struct(3, bl, d3, tys, &s3);
	expect("struct{16,0,8}", commit(s3),
	       &(struct want){ 1, 0, 24, 24, 24, 24, 1, NULL });
	/* struct{double@0, double@16} resized to one double: two copies
	 * interleave into 32 contiguous bytes */
	MPI_Type_create_struct(2, bl, d2, tys, &s2);
	MPI_Type_create_resized(s2, 0, 8, &s2r);
	expect("resized struct{0,16}", commit(s2r),
	       &(struct want){ 0, 0, 16, 8, 8, 16, 2, NULL });
	expect_n("2 x resized struct{0,16}", s2r, 2,
		 &(struct want){ 1, 0, 32, 8, 32, 32, 1, NULL });
	/* the flusher's path, from the element's index: no MPI call, the
	 * same answer after the type is freed */
	CHECK(cp_layout_n(ic, 4) == i4, "4 x resized column by index");
	/* a freed type's messages are decoded afresh */
	tfree(&colr);
	CHECK(cp_layout_n(ic, 4) == i4, "4 x freed column by index");
	MPI_Type_create_resized(col, 0, 16, &colr);
	expect_n("4 x column resized to 16", commit(colr), 4,
		 &(struct want){ 0, 1, 192, 16, 8, -1, 24, NULL });
	tfree(&colr);
	tfree(&col);
	tfree(&r16);
	tfree(&s3);
	tfree(&s2r);
	tfree(&s2);
	printf("ok 5 count\n");
}

/* Equal layouts share an index; a dropped handle forgets its layout even
 * when the next type lands at the same address, and a lookup at a tick
 * before the free still finds the old one. */
static void test_drop_reuse(void)
{
	MPI_Datatype a, b, t;
	uint32_t ia, ib, iv = 0, ic = 0, idx, pidx = 0;
	uint64_t size, ptick = 0;
	int i, reused = 0, older = 0;
	void *prev = NULL;

	a = vec(5, 1, 3, MPI_INT);
	b = vec(5, 1, 3, MPI_INT);
	ia = cp_layout_get(a, &size);
	ib = cp_layout_get(b, &size);
	CHECK(ia != 0 && ia == ib, "equal layouts: %u vs %u", ia, ib);
	tfree(&a);
	tfree(&b);
	for (i = 0; i < 200; i++) {
		if (i % 2)
			MPI_Type_contiguous(3, MPI_INT, &t);
		else
			MPI_Type_vector(7, 1, 2, MPI_DOUBLE, &t);
		t = commit(t);
		idx = cp_layout_get(t, &size);
		if (prev == (void *)t) {
			uint64_t psize;

			reused++;
			older += cp_layout_at(t, ptick, &psize) == pidx &&
				 psize == (i % 2 ? 56u : 12u);
			CHECK(cp_layout_at(t, cp_ticks(), &psize) == idx &&
			      psize == size, "iteration %d: now %u", i, idx);
		}
		prev = (void *)t;
		pidx = idx;
		ptick = cp_ticks();
		CHECK(size == (i % 2 ? 12u : 56u), "iteration %d: size %llu",
		      i, (unsigned long long)size);
		if (i == 0)
			iv = idx;
		else if (i == 1)
			ic = idx;
		CHECK(idx == (i % 2 ? ic : iv), "iteration %d: index %u", i,
		      idx);
		tfree(&t);
	}
	CHECK(iv != ic && iv && ic, "vector and contiguous share %u", iv);
	CHECK(older == reused, "old meaning found %d times of %d", older,
	      reused);
	printf("# handle address reused %d times of 199, the old layout "
	       "found at its tick each time\n", reused);
	printf("ok 6 drop and reuse\n");
}

static MPI_Datatype churn_type(int i)
{
	MPI_Datatype t;

	MPI_Type_contiguous(1 + i % 5, MPI_INT, &t);
	return commit(t);
}

/* Look up types [from, to); count wrong sizes and unknown layouts. */
static void churn_get(MPI_Datatype *t, int from, int to, int *bad,
		      int *zero)
{
	uint64_t size;
	int i;

	*bad = *zero = 0;
	for (i = from; i < to; i++) {
		*zero += cp_layout_get(t[i], &size) == 0;
		*bad += size != 4u * (1 + i % 5);
	}
}

/* More live types than the table holds: the excess maps to index 0 with
 * the right size; once the first ones are freed and their generations
 * cut (the flusher's cp_layout_gc()), their tombstones make room (reused
 * or rebuilt away) and the excess gets cached. */
static void test_churn(void)
{
	enum { N1 = 40000, N = 55000 };
	MPI_Datatype *t = malloc(N * sizeof(*t));
	int i, bad, zero;

	if (!t) {
		CHECK(0, "no memory");
		return;
	}
	for (i = 0; i < N1; i++)
		t[i] = churn_type(i);
	churn_get(t, 0, N1, &bad, &zero);
	CHECK(bad == 0 && zero == 0, "churn 1: %d wrong sizes, %d unknown",
	      bad, zero);
	for (i = N1; i < N; i++)
		t[i] = churn_type(i);
	churn_get(t, N1, N, &bad, &zero);
	CHECK(bad == 0 && zero > 0, "churn 2: %d wrong sizes, %d unknown",
	      bad, zero);
	printf("# table full: %d of %d new types uncached\n", zero, N - N1);
	for (i = 0; i < N1; i++)
		tfree(&t[i]);
	churn_get(t, N1, N, &bad, &zero);
	CHECK(bad == 0 && zero > 0, "churn 3: %d wrong sizes, %d unknown",
	      bad, zero);
	printf("# freed, not cut yet: %d of %d still uncached\n", zero,
	       N - N1);
	cp_layout_gc(1);
	churn_get(t, N1, N, &bad, &zero);
	CHECK(bad == 0 && zero == 0, "churn 4: %d wrong sizes, %d unknown",
	      bad, zero);
	for (i = N1; i < N; i++)
		tfree(&t[i]);
	free(t);
	printf("ok 7 churn\n");
}

static MPI_Datatype hammer_t[NHAMMER];
static uint32_t hammer_idx[NTHREADS][NHAMMER];
static uint64_t hammer_size[NHAMMER];
static int hammer_bad[NTHREADS];

static void *hammer(void *arg)
{
	int me = (int)(long)arg, i, k;
	uint32_t idx;
	uint64_t size;

	for (i = 0; i < 200000; i++) {
		k = (i + me) % NHAMMER;
		idx = cp_layout_get(hammer_t[k], &size);
		if (i < NHAMMER)
			hammer_idx[me][k] = idx;
		else if (idx != hammer_idx[me][k] || size != hammer_size[k])
			hammer_bad[me]++;
	}
	return NULL;
}

/* Four threads meet types nobody looked up yet, then keep reading. */
static void test_threads(void)
{
	pthread_t th[NTHREADS];
	uint64_t size, sum = 0;
	double t0;
	uint32_t idx;
	int i, k;

	for (k = 0; k < NHAMMER; k++) {
		hammer_t[k] = vec(k + 2, 1, k + 3, MPI_FLOAT);
		hammer_size[k] = 4u * (k + 2);
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, hammer, (void *)(long)i);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	for (k = 0; k < NHAMMER; k++) {
		idx = cp_layout_get(hammer_t[k], &size);
		CHECK(idx != 0 && size == hammer_size[k], "type %d: %u", k,
		      idx);
		for (i = 0; i < NTHREADS; i++)
			CHECK(hammer_idx[i][k] == idx,
			      "thread %d type %d: index %u want %u", i, k,
			      hammer_idx[i][k], idx);
		tfree(&hammer_t[k]);
	}
	for (i = 0; i < NTHREADS; i++)
		CHECK(hammer_bad[i] == 0, "thread %d: %d inconsistent", i,
		      hammer_bad[i]);
	t0 = MPI_Wtime();
	for (i = 0; i < 1000000; i++)
		sum += cp_layout_get(MPI_DOUBLE, &size);
	printf("# cached lookup: %.1f ns (%llu)\n", (MPI_Wtime() - t0) * 1e3,
	       (unsigned long long)sum);
	printf("ok 8 threads\n");
}

int main(int argc, char **argv)
{
	uint64_t size = 0;
	int prov;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
	if (prov < MPI_THREAD_MULTIPLE) {
		printf("# MPI_THREAD_MULTIPLE not provided (%d)\n", prov);
		MPI_Finalize();
		return 77;
	}
	CHECK(cp_layout_count() == 0, "count before init");
	CHECK(cp_layout_init() == 0, "cp_layout_init failed");
	test_predefined();
	test_vectors();
	test_indexed();
	test_struct_subarray();
	test_count();
	test_drop_reuse();
	test_churn();
	test_threads();
	cp_layout_fini();
	CHECK(cp_layout_count() == 0, "count after fini");
	/* after fini: unknown layout, still the right size */
	CHECK(cp_layout_get(MPI_DOUBLE, &size) == 0 && size == 8,
	      "after fini: size %llu", (unsigned long long)size);
	MPI_Finalize();
	if (fails)
		fprintf(stderr, "%d check(s) failed\n", fails);
	return fails ? 1 : 0;
}
