/*
 * cp_row.c - the names of what a stored row holds (src/common/cp_row.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "src/common/cp_row.h"

const char *cp_model_name(int k)
{
	static const char *const names[CP_NMODELS] = {
#define CP_MODEL_NAME(id, name) #name,
		CP_MODEL_MAP(CP_MODEL_NAME)
#undef CP_MODEL_NAME
	};

	return k >= 0 && k < CP_NMODELS ? names[k] : NULL;
}

const char *cp_row_op_name(char *buf, size_t len, const char *name,
			   int32_t op)
{
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "op%d", (int)op);
	return buf;
}

/* v bytes with the largest binary unit that divides it. */
static const char *unit_of(uint64_t v, uint64_t *n)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB",
					 "PiB", "EiB" };
	int i = 0;

	while (v && v % 1024 == 0 && i < 6) {
		v /= 1024;
		i++;
	}
	*n = v;
	return u[i];
}

void cp_row_size_label(int32_t k, char *buf, size_t len)
{
	const char *ul, *uh;
	uint64_t lo, hi;

	if (k == 0) {
		snprintf(buf, len, "0 B");
		return;
	}
	ul = unit_of(UINT64_C(1) << (k - 1), &lo);
	uh = unit_of(k == 64 ? 0 : UINT64_C(1) << k, &hi);
	if (k == 64)
		snprintf(buf, len, "%" PRIu64 " %s-16 EiB", lo, ul);
	else if (!strcmp(ul, uh))
		snprintf(buf, len, "%" PRIu64 "-%" PRIu64 " %s", lo, hi, uh);
	else
		snprintf(buf, len, "%" PRIu64 " %s-%" PRIu64 " %s", lo, ul,
			 hi, uh);
}
