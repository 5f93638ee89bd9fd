/*
 * commprof_mpi.c - commprof-mpi, the MPI form of the commprof command.
 * "mpirun -np K commprof report DIR" hands itself over to it
 * (src/cli/cli_mpi.c), naming the run's directory in COMMPROF_MPI_RUN
 * (unset: nothing to reduce): the K ranks reduce that run with the code
 * the library runs at MPI_Finalize (src/reduce/cp_red_mpi.h), each rank
 * scanning a share of the rank files and matching a share of the
 * messages; rank 0 writes commprof-reduced.db there and then runs the
 * plain commprof with the same arguments, which takes that reduction
 * instead of scanning the rows again.  The other ranks print nothing.  No
 * distribution layer of our own: MPI moves the records.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "db/cp_db_read.h"
#include "src/common/cp_clock.h"
#include "src/reduce/cp_red_mpi.h"

/* One rank file of the share of this rank. */
struct cp_mpi_file {
	char *path;
	int32_t rank;		/* world rank of the run */
	uint8_t state;		/* CP_RED_S_* */
};

struct cp_mpi {
	struct cp_red_mpi m;
	struct cp_red_sum sum;
	struct cp_red x;
	struct cp_mpi_file *f;	/* this rank's share */
	size_t nf, capf;
	size_t nall;		/* rank files of the run */
	int64_t epoch_ns;	/* of the first rank file */
	int64_t t0_ns;		/* cp_clock_ns() at the start */
};

/* Files i with i % size == rank are this rank's share. */
static int cp_mpi_file(void *arg, const char *path, int32_t rank)
{
	struct cp_mpi *c = arg;
	struct cp_db_rank_file meta;
	struct cp_mpi_file *v;
	int64_t epoch = 0;

	if (c->nall++ % (size_t)c->m.size != (size_t)c->m.rank)
		return 0;
	if (c->nf == c->capf) {
		size_t cap = c->capf ? 2 * c->capf : 16;

		v = realloc(c->f, cap * sizeof(*v));
		if (!v)
			return -CP_DB_ENOMEM;
		c->f = v;
		c->capf = cap;
	}
	v = &c->f[c->nf];
	v->path = strdup(path);
	if (!v->path)
		return -CP_DB_ENOMEM;
	c->nf++;
	v->rank = rank;
	v->state = 0;
	if (cp_db_rank_file_meta(path, &meta, &epoch))
		return 0;	/* damaged: the plain command will say so */
	if (meta.rank >= 0)
		v->rank = meta.rank;
	v->state = cp_red_rank_state(meta.dropped, meta.not_kept, meta.capped,
				     meta.sample, meta.by_identity);
	if (c->nall == 1)
		c->epoch_ns = epoch;
	return 0;
}

static int cp_mpi_row(void *arg, const struct cp_sum_row *r)
{
	return cp_red_scan_row(arg, r);
}

/* Scan this rank's share; the states of the run's ranks, OR'ed over the
 * ranks, into *state.  Collective.  Returns 0 or -1 (all stop). */
static int cp_mpi_scan(struct cp_mpi *c, uint8_t **state, int32_t *n)
{
	size_t i;

	*n = 0;
	for (i = 0; i < c->nf; i++)
		if (c->f[i].rank >= *n)
			*n = c->f[i].rank + 1;
	*state = calloc(*n > 0 ? (size_t)*n : 1, 1);
	if (!*state)
		c->m.bad = true;
	for (i = 0; *state && i < c->nf; i++)
		(*state)[c->f[i].rank] |= c->f[i].state;
	if (!*state)
		*n = 0;
	if (cp_red_mpi_states_or(&c->m, state, n))
		return -1;
	cp_red_init(&c->x, &c->sum, (uint32_t)c->m.size, cp_red_mpi_emit,
		    &c->m);
	for (i = 0; i < c->nf; i++)
		/* a damaged file gives the rows before the damage; a row
		 * out of order spoils no other file */
		cp_db_scan_file(c->f[i].path, c->f[i].rank, cp_mpi_row,
				&c->x);
	return 0;
}

static void cp_mpi_meta_int(struct cp_db *db, const char *key, long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%lld", v);
	cp_db_put_meta(db, key, s);
}

/* Rank 0: the reduction beside the rank files. */
static int cp_mpi_write(struct cp_mpi *c, const char *dir)
{
	char path[4200];
	struct cp_db *out;

	snprintf(path, sizeof(path), "%s/%s", dir, CP_DB_REDUCED);
	if (cp_db_sum_create(path, &out))
		return -1;
	cp_mpi_meta_int(out, "ranks", (long long)c->nall);
	cp_mpi_meta_int(out, "epoch_ns", c->epoch_ns);
	cp_mpi_meta_int(out, "reduce_ms", cp_clock_ms_since(c->t0_ns));
	cp_db_put_meta(out, "reduced_by", "commprof-mpi");
	cp_mpi_meta_int(out, "reduce_ranks", c->m.size);
	if (cp_red_sum_each(&c->sum, cp_db_sum_put, out))
		return cp_db_sum_publish(out, path, false), -1;
	return cp_db_sum_publish(out, path, true) ? -1 : 0;
}

/* The reduction of dir on the ranks of comm.  Collective. */
static void cp_mpi_reduce(MPI_Comm comm, const char *dir)
{
	struct cp_red_rec *in = NULL;
	uint8_t *state = NULL;
	struct cp_mpi c;
	char red[4200];
	int32_t nstate = 0;
	size_t i, n = 0;
	bool ok;

	memset(&c, 0, sizeof(c));
	c.t0_ns = cp_clock_ns();
	cp_red_sum_init(&c.sum);
	ok = !cp_red_mpi_init(&c.m, comm, 0);
	/* rank 0 alone looks whether the run was reduced (by the job, or
	 * a merge that is fresh): every rank must agree */
	snprintf(red, sizeof(red), "%s/%s", dir, CP_DB_REDUCED);
	ok = ok && (c.m.rank || (access(red, F_OK) && !cp_db_dir_fresh(dir)));
	ok = ok && !cp_db_each_rank_name(dir, cp_mpi_file, &c);
	if (cp_red_mpi_go(&c.m, ok) && !cp_mpi_scan(&c, &state, &nstate) &&
	    !cp_red_mpi_exchange(&c.m, &in, &n)) {
		if (cp_red_match(&c.sum, in, n, state, nstate, NULL, NULL))
			c.m.bad = true;
		if (cp_red_mpi_go(&c.m, true) &&
		    !cp_red_mpi_reduce(&c.m, &c.sum) && !c.m.bad &&
		    c.m.rank == 0 && cp_mpi_write(&c, dir))
			fprintf(stderr, "commprof: cannot write %s/%s: %s\n",
				dir, CP_DB_REDUCED, cp_db_errmsg(NULL));
	}
	free(in);
	free(state);
	for (i = 0; i < c.nf; i++)
		free(c.f[i].path);
	free(c.f);
	cp_red_sum_free(&c.sum);
	cp_red_mpi_free(&c.m);
}

/* The plain commprof beside this program, with the same arguments. */
static int cp_mpi_plain(char **argv)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 16);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	slash = strrchr(self, '/');
	strcpy(slash ? slash + 1 : self, "commprof");
	setenv("COMMPROF_MPI", "0", 1);	/* no second hand-over */
	argv[0] = self;
	execv(self, argv);
	fprintf(stderr, "commprof: cannot run %s: %s\n", self,
		strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("COMMPROF_MPI_RUN");
	MPI_Comm comm;
	int rank = 0;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
		return cp_mpi_plain(argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (dir && MPI_Comm_dup(MPI_COMM_WORLD, &comm) == MPI_SUCCESS) {
		cp_mpi_reduce(comm, dir);
		MPI_Comm_free(&comm);
	}
	MPI_Finalize();
	return rank ? 0 : cp_mpi_plain(argv);
}
