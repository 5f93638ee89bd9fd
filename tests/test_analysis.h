/*
 * test_analysis.h - tiny harness of the analysis/ check programs: one
 * printed line per check, exit status 0 when all passed, 1 otherwise.
 */
#ifndef TEST_ANALYSIS_H
#define TEST_ANALYSIS_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int ta_failed, ta_checks;

/* Print "ok: <what>" or "FAIL: <what>" and count. */
__attribute__((format(printf, 2, 3)))
static bool ta_check(bool ok, const char *fmt, ...)
{
	va_list ap;

	ta_checks++;
	ta_failed += !ok;
	fputs(ok ? "ok: " : "FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return ok;
}

/* |a - b| <= tol * max(|a|, |b|, tiny) */
static inline bool ta_near(double a, double b, double tol)
{
	double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return fabs(a - b) <= tol * (m > 1e-300 ? m : 1e-300);
}

static int ta_done(const char *prog)
{
	printf("%s: %d checks, %d failed\n", prog, ta_checks, ta_failed);
	return ta_failed ? 1 : 0;
}

#endif
