/*
 * cp_coll_rules.c - names of the collective algorithms and the decision
 * Open MPI 4.1's coll/tuned takes between them (cp_coll.h).
 *
 * The fixed rules are those of coll_tuned_decision_fixed.c in Open MPI
 * 4.1: for each operation, brackets of communicator size, and in each a
 * ladder of "message size below this: that algorithm".  They are data
 * here rather than code, so that a bracket reads as the original does.
 * The message size is the one coll/tuned decides on: count times the
 * type size of the call's per-process block (reduce_scatter_block: of
 * the result block); for allgatherv the bytes of all blocks over P
 * (integer division), for reduce_scatter the bytes of all blocks.
 */
#include <limits.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "analysis/cp_coll.h"

/* One bracket: communicator size below p_lt, then below lt[k] bytes:
 * alg[k]; the first lt of 0 ends the ladder with its alg (the "else"). */
struct bracket {
	int p_lt;
	struct {
		int64_t lt;
		int alg;
	} c[12];
};

#define ANYP INT_MAX

static const struct bracket barrier_fixed[] = {
	{ 4, { { 0, 3 } } }, { 8, { { 0, 1 } } }, { 64, { { 0, 3 } } },
	{ 256, { { 0, 4 } } }, { 512, { { 0, 6 } } }, { 1024, { { 0, 4 } } },
	{ 4096, { { 0, 6 } } }, { ANYP, { { 0, 4 } } },
};

static const struct bracket bcast_fixed[] = {
	{ 4, { { 32, 3 }, { 256, 5 }, { 512, 3 }, { 1024, 7 }, { 32768, 1 },
	       { 131072, 5 }, { 262144, 2 }, { 524288, 1 }, { 1048576, 6 },
	       { 0, 5 } } },
	{ 8, { { 64, 5 }, { 128, 6 }, { 2048, 5 }, { 8192, 6 },
	       { 1048576, 1 }, { 0, 2 } } },
	{ 16, { { 8, 7 }, { 64, 5 }, { 4096, 7 }, { 16384, 5 }, { 32768, 6 },
		{ 0, 1 } } },
	{ 32, { { 4096, 7 }, { 1048576, 6 }, { 0, 8 } } },
	{ 64, { { 2048, 6 }, { 0, 7 } } },
	{ 128, { { 0, 7 } } },
	{ 256, { { 2, 6 }, { 16384, 5 }, { 32768, 1 }, { 65536, 5 },
		 { 0, 7 } } },
	{ 1024, { { 16384, 7 }, { 32768, 4 }, { 0, 7 } } },
	{ 2048, { { 524288, 7 }, { 0, 8 } } },
	{ 4096, { { 262144, 7 }, { 0, 8 } } },
	{ ANYP, { { 8192, 7 }, { 16384, 5 }, { 262144, 7 }, { 0, 8 } } },
};

static const struct bracket reduce_fixed[] = {
	{ 4, { { 8, 7 }, { 16, 4 }, { 32, 3 }, { 262144, 1 }, { 524288, 3 },
	       { 1048576, 2 }, { 0, 3 } } },
	{ 8, { { 4096, 4 }, { 65536, 2 }, { 262144, 5 }, { 524288, 1 },
	       { 1048576, 5 }, { 0, 1 } } },
	{ 16, { { 8192, 4 }, { 0, 5 } } },
	{ 32, { { 4096, 4 }, { 0, 5 } } },
	{ 256, { { 0, 5 } } },
	{ 512, { { 8192, 5 }, { 16384, 6 }, { 0, 5 } } },
	{ 2048, { { 0, 5 } } },
	{ 4096, { { 512, 5 }, { 1024, 6 }, { 8192, 5 }, { 16384, 6 },
		  { 0, 5 } } },
	{ ANYP, { { 16, 5 }, { 32, 6 }, { 1024, 5 }, { 2048, 6 }, { 8192, 5 },
		  { 16384, 6 }, { 0, 5 } } },
};

static const struct bracket reduce_noncommute[] = {
	{ 4, { { 8, 6 }, { 0, 1 } } },
	{ 8, { { 0, 1 } } },
	{ 16, { { 1024, 6 }, { 8192, 1 }, { 16384, 6 }, { 262144, 1 },
		{ 0, 6 } } },
	{ 128, { { 0, 6 } } },
	{ 256, { { 512, 6 }, { 1024, 1 }, { 0, 6 } } },
	{ ANYP, { { 0, 6 } } },
};

static const struct bracket allreduce_fixed[] = {
	{ 4, { { 8, 4 }, { 4096, 3 }, { 8192, 4 }, { 16384, 3 }, { 65536, 4 },
	       { 262144, 5 }, { 0, 6 } } },
	{ 8, { { 16, 4 }, { 8192, 3 }, { 0, 6 } } },
	{ 16, { { 8192, 3 }, { 0, 6 } } },
	{ 32, { { 64, 5 }, { 4096, 3 }, { 0, 6 } } },
	{ 64, { { 128, 5 }, { 0, 6 } } },
	{ 128, { { 262144, 3 }, { 0, 6 } } },
	{ 256, { { 131072, 2 }, { 262144, 3 }, { 0, 6 } } },
	{ 512, { { 4096, 2 }, { 0, 6 } } },
	{ 2048, { { 2048, 2 }, { 16384, 3 }, { 0, 6 } } },
	{ 4096, { { 2048, 2 }, { 4096, 5 }, { 16384, 3 }, { 0, 6 } } },
	{ ANYP, { { 2048, 2 }, { 16384, 5 }, { 32768, 3 }, { 0, 6 } } },
};

static const struct bracket allreduce_noncommute[] = {
	{ 4, { { 131072, 3 }, { 0, 1 } } },
	{ 8, { { 0, 3 } } },
	{ 16, { { 1048576, 3 }, { 0, 2 } } },
	{ 128, { { 0, 3 } } },
	{ 256, { { 131072, 2 }, { 524288, 3 }, { 0, 2 } } },
	{ 512, { { 4096, 2 }, { 524288, 3 }, { 0, 2 } } },
	{ ANYP, { { 2048, 2 }, { 0, 3 } } },
};

static const struct bracket allgather_fixed[] = {
	{ 3, { { 0, 6 } } },
	{ 32, { { 0, 3 } } },
	{ 64, { { 1024, 3 }, { 65536, 5 }, { 0, 4 } } },
	{ 128, { { 512, 3 }, { 65536, 5 }, { 0, 4 } } },
	{ 256, { { 512, 3 }, { 131072, 5 }, { 524288, 4 }, { 1048576, 5 },
		 { 0, 4 } } },
	{ 512, { { 32, 3 }, { 128, 2 }, { 1024, 3 }, { 131072, 5 },
		 { 524288, 4 }, { 1048576, 5 }, { 0, 4 } } },
	{ 1024, { { 64, 3 }, { 256, 2 }, { 2048, 3 }, { 0, 5 } } },
	{ 2048, { { 4, 3 }, { 8, 2 }, { 16, 3 }, { 32, 2 }, { 256, 3 },
		  { 512, 2 }, { 4096, 3 }, { 0, 5 } } },
	{ 4096, { { 32, 2 }, { 128, 3 }, { 512, 2 }, { 4096, 3 },
		  { 0, 5 } } },
	{ ANYP, { { 2, 3 }, { 8, 2 }, { 16, 3 }, { 512, 2 }, { 4096, 3 },
		  { 0, 5 } } },
};

static const struct bracket alltoall_fixed[] = {
	{ 3, { { 2, 2 }, { 4, 5 }, { 16, 2 }, { 64, 5 }, { 256, 2 },
	       { 4096, 5 }, { 32768, 2 }, { 262144, 4 }, { 1048576, 5 },
	       { 0, 2 } } },
	{ 8, { { 8192, 4 }, { 16384, 1 }, { 65536, 4 }, { 524288, 1 },
	       { 1048576, 2 }, { 0, 1 } } },
	{ 16, { { 262144, 4 }, { 0, 1 } } },
	{ 32, { { 4, 4 }, { 512, 3 }, { 8192, 4 }, { 32768, 1 },
		{ 262144, 4 }, { 524288, 1 }, { 0, 4 } } },
	{ 64, { { 512, 3 }, { 524288, 1 }, { 0, 4 } } },
	{ 128, { { 1024, 3 }, { 2048, 1 }, { 4096, 4 }, { 262144, 1 },
		 { 0, 2 } } },
	{ 256, { { 1024, 3 }, { 2048, 4 }, { 262144, 1 }, { 0, 2 } } },
	{ 512, { { 1024, 3 }, { 8192, 4 }, { 32768, 1 }, { 0, 2 } } },
	{ 1024, { { 512, 3 }, { 8192, 4 }, { 16384, 1 }, { 131072, 4 },
		  { 262144, 1 }, { 0, 2 } } },
	{ 2048, { { 512, 3 }, { 1024, 4 }, { 2048, 1 }, { 16384, 4 },
		  { 262144, 1 }, { 0, 4 } } },
	{ 4096, { { 1024, 3 }, { 4096, 4 }, { 8192, 1 }, { 131072, 4 },
		  { 0, 1 } } },
	{ ANYP, { { 2048, 3 }, { 8192, 4 }, { 16384, 1 }, { 32768, 4 },
		  { 65536, 1 }, { 0, 4 } } },
};

static const struct bracket gather_fixed[] = {
	{ 4, { { 2, 3 }, { 4, 1 }, { 32768, 2 }, { 65536, 1 }, { 131072, 2 },
	       { 0, 3 } } },
	{ 8, { { 1024, 2 }, { 8192, 1 }, { 32768, 2 }, { 262144, 1 },
	       { 0, 3 } } },
	{ 256, { { 0, 2 } } },
	{ 512, { { 2048, 2 }, { 8192, 1 }, { 0, 2 } } },
	{ ANYP, { { 0, 2 } } },
};

static const struct bracket scatter_fixed[] = {
	{ 4, { { 2, 3 }, { 131072, 1 }, { 262144, 3 }, { 0, 1 } } },
	{ 8, { { 2048, 2 }, { 4096, 1 }, { 8192, 2 }, { 32768, 1 },
	       { 1048576, 3 }, { 0, 1 } } },
	{ 16, { { 16384, 2 }, { 1048576, 3 }, { 0, 1 } } },
	{ 32, { { 16384, 2 }, { 32768, 1 }, { 0, 3 } } },
	{ 64, { { 512, 2 }, { 8192, 3 }, { 16384, 2 }, { 0, 3 } } },
	{ ANYP, { { 512, 2 }, { 0, 3 } } },
};

static const struct bracket rsb_fixed[] = {
	{ 4, { { 4, 2 }, { 8, 4 }, { 16, 3 }, { 128, 4 }, { 256, 3 },
	       { 4096, 4 }, { 8192, 3 }, { 131072, 4 }, { 0, 1 } } },
	{ 8, { { 8, 3 }, { 32, 2 }, { 256, 4 }, { 8192, 3 }, { 16384, 4 },
	       { 1048576, 3 }, { 0, 1 } } },
	{ 16, { { 4, 1 }, { 32, 3 }, { 128, 4 }, { 524288, 3 },
		{ 4194304, 1 }, { 0, 4 } } },
	{ 32, { { 32, 1 }, { 524288, 3 }, { 2097152, 1 }, { 4194304, 3 },
		{ 0, 4 } } },
	{ ANYP, { { 4, 3 }, { 16, 1 }, { 65536, 4 }, { 262144, 1 },
		  { 0, 4 } } },
};

static const struct bracket rsb_noncommute[] = {
	{ ANYP, { { 0, 1 } } },
};

/* on the bytes of all blocks over P */
static const struct bracket allgatherv_fixed[] = {
	{ 3, { { 2048, 3 }, { 4096, 5 }, { 8192, 3 }, { 0, 5 } } },
	{ 8, { { 256, 1 }, { 4096, 4 }, { 8192, 3 }, { 16384, 4 },
	       { 262144, 2 }, { 0, 4 } } },
	{ 16, { { 1024, 1 }, { 0, 2 } } },
	{ 32, { { 128, 1 }, { 262144, 2 }, { 0, 3 } } },
	{ 64, { { 256, 1 }, { 8192, 2 }, { 0, 3 } } },
	{ 128, { { 256, 1 }, { 4096, 2 }, { 0, 3 } } },
	{ 256, { { 1024, 2 }, { 65536, 4 }, { 0, 3 } } },
	{ 512, { { 1024, 2 }, { 0, 3 } } },
	{ 1024, { { 512, 2 }, { 1024, 1 }, { 4096, 2 }, { 1048576, 4 },
		  { 0, 3 } } },
	{ ANYP, { { 4096, 2 }, { 0, 4 } } },
};

/* on the bytes of all blocks */
static const struct bracket rs_fixed[] = {
	{ 4, { { 65536, 3 }, { 131072, 4 }, { 0, 3 } } },
	{ 8, { { 8, 1 }, { 262144, 2 }, { 0, 3 } } },
	{ 32, { { 262144, 2 }, { 0, 3 } } },
	{ 64, { { 64, 1 }, { 2048, 2 }, { 524288, 4 }, { 0, 3 } } },
	{ 128, { { 256, 1 }, { 512, 2 }, { 2048, 4 }, { 4096, 2 },
		 { 0, 4 } } },
	{ 256, { { 256, 1 }, { 512, 2 }, { 0, 4 } } },
	{ 512, { { 256, 1 }, { 1024, 2 }, { 0, 4 } } },
	{ 1024, { { 512, 1 }, { 2048, 2 }, { 8192, 4 }, { 16384, 2 },
		  { 0, 4 } } },
	{ 2048, { { 512, 1 }, { 4096, 2 }, { 16384, 4 }, { 32768, 2 },
		  { 0, 4 } } },
	{ 4096, { { 512, 1 }, { 4096, 2 }, { 0, 4 } } },
	{ ANYP, { { 1024, 1 }, { 8192, 2 }, { 0, 4 } } },
};

static const struct bracket rs_noncommute[] = {
	{ ANYP, { { 0, 1 } } },
};

static int ladder(const struct bracket *b, int p, int64_t bytes)
{
	int k;

	while (p >= b->p_lt)
		b++;
	for (k = 0; b->c[k].lt && bytes >= b->c[k].lt; k++)
		;
	return b->c[k].alg;
}

static int fixed(const struct cp_coll_call *c, int64_t bytes)
{
	int p = c->nprocs;

	switch (c->op) {
	case CP_COLL_BARRIER:
		return ladder(barrier_fixed, p, 0);
	case CP_COLL_BCAST:
		return ladder(bcast_fixed, p, bytes);
	case CP_COLL_REDUCE:
		return ladder(c->commute ? reduce_fixed : reduce_noncommute, p,
			      bytes);
	case CP_COLL_ALLREDUCE:
		return ladder(c->commute ? allreduce_fixed :
			      allreduce_noncommute, p, bytes);
	case CP_COLL_ALLGATHER:
		return ladder(allgather_fixed, p, bytes);
	case CP_COLL_ALLTOALL:
		return ladder(alltoall_fixed, p, bytes);
	case CP_COLL_GATHER:
		return ladder(gather_fixed, p, bytes);
	case CP_COLL_SCATTER:
		return ladder(scatter_fixed, p, bytes);
	case CP_COLL_REDUCE_SCATTER_BLOCK:
		return ladder(c->commute ? rsb_fixed : rsb_noncommute, p,
			      bytes);
	case CP_COLL_SCAN:
	case CP_COLL_EXSCAN:
		/* without forced rules, coll/basic's chain
		 * (ompi_coll_base_(ex)scan_intra_linear), the same as
		 * coll/tuned's algorithm 1 */
		return 1;
	case CP_COLL_ALLGATHERV:
		return ladder(allgatherv_fixed, p, bytes / p);
	case CP_COLL_REDUCE_SCATTER:
		return ladder(c->commute ? rs_fixed : rs_noncommute, p, bytes);
	default:
		return -CP_COLL_E_ARG;
	}
}

int64_t cp_coll_total(const struct cp_coll_call *c)
{
	int64_t sum = 0;
	int i;

	if (!c->counts)
		return c->count * c->nprocs;
	for (i = 0; i < c->nprocs; i++) {
		if (c->counts[i] < 0 || c->counts[i] > INT64_MAX / 2 - sum)
			return -1;
		sum += c->counts[i];
	}
	return sum;
}

int cp_coll_decide(const struct cp_coll_call *c, const struct cp_coll_mca *mca)
{
	/* coll/tuned multiplies an int count by a size_t type size; a
	 * block of 2^63 bytes or more is no call's (a damaged row's) */
	double bytes = c ? (double)c->count * c->type_bytes : 0;

	if (c && c->nprocs >= 1 && (c->op == CP_COLL_ALLGATHERV ||
				    c->op == CP_COLL_REDUCE_SCATTER))
		bytes = (double)cp_coll_total(c) * c->type_bytes;
	if (!c || c->op < 0 || c->op >= CP_COLL_NOPS || c->nprocs < 1 ||
	    c->count < 0 || !(c->type_bytes >= 0) || !(bytes >= 0) ||
	    !(bytes < 0x1p63))
		return -CP_COLL_E_ARG;
	if (mca && mca->use_dynamic && mca->alg[c->op] > 0)
		return mca->alg[c->op];
	if (mca && mca->use_dynamic && mca->rules_file)
		return -CP_COLL_E_RULES;
	return fixed(c, (int64_t)bytes);
}

/* ---- names ---- */

static const char *const op_names[CP_COLL_NOPS] = {
#define CP_COLL_OP_NAME(id, name) #name,
	CP_COLL_OP_MAP(CP_COLL_OP_NAME)
#undef CP_COLL_OP_NAME
};

void cp_coll_mca_default(struct cp_coll_mca *m)
{
	int op;

	memset(m, 0, sizeof(*m));
	for (op = 0; op < CP_COLL_NOPS; op++) {
		m->tree_fanout[op] = 4;
		m->chain_fanout[op] = 4;
	}
	m->bcast_radix = 4;
}

void cp_coll_mca_format(const struct cp_coll_mca *m, char *buf, size_t len)
{
	struct cp_coll_mca d;
	size_t k;
	int op, w;

	if (!len)
		return;
	cp_coll_mca_default(&d);
	w = snprintf(buf, len, "dynamic=%d rules=%d radix=%d",
		     m->use_dynamic, m->rules_file, m->bcast_radix);
	k = w < 0 ? 0 : (size_t)w;
	for (op = 0; op < CP_COLL_NOPS && k < len; op++) {
		if (m->alg[op] == d.alg[op] &&
		    m->segsize[op] == d.segsize[op] &&
		    m->tree_fanout[op] == d.tree_fanout[op] &&
		    m->chain_fanout[op] == d.chain_fanout[op] &&
		    m->max_requests[op] == d.max_requests[op])
			continue;
		w = snprintf(buf + k, len - k, " %s=%d,%d,%d,%d,%d",
			     cp_coll_op_name(op), m->alg[op], m->segsize[op],
			     m->tree_fanout[op], m->chain_fanout[op],
			     m->max_requests[op]);
		k += w < 0 ? 0 : (size_t)w;
	}
}

/* One word of cp_coll_mca_format into m; false if not one of them. */
static bool parse_word(const char *w, size_t n, struct cp_coll_mca *m)
{
	int op, v[5], a;

	if (sscanf(w, "dynamic=%d", &a) == 1 && !strncmp(w, "dynamic=", 8)) {
		m->use_dynamic = a;
		return true;
	}
	if (sscanf(w, "rules=%d", &a) == 1 && !strncmp(w, "rules=", 6)) {
		m->rules_file = a;
		return true;
	}
	if (sscanf(w, "radix=%d", &a) == 1 && !strncmp(w, "radix=", 6)) {
		m->bcast_radix = a;
		return true;
	}
	for (op = 0; op < CP_COLL_NOPS; op++) {
		size_t l = strlen(op_names[op]);

		if (l < n && !strncmp(w, op_names[op], l) && w[l] == '=' &&
		    sscanf(w + l + 1, "%d,%d,%d,%d,%d", &v[0], &v[1], &v[2],
			   &v[3], &v[4]) == 5) {
			m->alg[op] = v[0];
			m->segsize[op] = v[1];
			m->tree_fanout[op] = v[2];
			m->chain_fanout[op] = v[3];
			m->max_requests[op] = v[4];
			return true;
		}
	}
	return false;
}

int cp_coll_mca_parse(const char *text, struct cp_coll_mca *m)
{
	const char *w = text;
	size_t n;

	cp_coll_mca_default(m);
	while (w && *w) {
		w += strspn(w, " ");
		n = strcspn(w, " ");
		if (!n)
			break;
		if (!parse_word(w, n, m)) {
			cp_coll_mca_default(m);
			return -CP_COLL_E_ARG;
		}
		w += n;
	}
	return 0;
}

static const struct {
	int op, alg, modelled;
	const char *name;
} algs[] = {
#define CP_COLL_ALG_ROW(op, num, name, mod) \
	{ CP_COLL_##op, num, mod, name },
	CP_COLL_ALG_MAP(CP_COLL_ALG_ROW)
#undef CP_COLL_ALG_ROW
};

const char *cp_coll_op_name(int op)
{
	return op >= 0 && op < CP_COLL_NOPS ? op_names[op] : NULL;
}

static int alg_row(int op, int alg)
{
	size_t k;

	for (k = 0; k < sizeof(algs) / sizeof(algs[0]); k++)
		if (algs[k].op == op && algs[k].alg == alg)
			return (int)k;
	return -1;
}

const char *cp_coll_alg_name(int op, int alg)
{
	int k = alg_row(op, alg);

	return k < 0 ? NULL : algs[k].name;
}

bool cp_coll_alg_modelled(int op, int alg)
{
	int k = alg_row(op, alg);

	return k >= 0 && algs[k].modelled;
}

/* MPI functions priced as a collective, in the order of cp_coll_fn. */
static const struct {
	const char *name;
	enum cp_coll_op op;
} coll_fns[] = {
	{ "MPI_Barrier", CP_COLL_BARRIER }, { "MPI_Ibarrier", CP_COLL_BARRIER },
	{ "MPI_Bcast", CP_COLL_BCAST }, { "MPI_Ibcast", CP_COLL_BCAST },
	{ "MPI_Reduce", CP_COLL_REDUCE }, { "MPI_Ireduce", CP_COLL_REDUCE },
	{ "MPI_Allreduce", CP_COLL_ALLREDUCE },
	{ "MPI_Iallreduce", CP_COLL_ALLREDUCE },
	{ "MPI_Allgather", CP_COLL_ALLGATHER },
	{ "MPI_Iallgather", CP_COLL_ALLGATHER },
	{ "MPI_Alltoall", CP_COLL_ALLTOALL },
	{ "MPI_Ialltoall", CP_COLL_ALLTOALL },
	{ "MPI_Gather", CP_COLL_GATHER }, { "MPI_Igather", CP_COLL_GATHER },
	{ "MPI_Scatter", CP_COLL_SCATTER }, { "MPI_Iscatter", CP_COLL_SCATTER },
	{ "MPI_Reduce_scatter_block", CP_COLL_REDUCE_SCATTER_BLOCK },
	{ "MPI_Ireduce_scatter_block", CP_COLL_REDUCE_SCATTER_BLOCK },
	{ "MPI_Scan", CP_COLL_SCAN }, { "MPI_Iscan", CP_COLL_SCAN },
	{ "MPI_Exscan", CP_COLL_EXSCAN }, { "MPI_Iexscan", CP_COLL_EXSCAN },
	{ "MPI_Allgatherv", CP_COLL_ALLGATHERV },
	{ "MPI_Iallgatherv", CP_COLL_ALLGATHERV },
	{ "MPI_Reduce_scatter", CP_COLL_REDUCE_SCATTER },
	{ "MPI_Ireduce_scatter", CP_COLL_REDUCE_SCATTER },
};

int cp_coll_fn(const char *mpi_name, enum cp_coll_op *op)
{
	size_t i;

	for (i = 0; mpi_name && i < sizeof(coll_fns) / sizeof(coll_fns[0]);
	     i++)
		if (!strcmp(coll_fns[i].name, mpi_name)) {
			if (op)
				*op = coll_fns[i].op;
			return (int)i;
		}
	return -1;
}
