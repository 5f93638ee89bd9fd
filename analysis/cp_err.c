/*
 * cp_err.c - text of the analysis error codes (analysis/cp_err.h).
 */
#include "config.h"

#include "analysis/cp_err.h"

const char *cp_err_str(int code)
{
	switch (code < 0 ? -code : code) {
	case 0:
		return "success";
	case CP_EINVAL:
		return "invalid argument";
	case CP_ENOMEM:
		return "out of memory";
	case CP_ENUM:
		return "negative or non-finite estimate";
	case CP_ENOPRED:
		return "no prediction in this range";
	}
	return "unknown error";
}
