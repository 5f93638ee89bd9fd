/*
 * cp_params.h - the model parameter file that commprof-calibrate writes
 * and that the profiling library and the CLI read (man/commprof-params.5).
 *
 * The file is line-oriented text: "commprof-params 2", a few header lines
 * (MPI library, date, hosts, rank-to-host map, nranks), the tables that
 * index the size-dependent parameters (LMO's regimes, log3P's sizes,
 * blocks and gaps, PLogP's sizes), then one line per parameter
 * "name index... value lo LO hi HI n N" or "fail name index... : cause",
 * "ambiguous name index... : why" after a value the data do not settle,
 * "lmo.source K TEXT" for where regime K starts, flagged assumptions
 * "assume ...", and a last line "end".
 * Times are seconds, sizes bytes, rates bytes per second.
 *
 * Plain libc: no MPI, no GSL, so that every part may read it.  Reading is
 * strict: any malformed, truncated or inconsistent line is an error with
 * one message "FILE:LINE: what".  No global state; thread-safe.
 */
#ifndef CP_PARAMS_H
#define CP_PARAMS_H

#include <stddef.h>
#include <stdio.h>

/* Format version written on the first line. */
#define CP_PARAMS_VERSION	2

/* Errors of cp_params_load (negated). */
#define CP_PARAMS_EIO		1	/* cannot open or read the file */
#define CP_PARAMS_EFORMAT	2	/* malformed, truncated, mismatched */
#define CP_PARAMS_ENOMEM	3	/* out of memory */

/* State of one parameter. */
#define CP_PV_UNSET	0	/* no line for it */
#define CP_PV_OK	1	/* val, lo, hi, n valid */
#define CP_PV_FAIL	2	/* estimate failed; fail holds the cause */

/* One parameter with its confidence interval. */
struct cp_pval {
	double val;		/* estimate, units of the field */
	double lo;		/* interval, lower bound */
	double hi;		/* interval, upper bound (may be +inf) */
	int n;			/* samples behind val; 0 if assumed */
	int state;		/* CP_PV_* */
	char fail[64];		/* cause when state == CP_PV_FAIL */
	char ambig[96];		/* "", or why the data do not settle a
				 * usable value ("ambiguous" line) */
};

/* Assumptions flagged in the file ("assume ..."). */
#define CP_PARAMS_A_N2		0x1	/* lmo.n2 split_assumed: 2 ranks,
					 * LMO's split into C, t, beta
					 * assumed; the sums are measured */
#define CP_PARAMS_A_OVERSUB	0x2	/* oversubscribed: more ranks than
					 * CPUs on a host when measured */
#define CP_PARAMS_A_QUICK	0x4	/* quick: commprof-calibrate --quick,
					 * a first look */
#define CP_PARAMS_A_UNSTEADY	0x8	/* unsteady: the host changed speed
					 * while measured (calib_gauge_s) */

/* The sizes of the tables of a file (cp_params_alloc). */
struct cp_params_dims {
	int nranks, nhosts;	/* >= 1 */
	int lmo_nreg;		/* LMO regimes, >= 0 */
	int lmo_nsizes;		/* sizes of the LMO sweep, >= 0 */
	int l3_nsizes;		/* log3P contiguous sizes, >= 0 */
	int l3_nssizes, l3_nblocks, l3_ngaps;	/* log3P strided, >= 0 */
	int plogp_n;		/* PLogP g(m) sizes, >= 0 */
};

struct cp_tl_params;
struct cp_pt_params;

/* Everything in a parameter file.  Arrays owned: cp_params_free(). */
struct cp_params {
	char mpi_library[256];	/* MPI_Get_library_version, first line */
	char date[64];		/* ISO 8601, UTC */
	int nhosts;
	char **hosts;		/* [nhosts] host names */
	int nranks;
	int *rank_host;		/* [nranks] index into hosts */
	unsigned assume;	/* CP_PARAMS_A_* */

	/* LMO (LMO paper), per regime k: sizes from
	 * lmo_first_bytes[k] to the next regime's */
	int lmo_nreg;
	double *lmo_first_bytes;	/* [nreg] increasing, [0] = 0 */
	char (*lmo_source)[64];		/* [nreg] where regime k >= 1 starts:
					 * "data" or "NAME=BYTES"; "" none */
	int lmo_nsizes;
	double *lmo_size_bytes;		/* [lmo_nsizes] the sweep */
	struct cp_pval *lmo_c_s;	/* [k * nranks + r] C_r */
	struct cp_pval *lmo_t_spb;	/* [k * nranks + r] t_r */
	/* [(k * nranks + i) * nranks + j], symmetric, diagonal unset */
	struct cp_pval *lmo_beta_Bps;	/* beta_ij (+inf: 1/beta_ij 0) */
	struct cp_pval *lmo_csum_s;	/* C_i + C_j */
	struct cp_pval *lmo_tsum_spb;	/* t_i + t_j + 1/beta_ij */
	struct cp_pval lmo_s_bytes;	/* scatter threshold S */
	struct cp_pval lmo_m1_bytes;	/* gather threshold M1 */
	struct cp_pval lmo_m2_bytes;	/* gather threshold M2 */
	struct cp_pval lmo_kappa1_spb[2];	/* [CP_LMO_KAPPA_*] */
	struct cp_pval lmo_kappa2_spb[2];	/* [CP_LMO_KAPPA_*] */

	/* log3P (log3P paper) */
	int l3_nsizes;
	double *l3_size_bytes;		/* [l3_nsizes] increasing */
	struct cp_pval *l3_t_mem_s;	/* [l3_nsizes] memcpy */
	struct cp_pval *l3_o_mw_s;	/* [l3_nsizes] */
	struct cp_pval *l3_o_net_s;	/* [l3_nsizes] */
	int l3_nssizes, l3_nblocks, l3_ngaps;
	double *l3_ssize_bytes;		/* [l3_nssizes] increasing */
	double *l3_block_bytes;		/* [l3_nblocks] increasing */
	double *l3_gap_bytes;		/* [l3_ngaps] increasing */
	/* [(is * nblocks + ib) * ngaps + ig]; unset: not measured */
	struct cp_pval *l3_l_mw_s;

	/* baselines (README "References") */
	struct cp_pval hockney_alpha_s;
	struct cp_pval hockney_beta_spb;
	struct cp_pval loggp_l_s;	/* L */
	struct cp_pval loggp_o_s;	/* o = (o_s + o_r)/2 */
	struct cp_pval loggp_os_s;	/* o_s */
	struct cp_pval loggp_or_s;	/* o_r */
	struct cp_pval loggp_g_s;	/* g */
	struct cp_pval loggp_gb_spb;	/* G */
	struct cp_pval plogp_l_s;	/* L */
	int plogp_n;
	double *plogp_size_bytes;	/* [plogp_n] increasing, first 0 */
	struct cp_pval *plogp_g_s;	/* [plogp_n] g(m) */

	/* the same message timed at several moments of the calibration:
	 * val the median of the moments' fastest one-way times, lo and hi
	 * the fastest and slowest moment, n the moments; unset in files
	 * written before it */
	struct cp_pval calib_gauge_s;

	/* tau-Lop (src/common/cp_tl_params.h); NULL: no section */
	struct cp_tl_params *tl;
	/* PlogPT (src/common/cp_pt_params.h); NULL: no section */
	struct cp_pt_params *pt;
};

/* Allocate the arrays of p for the sizes d; everything zero and
 * CP_PV_UNSET.  Returns 0 or -CP_PARAMS_ENOMEM (p then holds nothing);
 * -CP_PARAMS_EFORMAT for a count out of range.  p: out, release with
 * cp_params_clear(); d: the sizes. */
int cp_params_alloc(struct cp_params *p, const struct cp_params_dims *d);

/* Release what p owns, then p itself if it came from cp_params_load
 * (NULL-safe).  Cannot fail. */
void cp_params_free(struct cp_params *p);

/* Release the arrays of p, not p (NULL-safe, idempotent).  Cannot fail. */
void cp_params_clear(struct cp_params *p);

/* Write p to f in the file format.  Returns 0 or -CP_PARAMS_EIO when a
 * write fails.  p: parameters; f: open stream. */
int cp_params_write(const struct cp_params *p, FILE *f);

/* Read the file at path.  Returns 0 and *out (release with
 * cp_params_free), or a negative -CP_PARAMS_* with *out NULL and one
 * message "path:line: what" (or "path: what") in err (errlen bytes,
 * truncated to fit).  Never exits or aborts.
 * path: file; out: result; err, errlen: message buffer. */
int cp_params_load(const char *path, struct cp_params **out, char *err,
		   size_t errlen);

/* Print every parameter with its interval, one per line, for people:
 * LMO's values under the regime they hold for, ambiguous ones with the
 * reason.  Returns 0 or -CP_PARAMS_EIO.  p: parameters; f: stream. */
int cp_params_print(const struct cp_params *p, FILE *f);

/* Print p as one JSON object (man/commprof-params.5).  Returns 0 or
 * -CP_PARAMS_EIO.  p: parameters; f: stream. */
int cp_params_print_json(const struct cp_params *p, FILE *f);

#endif
