/*
 * cp_red_mpi.c - the reduction of a run with MPI as its transport
 * (src/reduce/cp_red_mpi.h).
 *
 * A rank that fails on its own (memory) must not leave the others in a
 * collective: it goes on with empty data, sets m->bad, and the next
 * cp_red_mpi_go (or the tree's headers, which carry -1 for "spoiled")
 * tells everyone.  Message sizes travel first, so that a receiver never
 * guesses; errors return (MPI_ERRORS_RETURN on the duplicate).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cp_err.h"
#include "src/common/cp_clock.h"
#include "src/reduce/cp_red_mpi.h"

#define CP_RED_TAG_LEN	77	/* the tree: a packed summary's length */
#define CP_RED_TAG_SUM	78	/* the tree: its bytes */

int cp_red_mpi_init(struct cp_red_mpi *m, MPI_Comm comm, int64_t budget_ms)
{
	memset(m, 0, sizeof(*m));
	m->comm = comm;
	PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
	PMPI_Comm_rank(comm, &m->rank);
	PMPI_Comm_size(comm, &m->size);
	if (budget_ms > 0)
		m->deadline_ns = cp_clock_ns() + budget_ms * 1000000;
	m->out = calloc(m->size > 0 ? (size_t)m->size : 1, sizeof(*m->out));
	return m->out ? 0 : -CP_ENOMEM;
}

void cp_red_mpi_free(struct cp_red_mpi *m)
{
	int i;

	for (i = 0; m->out && i < m->size; i++)
		free(m->out[i].v);
	free(m->out);
	m->out = NULL;
}

int cp_red_mpi_emit(void *arg, uint32_t h, const struct cp_red_rec *r)
{
	struct cp_red_mpi *m = arg;
	struct cp_red_bucket *b = &m->out[h];
	struct cp_red_rec *v;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;

		v = realloc(b->v, cap * sizeof(*v));
		if (!v) {
			m->bad = true;
			return -CP_ENOMEM;
		}
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = *r;
	return 0;
}

bool cp_red_mpi_go(struct cp_red_mpi *m, bool ok)
{
	int mine, all = 0;

	mine = ok && !m->bad &&
	       !(m->deadline_ns && cp_clock_ns() > m->deadline_ns);
	if (PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, m->comm) !=
	    MPI_SUCCESS)
		return false;
	return all == 1;
}

int cp_red_mpi_states(struct cp_red_mpi *m, uint8_t mine, uint8_t **state)
{
	uint8_t *s = malloc(m->size > 0 ? (size_t)m->size : 1);

	*state = NULL;
	/* a collective call takes every rank, with room for what comes */
	if (!cp_red_mpi_go(m, s != NULL)) {
		free(s);
		return -CP_ENOMEM;
	}
	if (PMPI_Allgather(&mine, 1, MPI_BYTE, s, 1, MPI_BYTE, m->comm) !=
	    MPI_SUCCESS) {
		m->bad = true;
		free(s);
		return -CP_EINVAL;
	}
	*state = s;
	return 0;
}

int cp_red_mpi_states_or(struct cp_red_mpi *m, uint8_t **state, int32_t *n)
{
	int32_t most = 0;
	uint8_t *s = NULL;

	if (PMPI_Allreduce(n, &most, 1, MPI_INT32_T, MPI_MAX, m->comm) !=
	    MPI_SUCCESS)
		m->bad = true;
	if (!m->bad) {
		s = calloc(most > 0 ? (size_t)most : 1, 1);
		if (s && *n > 0)
			memcpy(s, *state, (size_t)*n);
	}
	if (!cp_red_mpi_go(m, s != NULL)) {
		free(s);
		return -CP_ENOMEM;
	}
	if (most > 0 && PMPI_Allreduce(MPI_IN_PLACE, s, most, MPI_UINT8_T,
				       MPI_BOR, m->comm) != MPI_SUCCESS) {
		m->bad = true;
		free(s);
		return -CP_EINVAL;
	}
	free(*state);
	*state = s;
	*n = most;
	return 0;
}

/* Counts and displacements in bytes of the all-to-all; false when a sum
 * does not fit an int (MPI's counts). */
static bool cp_red_displs(const int *count, int *displ, int size,
			  size_t *total)
{
	size_t t = 0;
	int i;

	for (i = 0; i < size; i++) {
		if (t > INT_MAX)
			return false;
		displ[i] = (int)t;
		t += (size_t)count[i];
	}
	*total = t;
	return t <= INT_MAX;
}

/* The kept records, home by home, into one buffer; each bucket freed as
 * it is copied.  NULL when out of memory (buckets kept). */
static struct cp_red_rec *cp_red_flatten(struct cp_red_mpi *m, size_t bytes)
{
	struct cp_red_rec *all = malloc(bytes ? bytes : 1);
	size_t at = 0;
	int i;

	for (i = 0; all && i < m->size; i++) {
		if (m->out[i].n)	/* an empty bucket has no buffer */
			memcpy(all + at, m->out[i].v,
			       m->out[i].n * sizeof(*all));
		at += m->out[i].n;
		free(m->out[i].v);
		m->out[i].v = NULL;
		m->out[i].cap = 0;
	}
	return all;
}

int cp_red_mpi_exchange(struct cp_red_mpi *m, struct cp_red_rec **in,
			size_t *n)
{
	int *sc = calloc((size_t)m->size, sizeof(int)),
	    *rc = calloc((size_t)m->size, sizeof(int)),
	    *sd = calloc((size_t)m->size, sizeof(int)),
	    *rd = calloc((size_t)m->size, sizeof(int));
	struct cp_red_rec *send = NULL, *recv = NULL;
	size_t sbytes = 0, rbytes = 0;
	bool ok = sc && rc && sd && rd;
	int i, ret = -CP_EINVAL;

	*in = NULL;
	*n = 0;
	if (!cp_red_mpi_go(m, ok))
		goto out_free;
	for (i = 0; i < m->size; i++) {
		if (m->out[i].n * sizeof(*send) > INT_MAX)
			m->bad = true;	/* sends nothing, spoils the sum */
		else
			sc[i] = (int)(m->out[i].n * sizeof(*send));
	}
	if (PMPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, m->comm) !=
	    MPI_SUCCESS ||
	    !cp_red_displs(sc, sd, m->size, &sbytes) ||
	    !cp_red_displs(rc, rd, m->size, &rbytes))
		m->bad = true;
	if (!m->bad) {
		recv = malloc(rbytes ? rbytes : 1);
		send = recv ? cp_red_flatten(m, sbytes) : NULL;
		ok = recv && send;
	}
	if (!cp_red_mpi_go(m, ok))
		goto out_free;
	if (PMPI_Alltoallv(send, sc, sd, MPI_BYTE, recv, rc, rd, MPI_BYTE,
			   m->comm) != MPI_SUCCESS) {
		m->bad = true;
		goto out_free;
	}
	*in = recv;
	*n = rbytes / sizeof(*recv);
	recv = NULL;
	ret = 0;
out_free:
	if (ret && !ok)
		ret = -CP_ENOMEM;
	free(send);
	free(recv);
	free(sc);
	free(rc);
	free(sd);
	free(rd);
	return ret;
}

/* Receive a child's summary into s; a spoiled or unreadable one sets
 * m->bad.  The message is always taken, so that the child goes on. */
static void cp_red_take(struct cp_red_mpi *m, int child, struct cp_red_sum *s)
{
	int64_t len = -1;
	char dummy;
	void *buf = NULL;

	if (PMPI_Recv(&len, 1, MPI_INT64_T, child, CP_RED_TAG_LEN, m->comm,
		      MPI_STATUS_IGNORE) != MPI_SUCCESS || len < 0) {
		m->bad = true;
		return;
	}
	buf = malloc(len ? (size_t)len : 1);
	/* without room the bytes are still taken (truncated: an error that
	 * returns), so the child is not left waiting */
	if (PMPI_Recv(buf ? buf : &dummy, buf ? (int)len : 0, MPI_BYTE, child,
		      CP_RED_TAG_SUM, m->comm, MPI_STATUS_IGNORE) !=
	    MPI_SUCCESS || !buf || cp_red_sum_unpack(s, buf, (size_t)len))
		m->bad = true;
	free(buf);
}

/* Send s to the parent: its length (-1: spoiled), then its bytes. */
static void cp_red_give(struct cp_red_mpi *m, int parent,
			const struct cp_red_sum *s)
{
	size_t len = m->bad ? 0 : cp_red_sum_pack(s, NULL, 0);
	void *buf = len && len <= INT_MAX ? malloc(len) : NULL;
	int64_t head = buf ? (int64_t)len : -1;

	if (buf)
		cp_red_sum_pack(s, buf, len);
	PMPI_Send(&head, 1, MPI_INT64_T, parent, CP_RED_TAG_LEN, m->comm);
	if (head >= 0)
		PMPI_Send(buf, (int)len, MPI_BYTE, parent, CP_RED_TAG_SUM,
			  m->comm);
	free(buf);
}

int cp_red_mpi_reduce(struct cp_red_mpi *m, struct cp_red_sum *s)
{
	int mask;

	/* rank r takes r + 1, r + 2, r + 4, ... below its lowest set bit,
	 * then gives to r - that bit: rank 0 ends with everything */
	for (mask = 1; mask < m->size; mask <<= 1) {
		if (m->rank & mask) {
			cp_red_give(m, m->rank - mask, s);
			break;
		}
		if (m->rank + mask < m->size)
			cp_red_take(m, m->rank + mask, s);
	}
	return m->bad ? -CP_EINVAL : 0;
}
