/*
 * cp_log3p.h - the tables of the log3P middleware-aware point-to-point
 * model from measurements (log3P paper, sections 2-4).
 *
 * T(s,d) = o_mw(s) + l_mw(s,d) + o_net(s) for s bytes in blocks of b
 * bytes d bytes apart (gap g = d - b).  The tables come from one-way
 * times measured at discrete points (cp_log3p_derive):
 *   o_mw = T_00(s) - T_mem(s), o_net = T_01(s) - o_mw(s) (log3P paper, 4.1);
 *   l_mw(s,b,g) = T_01(s,b,g) - T_01(s) (ours): the remote strided time
 *   measured directly less the contiguous one, where the log3P paper takes the
 *   send-to-self difference T_00(s,d) - T_00(s) and checks the sum
 *   against the remote measurement.  Both agree where the model holds;
 *   on a host whose contiguous messages go by a single copy and whose
 *   strided ones by copy-in/copy-out the self difference misses the
 *   remote cost by up to half, and the remote time is what is predicted.
 * o_mw is kept within [0, T_01] so that o_mw + o_net = T_01 exactly.
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

/* Measured times.  One-way times of a message whose receive is posted:
 * the calibrator's one-to-one less half the empty roundtrip. */
struct cp_log3p_meas {
	int nsizes;		/* contiguous sizes, >= 1 */
	const double *size_bytes;	/* [nsizes] increasing, >= 0 */
	const double *t_mem_s;	/* [nsizes] memcpy of s bytes */
	const double *t00_s;	/* [nsizes] send to self, contiguous */
	const double *t01_s;	/* [nsizes] remote, contiguous */
	int nssizes;		/* strided sizes, >= 1, each one of
				 * size_bytes */
	int nblocks, ngaps;	/* >= 1 */
	const double *ssize_bytes;	/* [nssizes] increasing */
	const double *block_bytes;	/* [nblocks] increasing, > 0 */
	const double *gap_bytes;	/* [ngaps] increasing, > 0 */
	/* [(is * nblocks + ib) * ngaps + ig] remote strided; NAN: not
	 * measured */
	const double *t01sd_s;
};

/* Derive the tables from in.  Negative derived l_mw are kept (a strided
 * path faster than the contiguous one) and counted in out->nneg.
 * -CP_EINVAL (counts < 1, tables not increasing, a strided size that is
 * not a contiguous one, a non-finite contiguous time), -CP_ENOMEM; on
 * error out holds nothing.
 * in: measurements; out: tables, release with cp_log3p_free(). */
int cp_log3p_derive(const struct cp_log3p_meas *in, struct cp_log3p *out);

#endif
