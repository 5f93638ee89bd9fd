/*
 * cli_reduce.c - the reduction of a run by the commprof command, the
 * hook cp_db_open_dir calls once the small tables of a new merge are in:
 * what the report prints of the message and collective rows, computed
 * beside the rank files instead of from a merged copy of them
 * (src/reduce/cp_red.h), stored in the red_* tables of commprof.db.
 *
 * A job that reduced itself at MPI_Finalize left commprof-reduced.db:
 * that is taken as it is.  Otherwise the rank files are scanned by one
 * thread per processor, each taking the next file; each record goes to
 * its home, one of P partitions: with P = 1 they stay in memory, else
 * each thread appends them to a spill file of its own in chunks of one
 * partition, so that memory holds at most a chunk per partition and
 * thread.  Then the threads take the partitions one at a time, read
 * their chunks back and match them.  The summaries of the threads merge.
 *
 * The same reduction gives the matches of every row (cp_cli_match) when
 * a command shows rows: cp_db_need_rows copies them into commprof.db with
 * their matches.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "analysis/cp_err.h"
#include "db/cp_db_read.h"
#include "src/cli/cli.h"
#include "src/reduce/cp_red.h"

/* Records a partition may hold in memory, in bytes: P is chosen so that
 * the run's records, spread evenly, fill partitions of about this. */
#define CP_CLI_PART_BYTES	(24u << 20)
/* Memory for the chunk buffers of one thread, in bytes. */
#define CP_CLI_BUF_BYTES	(8u << 20)
#define CP_CLI_MAX_PARTS	4096
#define CP_CLI_MAX_THREADS	16

/* What stopped a reduction (negated), as this file's functions return. */
#define CP_CLI_R_NOMEM	1	/* out of memory */
#define CP_CLI_R_TMP	2	/* a spill file failed */
#define CP_CLI_R_DB	3	/* the merge: cp_db_errmsg(db) */

/* A chunk of records of one partition in a thread's spill file. */
struct cp_cli_chunk {
	uint32_t part;
	uint32_t n;		/* records */
	off_t off;		/* in bytes */
};

/* A growing array of records. */
struct cp_cli_recs {
	struct cp_red_rec *v;
	size_t n, cap;
};

struct cp_cli_red;

/* One thread of the reduction. */
struct cp_cli_worker {
	struct cp_cli_red *red;
	struct cp_red_sum sum;
	struct cp_red x;
	struct cp_cli_recs mem;	/* P = 1: every record it scanned */
	FILE *spill;		/* P > 1: its chunks */
	struct cp_cli_recs *buf;	/* P > 1: one chunk per partition */
	struct cp_cli_chunk *chunk;
	size_t nchunk, capchunk;
	off_t end;		/* bytes written to spill */
	struct cp_db_xfer *xf;	/* cp_cli_match: the matched rows */
	size_t nxf, capxf;
	int err;		/* first failure: CP_CLI_R_*, 0 */
	bool order;		/* the file scanned has collective rows out
				 * of order */
	char *warn;		/* "path\tmessage" lines of damaged files */
	size_t warnlen;
	pthread_t thr;
};

/* The reduction of one merge. */
struct cp_cli_red {
	struct cp_db_rank_file *files;	/* paths owned */
	size_t nfiles, capfiles;
	uint8_t *state;			/* per world rank: CP_RED_S_* */
	int32_t nstate;
	uint64_t rows;			/* call rows of every file */
	uint32_t nparts, chunk;		/* P, records per chunk */
	bool keep;			/* cp_cli_match: keep each match */
	atomic_size_t next;		/* the next file, then partition */
	struct cp_cli_worker w[CP_CLI_MAX_THREADS];
	int nw;
};

static int cp_cli_recs_push(struct cp_cli_recs *a, const struct cp_red_rec *r)
{
	struct cp_red_rec *v;

	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 1024;

		v = realloc(a->v, cap * sizeof(*v));
		if (!v)
			return -CP_CLI_R_NOMEM;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = *r;
	return 0;
}

/* ---- the files and what is known of their ranks ---- */

static int cp_cli_red_file(void *arg, const struct cp_db_rank_file *f)
{
	struct cp_cli_red *red = arg;
	struct cp_db_rank_file *v;

	if (red->nfiles == red->capfiles) {
		size_t cap = red->capfiles ? 2 * red->capfiles : 64;

		v = realloc(red->files, cap * sizeof(*v));
		if (!v)
			return -CP_CLI_R_NOMEM;
		red->files = v;
		red->capfiles = cap;
	}
	v = &red->files[red->nfiles];
	*v = *f;
	v->path = strdup(f->path);
	if (!v->path)
		return -CP_CLI_R_NOMEM;
	red->nfiles++;
	red->rows += f->rows > 0 ? (uint64_t)f->rows : 0;
	if (f->rank >= red->nstate)
		red->nstate = f->rank + 1;
	return 0;
}

/* The files, their ranks' states, P and the threads.  Returns 0 or a
 * negative code. */
static int cp_cli_red_plan(struct cp_cli_red *red, struct cp_db *db)
{
	uint64_t bytes;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;
	int ret;

	ret = cp_db_each_rank_file(db, cp_cli_red_file, red);
	if (ret)
		return ret == -CP_CLI_R_NOMEM ? ret : -CP_CLI_R_DB;
	red->state = calloc(red->nstate ? red->nstate : 1, 1);
	if (!red->state)
		return -CP_CLI_R_NOMEM;
	for (i = 0; i < red->nfiles; i++) {
		const struct cp_db_rank_file *f = &red->files[i];

		red->state[f->rank] = cp_red_rank_state(f->dropped,
			f->not_kept, f->capped, f->sample, f->by_identity);
	}
	red->nw = ncpu > 0 ? (int)ncpu : 1;
	if (red->nw > CP_CLI_MAX_THREADS)
		red->nw = CP_CLI_MAX_THREADS;
	if ((size_t)red->nw > red->nfiles)
		red->nw = red->nfiles ? (int)red->nfiles : 1;
	bytes = red->rows * sizeof(struct cp_red_rec);
	red->nparts = 1;
	if (bytes > CP_CLI_PART_BYTES) {
		/* a multiple of the threads: they finish together */
		red->nparts = (uint32_t)((bytes + CP_CLI_PART_BYTES - 1) /
					 CP_CLI_PART_BYTES);
		red->nparts += (uint32_t)red->nw -
			       red->nparts % (uint32_t)red->nw;
		if (red->nparts > CP_CLI_MAX_PARTS)
			red->nparts = CP_CLI_MAX_PARTS;
	}
	red->chunk = CP_CLI_BUF_BYTES / sizeof(struct cp_red_rec) /
		     red->nparts;
	if (red->chunk < 64)
		red->chunk = 64;
	return 0;
}

/* ---- step 1: the scan ---- */

/* Write w's chunk of partition p to its spill file. */
static int cp_cli_spill(struct cp_cli_worker *w, uint32_t p)
{
	struct cp_cli_recs *b = &w->buf[p];
	struct cp_cli_chunk *c;
	size_t len = b->n * sizeof(*b->v);

	if (!b->n)
		return 0;
	if (w->nchunk == w->capchunk) {
		size_t cap = w->capchunk ? 2 * w->capchunk : 256;

		c = realloc(w->chunk, cap * sizeof(*c));
		if (!c)
			return -CP_CLI_R_NOMEM;
		w->chunk = c;
		w->capchunk = cap;
	}
	if (fwrite(b->v, 1, len, w->spill) != len)
		return -CP_CLI_R_TMP;
	c = &w->chunk[w->nchunk++];
	c->part = p;
	c->n = (uint32_t)b->n;
	c->off = w->end;
	w->end += (off_t)len;
	b->n = 0;
	return 0;
}

static int cp_cli_emit(void *arg, uint32_t h, const struct cp_red_rec *r)
{
	struct cp_cli_worker *w = arg;
	struct cp_cli_recs *b;
	int ret = 0;

	if (w->red->nparts == 1) {
		ret = cp_cli_recs_push(&w->mem, r);
	} else {
		b = &w->buf[h];
		b->v[b->n++] = *r;
		if (b->n == w->red->chunk)
			ret = cp_cli_spill(w, h);
	}
	if (ret)
		w->err = -ret;
	return ret;
}

/* One row of a rank file; any failure stops the file's scan, and what
 * failed is in w (err, or order: the file is damaged). */
static int cp_cli_scan_row(void *arg, const struct cp_sum_row *r)
{
	struct cp_cli_worker *w = arg;
	int ret = cp_red_scan_row(&w->x, r);

	if (!ret || w->err)
		return ret ? -1 : 0;
	if (ret == -CP_EINVAL)
		w->order = true;
	else
		w->err = CP_CLI_R_NOMEM;
	return -1;
}

/* Keep "path\tmsg" for the main thread, which owns the merge. */
static void cp_cli_keep_warning(struct cp_cli_worker *w, const char *path,
				const char *msg)
{
	size_t add = strlen(path) + strlen(msg) + 2;
	char *v = realloc(w->warn, w->warnlen + add + 1);

	if (!v)
		return;
	w->warn = v;
	w->warnlen += (size_t)snprintf(v + w->warnlen, add + 1, "%s\t%s\n",
				       path, msg);
}

static void cp_cli_scan_files(struct cp_cli_worker *w)
{
	struct cp_cli_red *red = w->red;
	size_t i;
	int ret;

	while (!w->err && (i = atomic_fetch_add(&red->next, 1)) <
	       red->nfiles) {
		w->order = false;
		ret = cp_db_scan_file(red->files[i].path, red->files[i].rank,
				      cp_cli_scan_row, w);
		/* a damaged file: the rows before the damage count */
		if (!w->err && w->order)
			cp_cli_keep_warning(w, red->files[i].path,
					    "collective rows out of order");
		else if (!w->err && ret)
			cp_cli_keep_warning(w, red->files[i].path,
					    cp_db_errmsg(NULL));
	}
	for (i = 0; !w->err && red->nparts > 1 && i < red->nparts; i++)
		w->err = -cp_cli_spill(w, (uint32_t)i);
	if (!w->err && w->spill && fflush(w->spill))
		w->err = CP_CLI_R_TMP;
}

/* ---- step 2: the homes ---- */

/* Every record of partition p, from every thread's spill file, into a. */
static int cp_cli_load_part(struct cp_cli_red *red, uint32_t p,
			    struct cp_cli_recs *a)
{
	size_t k, len, need = 0;
	int i;

	a->n = 0;
	for (i = 0; i < red->nw; i++)
		for (k = 0; k < red->w[i].nchunk; k++)
			if (red->w[i].chunk[k].part == p)
				need += red->w[i].chunk[k].n;
	if (need > a->cap) {
		struct cp_red_rec *v = realloc(a->v, need * sizeof(*v));

		if (!v)
			return -CP_CLI_R_NOMEM;
		a->v = v;
		a->cap = need;
	}
	for (i = 0; i < red->nw; i++) {
		const struct cp_cli_worker *o = &red->w[i];

		for (k = 0; k < o->nchunk; k++) {
			const struct cp_cli_chunk *c = &o->chunk[k];

			if (c->part != p)
				continue;
			len = c->n * sizeof(*a->v);
			if (pread(fileno(o->spill), a->v + a->n, len, c->off) !=
			    (ssize_t)len)
				return -CP_CLI_R_TMP;
			a->n += c->n;
		}
	}
	return 0;
}

/* cp_red_match's each of cp_cli_match: a matched row's stored form. */
static int cp_cli_keep_xfer(void *arg, const struct cp_red_rec *r,
			    const struct cp_red_rec *mate,
			    const struct cp_match_out *o, const double *mu)
{
	struct cp_cli_worker *w = arg;
	struct cp_db_xfer *d;

	if (o->why != CP_MATCH_OK)
		return 0;
	if (w->nxf == w->capxf) {
		size_t cap = w->capxf ? 2 * w->capxf : 1024;

		d = realloc(w->xf, cap * sizeof(*d));
		if (!d)
			return -CP_CLI_R_NOMEM;
		w->xf = d;
		w->capxf = cap;
	}
	d = &w->xf[w->nxf++];
	d->rank = r->rank;
	d->seq = r->seq;
	d->t_transfer_ns = o->t_transfer_ns;
	d->t_wait_ns = o->t_wait_ns;
	d->late = o->late;
	d->mate_rank = mate ? mate->rank : -1;
	d->mate_seq = mate ? mate->seq : -1;
	d->coll_inst = o->inst;
	memcpy(d->mu, mu, sizeof(d->mu));
	return 0;
}

/* Match the records of one home into w. */
static int cp_cli_home(struct cp_cli_worker *w, const struct cp_red_rec *r,
		       size_t n)
{
	struct cp_cli_red *red = w->red;

	if (cp_red_match(&w->sum, r, n, red->state, red->nstate,
			 red->keep ? cp_cli_keep_xfer : NULL, w))
		return -CP_CLI_R_NOMEM;
	return 0;
}

static void cp_cli_match_parts(struct cp_cli_worker *w)
{
	struct cp_cli_red *red = w->red;
	struct cp_cli_recs a = { 0 };
	size_t p;

	while (!w->err && (p = atomic_fetch_add(&red->next, 1)) <
	       red->nparts) {
		w->err = -cp_cli_load_part(red, (uint32_t)p, &a);
		if (!w->err)
			w->err = -cp_cli_home(w, a.v, a.n);
	}
	free(a.v);
}

static void *cp_cli_scan_main(void *arg)
{
	cp_cli_scan_files(arg);
	return NULL;
}

static void *cp_cli_match_main(void *arg)
{
	cp_cli_match_parts(arg);
	return NULL;
}

/* Run fn on every worker, one thread each but the first, which runs on
 * the caller's; wait for all. */
static void cp_cli_run(struct cp_cli_red *red, void *(*fn)(void *))
{
	int i, started[CP_CLI_MAX_THREADS] = { 0 };

	atomic_store(&red->next, 0);
	for (i = 1; i < red->nw; i++)
		started[i] = !pthread_create(&red->w[i].thr, NULL, fn,
					     &red->w[i]);
	fn(&red->w[0]);
	/* a thread that could not start leaves its share to the others:
	 * they take files and partitions until none is left */
	for (i = 1; i < red->nw; i++)
		if (started[i])
			pthread_join(red->w[i].thr, NULL);
}

static int cp_cli_workers_init(struct cp_cli_red *red)
{
	uint32_t p;
	int i;

	for (i = 0; i < red->nw; i++) {
		struct cp_cli_worker *w = &red->w[i];

		w->red = red;
		cp_red_sum_init(&w->sum);
		cp_red_init(&w->x, &w->sum, red->nparts, cp_cli_emit, w);
		/* a link's two directions in one partition: its histograms
		 * in one worker's summary, not in each that meets it */
		w->x.by_link = true;
		if (red->nparts == 1)
			continue;
		w->spill = tmpfile();
		w->buf = calloc(red->nparts, sizeof(*w->buf));
		if (!w->spill)
			return -CP_CLI_R_TMP;
		if (!w->buf)
			return -CP_CLI_R_NOMEM;
		for (p = 0; p < red->nparts; p++) {
			w->buf[p].v = malloc(red->chunk * sizeof(*w->buf->v));
			if (!w->buf[p].v)
				return -CP_CLI_R_NOMEM;
			w->buf[p].cap = red->chunk;
		}
	}
	return 0;
}

static void cp_cli_red_free(struct cp_cli_red *red)
{
	size_t i;
	uint32_t p;
	int k;

	for (k = 0; k < red->nw; k++) {
		struct cp_cli_worker *w = &red->w[k];

		cp_red_sum_free(&w->sum);
		free(w->mem.v);
		for (p = 0; w->buf && p < red->nparts; p++)
			free(w->buf[p].v);
		free(w->buf);
		free(w->chunk);
		free(w->warn);
		free(w->xf);
		if (w->spill)
			fclose(w->spill);
	}
	for (i = 0; i < red->nfiles; i++)
		free((char *)red->files[i].path);
	free(red->files);
	free(red->state);
}

/* P = 1: one home holds every record the threads scanned. */
static int cp_cli_match_mem(struct cp_cli_red *red)
{
	struct cp_cli_recs *all = &red->w[0].mem;
	int i, ret = 0;
	size_t k;

	for (i = 1; !ret && i < red->nw; i++)
		for (k = 0; !ret && k < red->w[i].mem.n; k++)
			ret = cp_cli_recs_push(all, &red->w[i].mem.v[k]);
	if (!ret)
		ret = cp_cli_home(&red->w[0], all->v, all->n);
	return ret;
}

/* The damaged files the threads met, kept among the merge's warnings. */
static int cp_cli_red_warnings(struct cp_cli_red *red, struct cp_db *db)
{
	char *line, *tab, *save = NULL;
	int i, ret = 0;

	for (i = 0; !ret && i < red->nw; i++) {
		for (line = red->w[i].warn ? strtok_r(red->w[i].warn, "\n",
						      &save) : NULL;
		     !ret && line; line = strtok_r(NULL, "\n", &save)) {
			char what[600];

			tab = strchr(line, '\t');
			if (!tab)
				continue;
			*tab = '\0';
			snprintf(what, sizeof(what), "damaged (%s)", tab + 1);
			ret = cp_db_warn(db, line, what) < 0 ? -CP_CLI_R_DB :
			      0;
		}
	}
	return ret;
}

/* Reduce the run of db from its rank files into *sum (the first
 * thread's, merged with the others'). */
static int cp_cli_red_run(struct cp_cli_red *red, struct cp_db *db)
{
	int i, ret;

	ret = cp_cli_red_plan(red, db);
	if (!ret)
		ret = cp_cli_workers_init(red);
	if (ret)
		return ret;
	cp_cli_run(red, cp_cli_scan_main);
	for (i = 0; i < red->nw; i++)
		if (!ret)
			ret = -red->w[i].err;
	if (!ret && red->nparts == 1)
		ret = cp_cli_match_mem(red);
	else if (!ret)
		cp_cli_run(red, cp_cli_match_main);
	for (i = 0; i < red->nw; i++)
		if (!ret)
			ret = -red->w[i].err;
	for (i = 1; !ret && i < red->nw; i++)
		if (cp_red_sum_take(&red->w[0].sum, &red->w[i].sum))
			ret = -CP_CLI_R_NOMEM;
	if (!ret)
		ret = cp_cli_red_warnings(red, db);
	return ret;
}

/* ---- what the merge keeps ---- */

/* Append "; <text>" (or "<text>" first) to note when count > 0. */
static void cp_cli_note_add(char *note, size_t len, size_t count,
			    const char *fmt)
{
	size_t at = strlen(note);
	char part[200];

	if (!count)
		return;
	snprintf(part, sizeof(part), fmt, count);
	snprintf(note + at, len - at, "%s%s", at ? "; " : "", part);
}

static void cp_cli_red_note(const struct cp_red_sum *s, char *note,
			    size_t len)
{
	const struct cp_match_stats *st = &s->st;

	note[0] = '\0';
	cp_cli_note_add(note, len, st->p2p_counts,
			"%zu message rows in groups whose send and receive "
			"counts differ");
	cp_cli_note_add(note, len, st->p2p_negative,
			"%zu message rows whose receive ended before the "
			"send began (clocks)");
	cp_cli_note_add(note, len, st->p2p_cut,
			"%zu message rows whose mate fell past a rank's row "
			"limit (COMMPROF_MAX_ROWS)");
	cp_cli_note_add(note, len, st->p2p_hole,
			"%zu message rows of ranks that lost rows (buffer "
			"full, or one row in N kept by an older library)");
	cp_cli_note_add(note, len, (size_t)s->p2p_skipped,
			"%zu message rows not transfers (MPI_PROC_NULL, not "
			"completed, cancelled)");
	cp_cli_note_add(note, len, st->coll_incomplete,
			"%zu collective rows of instances missing ranks");
	cp_cli_note_add(note, len, st->coll_mixed,
			"%zu collective rows of instances whose ops or sizes "
			"differ, not completed or intercommunicator");
	cp_cli_note_add(note, len, st->coll_hole,
			"%zu collective rows of communicators with a rank "
			"that lost rows");
}

static int cp_cli_meta_num(struct cp_db *db, const char *key, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	return cp_db_put_meta(db, key, buf);
}

static int cp_cli_red_unfinished(void *arg, const struct cp_db_rank_file *f)
{
	*(bool *)arg |= f->finished == 0;
	return 0;
}

/* Why the job did not reduce itself, into meta reduce_note: what rank 0
 * said, or a rank that did not reach MPI_Finalize. */
static int cp_cli_red_why(struct cp_db *db)
{
	bool unfinished = false;
	char v[512];

	if (!cp_db_get_rank_meta(db, 0, "reduce_note", v, sizeof(v)))
		return cp_db_put_meta(db, "reduce_note", v);
	if (cp_db_each_rank_file(db, cp_cli_red_unfinished, &unfinished))
		return -CP_DB_EIO;
	if (unfinished)
		return cp_db_put_meta(db, "reduce_note", "a rank did not reach "
				      "MPI_Finalize");
	return 0;
}

/* The merged meta keys of the matching (db/schema.sql). */
static int cp_cli_red_meta(struct cp_db *db, const struct cp_red_sum *s,
			   const char *how)
{
	const struct cp_match_stats *st = &s->st;
	char note[1400];
	int ret;

	cp_cli_red_note(s, note, sizeof(note));
	ret = cp_db_put_meta(db, "reduced", how);
	if (!ret)
		ret = cp_cli_meta_num(db, "matched", 1);
	if (!ret)
		ret = cp_cli_meta_num(db, "match_p2p_rows",
				      (long long)st->p2p_matched);
	if (!ret)
		ret = cp_cli_meta_num(db, "match_coll_rows",
				      (long long)st->coll_matched);
	if (!ret)
		ret = cp_cli_meta_num(db, "match_p2p_left", (long long)
				      (st->p2p_rows + s->p2p_skipped -
				       st->p2p_matched));
	if (!ret)
		ret = cp_cli_meta_num(db, "match_coll_left", (long long)
				      (st->coll_rows - st->coll_matched));
	if (!ret && note[0])
		ret = cp_db_put_meta(db, "match_note", note);
	return ret;
}

static int cp_cli_add_rec(void *arg, const struct cp_sum_rec *r)
{
	return cp_red_sum_add_rec(arg, r);
}

/* The job reduced itself: its file, when it is of this run, into the
 * merge.  Returns 0 with *used, or a negative code. */
static int cp_cli_red_job(struct cp_db *db, const char *dir, bool *used)
{
	struct cp_red_sum s;
	char path[4200], by[64];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, CP_DB_REDUCED);
	ret = cp_db_sum_import(db, path, used);
	if (ret || !*used)
		return ret ? -CP_CLI_R_DB : 0;
	/* the job at MPI_Finalize, or commprof-mpi after it */
	if (cp_db_get_meta(db, "reduced_by", by, sizeof(by)))
		snprintf(by, sizeof(by), "job");
	cp_red_sum_init(&s);
	ret = cp_db_each_sum(db, cp_cli_add_rec, &s);
	if (!ret)
		ret = cp_cli_red_meta(db, &s, by);
	if (!ret && strcmp(by, "job"))
		ret = cp_cli_red_why(db);
	cp_red_sum_free(&s);
	if (ret == -CP_ENOMEM)
		return -CP_CLI_R_NOMEM;
	return ret ? -CP_CLI_R_DB : 0;
}

void cp_cli_reduce(void *arg, struct cp_db *db)
{
	const char *dir = arg;
	struct cp_cli_red red;
	bool used = false;
	int ret;

	memset(&red, 0, sizeof(red));
	ret = dir ? cp_cli_red_job(db, dir, &used) : 0;
	if (!ret && !used) {
		ret = cp_cli_red_run(&red, db);
		if (!ret && (cp_red_sum_each(&red.w[0].sum, cp_db_sum_put, db) ||
			     cp_cli_red_meta(db, &red.w[0].sum, "offline") ||
			     cp_cli_red_why(db)))
			ret = -CP_CLI_R_DB;
	}
	if (ret == -CP_CLI_R_NOMEM)
		cp_cli_err("cannot reduce the run: out of memory");
	else if (ret == -CP_CLI_R_TMP)
		cp_cli_err("cannot reduce the run: a temporary file failed: "
			   "%s", cp_cli_strerror(errno));
	else if (ret)
		cp_cli_err("cannot reduce the run: %s", cp_db_errmsg(db));
	cp_cli_red_free(&red);
}

/* ---- the matches of every row ---- */

static int cp_cli_xfer_cmp(const void *pa, const void *pb)
{
	const struct cp_db_xfer *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Every worker's matches, in (rank, seq) order, to the merge. */
static int cp_cli_put_xfers(struct cp_cli_red *red, struct cp_db *db)
{
	struct cp_cli_worker *w0 = &red->w[0];
	struct cp_db_xfer *v;
	size_t n = 0;
	int i;

	for (i = 0; i < red->nw; i++)
		n += red->w[i].nxf;
	v = realloc(w0->xf, (n ? n : 1) * sizeof(*v));
	if (!v)
		return -CP_CLI_R_NOMEM;
	w0->xf = v;
	for (i = 1, n = w0->nxf; i < red->nw; i++) {
		if (!red->w[i].nxf)	/* none: its xf may be NULL */
			continue;
		memcpy(v + n, red->w[i].xf, red->w[i].nxf * sizeof(*v));
		n += red->w[i].nxf;
	}
	w0->nxf = w0->capxf = n;
	qsort(v, n, sizeof(*v), cp_cli_xfer_cmp);
	return cp_db_put_xfers(db, v, n) ? -CP_CLI_R_DB : 0;
}

void cp_cli_match(void *arg, struct cp_db *db)
{
	struct cp_cli_red red;
	int ret;

	(void)arg;
	memset(&red, 0, sizeof(red));
	red.keep = true;
	ret = cp_cli_red_run(&red, db);
	if (!ret)
		ret = cp_cli_put_xfers(&red, db);
	if (ret == -CP_CLI_R_NOMEM)
		cp_cli_err("cannot match sends and receives: out of memory");
	else if (ret == -CP_CLI_R_TMP)
		cp_cli_err("cannot match sends and receives: a temporary file "
			   "failed: %s", cp_cli_strerror(errno));
	else if (ret)
		cp_cli_err("cannot match sends and receives: %s",
			   cp_db_errmsg(db));
	cp_cli_red_free(&red);
}
