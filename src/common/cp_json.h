/*
 * cp_json.h - JSON text that every program writes the same way: the
 * parameter file's JSON form (src/common/cp_params.c) and the CLI's
 * export and report (src/cli/).  Plain libc.
 */
#ifndef CP_JSON_H
#define CP_JSON_H

#include <stdio.h>

/*
 * cp_json_str - write s to f as a JSON string: in double quotes, '"' and
 * '\\' escaped with a backslash, control characters below 0x20 as
 * \u00XX, every other byte as it is (UTF-8 passes through).  Write
 * errors are left in f's error flag.  f: output; s: text, not NULL.
 */
void cp_json_str(FILE *f, const char *s);

#endif
