/*
 * cp_sec.h - what the sections of the parameter file share
 * (src/common/cp_tl_params.c, src/common/cp_pt_params.c): a value line
 * written, read and printed, numbers parsed, an error message made.
 * Plain libc; no global state.
 */
#ifndef CP_SEC_H
#define CP_SEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "src/common/cp_params.h"

/* "NAME value lo LO hi HI n N" or "fail NAME : cause"; nothing for an
 * unset value.  name holds the indices.  Cannot fail (ferror tells). */
void cp_sec_put_val(FILE *f, const char *name, const struct cp_pval *v);

/* The message fmt into err (len bytes); returns -1. */
int cp_sec_bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* s as a number (not NaN; inf allowed), or false. */
bool cp_sec_num(const char *s, double *d);

/* s as an integer in lo..hi, or false. */
bool cp_sec_count(const char *s, int lo, int hi, int *v);

/*
 * cp_sec_rd_val - the value of tok[at..ntok) ("VALUE lo LO hi HI n N",
 * or nothing on a fail line, whose cause is cause) into v, unset
 * before.  nm: the parameter in messages.  Returns 0, or -1 with a
 * message in err (len bytes): a duplicate, a malformed line, a value
 * outside its interval.
 */
int cp_sec_rd_val(char **tok, int ntok, int at, const char *cause,
		  const char *nm, struct cp_pval *v, char *err, size_t len);

/* "NAME  value unit [lo, hi]  n=N", or "NAME  failed: cause", for
 * people; nothing for an unset value.  Cannot fail. */
void cp_sec_print_val(FILE *f, const char *name, const char *unit,
		      const struct cp_pval *v);

#endif
