/*
 * cp_pt_params.h - the PlogPT section of the parameter file
 * (src/common/cp_params.h, man/commprof-params.5; PlogPT paper section
 * III-C): PLogP's parameters measured with both ends sending at once,
 * and the tree of switches over the hosts, b(h) and d(h) per height,
 * with the error bounds eps_S and eps_T.  Written, read and printed by
 * the functions below, which the parameter file's writer, reader and
 * printers call; the reader hands them every line whose name starts
 * with "plogpt.".
 *
 *   plogpt.tree D                    height D >= 0 of the tree: 2^D
 *                                    leaves, leaf k the file's host k
 *   plogpt.pair A B                  world ranks g, L, o_s, o_r were
 *                                    measured between
 *   plogpt.sizes N S1 ... SN         sizes of g, o_s, o_r: bytes,
 *                                    increasing, S1 = 0
 *   plogpt.L VALUE lo LO hi HI n N   latency L
 *   plogpt.g SIZE VALUE lo ...       g(m), both ends sending
 *   plogpt.os SIZE VALUE lo ...      o_s(m), both ends sending
 *   plogpt.or SIZE VALUE lo ...      o_r(m), both ends sending
 *   plogpt.b H VALUE lo ...          b(h), bytes/s, H = 1..D
 *   plogpt.d H VALUE lo ...          d(h), seconds, H = 1..D
 *   plogpt.eps_s VALUE lo ...        eq. 5's eps_S (dimensionless)
 *   plogpt.eps_t VALUE lo ...        eq. 14's eps_T, seconds
 *   fail NAME INDEX... : CAUSE       (every valued line may fail)
 *
 * Plain libc; no global state.
 */
#ifndef CP_PT_PARAMS_H
#define CP_PT_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "src/common/cp_params.h"

/* Heights of the tree: 2^16 leaves at most. */
#define CP_PT_MAX_HEIGHT	16

/* The section (struct cp_params.pt, NULL when the file has none). */
struct cp_pt_params {
	int height;			/* D; -1 no "plogpt.tree" line */
	int pair[2];			/* world ranks; -1 unknown */
	int nsizes;			/* 0: no "plogpt.sizes" line */
	double *size_bytes;		/* [nsizes] increasing, [0] = 0 */
	struct cp_pval l_s;		/* L */
	struct cp_pval *g_s;		/* [nsizes] g(m) */
	struct cp_pval *os_s;		/* [nsizes] o_s(m) */
	struct cp_pval *or_s;		/* [nsizes] o_r(m) */
	struct cp_pval b_bps[CP_PT_MAX_HEIGHT + 1];	/* [h], h = 1..D */
	struct cp_pval d_s[CP_PT_MAX_HEIGHT + 1];	/* [h], h = 1..D */
	struct cp_pval eps_s;
	struct cp_pval eps_t_s;
};

/* cp_pt_params_get - p->pt, allocated empty (height -1, pair -1 -1, no
 * sizes, every value unset) when p has none.  Returns NULL only when out
 * of memory. */
struct cp_pt_params *cp_pt_params_get(struct cp_params *p);

/*
 * cp_pt_params_alloc_sizes - tables of nsizes for pt's g, o_s and o_r,
 * every value unset, sizes zero for the caller to fill.  Replaces what
 * pt held in them.  Returns 0, -1 (nsizes below 1 or above 4096), -2
 * (out of memory).
 */
int cp_pt_params_alloc_sizes(struct cp_pt_params *pt, int nsizes);

/* Release pt and what it holds (NULL-safe).  Cannot fail. */
void cp_pt_params_free(struct cp_pt_params *pt);

/* Write the section's lines to f; nothing when pt is NULL.  Returns 0
 * or -1 (write error). */
int cp_pt_params_write(const struct cp_pt_params *pt, FILE *f);

/*
 * cp_pt_params_line - one line of the section into p, split into
 * tok[0..ntok): tok[0] is its name ("plogpt.b"); cause is the text after
 * " : " of a "fail" line, else NULL.  Returns 0; -1 with a message in
 * err (errlen bytes, lowercase, without file and line) for a malformed
 * or inconsistent line (a size not in plogpt.sizes, a height outside
 * 1..D, a value line before the line that indexes it); -2 when out of
 * memory.
 */
int cp_pt_params_line(struct cp_params *p, char **tok, int ntok,
		      const char *cause, char *err, size_t errlen);

/* Print the section for people (cp_params_print); nothing when pt is
 * NULL.  Returns 0 or -1. */
int cp_pt_params_print(const struct cp_pt_params *pt, FILE *f);

/* Print the member ",\n  \"plogpt\": ..." of the file's JSON object
 * (cp_params_print_json): null when pt is NULL.  Returns 0 or -1. */
int cp_pt_params_json(const struct cp_pt_params *pt, FILE *f);

#endif
