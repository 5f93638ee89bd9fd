/*
 * cp_json.h - JSON text that every program writes the same way: the
 * parameter file's JSON form (src/common/cp_params.c and its tau-Lop
 * section, src/common/cp_tl_params.c) and the CLI's export and report
 * (src/cli/).  Plain libc.
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

struct cp_pval;

/*
 * cp_json_pval - write a parameter of the parameter file
 * (src/common/cp_params.h) as {"value", "lo", "hi", "n"} (+inf as
 * "inf", another number that is not finite as null), with
 * "ambiguous": why when the estimate is ambiguous, {"fail": cause} when
 * it failed, or null when unset.  f: output; v: the parameter.
 */
void cp_json_pval(FILE *f, const struct cp_pval *v);

/*
 * cp_json_nums - write a[0..n) as a JSON array of numbers, each with
 * 17 significant digits.  f: output; a, n: the numbers.
 */
void cp_json_nums(FILE *f, const double *a, int n);

/* cp_json_pvals - write a[0..n) as a JSON array of cp_json_pval
 * objects.  Cannot fail (ferror tells). */
void cp_json_pvals(FILE *f, const struct cp_pval *a, int n);

#endif
