/*
 * cp_row.h - what a stored call row means, for every program that writes
 * or reads one: the row flags (calls.flags), the peer sentinels, the
 * prediction flags (calls.pred_flags), the size class of the aggregates,
 * the name shown for an op the ops table does not name, and the list of
 * models whose predictions a row carries (db/schema.sql).  The preloaded
 * library sets these, the CLI and the tests read them; so this header is
 * plain C, with no MPI.
 */
#ifndef CP_ROW_H
#define CP_ROW_H

#include <stddef.h>
#include <stdint.h>

/* Special peer and root values, stored as they are in the database. */
#define CP_PEER_NONE	(-1)	/* the call has no peer */
#define CP_PEER_PROCNULL (-2)	/* MPI_PROC_NULL */
#define CP_PEER_ANY	(-3)	/* MPI_ANY_SOURCE, not (yet) resolved */

/* Row flags: calls.flags, struct cp_event.flags (src/lib/cp_record.h). */
#define CP_F_PROCNULL	0x0001	/* peer was MPI_PROC_NULL */
#define CP_F_INPLACE	0x0002	/* a buffer was MPI_IN_PLACE */
#define CP_F_ZERO	0x0004	/* count was zero */
#define CP_F_NONBLOCK	0x0008	/* row completed at request completion */
#define CP_F_PERSIST	0x0010	/* persistent request (Start) */
#define CP_F_FORTRAN	0x0020	/* called through a Fortran binding */
#define CP_F_NOTDONE	0x0040	/* request never completed before finalize */
#define CP_F_CANCELLED	0x0080	/* request was cancelled */
#define CP_F_ANYSRC	0x0100	/* posted with MPI_ANY_SOURCE */
#define CP_F_ANYTAG	0x0200	/* posted with MPI_ANY_TAG */
#define CP_F_RECV	0x0400	/* the row receives (bytes from status) */
#define CP_F_VARBLOCK	0x0800	/* v/w collective: bytes is this rank's total */
#define CP_F_INTER	0x1000	/* intercommunicator: peer/root in the
				 * remote group */
#define CP_F_HALF	0x2000	/* receive half of a Sendrecv: a row of its
				 * own (for matching), not a second call */
#define CP_F_LARGE	0x4000	/* made through the call's MPI-4
				 * large-count binding (MPI_X_c), recorded
				 * as the call itself (MPI_X) */
#define CP_F_NONCOMMUTE	0x8000	/* reduction by an operation that does not
				 * commute (Open MPI only: it picks other
				 * algorithms for one) */

/* Prediction flags: calls.pred_flags.  CP_PF_ON is set on every row
 * that went through cp_pred_eval (src/lib/cp_predict.h); the others say
 * why a value is missing or how far to trust it. */
#define CP_PF_ON		0x0001	/* predictions evaluated */
#define CP_PF_AVERAGED		0x0002	/* LMO from averaged parameters: the
					 * job's ranks or hosts differ from
					 * the calibrated ones */
#define CP_PF_LMO_ESCAL		0x0004	/* gather between M1 and M2: LMO
					 * not predicted (random levels) */
#define CP_PF_L3_EXTRAP_SIZE	0x0008	/* size outside log3P's table */
#define CP_PF_L3_EXTRAP_STRIDE	0x0010	/* block or gap outside log3P's
					 * tables */
#define CP_PF_L3_BLOCK		0x0020	/* log3P not predicted: blocks wider
					 * than the one element it measured
					 * (rows of parameter files before
					 * format 2, which tables blocks) */
#define CP_PF_PLOGP_EXTRAP	0x0040	/* size outside PLogP's g(m) table */
#define CP_PF_L3_LMW_LARGEST	0x0080	/* l_mw is log3P's largest term: a
					 * strided send worth packing */
#define CP_PF_L3_MW_DOM		0x0100	/* o_mw + l_mw > o_net (log3P paper 4.2.1) */
#define CP_PF_SELF		0x0200	/* a message to oneself */
#define CP_PF_LMO_FAILED	0x0400	/* LMO not predicted: a parameter the
					 * call needs (a gather's kappa)
					 * failed in the calibration */
#define CP_PF_TL_EXTRAP		0x0800	/* tau-Lop: a size or concurrency
					 * beyond its tables */
#define CP_PF_COLL_NOALG	0x1000	/* collective: the algorithm Open
					 * MPI runs is not modelled (or a
					 * rules file decides): tau-Lop and
					 * the baselines not predicted */
#define CP_PF_TL_NOCHAN		0x2000	/* tau-Lop not predicted: a channel
					 * (shared memory or network) the
					 * calibration did not measure */
#define CP_PF_PT_EXTRAP		0x4000	/* size outside PlogPT's g(m) table */
#define CP_PF_PT_NOLEAF		0x8000	/* PlogPT not predicted: not between
					 * two leaves of the calibrated tree
					 * (one host of a tree, a host not in
					 * it), or an Alltoall whose ranks are
					 * not the leaves in order */

/*
 * The models, in column order: the one list of them, as libuv's
 * UV_ERRNO_MAP.  X(ID, name) per model makes CP_MODEL_<ID> and
 * cp_model_name(); name makes the columns pred_<name>_ns and mu_<name>
 * of the database (db/schema.sql, db/cp_db_int.h), pred_<name> and
 * mu_<name> of "commprof export", the model's name in the report and in
 * the meta key pred_models.  Adding a model: a line here, its formula in
 * analysis/cp_model.h and its call in src/lib/cp_predict.c.
 */
#define CP_MODEL_MAP(X)			\
	X(LMO, lmo)			\
	X(LOG3P, log3p)			\
	X(HOCKNEY, hockney)		\
	X(LOGGP, loggp)			\
	X(PLOGP, plogp)			\
	X(TAULOP, taulop)		\
	X(PLOGPT, plogpt)

enum cp_model {
#define CP_MODEL_ID(id, name) CP_MODEL_##id,
	CP_MODEL_MAP(CP_MODEL_ID)
#undef CP_MODEL_ID
	CP_NMODELS
};

/* cp_model_name - the name of model k ("lmo", "log3p", ...), or NULL
 * when k is not a CP_MODEL_*.  Cannot fail. */
const char *cp_model_name(int k);

/*
 * cp_row_size_class - the size class of bytes in the aggregates
 * (aggs.size_class) and the report: floor(log2(bytes)) + 1, so class
 * k >= 1 holds 2^(k-1) <= bytes < 2^k, and 0 for 0 bytes.  Cannot fail.
 */
static inline int32_t cp_row_size_class(uint64_t bytes)
{
	return bytes ? 64 - __builtin_clzll(bytes) : 0;
}

/*
 * cp_row_size_label - the label of size class k in the report: "0 B",
 * then "lo-hi UNIT" for lo <= bytes < hi ("512 B-1 KiB", "4-8 KiB").
 * buf: out, len bytes (truncated to fit).  Cannot fail.
 */
void cp_row_size_label(int32_t k, char *buf, size_t len);

/*
 * cp_row_op_name - the name shown for op: name (ops.name) when there is
 * one, else "op<id>" (a rank file whose ops table lost the row).  buf:
 * out, len bytes (truncated to fit, always terminated when len > 0);
 * name: ops.name or NULL; op: ops.id.  Returns buf.  Cannot fail.
 */
const char *cp_row_op_name(char *buf, size_t len, const char *name,
			   int32_t op);

#endif
