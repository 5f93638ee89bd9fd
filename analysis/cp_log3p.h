/*
 * cp_log3p.h - the log3P middleware-aware point-to-point model
 * (models.md "log3P"; paper 003, sections 2-4).
 *
 * T(s,d) = o_mw(s) + l_mw(s,d) + o_net(s) for s bytes whose elements lie
 * d bytes apart.  The tables come from half-roundtrip times measured at
 * discrete sizes and strides (cp_log3p_derive):
 *   o_mw = T_00(s) - T_mem(s), o_net = T_01(s) - o_mw(s),
 *   l_mw(s,d) = T_00(s,d) - T_00(s).
 * Between measured points we interpolate (ours): linearly in s, since
 * each cost is close to affine in s between protocol switches, and
 * linearly in log2(d), since strides span orders of magnitude and 003's
 * Fig. 5 shows l_mw smooth on log axes.  Outside the measured sizes the
 * end segment is extended and outside the strides the nearest stride is
 * used; both set a flag in the prediction.
 *
 * The functions are linear in the times, so any time unit works; the
 * field names say seconds because the calibrator stores seconds.
 * No global state; thread-safe.  Actions return 0 or -CP_E*.
 */
#ifndef CP_LOG3P_H
#define CP_LOG3P_H

#include <stdbool.h>

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

/* The derived tables.  Arrays owned: cp_log3p_free(). */
struct cp_log3p {
	int nsizes;		/* as measured */
	int nstrides;		/* as measured */
	double *size_bytes;	/* [nsizes] */
	double *stride_bytes;	/* [nstrides] */
	double *t_mem_s;	/* [nsizes] memcpy time */
	double *o_mw_s;		/* [nsizes] middleware overhead */
	double *o_net_s;	/* [nsizes] network overhead */
	double *l_mw_s;		/* [is * nstrides + id] mw latency */
	int nneg;		/* derived values < 0 (noise or bad data) */
};

#define CP_LOG3P_F_EXTRAP_SIZE	0x1	/* s outside measured sizes */
#define CP_LOG3P_F_EXTRAP_STRIDE 0x2	/* d outside measured strides */

/* One prediction and its terms. */
struct cp_log3p_pred {
	double o_mw_s;		/* middleware overhead */
	double l_mw_s;		/* middleware latency; 0 if contiguous */
	double o_net_s;		/* network overhead */
	double t_s;		/* remote: o_mw + l_mw + o_net */
	double self_s;		/* send to self: o_mw + l_mw + T_mem */
	unsigned flags;		/* CP_LOG3P_F_* */
};

/* Savings quoted from 003 as estimates, not model output: manual packing
 * beat derived datatypes by 15% on average (2% to 50%, 4.3.2); blocked
 * packing by 43.5% in the 3D FFT on 4 nodes (4.3.4). */
#define CP_LOG3P_PACK_MEAN	0.15
#define CP_LOG3P_PACK_LO	0.02
#define CP_LOG3P_PACK_HI	0.50
#define CP_LOG3P_PACK_BLOCKED	0.435

/* Estimated savings of packing by hand one strided send. */
struct cp_log3p_saving {
	double manual_s;	/* CP_LOG3P_PACK_MEAN * T(s,d) */
	double manual_lo_s;	/* CP_LOG3P_PACK_LO * T(s,d) */
	double manual_hi_s;	/* CP_LOG3P_PACK_HI * T(s,d) */
	double blocked_s;	/* CP_LOG3P_PACK_BLOCKED * T(s,d) */
};

/* Derive the tables from in.  Negative derived values are kept (the
 * caller decides) and counted in out->nneg.  -CP_EINVAL (counts < 1,
 * sizes or strides not increasing, a non-finite time), -CP_ENOMEM; on
 * error out holds nothing.
 * in: measurements; out: tables, release with cp_log3p_free(). */
int cp_log3p_derive(const struct cp_log3p_meas *in, struct cp_log3p *out);

/* Release the arrays of m (NULL-safe, idempotent).  Cannot fail. */
void cp_log3p_free(struct cp_log3p *m);

/* Predict T(s,d).  d == 0 means contiguous (l_mw = 0 exactly); otherwise
 * d is the distance between elements in bytes.  -CP_EINVAL for s < 0 or
 * d < 0 or non-finite.
 * m: tables; s_bytes: message size; d_bytes: stride; p: out. */
int cp_log3p_predict(const struct cp_log3p *m, double s_bytes,
		     double d_bytes, struct cp_log3p_pred *p);

/* Linear broadcast, root sends P-1 times (003, 4.3.3):
 * P*(o_mw/2 + l_mw/2) + o_net.  -CP_EINVAL for nprocs < 2.
 * p: point-to-point terms at the message's s, d; nprocs: P; t_s: out. */
int cp_log3p_bcast_linear(const struct cp_log3p_pred *p, int nprocs,
			  double *t_s);

/* Tree broadcast: h*(o_mw + l_mw + o_net), h = ceil(log2 P) (003 says
 * log2 P; ceil for other P is ours).  -CP_EINVAL for nprocs < 2.
 * p: point-to-point terms; nprocs: P; t_s: out. */
int cp_log3p_bcast_tree(const struct cp_log3p_pred *p, int nprocs,
			double *t_s);

/* True when the middleware dominates: o_mw + l_mw > o_net (003, 4.2.1).
 * p: prediction. */
bool cp_log3p_mw_dominated(const struct cp_log3p_pred *p);

/* True when l_mw is the largest of the three terms: a strided send
 * worth packing (ours, from 003 4.3.2, 4.3.4).  p: prediction. */
bool cp_log3p_lmw_largest(const struct cp_log3p_pred *p);

/* Packing savings estimated from p->t_s.  Cannot fail.
 * p: prediction of the strided send; sv: out. */
void cp_log3p_pack_saving(const struct cp_log3p_pred *p,
			  struct cp_log3p_saving *sv);

#endif
