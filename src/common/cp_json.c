/*
 * cp_json.c - JSON strings, parameters and lists of numbers
 * (src/common/cp_json.h).
 */
#include <math.h>

#include "src/common/cp_json.h"
#include "src/common/cp_params.h"

void cp_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.9g", x);
	else if (x > 0)
		fputs("\"inf\"", f);
	else
		fputs("null", f);
}

void cp_json_pval(FILE *f, const struct cp_pval *v)
{
	if (v->state == CP_PV_OK) {
		fputs("{\"value\": ", f);
		json_num(f, v->val);
		fputs(", \"lo\": ", f);
		json_num(f, v->lo);
		fputs(", \"hi\": ", f);
		json_num(f, v->hi);
		fprintf(f, ", \"n\": %d", v->n);
		if (v->ambig[0]) {
			fputs(", \"ambiguous\": ", f);
			cp_json_str(f, v->ambig);
		}
		fputc('}', f);
	} else if (v->state == CP_PV_FAIL) {
		fputs("{\"fail\": ", f);
		cp_json_str(f, v->fail);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
}

void cp_json_nums(FILE *f, const double *a, int n)
{
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s%.17g", i ? ", " : "", a[i]);
	fputc(']', f);
}

void cp_json_pvals(FILE *f, const struct cp_pval *a, int n)
{
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		cp_json_pval(f, &a[i]);
	}
	fputc(']', f);
}
