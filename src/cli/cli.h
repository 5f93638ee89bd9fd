/*
 * cli.h - the pieces of the commprof command-line tool (src/cli/commprof.c):
 * one function per subcommand, and a callsite cache shared by them.  The
 * tool reads an output directory only through the reader API of
 * db/cp_db.h and resolves callsites through src/cli/cp_site.h.
 */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cp_db;

/* Exit statuses of the tool. */
#define CP_CLI_OK	0
#define CP_CLI_FAIL	1	/* something failed: one line on stderr */
#define CP_CLI_USAGE	2	/* bad command line: one line on stderr */

/* Subcommands: argv[0] is the subcommand name; return an exit status. */
int cp_cli_summary(int argc, char **argv);
int cp_cli_export(int argc, char **argv);
int cp_cli_report(int argc, char **argv);
int cp_cli_replay(int argc, char **argv);

/*
 * cp_cli_mpi_dispatch - started as one of several processes of an MPI
 * launcher ("mpirun -np K commprof report DIR"), hand the command line
 * argv over to commprof-mpi beside this program (src/mpicli/), with DIR
 * replaced by the directory of the run it names (also in the environment,
 * COMMPROF_MPI_RUN); returns when this process is not one of several (or
 * COMMPROF_MPI=0; with COMMPROF_MPI=1 the launcher's parent process is
 * not checked).  When the command names no run, or commprof-mpi cannot
 * run, every process but rank 0 exits 0 and rank 0 returns (saying so in
 * one line when commprof-mpi cannot run); when DIR names no run, every
 * process exits CP_CLI_FAIL after rank 0 said why.
 */
void cp_cli_mpi_dispatch(char **argv);

/* Print "commprof: <fmt...>" and a newline on stderr. */
void cp_cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* strerror(e) with a lowercase first letter, as our messages are; a
 * static buffer. */
const char *cp_cli_strerror(int e);

/* Output of a subcommand: path, or standard output when path is NULL.
 * Prints one line and returns NULL when it cannot be opened. */
FILE *cp_cli_out_open(const char *path);

/* Close (path) or flush (standard output) f; wrote_ok false: a write
 * already failed.  Prints one line unless quiet (the caller has said
 * why already) and returns CP_CLI_FAIL on any failure, else 0. */
int cp_cli_out_close(FILE *f, const char *path, bool wrote_ok, bool quiet);

/*
 * cp_cli_reduce - the merged hook of cp_db_open_dir (db/cp_db_read.h):
 * the reduction of the run (src/reduce/cp_red.h) into the merge just
 * built: its red_* tables and the match_* keys of its meta table
 * (db/schema.sql), from the job's own reduction (commprof-reduced.db)
 * when it is there and of this run, else from the rank files, on every
 * processor.  A failure prints one line; the merge stands without a
 * reduction.  arg: the output directory; db: the merge, valid during the
 * call.
 */
void cp_cli_reduce(void *arg, struct cp_db *db);

/*
 * cp_cli_match - the merged hook of cp_db_need_rows: match every send
 * with its receive and collective calls into instances (the reduction of
 * cp_cli_reduce, rows kept), handing t_transfer, t_wait, the late side
 * and mu of every matched row to the merge (cp_db_put_xfers).  A failure
 * prints one line; the rows go in without matches.  arg: unused.
 */
void cp_cli_match(void *arg, struct cp_db *db);

/*
 * cp_cli_alg - the name of collective algorithm alg (calls.alg, as the
 * library decided it) of MPI function fn: NULL when the row holds none
 * (0), fn is no collective or the number is unknown (cli_coll.c).
 */
const char *cp_cli_alg(const char *fn, int alg);

/*
 * cp_cli_bad_arg - report command cmd's argument arg that its parser
 * did not take: "missing the value of" when arg is one of the options
 * in valued (" --a -b ", each between spaces: they take a value, so
 * arg came last), else "unexpected argument".  Returns CP_CLI_USAGE.
 */
int cp_cli_bad_arg(const char *cmd, const char *arg, const char *valued);

/* Open the run that *dir names for reading (see cp_cli_run_dir; *dir
 * becomes its directory, valid until the next call), printing one line
 * per damaged rank file and one line on failure.  Returns 0 and *db, or
 * CP_CLI_FAIL. */
int cp_cli_open(const char **dir, struct cp_db **db);

/*
 * cp_cli_run_dir - the directory of the run that arg names (cli_runs.c):
 * an output directory (its latest run, or itself when it holds the rank
 * files), DIR@N (its run N, from 1, oldest first) or DIR@run-NAME.  The
 * path goes to out (len bytes).  Returns 0, or CP_CLI_FAIL after one
 * line (no such run).
 */
int cp_cli_run_dir(const char *arg, char *out, size_t len);
/* commprof runs DIR: list the runs of DIR. */
int cp_cli_runs(int argc, char **argv);

/* The call rows of db's run in db (cp_db_need_rows), for a command that
 * shows rows: export, the HTML report.  Prints one line on failure.
 * Returns 0 or CP_CLI_FAIL. */
int cp_cli_rows(struct cp_db *db);

/* Callsite texts, resolved once per (module, offset in module). */
struct cp_cli_sites;

/* db: the run, for the build ids of its modules (may be NULL: none
 * checked).  NULL when out of memory. */
struct cp_cli_sites *cp_cli_sites_new(struct cp_db *db);
/* s may be NULL. */
void cp_cli_sites_free(struct cp_cli_sites *s);
/*
 * cp_cli_site_get - text of return address addr in module path (NULL:
 * no module holds it) loaded at base.  *site gets "file.c:42", a symbol
 * or module offset, "0x..." without a module, or NULL for address 0;
 * *func the function name or NULL.  The strings live as long as s.
 * Returns 0, or -1 when out of memory (*site and *func NULL).
 */
int cp_cli_site_get(struct cp_cli_sites *s, const char *path, uint64_t base,
		    uint64_t addr, const char **site, const char **func);

/* One line of a time table (summary, report): a callsite and op, or an
 * op alone. */
struct cp_cli_line {
	const char *site;	/* owned by the site cache; "" none */
	const char *func;	/* idem */
	char op[64];		/* MPI function name, or "op<id>" */
	char cls[16];		/* its class (ops.class), "other" unknown */
	uint64_t count;		/* calls */
	uint64_t bytes;		/* bytes summed */
	int64_t time_ns;	/* MPI time summed, ns */
};

/*
 * cp_cli_lines_get - the (callsite, function, op) lines of db's
 * aggregates (complete even when call rows were limited): callsites of
 * different ranks that resolve to the same text are one line; most MPI
 * time first, ties by key.  s: callsite cache, owns the strings; *v:
 * out, malloc'ed (the caller frees it); *n: its length.  Returns 0,
 * -CP_DB_EIO (cp_db_errmsg(db) tells why) or 1 out of memory.
 */
int cp_cli_lines_get(struct cp_db *db, struct cp_cli_sites *s,
		     struct cp_cli_line **v, size_t *n);

/* Sort v[0..n) by key, sum the lines of equal key, order by time as
 * cp_cli_lines_get; returns the new length.  Cannot fail. */
size_t cp_cli_lines_merge(struct cp_cli_line *v, size_t n);

/* 100 * part / whole, 0 when whole <= 0.  Cannot fail. */
double cp_cli_pct(int64_t part, int64_t whole);

/*
 * Report tables (src/cli/cli_rtab.c): every section of "commprof report" is
 * a table of cells built once and printed in any of four formats, so that
 * all formats carry the same content.  A cell has a text for people (text
 * and markdown: times in us/ms) and a value for programs (JSON and CSV:
 * times in seconds).
 */
enum cp_cli_fmt {
	CP_CLI_FMT_TEXT,	/* aligned columns for a terminal */
	CP_CLI_FMT_MD,		/* markdown tables */
	CP_CLI_FMT_JSON,	/* one object */
	CP_CLI_FMT_CSV,		/* tables, "section" column first */
};

struct cp_cli_cell {
	char *txt;		/* text and markdown; NULL: "-" */
	char *raw;		/* JSON and CSV; NULL: null / empty */
	bool str;		/* raw is a string (JSON quotes it) */
};

struct cp_cli_tab {
	const char *name;	/* key of the section in JSON and CSV */
	const char *title;	/* heading in text and markdown */
	char *note;		/* one line about the section, or NULL */
	bool kv;		/* a list of (key, value) rows: the header */
	size_t ncols;
	const char *const *cols;	/* [ncols] keys in JSON and CSV */
	const char *const *heads;	/* [ncols] headings in text, md */
	struct cp_cli_cell *cells;	/* [nrows * ncols] */
	size_t nrows, cap;
	bool oom;		/* a cell could not be stored */
};

/* Set up t (no allocation; cannot fail).  name, title, cols, heads: kept
 * by pointer, must outlive t; ncols: columns; kv: see the struct. */
void cp_cli_tab_init(struct cp_cli_tab *t, const char *name,
		     const char *title, size_t ncols, const char *const *cols,
		     const char *const *heads, bool kv);

/* Append an empty row; the cp_cli_put_* calls fill the last row.  On
 * failure t->oom is set and the puts do nothing. */
void cp_cli_tab_row(struct cp_cli_tab *t);

/* Cell col of the last row: a string (txt and raw s; NULL: "-"/null). */
void cp_cli_put_str(struct cp_cli_tab *t, size_t col, const char *s);
/* Strings that differ for people and programs (either may be NULL). */
void cp_cli_put_str2(struct cp_cli_tab *t, size_t col, const char *txt,
		     const char *raw);
/* An integer. */
void cp_cli_put_int(struct cp_cli_tab *t, size_t col, int64_t v);
/* A number: txt as printf(fmt, v), raw with full precision.  NAN: null. */
void cp_cli_put_num(struct cp_cli_tab *t, size_t col, double v,
		    const char *fmt);
/* A time of ns nanoseconds: txt in ns/us/ms/s, raw in seconds.  NAN or
 * negative: null. */
void cp_cli_put_time(struct cp_cli_tab *t, size_t col, double ns);
/* A flag: txt mark when v (else ""), raw true or false. */
void cp_cli_put_bool(struct cp_cli_tab *t, size_t col, bool v,
		     const char *mark);
/* Keep only the raw value of the cell (txt ""): repeated columns of a
 * group of rows are shown once in text and markdown. */
void cp_cli_put_hide(struct cp_cli_tab *t, size_t col);
/* The section's note (copied; t->oom on failure). */
void cp_cli_tab_note(struct cp_cli_tab *t, const char *note);

/* Release the cells of t.  Cannot fail. */
void cp_cli_tab_free(struct cp_cli_tab *t);

/* One text field quoted for CSV (RFC 4180: quotes only when it holds a
 * comma, quote or line break; NULL prints nothing).  JSON strings:
 * cp_json_str (src/common/cp_json.h).  f: output; s: the text. */
void cp_cli_csv_str(FILE *f, const char *s);

/* Print tables t[0..n) to f in fmt; t[0] must be the kv header.  width:
 * in text, no line longer than this (0: no limit): long cells are cut
 * with "...", notes and values wrapped, and columns that still do not fit
 * folded onto a second line.  Returns 0 or -1 when f reports a write
 * error. */
int cp_cli_tabs_print(FILE *f, enum cp_cli_fmt fmt,
		      const struct cp_cli_tab *t, size_t n, size_t width);

#endif
