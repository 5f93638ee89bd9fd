/*
 * cp_params_show.h - the "commprof params show" subcommand, for the CLI
 * (src/cli/commprof.c) and tests/test_params.c.
 */
#ifndef CP_PARAMS_SHOW_H
#define CP_PARAMS_SHOW_H

/* argv[0] is the subcommand name ("show"), then FILE and options
 * (--format text|json).  Returns the exit status: 0, 1 (file unreadable
 * or malformed: one line "commprof: FILE:LINE: what" on stderr), 2
 * (usage). */
int cp_params_show_main(int argc, char **argv);

#endif
