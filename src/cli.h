/*
 * cli.h - the pieces of the commprof command-line tool (src/commprof.c):
 * one function per subcommand, and a callsite cache shared by them.  The
 * tool reads an output directory only through the reader API of
 * db/cp_db.h and resolves callsites through src/cp_site.h.
 */
#ifndef CP_CLI_H
#define CP_CLI_H

#include <stdint.h>

struct cp_db;

/* Exit statuses of the tool. */
#define CP_CLI_OK	0
#define CP_CLI_FAIL	1	/* something failed: one line on stderr */
#define CP_CLI_USAGE	2	/* bad command line: one line on stderr */

/* Subcommands: argv[0] is the subcommand name; return an exit status. */
int cp_cli_summary(int argc, char **argv);
int cp_cli_export(int argc, char **argv);

/* Print "commprof: <fmt...>" and a newline on stderr. */
void cp_cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* strerror(e) with a lowercase first letter, as our messages are; a
 * static buffer. */
const char *cp_cli_strerror(int e);

/*
 * cp_cli_match - the merged hook of cp_db_open_dir (db/cp_db.h): match
 * sends with receives and collective calls into instances in the merge
 * just built, storing t_transfer, t_wait, the late side and mu per row
 * and the match_* keys of its meta table (db/schema.sql).  A failure
 * prints one line; the merge stands without matches.  arg: unused; db:
 * the merge, valid during the call.
 */
void cp_cli_match(void *arg, struct cp_db *db);

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

#endif
