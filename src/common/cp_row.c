/*
 * cp_row.c - the names of what a stored row holds (src/common/cp_row.h).
 */
#include <stdio.h>

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
