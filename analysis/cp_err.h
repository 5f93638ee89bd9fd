/*
 * cp_err.h - error codes of the analysis library.  Every action in
 * analysis/ returns 0 or one of these, negated (-CP_EINVAL).  The codes
 * are kept small and positive so that callers in src/ can reuse them.
 */
#ifndef CP_ERR_H
#define CP_ERR_H

#define CP_EINVAL	1	/* bad argument: size, index, NULL, NaN */
#define CP_ENOMEM	2	/* allocation failed */
#define CP_ENUM		3	/* a result is negative or not finite */
#define CP_ENOPRED	4	/* the model makes no prediction there */

/* A static, lowercase description of code (positive or negated).  Cannot
 * fail: unknown codes give "unknown error". */
const char *cp_err_str(int code);

#endif
