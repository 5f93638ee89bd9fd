/*
 * cli_views.h - the parts of "commprof report" beyond its first sections:
 * the load-balance tables (src/cli/cli_ranks.c), and the HTML page with
 * its charts (src/cli/cli_html.c: the page; src/cli/cli_html_report.c:
 * the data of a run; src/cli/cli_html_params.c: a parameter file).
 */
#ifndef CP_CLI_VIEWS_H
#define CP_CLI_VIEWS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "src/cli/cli.h"

struct cp_db;
struct cp_params;

/*
 * cp_cli_ranks_tabs - fill rk (columns cp_cli_ranks_cols: per rank, MPI
 * time and its share of app time x threads, mpiP's task statistics) and
 * st (cp_cli_rsite_cols: the top callsites by MPI time with the min, mean
 * and max of a rank's MPI time there, over the ranks that called it, and
 * the ranks of the min and max: mpiP's callsite statistics).  db: the
 * merge; s: callsite cache; top: callsites kept.  The tables must have
 * been set up with those columns.  Returns 0, -CP_DB_EIO (cp_db_errmsg
 * tells why) or 1 out of memory.
 */
int cp_cli_ranks_tabs(struct cp_db *db, struct cp_cli_sites *s, size_t top,
		      struct cp_cli_tab *rk, struct cp_cli_tab *st);

#define CP_CLI_RANKS_NCOLS	6
#define CP_CLI_RSITE_NCOLS	10
extern const char *const cp_cli_ranks_cols[CP_CLI_RANKS_NCOLS];
extern const char *const cp_cli_ranks_heads[CP_CLI_RANKS_NCOLS];
extern const char *const cp_cli_rsite_cols[CP_CLI_RSITE_NCOLS];
extern const char *const cp_cli_rsite_heads[CP_CLI_RSITE_NCOLS];

/*
 * cp_cli_html_page - write one self-contained HTML page to f: title, the
 * charting library (Chart.js, read from the file cp_cli_html_lib finds),
 * the page's own script and style, and the data that write_data puts
 * out as one JSON value (it gets f and arg; returns 0 or -1).  kind:
 * "report" or "params", which views the script draws.  Returns 0,
 * CP_CLI_FAIL after one line on stderr (no charting library, a read
 * error), or -1 when a write to f failed (said when f is closed).
 */
int cp_cli_html_page(FILE *f, const char *title, const char *kind,
		     int (*write_data)(FILE *f, void *arg), void *arg);

/*
 * cp_cli_html_lib - the path of the charting library the page inlines:
 * $COMMPROF_CHARTJS when set, else the path configure found
 * (--with-chartjs), else the first of Debian's and npm's usual places
 * that exists.  Returns NULL when none exists, after one line on stderr
 * that says where it looked and how to get one.
 */
const char *cp_cli_html_lib(void);

/* Copy s to f with every '<' written as \u003c, so that JSON text never
 * closes the <script> element that holds it.  Returns 0 or -1 on a write
 * error. */
int cp_cli_html_json(FILE *f, const char *s, size_t n);

/*
 * cp_cli_html_report - the data of the report page of a run: the report
 * tables t[0..n) (as "commprof report --format json" prints them), and
 * what the charts draw beyond them, each bounded whatever the run's size:
 * the communication matrix (ranks grouped into at most 64 blocks), a
 * sample of at most 4000 measured-against-predicted rows, a timeline of
 * at most 32 ranks x 400 time bins, and the calibrated LMO link rates of
 * the run's parameter file params (NULL: none).  Returns 0, -CP_DB_EIO,
 * 1 out of memory, or -1 on a write error.
 */
struct cp_cli_html_run {
	struct cp_db *db;
	const struct cp_cli_tab *t;
	size_t n;
	const char *params;	/* path of the run's parameter file, NULL */
};
int cp_cli_html_report(FILE *f, void *run);

/* cp_cli_html_links - write to f the JSON members "params" (the file at
 * path as cp_params_print_json writes it, or null) and "params_note" (the
 * path, or why there is no file: path NULL, or it cannot be read).
 * Cannot fail (write errors: ferror). */
void cp_cli_html_links(FILE *f, const char *path);

/* cp_cli_html_params - the data of "commprof params show --format html":
 * the file as cp_params_print_json writes it, or why it cannot be read.
 * arg: the path of the file (const char *).  Returns 0 or -1. */
int cp_cli_html_params(FILE *f, void *arg);

/*
 * cp_cli_coll_tabs - the report's collective sections, from the
 * reduction of the run (no call row is read): acc, accuracy per MPI
 * function, size class and algorithm (the groups CP_RED_G_COLL and
 * CP_RED_G_CTIME of src/reduce/cp_red.h), each model's rows, mu_bar and
 * median with the calls' median t_transfer and t_wait (a group whose
 * ranks arrived further apart than it took is flagged); worst, the top
 * collective calls by tau-Lop's mu, each call once.  Returns 0 or 1 (out
 * of memory).  s: the reduction; ops, nops: op names by id (NULL
 * unknown); top: lines of worst; acc, worst: tables initialised with
 * the columns below.
 */
#define CP_CLI_COLL_NCOLS	11
#define CP_CLI_CWORST_NCOLS	9
extern const char *const cp_cli_coll_cols[CP_CLI_COLL_NCOLS];
extern const char *const cp_cli_coll_heads[CP_CLI_COLL_NCOLS];
extern const char *const cp_cli_cworst_cols[CP_CLI_CWORST_NCOLS];
extern const char *const cp_cli_cworst_heads[CP_CLI_CWORST_NCOLS];
struct cp_red_sum;
int cp_cli_coll_tabs(const struct cp_red_sum *s, char *const *ops,
		     size_t nops, size_t top, struct cp_cli_tab *acc,
		     struct cp_cli_tab *worst);

#endif
