/*
 * cp_sec.c - what the sections of the parameter file share
 * (src/common/cp_sec.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "src/common/cp_sec.h"

void cp_sec_put_val(FILE *f, const char *name, const struct cp_pval *v)
{
	if (v->state == CP_PV_OK)
		fprintf(f, "%s %.9g lo %.9g hi %.9g n %d\n", name, v->val,
			v->lo, v->hi, v->n);
	else if (v->state == CP_PV_FAIL)
		fprintf(f, "fail %s : %s\n", name, v->fail);
}

int cp_sec_bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

bool cp_sec_num(const char *s, double *d)
{
	char *end;

	errno = 0;
	*d = strtod(s, &end);
	return end != s && !*end && !errno && !isnan(*d);
}

bool cp_sec_count(const char *s, int lo, int hi, int *v)
{
	double d;

	if (!cp_sec_num(s, &d) || d != floor(d) || d < lo || d > hi)
		return false;
	*v = (int)d;
	return true;
}

int cp_sec_rd_val(char **tok, int ntok, int at, const char *cause,
		  const char *nm, struct cp_pval *v, char *err, size_t len)
{
	static const char *const kw[] = { "lo", "hi", "n" };
	double x[3];
	int k, n;

	if (v->state != CP_PV_UNSET)
		return cp_sec_bad(err, len, "duplicate '%s'", nm);
	if (cause) {
		if (ntok != at)
			return cp_sec_bad(err, len, "unexpected '%s' in a fail "
					  "line", tok[at]);
		v->state = CP_PV_FAIL;
		snprintf(v->fail, sizeof(v->fail), "%s", cause);
		return 0;
	}
	if (ntok != at + 7)
		return cp_sec_bad(err, len, "'%s' needs VALUE lo LO hi HI n N",
				  nm);
	for (k = 0; k < 3; k++)
		if (strcmp(tok[at + 1 + 2 * k], kw[k]))
			return cp_sec_bad(err, len, "'%s': expected '%s'", nm,
					  kw[k]);
	for (k = 0; k < 3; k++)
		if (!cp_sec_num(tok[at + 2 * k], &x[k]))
			break;
	if (k < 3 || !cp_sec_count(tok[at + 6], 0, 1 << 30, &n) ||
	    !isfinite(x[0]) || !isfinite(x[1]) ||
	    !(x[1] <= x[0] && x[0] <= x[2]))
		return cp_sec_bad(err, len, "'%s': value outside its interval "
				  "or not a number", nm);
	v->val = x[0];
	v->lo = x[1];
	v->hi = x[2];
	v->n = n;
	v->state = CP_PV_OK;
	return 0;
}

void cp_sec_print_val(FILE *f, const char *name, const char *unit,
		      const struct cp_pval *v)
{
	if (v->state == CP_PV_OK)
		fprintf(f, "%-26s %12.4g %-4s [%.4g, %.4g]  n=%d\n", name,
			v->val, unit, v->lo, v->hi, v->n);
	else if (v->state == CP_PV_FAIL)
		fprintf(f, "%-26s failed: %s\n", name, v->fail);
}
