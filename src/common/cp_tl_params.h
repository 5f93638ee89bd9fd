/*
 * cp_tl_params.h - the tau-Lop section of the parameter file
 * (src/common/cp_params.h, man/commprof-params.5): per channel (0 shared
 * memory, 1 network) the sizes and concurrencies measured, o_c(m) and
 * L_c(m, tau) with their intervals, the cost per byte of a local
 * reduction and of a fresh page's first touch.  Written, read and printed by the functions below, which
 * the parameter file's writer, reader and printers call; the reader
 * hands them every line whose name starts with "taulop.".
 *
 *   taulop.sizes C N S1 ... SN       sizes of channel C, bytes, increasing
 *   taulop.taus C K T1 ... TK        concurrencies, increasing, T1 = 1
 *   taulop.ranks C R                 processes the experiments ran on
 *   taulop.o C SIZE VALUE lo LO hi HI n N
 *   taulop.L C SIZE TAU VALUE lo LO hi HI n N
 *   taulop.Lw C SIZE TAU VALUE lo LO hi HI n N   L of written messages
 *   taulop.Ls C SIZE TAU VALUE lo LO hi HI n N   L of rounds that start
 *                                    together, messages written first
 *                                    (shared memory), a collective's
 *                                    rounds' L
 *   taulop.gaps C G GAP1 ... GAPG    quiet gaps, seconds, increasing, > 0
 *   taulop.Lg C SIZE GAP VALUE lo LO hi HI n N   what a message takes
 *                                    more after the gap (both processes
 *                                    outside MPI that long) than sent
 *                                    right after the last one
 *   taulop.red VALUE lo LO hi HI n N
 *   taulop.page VALUE lo LO hi HI n N   seconds per fresh 4-KiB page
 *   fail taulop.L C SIZE TAU : CAUSE (and so for o, red, page)
 *
 * Plain libc; no global state.
 */
#ifndef CP_TL_PARAMS_H
#define CP_TL_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "src/common/cp_params.h"

/* One channel's tables; nsizes 0: not calibrated. */
struct cp_tl_chan_params {
	int nsizes, ntau;
	double *size_bytes;		/* [nsizes] increasing */
	double *tau;			/* [ntau] increasing, first 1 */
	struct cp_pval *o_s;		/* [nsizes] o_c(m) */
	struct cp_pval *l_s;		/* [is * ntau + it] L_c(m, tau) */
	struct cp_pval *lw_s;		/* [is * ntau + it] L of messages
					 * written just before they are
					 * sent (unset where not timed:
					 * d > 1, files before them) */
	struct cp_pval *ls_s;		/* [is * ntau + it] L of rounds
					 * that start together (unset:
					 * the network, files before
					 * them) */
	int ranks;			/* processes of the experiments; 0
					 * unknown */
	int ngap;			/* 0: no gap table (files before it) */
	double *gap_s;			/* [ngap] increasing, > 0 */
	struct cp_pval *lg_s;		/* [is * ngap + ig] extra time of a
					 * message of size is after gap ig */
};

/* The section (struct cp_params.tl, NULL when the file has none). */
struct cp_tl_params {
	struct cp_tl_chan_params ch[2];	/* [CP_TL_SHM], [CP_TL_NET] */
	struct cp_pval red_spb;		/* reduction cost per byte */
	struct cp_pval page_s;		/* first touch of a fresh page;
					 * absent in files before it */
};

/* cp_tl_params_get - p->tl, allocated empty when p has none.  Returns
 * NULL only when out of memory. */
struct cp_tl_params *cp_tl_params_get(struct cp_params *p);

/*
 * cp_tl_params_alloc_chan - tables of nsizes x ntau for channel c of
 * tl, every value unset; sizes and taus zero, for the caller to fill.
 * Replaces what the channel held.  Returns 0, -1 (c not 0 or 1, a count
 * below 1 or above 4096), -2 (out of memory).
 */
int cp_tl_params_alloc_chan(struct cp_tl_params *tl, int c, int nsizes,
			    int ntau);

/*
 * cp_tl_params_alloc_gaps - the gap table of channel c (its sizes
 * allocated), ngap gaps, every value unset, gaps zero for the caller to
 * fill.  Returns 0, -1 (c not 0 or 1, no sizes, ngap below 1 or above
 * 4096), -2 (out of memory).
 */
int cp_tl_params_alloc_gaps(struct cp_tl_params *tl, int c, int ngap);

/* Release tl and what it holds (NULL-safe).  Cannot fail. */
void cp_tl_params_free(struct cp_tl_params *tl);

/* Write the section's lines to f; nothing when tl is NULL.  Returns 0
 * or -1 (write error). */
int cp_tl_params_write(const struct cp_tl_params *tl, FILE *f);

/*
 * cp_tl_params_line - one line of the section into p, split into
 * tok[0..ntok): tok[0] is its name ("taulop.L"); cause is the text
 * after " : " of a "fail" line, else NULL.
 * Returns 0; -1 with a message in err (errlen bytes, lowercase, without
 * file and line) for a malformed or inconsistent line; -2 when out of
 * memory.
 */
int cp_tl_params_line(struct cp_params *p, char **tok, int ntok,
		      const char *cause, char *err, size_t errlen);

/* Print the section for people (cp_params_print); nothing when tl is
 * NULL.  Returns 0 or -1. */
int cp_tl_params_print(const struct cp_tl_params *tl, FILE *f);

/* Print the member ",\n  \"taulop\": ..." of the file's JSON object
 * (cp_params_print_json): null when tl is NULL.  Returns 0 or -1. */
int cp_tl_params_json(const struct cp_tl_params *tl, FILE *f);

#endif
