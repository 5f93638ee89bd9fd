/*
 * cli.h - the pieces of the commprof command-line tool (src/commprof.c):
 * one function per subcommand, and a callsite cache shared by them.  The
 * tool reads an output directory only through the reader API of
 * db/cp_db.h and resolves callsites through src/cp_site.h.
 */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <stddef.h>
#include <stdint.h>

struct cp_db;

/* Exit statuses of the tool. */
#define CP_CLI_OK	0
#define CP_CLI_FAIL	1	/* something failed: one line on stderr */
#define CP_CLI_USAGE	2	/* bad command line: one line on stderr */

/* Subcommands: argv[0] is the subcommand name; return an exit status. */
int cp_cli_summary(int argc, char **argv);
int cp_cli_export(int argc, char **argv);
int cp_cli_report(int argc, char **argv);

/* Print "commprof: <fmt...>" and a newline on stderr. */
void cp_cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* strerror(e) with a lowercase first letter, as our messages are; a
 * static buffer. */
const char *cp_cli_strerror(int e);

/* Open output directory dir for reading, printing one line per damaged
 * rank file and one line on failure.  Returns 0 and *db, or
 * CP_CLI_FAIL. */
int cp_cli_open(const char *dir, struct cp_db **db);

/* Callsite texts, resolved once per (module, offset in module). */
struct cp_cli_sites;

/* NULL when out of memory. */
struct cp_cli_sites *cp_cli_sites_new(void);
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

#endif
