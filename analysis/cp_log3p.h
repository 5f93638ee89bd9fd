/*
 * cp_log3p.h - the tables of the log3P middleware-aware point-to-point
 * model from measurements (models.md "log3P"; paper 003, sections 2-4).
 *
 * T(s,d) = o_mw(s) + l_mw(s,d) + o_net(s) for s bytes whose elements lie
 * d bytes apart.  The tables come from half-roundtrip times measured at
 * discrete sizes and strides (cp_log3p_derive):
 *   o_mw = T_00(s) - T_mem(s), o_net = T_01(s) - o_mw(s),
 *   l_mw(s,d) = T_00(s,d) - T_00(s).
 * Their evaluation, interpolated between the measured points, and the
 * broadcast forms are in analysis/cp_model.h (cp_log3p_eval).
 *
 * The functions are linear in the times, so any time unit works; the
 * field names say seconds because the calibrator stores seconds.
 * No global state; thread-safe.  Actions return 0 or -CP_E*.
 */
#ifndef CP_LOG3P_H
#define CP_LOG3P_H

#include "analysis/cp_model.h"

/* Measured half-roundtrip times (003, 3.2 and 4.1). */
struct cp_log3p_meas {
	int nsizes;		/* sizes measured, >= 1 */
	int nstrides;		/* strides measured, >= 1 */
	const double *size_bytes;	/* [nsizes] increasing */
	const double *stride_bytes;	/* [nstrides] increasing, > 0 */
	const double *t_mem_s;	/* [nsizes] memcpy of s bytes */
	const double *t00_s;	/* [nsizes] send to self, contiguous */
	const double *t01_s;	/* [nsizes] remote, contiguous */
	const double *t00sd_s;	/* [is * nstrides + id] self, strided */
};

/* Derive the tables from in.  Negative derived values are kept (the
 * caller decides) and counted in out->nneg.  -CP_EINVAL (counts < 1,
 * sizes or strides not increasing, a non-finite time), -CP_ENOMEM; on
 * error out holds nothing.
 * in: measurements; out: tables, release with cp_log3p_free(). */
int cp_log3p_derive(const struct cp_log3p_meas *in, struct cp_log3p *out);

#endif
