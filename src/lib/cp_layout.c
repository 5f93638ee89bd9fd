/*
 * cp_layout.c - decode committed datatypes into layouts and keep them by
 * handle, as they were at each tick (interface: src/lib/cp_layout.h).
 *
 * Decoding walks PMPI_Type_get_envelope/get_contents down to named types
 * and builds the type map of one element as a list of runs: n blocks of
 * len bytes, block i at off + i * stride.  Appending a block merges it
 * into the last run when it touches the previous block (one longer block)
 * or continues the run's stride, so a regular type ends up as a single
 * run however it was built (vector of contiguous, indexed with even
 * displacements, vector of vector...).  A list is capped at CP_RUNS_MAX
 * runs and a decode at CP_WORK_MAX appends; past that only the block count
 * and the common block length are kept (the count is then an upper bound:
 * blocks touching across the cut are not merged).
 *
 * What the models need is the memory the message touches, not the order
 * of the type map: a list of more than one run (a struct whose members
 * are not in address order, copies of a resized type that interleave) is
 * sorted by address and merged before it is summarised, up to
 * CP_SORT_MAX blocks.  A message of count elements has the element's
 * layout when copies one extent apart do not interleave (the element
 * tiles); else cp_layout_n derives the message's own from the element's
 * runs, kept when the type is decoded (no MPI call: the flusher asks, and
 * the type may be freed by then): count 4 of a matrix column resized to
 * one double touches rows of 32-byte blocks, not the column's 8-byte
 * ones.
 *
 * Handle table: a table of src/lib/cp_htab.h keyed by the handle value,
 * whose values are generations (struct cp_hgen): a type committed at the
 * address of a freed one is a new generation, and a record made before
 * is still decoded with the old one.  Read lock-free, written under
 * cp_lt_lock.  The flusher cuts a generation some time after the type's
 * retire record (cp_layout_gc); a key left without one is a tombstone,
 * and when tombstones fill the table it is rebuilt into a fresh one and
 * the old one is kept until cp_layout_fini(), since a reader may still
 * be probing it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/cp_db_write.h"
#include "src/lib/cp_compiler.h"
#include "src/lib/cp_htab.h"
#include "src/lib/cp_layout.h"
#include "src/lib/cp_time.h"

#define CP_RUNS_MAX	512		/* runs kept exactly per list */
#define CP_WORK_MAX	(1u << 20)	/* appends per decode */
#define CP_DEPTH_MAX	16		/* nesting of derived types */
#define CP_DESC_MAX	200		/* bytes of a description, NUL too */
#define CP_SORT_MAX	65536u		/* blocks sorted by address */
#define CP_NCACHE	256u		/* (type, count) layouts cached */

#define CP_LT_SLOTS	65536u		/* handle table, a power of two */
#define CP_ENT_MAX	65536u		/* layout entries */
#define CP_EHASH	4096u		/* dedupe buckets, a power of two */
#define CP_SIZE_BITS	40		/* slot value: index << 40 | bytes */
#define CP_SIZE_MASK	((UINT64_C(1) << CP_SIZE_BITS) - 1)

/* n blocks of len bytes; block i starts at off + i * stride bytes */
struct cp_run {
	int64_t off;
	int64_t len;
	int64_t stride;		/* 0 when n == 1 */
	uint64_t n;
};

struct cp_runs {
	struct cp_run *r;
	size_t n, cap;
	bool over;		/* list given up: only the two below hold */
	uint64_t over_nb;	/* blocks (upper bound) */
	int64_t over_len;	/* common block bytes, -1 mixed, 0 none yet */
};

struct cp_dctx {
	uint32_t work;		/* appends left before giving up the list */
};

/* bounded description text; truncation ends it with "..." */
struct cp_sb {
	char buf[CP_DESC_MAX];
	size_t len;
};

struct cp_lent {
	struct cp_db_layout l;	/* l.desc is owned (strdup) */
	uint32_t hash;
	uint32_t hnext;		/* next entry in the bucket, 0 = end */
};

static pthread_mutex_t cp_lt_lock = PTHREAD_MUTEX_INITIALIZER;
/* slot value: index << CP_SIZE_BITS | type size bytes */
static struct cp_htab *_Atomic cp_lt;
static struct cp_lent *cp_ents;		/* under cp_lt_lock */
static uint32_t cp_ents_cap;
static _Atomic uint32_t cp_nents;
static uint32_t cp_ehead[CP_EHASH];	/* 0 = empty bucket */
/* Shape of each entry for the hot path (cp_layout_shape): written before
 * the entry is published, never moved (cp_ents may be reallocated). */
static uint64_t cp_shape[CP_ENT_MAX];
/* entry i's element tiles: a message of any count has its layout */
static bool cp_tiles[CP_ENT_MAX];
/* what entry i's element is made of when it does not tile: the layout
 * of a message of several elements is derived from it without asking MPI
 * (the flusher's thread, the type possibly freed); under cp_lt_lock */
struct cp_elem {
	struct cp_runs R;	/* sorted */
	int64_t size;		/* MPI_Type_size */
	MPI_Aint lb, ext;
	char desc[CP_DESC_MAX];
};
static struct cp_elem *cp_elems[CP_ENT_MAX];
/* the layouts of messages of elements that do not tile, by (element
 * layout, count); under cp_lt_lock, direct mapped */
static struct {
	uint32_t elem;
	uint64_t count;
	uint32_t idx;		/* 0: empty */
} cp_nc[CP_NCACHE];

static int cp_decode(struct cp_dctx *x, MPI_Datatype t, int depth,
		     struct cp_runs *out, struct cp_sb *d);

/* ---- description text ---- */

static void cp_sb_add(struct cp_sb *s, const char *fmt, ...)
{
	size_t room = sizeof(s->buf) - s->len;
	va_list ap;
	int n;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < room) {
		s->len += n;
		return;
	}
	s->len = sizeof(s->buf) - 1;
	memcpy(s->buf + s->len - 3, "...", 3);
}

/* ---- run lists ---- */

static void cp_runs_free(struct cp_runs *R)
{
	free(R->r);
	memset(R, 0, sizeof(*R));
}

static int64_t cp_len_merge(int64_t a, int64_t b)
{
	if (a == 0)
		return b;
	if (b == 0)
		return a;
	return a == b ? a : -1;
}

static uint64_t cp_runs_nb(const struct cp_runs *R)
{
	uint64_t nb = 0;
	size_t i;

	if (R->over)
		return R->over_nb;
	for (i = 0; i < R->n; i++)
		nb += R->r[i].n;
	return nb;
}

/* common block length: bytes, -1 when blocks differ, 0 when no block */
static int64_t cp_runs_len(const struct cp_runs *R)
{
	int64_t len = 0;
	size_t i;

	if (R->over)
		return R->over_len;
	for (i = 0; i < R->n; i++)
		len = cp_len_merge(len, R->r[i].len);
	return len;
}

/* Give up the exact list, keeping its counts, then add nb blocks. */
static void cp_runs_over(struct cp_runs *R, uint64_t nb, int64_t len)
{
	if (!R->over) {
		R->over_nb = cp_runs_nb(R);
		R->over_len = cp_runs_len(R);
		free(R->r);
		R->r = NULL;
		R->n = R->cap = 0;
		R->over = true;
	}
	R->over_nb += nb;
	if (nb)
		R->over_len = cp_len_merge(R->over_len, len);
}

static struct cp_run cp_run_norm(struct cp_run c)
{
	if (c.n > 1 && c.stride == c.len) {
		c.len *= (int64_t)c.n;
		c.n = 1;
	}
	if (c.n == 1)
		c.stride = 0;
	return c;
}

static void cp_runs_push(struct cp_runs *R, struct cp_run c)
{
	struct cp_run *nr;
	size_t cap;

	if (R->n == R->cap) {
		cap = R->cap ? 2 * R->cap : 8;
		nr = R->n < CP_RUNS_MAX ? realloc(R->r, cap * sizeof(*nr))
					: NULL;
		if (!nr) {	/* cap reached or no memory: keep counts */
			cp_runs_over(R, c.n, c.len);
			return;
		}
		R->r = nr;
		R->cap = cap;
	}
	R->r[R->n++] = c;
}

/* Append one block of len bytes at off to the type map in R. */
static void cp_runs_block(struct cp_dctx *x, struct cp_runs *R, int64_t off,
			  int64_t len)
{
	struct cp_run *L;
	int64_t last, llen;

	if (len <= 0)
		return;
	if (R->over || x->work == 0) {
		cp_runs_over(R, 1, len);
		return;
	}
	x->work--;
	if (R->n == 0) {
		cp_runs_push(R, (struct cp_run){ off, len, 0, 1 });
		return;
	}
	L = &R->r[R->n - 1];
	last = L->off + (int64_t)(L->n - 1) * L->stride;
	llen = L->len;
	if (off == last + llen) {
		/* touching: take the last block out and put it back longer,
		 * it may then continue the run before it */
		if (--L->n == 0)
			R->n--;
		else if (L->n == 1)
			L->stride = 0;
		cp_runs_block(x, R, last, llen + len);
		return;
	}
	if (len == llen && L->n == 1) {
		L->stride = off - L->off;
		L->n = 2;
		return;
	}
	if (len == llen && off == last + L->stride) {
		L->n++;
		return;
	}
	cp_runs_push(R, (struct cp_run){ off, len, 0, 1 });
}

/* Append the blocks of run c (normalised) to R. */
static void cp_runs_run(struct cp_dctx *x, struct cp_runs *R, struct cp_run c)
{
	struct cp_run *L;

	if (R->over || x->work == 0) {
		cp_runs_over(R, c.n, c.len);
		return;
	}
	cp_runs_block(x, R, c.off, c.len);
	if (c.n == 1)
		return;
	if (R->over) {
		cp_runs_over(R, c.n - 1, c.len);
		return;
	}
	/* the first block went in unmerged: the rest may extend its run */
	L = &R->r[R->n - 1];
	if (L->len == c.len &&
	    L->off + (int64_t)(L->n - 1) * L->stride == c.off) {
		if (L->n == 1) {
			L->stride = c.stride;
			L->n = c.n;
			return;
		}
		if (L->stride == c.stride) {
			L->n += c.n - 1;
			return;
		}
	}
	cp_runs_push(R, cp_run_norm((struct cp_run){ c.off + c.stride, c.len,
						     c.stride, c.n - 1 }));
}

/* Append every run of src, displaced by shift bytes, to dst. */
static void cp_runs_cat(struct cp_dctx *x, struct cp_runs *dst,
			const struct cp_runs *src, int64_t shift)
{
	struct cp_run c;
	size_t i;

	if (src->over) {
		cp_runs_over(dst, src->over_nb, src->over_len);
		return;
	}
	for (i = 0; i < src->n; i++) {
		c = src->r[i];
		c.off += shift;
		cp_runs_run(x, dst, c);
	}
}

/* Append k copies of src, copy j displaced by shift + j * step bytes. */
static void cp_runs_rep(struct cp_dctx *x, struct cp_runs *dst,
			const struct cp_runs *src, uint64_t k, int64_t step,
			int64_t shift)
{
	struct cp_run c;
	uint64_t j;

	if (k == 0)
		return;
	if (!src->over && src->n == 1) {
		/* closed forms: one block repeated, or a run that goes on */
		c = src->r[0];
		c.off += shift;
		if (c.n == 1 && k > 1) {
			c.stride = step;
			c.n = k;
			cp_runs_run(x, dst, cp_run_norm(c));
			return;
		}
		if (c.n > 1 && c.stride * (int64_t)c.n == step) {
			c.n *= k;
			cp_runs_run(x, dst, c);
			return;
		}
	}
	for (j = 0; j < k; j++) {
		if (dst->over || x->work == 0) {
			cp_runs_over(dst, cp_runs_nb(src) * (k - j),
				     cp_runs_len(src));
			return;
		}
		cp_runs_cat(x, dst, src, shift + (int64_t)j * step);
	}
}

/* (offset, length) of one block, for sorting */
struct cp_blk {
	int64_t off, len;
};

static int cp_blk_cmp(const void *a, const void *b)
{
	const struct cp_blk *x = a, *y = b;

	return (x->off > y->off) - (x->off < y->off);
}

/*
 * The blocks of R in address order, overlapping and touching ones merged,
 * appended again to a fresh list (regular strides found anew) that
 * replaces R.  R stays as it is when it is one run already, gave up its
 * list, has more than CP_SORT_MAX blocks, or memory runs out.
 */
static void cp_runs_sort(struct cp_runs *R)
{
	struct cp_dctx x = { CP_WORK_MAX };
	struct cp_runs S = { 0 };
	uint64_t nb = cp_runs_nb(R), k = 0, j;
	struct cp_blk *b;
	size_t i, n = 0;

	if (R->over || R->n < 2 || nb > CP_SORT_MAX)
		return;
	b = malloc(nb * sizeof(*b));
	if (!b)
		return;
	for (i = 0; i < R->n; i++)
		for (j = 0; j < R->r[i].n; j++)
			b[k++] = (struct cp_blk){ R->r[i].off + (int64_t)j *
						  R->r[i].stride, R->r[i].len };
	qsort(b, nb, sizeof(*b), cp_blk_cmp);
	for (k = 1; k < nb; k++) {
		if (b[k].off <= b[n].off + b[n].len) {
			if (b[k].off + b[k].len > b[n].off + b[n].len)
				b[n].len = b[k].off + b[k].len - b[n].off;
		} else {
			b[++n] = b[k];
		}
	}
	for (k = 0; k <= n; k++)
		cp_runs_block(&x, &S, b[k].off, b[k].len);
	free(b);
	cp_runs_free(R);
	*R = S;
}

/* ---- decoding ---- */

static bool cp_comb_named(int comb)
{
	return comb == MPI_COMBINER_NAMED || comb == MPI_COMBINER_F90_REAL ||
	       comb == MPI_COMBINER_F90_COMPLEX ||
	       comb == MPI_COMBINER_F90_INTEGER;
}

/* Release the handles get_contents returned; predefined ones are not
 * ours to free. */
static void cp_types_free(MPI_Datatype *tv, int nd)
{
	int i, ni, na, ndd, comb;

	for (i = 0; i < nd; i++) {
		if (PMPI_Type_get_envelope(tv[i], &ni, &na, &ndd, &comb) !=
		    MPI_SUCCESS || cp_comb_named(comb))
			continue;
		PMPI_Type_free(&tv[i]);
	}
}

static int cp_decode_named(struct cp_dctx *x, MPI_Datatype t,
			   struct cp_runs *out, struct cp_sb *d)
{
	char name[MPI_MAX_OBJECT_NAME];
	MPI_Count size;
	int n = 0;

	if (PMPI_Type_size_x(t, &size) != MPI_SUCCESS || size < 0)
		return -EINVAL;
	if (PMPI_Type_get_name(t, name, &n) != MPI_SUCCESS || n <= 0)
		snprintf(name, sizeof(name), "named(%lldB)", (long long)size);
	cp_sb_add(d, "%s", name);
	if (t == MPI_SHORT_INT) {	/* the one pair type with a hole */
		cp_runs_block(x, out, 0, sizeof(short));
		cp_runs_block(x, out, sizeof(int), size - sizeof(short));
		return 0;
	}
	cp_runs_block(x, out, 0, size);
	return 0;
}

/* Decode a child type; *ext_out gets its extent in bytes. */
static int cp_child(struct cp_dctx *x, MPI_Datatype t, int depth,
		    struct cp_runs *out, int64_t *ext_out, struct cp_sb *d)
{
	MPI_Aint lb, ext;

	if (PMPI_Type_get_extent(t, &lb, &ext) != MPI_SUCCESS)
		return -EINVAL;
	*ext_out = ext;
	return cp_decode(x, t, depth + 1, out, d);
}

/* vector, hvector and contiguous: count blocks of bl children, the
 * blocks stride_bytes apart (stride_el children when stride_el != 0) */
static int cp_dec_vector(struct cp_dctx *x, const int *iv, const MPI_Aint *av,
			 int na, MPI_Datatype ct, int comb, int depth,
			 struct cp_runs *out, struct cp_sb *d)
{
	struct cp_runs C = { 0 }, B = { 0 };
	int64_t ext, stride = 0;
	int count = iv[0], bl = 1;
	int rc;

	if (comb == MPI_COMBINER_CONTIGUOUS) {
		cp_sb_add(d, "contiguous(%d) of ", count);
	} else if (comb == MPI_COMBINER_VECTOR) {
		bl = iv[1];
		cp_sb_add(d, "vector(%d,%d,%d) of ", count, bl, iv[2]);
	} else {
		bl = iv[1];
		stride = na > 0 ? (int64_t)av[0] : iv[2];
		cp_sb_add(d, "hvector(%d,%d,%lldB) of ", count, bl,
			  (long long)stride);
	}
	rc = cp_child(x, ct, depth, &C, &ext, d);
	if (rc)
		goto out;
	if (comb == MPI_COMBINER_CONTIGUOUS)
		stride = ext;
	else if (comb == MPI_COMBINER_VECTOR)
		stride = (int64_t)iv[2] * ext;
	if (count < 0 || bl < 0) {
		rc = -EINVAL;
		goto out;
	}
	cp_runs_rep(x, &B, &C, bl, ext, 0);
	cp_runs_rep(x, out, &B, count, stride, 0);
out:
	cp_runs_free(&C);
	cp_runs_free(&B);
	return rc;
}

/* indexed family: block j has blen(j) children at disp(j) */
static int cp_dec_indexed(struct cp_dctx *x, const int *iv,
			  const MPI_Aint *av, int na, MPI_Datatype ct,
			  int comb, int depth, struct cp_runs *out,
			  struct cp_sb *d)
{
	struct cp_runs C = { 0 };
	int count = iv[0], j, bl;
	int64_t ext, disp;
	bool blk = comb == MPI_COMBINER_INDEXED_BLOCK ||
		   comb == MPI_COMBINER_HINDEXED_BLOCK;
	bool h = comb != MPI_COMBINER_INDEXED &&
		 comb != MPI_COMBINER_INDEXED_BLOCK;
	int rc;

	if (blk)
		cp_sb_add(d, "%sindexed_block(%d,%d) of ", h ? "h" : "",
			  count, iv[1]);
	else
		cp_sb_add(d, "%sindexed(%d) of ", h ? "h" : "", count);
	rc = cp_child(x, ct, depth, &C, &ext, d);
	for (j = 0; !rc && j < count; j++) {
		bl = blk ? iv[1] : iv[1 + j];
		if (blk && comb == MPI_COMBINER_INDEXED_BLOCK)
			disp = (int64_t)iv[2 + j] * ext;
		else if (blk || na > 0)
			disp = av[j];
		else if (h)
			disp = iv[1 + count + j];
		else
			disp = (int64_t)iv[1 + count + j] * ext;
		if (bl < 0)
			rc = -EINVAL;
		else
			cp_runs_rep(x, out, &C, bl, ext, disp);
	}
	cp_runs_free(&C);
	return rc;
}

static int cp_dec_struct(struct cp_dctx *x, const int *iv, const MPI_Aint *av,
			 int na, const MPI_Datatype *tv, int depth,
			 struct cp_runs *out, struct cp_sb *d)
{
	struct cp_runs C;
	int count = iv[0], j, bl, rc = 0;
	int64_t ext, disp;

	cp_sb_add(d, "struct{");
	for (j = 0; !rc && j < count; j++) {
		bl = iv[1 + j];
		disp = na > 0 ? (int64_t)av[j] : iv[1 + count + j];
		cp_sb_add(d, "%s", j ? "," : "");
		if (bl != 1)
			cp_sb_add(d, "%d x ", bl);
		memset(&C, 0, sizeof(C));
		rc = cp_child(x, tv[j], depth, &C, &ext, d);
		if (!rc && bl < 0)
			rc = -EINVAL;
		if (!rc)
			cp_runs_rep(x, out, &C, bl, ext, disp);
		cp_runs_free(&C);
	}
	cp_sb_add(d, "}");
	return rc;
}

static void cp_sb_dims(struct cp_sb *d, const int *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		cp_sb_add(d, "%s%d", i ? "," : "[", v[i]);
	cp_sb_add(d, "]");
}

/* subarray: replicate from the fastest dimension out, then place the
 * corner at its start offsets */
static int cp_dec_subarray(struct cp_dctx *x, const int *iv,
			   MPI_Datatype ct, int depth, struct cp_runs *out,
			   struct cp_sb *d)
{
	struct cp_runs A = { 0 }, B;
	int nd = iv[0], i, k;
	const int *sz = iv + 1, *sub = iv + 1 + nd, *st = iv + 1 + 2 * nd;
	bool fortran = iv[1 + 3 * nd] == MPI_ORDER_FORTRAN;
	int64_t step, shift = 0;
	int rc;

	cp_sb_add(d, "subarray(");
	cp_sb_dims(d, sz, nd);
	cp_sb_add(d, ",");
	cp_sb_dims(d, sub, nd);
	cp_sb_add(d, ",");
	cp_sb_dims(d, st, nd);
	cp_sb_add(d, "%s) of ", fortran ? ",F" : "");
	rc = cp_child(x, ct, depth, &A, &step, d);
	for (i = 0; !rc && i < nd; i++) {
		k = fortran ? i : nd - 1 - i;
		if (sub[k] < 0 || sz[k] < 0) {
			rc = -EINVAL;
			break;
		}
		memset(&B, 0, sizeof(B));
		cp_runs_rep(x, &B, &A, sub[k], step, 0);
		cp_runs_free(&A);
		A = B;
		shift += (int64_t)st[k] * step;
		step *= sz[k];
	}
	if (!rc)
		cp_runs_cat(x, out, &A, shift);
	cp_runs_free(&A);
	return rc;
}

static int cp_dec_comb(struct cp_dctx *x, int comb, const int *iv,
		       const MPI_Aint *av, int na, const MPI_Datatype *tv,
		       int depth, struct cp_runs *out, struct cp_sb *d)
{
	switch (comb) {
	case MPI_COMBINER_DUP:
		cp_sb_add(d, "dup of ");
		return cp_decode(x, tv[0], depth + 1, out, d);
	case MPI_COMBINER_RESIZED:
		/* the type map is the child's; lb and extent are read from
		 * the type itself where they matter */
		cp_sb_add(d, "resized(%lld,%lld) of ", (long long)av[0],
			  (long long)av[1]);
		return cp_decode(x, tv[0], depth + 1, out, d);
	case MPI_COMBINER_CONTIGUOUS:
	case MPI_COMBINER_VECTOR:
	case MPI_COMBINER_HVECTOR:
		return cp_dec_vector(x, iv, av, na, tv[0], comb, depth, out, d);
	case MPI_COMBINER_INDEXED:
	case MPI_COMBINER_HINDEXED:
	case MPI_COMBINER_INDEXED_BLOCK:
	case MPI_COMBINER_HINDEXED_BLOCK:
		return cp_dec_indexed(x, iv, av, na, tv[0], comb, depth, out,
				      d);
	case MPI_COMBINER_STRUCT:
		return cp_dec_struct(x, iv, av, na, tv, depth, out, d);
	case MPI_COMBINER_SUBARRAY:
		return cp_dec_subarray(x, iv, tv[0], depth, out, d);
	default:		/* darray: not decoded */
		return -ENOTSUP;
	}
}

/*
 * cp_decode - append the type map of one element of t to out and its
 * description to d.  Returns 0, -EINVAL (MPI refused), -ENOTSUP
 * (combiner not decoded), -E2BIG (nested too deep) or -ENOMEM.
 */
static int cp_decode(struct cp_dctx *x, MPI_Datatype t, int depth,
		     struct cp_runs *out, struct cp_sb *d)
{
	int ni, na, nd, comb, rc;
	MPI_Datatype *tv = NULL;
	MPI_Aint *av = NULL;
	int *iv = NULL;

	if (depth > CP_DEPTH_MAX)
		return -E2BIG;
	if (PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS)
		return -EINVAL;
	if (cp_comb_named(comb))
		return cp_decode_named(x, t, out, d);
	iv = malloc(sizeof(*iv) * (ni + 1));
	av = malloc(sizeof(*av) * (na + 1));
	tv = malloc(sizeof(*tv) * (nd + 1));
	rc = -ENOMEM;
	if (!iv || !av || !tv)
		goto out_free;
	rc = -EINVAL;
	if (PMPI_Type_get_contents(t, ni, na, nd, iv, av, tv) != MPI_SUCCESS)
		goto out_free;
	if (nd < 1 || (ni < 1 && comb != MPI_COMBINER_DUP &&
			comb != MPI_COMBINER_RESIZED))
		rc = -ENOTSUP;
	else
		rc = cp_dec_comb(x, comb, iv, av, na, tv, depth, out, d);
	cp_types_free(tv, nd);
out_free:
	free(iv);
	free(av);
	free(tv);
	return rc;
}

/* Fill the numbers of l from the element's runs and MPI's size/extent. */
static void cp_summarize(const struct cp_runs *R, int64_t size, int64_t lb,
			 int64_t ext, struct cp_db_layout *l)
{
	const struct cp_run *c = R->r;

	l->size_bytes = size;
	l->extent_bytes = ext;
	l->contiguous = 0;
	l->irregular = 0;
	l->nblocks = (int64_t)cp_runs_nb(R);
	l->block_bytes = cp_runs_len(R);
	l->stride_bytes = -1;
	if (R->over) {
		l->irregular = 1;
	} else if (R->n == 0) {
		l->contiguous = ext == 0;
	} else if (R->n > 1) {
		l->irregular = 1;
	} else if (c->n > 1) {
		l->stride_bytes = c->stride;
	} else {
		/* one block: the next one is the next element's */
		l->stride_bytes = ext;
		l->contiguous = lb == 0 && c->off == 0 && c->len == size &&
				size == ext;
	}
}

/* ---- layout entries (under cp_lt_lock) ---- */

static uint32_t cp_ent_hash(const struct cp_db_layout *l)
{
	int64_t v[7] = { l->contiguous, l->irregular, l->size_bytes,
			 l->extent_bytes, l->block_bytes, l->stride_bytes,
			 l->nblocks };
	const unsigned char *p = (const unsigned char *)v;
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(v); i++)
		h = (h ^ p[i]) * 16777619u;
	for (p = (const unsigned char *)l->desc; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static bool cp_ent_same(const struct cp_db_layout *a,
			const struct cp_db_layout *b)
{
	return a->contiguous == b->contiguous &&
	       a->irregular == b->irregular &&
	       a->size_bytes == b->size_bytes &&
	       a->extent_bytes == b->extent_bytes &&
	       a->block_bytes == b->block_bytes &&
	       a->stride_bytes == b->stride_bytes &&
	       a->nblocks == b->nblocks && !strcmp(a->desc, b->desc);
}

/* Index of layout l (desc not yet owned): an equal entry's, or a new one.
 * 0 when the entry table is full or memory runs out. */
static uint64_t cp_shape_of(const struct cp_db_layout *l)
{
	if (l->contiguous)
		return 0;
	if (l->irregular || l->block_bytes <= 0 || l->stride_bytes <= 0 ||
	    l->block_bytes > UINT32_MAX || l->stride_bytes > UINT32_MAX)
		return CP_SHAPE_IRREGULAR;
	return (uint64_t)l->stride_bytes << 32 | (uint64_t)l->block_bytes;
}

static uint32_t cp_ent_add(struct cp_db_layout *l)
{
	uint32_t h = cp_ent_hash(l), i, n;
	struct cp_lent *e;

	for (i = cp_ehead[h & (CP_EHASH - 1)]; i; i = cp_ents[i].hnext)
		if (cp_ents[i].hash == h && cp_ent_same(&cp_ents[i].l, l))
			return i;
	n = atomic_load_explicit(&cp_nents, memory_order_relaxed);
	if (n >= CP_ENT_MAX)
		return 0;
	if (n == cp_ents_cap) {
		e = realloc(cp_ents, 2 * cp_ents_cap * sizeof(*e));
		if (!e)
			return 0;
		cp_ents = e;
		cp_ents_cap *= 2;
	}
	l->desc = strdup(l->desc);
	if (!l->desc)
		return 0;
	l->index = (int32_t)n;
	cp_shape[n] = cp_shape_of(l);
	e = &cp_ents[n];
	e->l = *l;
	e->hash = h;
	e->hnext = cp_ehead[h & (CP_EHASH - 1)];
	cp_ehead[h & (CP_EHASH - 1)] = n;
	atomic_store_explicit(&cp_nents, n + 1, memory_order_release);
	return n;
}

/* Whether copies of element R one extent apart stay apart, each within
 * its own extent: then the element's layout describes a message of any
 * count, as it always has (blocks that touch at the joints are not
 * merged).  Copies that interleave (a resized column) do not tile. */
static bool cp_runs_tile(const struct cp_runs *R, int64_t ext)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, end;
	size_t i;

	if (R->over || R->n == 0)
		return true;
	for (i = 0; i < R->n; i++) {
		const struct cp_run *c = &R->r[i];

		end = c->off + (int64_t)(c->n - 1) * c->stride + c->len;
		if (c->off < lo)
			lo = c->off;
		if (end > hi)
			hi = end;
	}
	return hi - lo <= ext;
}

/* Keep what element layout idx is made of (R, moved out, and the rest),
 * when it does not tile and is not kept yet.  Under cp_lt_lock.  Memory
 * short: nothing kept, its messages get the element's layout. */
static void cp_elem_keep(uint32_t idx, struct cp_runs *R, int64_t size,
			 MPI_Aint lb, MPI_Aint ext, const char *desc)
{
	struct cp_elem *e;

	if (cp_elems[idx])
		return;
	e = malloc(sizeof(*e));
	if (!e)
		return;
	e->R = *R;
	*R = (struct cp_runs){ 0 };
	e->size = size;
	e->lb = lb;
	e->ext = ext;
	snprintf(e->desc, sizeof(e->desc), "%s", desc);
	cp_elems[idx] = e;
}

/* Decode one element of t (size bytes) and return the index of its
 * layout; 0 when undecodable. */
static uint32_t cp_layout_add(MPI_Datatype t, int64_t size)
{
	struct cp_dctx x = { CP_WORK_MAX };
	struct cp_runs R = { 0 };
	struct cp_db_layout l;
	struct cp_sb d;
	MPI_Aint lb, ext;
	uint32_t idx = 0, n0;

	d.len = 0;
	d.buf[0] = '\0';
	if (PMPI_Type_get_extent(t, &lb, &ext) != MPI_SUCCESS)
		return 0;
	if (cp_decode(&x, t, 0, &R, &d) == 0) {
		memset(&l, 0, sizeof(l));
		cp_runs_sort(&R);
		cp_summarize(&R, size, lb, ext, &l);
		l.desc = d.buf;
		n0 = atomic_load_explicit(&cp_nents, memory_order_relaxed);
		idx = cp_ent_add(&l);
		/* a new entry; one shared with an identical type is set
		 * already, and may be read lock-free (cp_layout_n) */
		if (idx >= n0 && idx < CP_ENT_MAX) {
			cp_tiles[idx] = cp_runs_tile(&R, ext);
			if (!cp_tiles[idx])
				cp_elem_keep(idx, &R, size, lb, ext, d.buf);
		}
	}
	cp_runs_free(&R);
	return idx;
}

/* The layout of count elements of element e: a new entry, or 0. */
static uint32_t cp_layout_add_n(const struct cp_elem *e, uint64_t count)
{
	struct cp_dctx x = { CP_WORK_MAX };
	struct cp_runs M = { 0 };
	struct cp_db_layout l;
	struct cp_sb d;
	uint32_t idx;

	d.len = 0;
	d.buf[0] = '\0';
	cp_sb_add(&d, "%llu x %s", (unsigned long long)count, e->desc);
	memset(&l, 0, sizeof(l));
	cp_runs_rep(&x, &M, &e->R, count, e->ext, 0);
	cp_runs_sort(&M);
	cp_summarize(&M, e->size * (int64_t)count, e->lb, e->ext, &l);
	if (!M.over && M.n == 1 && M.r[0].n == 1 &&
	    M.r[0].len == l.size_bytes) {
		/* the count elements fill one block */
		l.contiguous = 1;
		l.stride_bytes = l.block_bytes;
	}
	l.desc = d.buf;
	idx = cp_ent_add(&l);
	cp_runs_free(&M);
	return idx;
}

/* ---- handle table ---- */

/* The value of a generation: layout index and type size. */
static uint64_t cp_lt_val(uint32_t idx, uint64_t size)
{
	return (uint64_t)idx << CP_SIZE_BITS | size;
}

/* Decode t (size bytes) and make it the newest generation of its handle,
 * from now on.  Under cp_lt_lock.  A type made again at the handle of a
 * freed one with the same layout (a loop that makes and frees one type)
 * takes that generation back: records decode alike either side of the
 * free, and the list stays one long.  Returns its layout index, 0 when
 * the table or memory is full (t then stays unknown). */
static uint32_t cp_lt_add(MPI_Datatype t, uint64_t size)
{
	struct cp_htab *lt = atomic_load_explicit(&cp_lt,
						  memory_order_relaxed);
	struct cp_hgen *g;
	uint32_t idx;

	if (size > CP_SIZE_MASK || !lt)
		return 0;
	idx = cp_layout_add(t, (int64_t)size);
	g = cp_hgen_now(lt, (uintptr_t)t);
	if (g && atomic_load(&g->freed) && g->val == cp_lt_val(idx, size)) {
		atomic_store(&g->freed, 0);
		return idx;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return 0;
	g->val = cp_lt_val(idx, size);
	g->born = cp_ticks();
	if (cp_hgen_push(&lt, (uintptr_t)t, g)) {
		free(g);
		return 0;
	}
	atomic_store_explicit(&cp_lt, lt, memory_order_release);
	return idx;
}

static bool cp_mpi_usable(void)
{
	int init = 0, fini = 1;

	if (PMPI_Initialized(&init) != MPI_SUCCESS || !init)
		return false;
	return PMPI_Finalized(&fini) == MPI_SUCCESS && !fini;
}

/* Slow path of cp_layout_get: a handle not in the table, or freed. */
CP_COLD static uint32_t cp_layout_miss(MPI_Datatype t, uint64_t *size_out)
{
	uintptr_t k = (uintptr_t)t;
	struct cp_htab *lt;
	struct cp_hgen *g;
	MPI_Count size;
	uint32_t idx = 0;

	*size_out = 0;
	if (t == MPI_DATATYPE_NULL || !cp_htab_key_ok(k) || !cp_mpi_usable())
		return 0;
	pthread_mutex_lock(&cp_lt_lock);
	lt = atomic_load_explicit(&cp_lt, memory_order_relaxed);
	g = lt ? cp_hgen_now(lt, k) : NULL;
	if (g && !atomic_load(&g->freed)) {	/* another thread first */
		*size_out = g->val & CP_SIZE_MASK;
		idx = (uint32_t)(g->val >> CP_SIZE_BITS);
	} else if (PMPI_Type_size_x(t, &size) == MPI_SUCCESS && size >= 0) {
		*size_out = (uint64_t)size;
		idx = cp_lt_add(t, (uint64_t)size);
	}
	pthread_mutex_unlock(&cp_lt_lock);
	return idx;
}

/* Lock-free when t is known; the contract is in src/lib/cp_layout.h. */
uint32_t cp_layout_get(MPI_Datatype t, uint64_t *size_out)
{
	struct cp_htab *lt = atomic_load_explicit(&cp_lt,
						  memory_order_acquire);
	struct cp_hgen *g;

	if (cp_likely(lt != NULL)) {
		g = cp_hgen_now(lt, (uintptr_t)t);
		if (cp_likely(g && !atomic_load_explicit(
				&g->freed, memory_order_relaxed))) {
			*size_out = g->val & CP_SIZE_MASK;
			return (uint32_t)(g->val >> CP_SIZE_BITS);
		}
	}
	return cp_layout_miss(t, size_out);
}

/* The flusher's cursor into the generations (cp_layout_at, _retire). */
static struct cp_hgen_cursor cp_cur;

uint32_t cp_layout_at(MPI_Datatype t, uint64_t tick, uint64_t *size_out)
{
	struct cp_htab *lt = atomic_load_explicit(&cp_lt,
						  memory_order_acquire);
	struct cp_hgen *g = lt && cp_htab_key_ok((uintptr_t)t) ?
			    cp_hgen_at_cur(lt, &cp_cur, (uintptr_t)t, tick) :
			    NULL;

	if (!g) {
		*size_out = 0;
		return 0;
	}
	*size_out = g->val & CP_SIZE_MASK;
	return (uint32_t)(g->val >> CP_SIZE_BITS);
}

/* The layout of count elements of element layout idx, which does not
 * tile: derived once per (idx, count) while cached. */
CP_COLD static uint32_t cp_layout_miss_n(uint32_t idx, uint64_t count)
{
	uint32_t h = (uint32_t)(idx ^ count * 0x9e3779b9u) & (CP_NCACHE - 1);
	uint32_t n = idx;

	pthread_mutex_lock(&cp_lt_lock);
	if (cp_nc[h].idx && cp_nc[h].elem == idx && cp_nc[h].count == count) {
		n = cp_nc[h].idx;
	} else if (cp_elems[idx]) {
		n = cp_layout_add_n(cp_elems[idx], count);
		if (n) {
			cp_nc[h].elem = idx;
			cp_nc[h].count = count;
			cp_nc[h].idx = n;
		} else {
			n = idx;
		}
	}
	pthread_mutex_unlock(&cp_lt_lock);
	return n;
}

uint32_t cp_layout_n(uint32_t idx, uint64_t count)
{
	if (cp_likely(count <= 1 || idx == 0 || idx >= CP_ENT_MAX ||
		      cp_tiles[idx]))
		return idx;
	return cp_layout_miss_n(idx, count);
}

uint32_t cp_layout_get_n(MPI_Datatype t, uint64_t count, uint64_t *size_out)
{
	return cp_layout_n(cp_layout_get(t, size_out), count);
}

/* The application frees t: a later type at the same address is decoded
 * afresh.  Its generation stays for the records made before (until
 * cp_layout_gc()), its layout entry for good.  Cannot fail. */
void cp_layout_drop(MPI_Datatype t)
{
	uintptr_t k = (uintptr_t)t;
	struct cp_htab *lt;
	struct cp_hgen *g;

	if (!cp_htab_key_ok(k) || t == MPI_DATATYPE_NULL)
		return;
	pthread_mutex_lock(&cp_lt_lock);
	lt = atomic_load_explicit(&cp_lt, memory_order_relaxed);
	g = lt ? cp_hgen_now(lt, k) : NULL;
	if (g)
		atomic_store(&g->freed, 1);
	pthread_mutex_unlock(&cp_lt_lock);
}

/* Generations whose handle was freed, to cut once no record can need
 * them (the flusher's alone). */
static struct cp_gone {
	uintptr_t k;
	struct cp_hgen *g;	/* g->retired: when it may be cut */
} *cp_gone;
static size_t cp_gone_n, cp_gone_cap;

void cp_layout_retire(MPI_Datatype t, uint64_t tick, uint64_t cycle)
{
	struct cp_htab *lt = atomic_load_explicit(&cp_lt,
						  memory_order_acquire);
	struct cp_hgen *g = lt && cp_htab_key_ok((uintptr_t)t) ?
			    cp_hgen_at_cur(lt, &cp_cur, (uintptr_t)t, tick) :
			    NULL;
	struct cp_gone *n;

	if (!g || g->born == 0)		/* predefined: never cut */
		return;
	if (g->retired) {		/* listed: its grace starts again */
		g->retired = cycle;
		return;
	}
	if (cp_gone_n == cp_gone_cap) {
		size_t cap = cp_gone_cap ? 2 * cp_gone_cap : 64;

		n = realloc(cp_gone, cap * sizeof(*n));
		if (!n)
			return;		/* kept: costs memory only */
		cp_gone = n;
		cp_gone_cap = cap;
	}
	g->retired = cycle;
	cp_gone[cp_gone_n++] = (struct cp_gone){ (uintptr_t)t, g };
}

void cp_layout_gc(uint64_t cycle)
{
	size_t i, j = 0;

	for (i = 0; i < cp_gone_n; i++) {
		struct cp_gone *x = &cp_gone[i];
		bool cut = false;

		if (x->g->retired > cycle) {
			cp_gone[j++] = *x;
			continue;
		}
		pthread_mutex_lock(&cp_lt_lock);
		if (atomic_load(&x->g->freed))
			cut = cp_hgen_cut(atomic_load(&cp_lt), x->k, x->g);
		else		/* made again: it means its type again */
			x->g->retired = 0;
		pthread_mutex_unlock(&cp_lt_lock);
		if (cut) {
			cp_hgen_uncur(&cp_cur, x->k, x->g);
			free(x->g);
		}
	}
	cp_gone_n = j;
}

/* ---- life cycle ---- */

/* Predefined types worth having in the table before the first call. */
static void cp_layout_preload(void)
{
	const MPI_Datatype pre[] = {
		MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE,
		MPI_WCHAR, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT,
		MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
		MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE,
		MPI_LONG_DOUBLE, MPI_PACKED, MPI_FLOAT_INT, MPI_DOUBLE_INT,
		MPI_LONG_INT, MPI_SHORT_INT, MPI_2INT, MPI_LONG_DOUBLE_INT,
		MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T,
		MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T,
		MPI_C_BOOL, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
		MPI_C_LONG_DOUBLE_COMPLEX, MPI_AINT, MPI_OFFSET, MPI_COUNT,
		MPI_CHARACTER, MPI_LOGICAL, MPI_INTEGER, MPI_REAL,
		MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_DOUBLE_COMPLEX,
		MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER,
#ifdef MPI_INTEGER4
		MPI_INTEGER4,
#endif
#ifdef MPI_INTEGER8
		MPI_INTEGER8,
#endif
#ifdef MPI_REAL4
		MPI_REAL4,
#endif
#ifdef MPI_REAL8
		MPI_REAL8,
#endif
	};
	uintptr_t knull = (uintptr_t)MPI_DATATYPE_NULL;
	struct cp_hgen *g;
	MPI_Count size;
	size_t i;

	for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		if (pre[i] == MPI_DATATYPE_NULL ||
		    cp_htab_find(cp_lt, (uintptr_t)pre[i]) != CP_HTAB_NONE ||
		    PMPI_Type_size_x(pre[i], &size) != MPI_SUCCESS)
			continue;
		cp_lt_add(pre[i], (uint64_t)size);
	}
	/* what they meant holds from before the first call on */
	for (i = 0; i <= cp_lt->mask; i++) {
		uintptr_t k = atomic_load(&cp_lt->s[i].key);

		if (cp_htab_key_ok(k))
			((struct cp_hgen *)(uintptr_t)cp_htab_val(cp_lt,
								  i))->born = 0;
	}
	/* root-only arguments are often MPI_DATATYPE_NULL: keep it fast */
	if (cp_htab_key_ok(knull) && (g = calloc(1, sizeof(*g)))) {
		struct cp_htab *lt = cp_lt;

		if (cp_hgen_push(&lt, knull, g))
			free(g);
	}
}

int cp_layout_init(void)
{
	struct cp_lent *e;
	struct cp_htab *lt;
	int rc = 0;

	pthread_mutex_lock(&cp_lt_lock);
	if (atomic_load_explicit(&cp_lt, memory_order_relaxed))
		goto out_unlock;
	rc = -ENOMEM;
	e = calloc(128, sizeof(*e));
	/* under 3/4 full, a lookup of an absent type ends on an empty slot */
	lt = cp_htab_new(CP_LT_SLOTS, CP_LT_SLOTS, CP_LT_SLOTS / 4 * 3);
	if (!e || !lt) {
		free(e);
		cp_htab_free(lt);
		goto out_unlock;
	}
	e[0].l = (struct cp_db_layout){ .index = 0, .size_bytes = -1,
		.extent_bytes = -1, .block_bytes = -1, .stride_bytes = -1,
		.nblocks = -1, .desc = "unknown" };
	cp_shape[0] = CP_SHAPE_IRREGULAR;
	cp_ents = e;
	cp_ents_cap = 128;
	memset(cp_ehead, 0, sizeof(cp_ehead));
	atomic_store_explicit(&cp_nents, 1, memory_order_release);
	atomic_store_explicit(&cp_lt, lt, memory_order_release);
	if (cp_mpi_usable())
		cp_layout_preload();
	rc = 0;
out_unlock:
	pthread_mutex_unlock(&cp_lt_lock);
	return rc;
}

uint32_t cp_layout_count(void)
{
	return atomic_load_explicit(&cp_nents, memory_order_acquire);
}

uint64_t cp_layout_shape(uint32_t index)
{
	if (index >= CP_ENT_MAX)
		return CP_SHAPE_IRREGULAR;
	return cp_shape[index];
}

int cp_layout_describe(uint32_t index, struct cp_db_layout *out)
{
	int rc = -EINVAL;

	pthread_mutex_lock(&cp_lt_lock);
	if (index < atomic_load_explicit(&cp_nents, memory_order_relaxed)) {
		*out = cp_ents[index].l;
		rc = 0;
	}
	pthread_mutex_unlock(&cp_lt_lock);
	return rc;
}

/* Free every generation of the current table (older tables point to
 * the same ones, or to ones cut and freed already). */
static void cp_lt_free_gens(struct cp_htab *lt)
{
	struct cp_hgen *g, *o;

	for (uint32_t i = 0; lt && i <= lt->mask; i++) {
		if (!cp_htab_key_ok(atomic_load(&lt->s[i].key)))
			continue;
		for (g = (struct cp_hgen *)(uintptr_t)cp_htab_val(lt, i); g;
		     g = o) {
			o = g->older;
			free(g);
		}
	}
}

void cp_layout_fini(void)
{
	struct cp_htab *lt;
	uint32_t i, n;

	pthread_mutex_lock(&cp_lt_lock);
	lt = atomic_exchange(&cp_lt, NULL);
	cp_lt_free_gens(lt);
	cp_htab_free(lt);
	free(cp_gone);
	cp_gone = NULL;
	cp_gone_n = cp_gone_cap = 0;
	n = atomic_exchange(&cp_nents, 0);
	for (i = 1; i < n; i++) {
		free((char *)cp_ents[i].l.desc);
		if (i < CP_ENT_MAX && cp_elems[i]) {
			cp_runs_free(&cp_elems[i]->R);
			free(cp_elems[i]);
			cp_elems[i] = NULL;
		}
	}
	free(cp_ents);
	cp_ents = NULL;
	cp_ents_cap = 0;
	memset(cp_nc, 0, sizeof(cp_nc));
	memset(cp_tiles, 0, sizeof(cp_tiles));
	pthread_mutex_unlock(&cp_lt_lock);
}
