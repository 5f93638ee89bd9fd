/*
 * calib_limits.c - the protocol limits the MPI library reports, through
 * its MPI_T control variables: Open MPI's btl_<transport>_eager_limit and
 * btl_<transport>_rndv_eager_limit and btl_<transport>_max_inline_send,
 * MPICH's MPIR_CVAR_*EAGER*MAX_MSG_SIZE and the like.  LMO's regimes
 * are found in the data; these say where a break is expected and what to
 * call it (analysis/cp_lmo_ls.h).
 */
#include <ctype.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/calib/calib.h"

/* Case-insensitive substring. */
static bool has(const char *s, const char *sub)
{
	size_t n = strlen(sub), i;

	for (; *s; s++) {
		for (i = 0; i < n && s[i] &&
		     tolower((unsigned char)s[i]) == tolower((unsigned char)sub[i]);
		     i++)
			;
		if (i == n)
			return true;
	}
	return false;
}

/* Open MPI: is transport comp of "btl_<comp>_..." selected by the btl
 * parameter (OMPI_MCA_btl, as mpirun --mca btl passes it)?  Send to self
 * is no link between ranks. */
static bool btl_selected(const char *name)
{
	const char *sel = getenv("OMPI_MCA_btl"), *p;
	char comp[32];
	size_t n;
	bool neg;

	if (strncmp(name, "btl_", 4))
		return true;
	p = strchr(name + 4, '_');
	n = p ? (size_t)(p - name - 4) : 0;
	if (!n || n >= sizeof(comp))
		return false;
	memcpy(comp, name + 4, n);
	comp[n] = '\0';
	if (!strcmp(comp, "self"))
		return false;
	if (!sel || !*sel)
		return true;
	neg = sel[0] == '^';
	for (p = sel + neg; *p;) {
		n = strcspn(p, ",");
		if (n == strlen(comp) && !strncmp(p, comp, n))
			return !neg;
		p += n + (p[n] == ',');
	}
	return neg;
}

/* A control variable that names a protocol limit: an eager limit, or
 * the largest message sent inline (Open MPI's btl_*_max_inline_send). */
static bool is_limit(const char *name)
{
	return ((has(name, "eager") &&
		 (has(name, "limit") || has(name, "max_msg_size"))) ||
		has(name, "max_inline")) && btl_selected(name);
}

/* The value of integer control variable i of type dt, > 0. */
static bool read_int(int i, MPI_Datatype dt, double *v)
{
	MPI_T_cvar_handle h;
	unsigned char buf[16] = { 0 };
	uint32_t u4;
	uint64_t u8;
	int count = 0, sz = 0, rc;
	bool sgn = dt == MPI_INT || dt == MPI_LONG || dt == MPI_LONG_LONG;

	if (!sgn && dt != MPI_UNSIGNED && dt != MPI_UNSIGNED_LONG &&
	    dt != MPI_UNSIGNED_LONG_LONG && dt != MPI_COUNT)
		return false;
	if (MPI_Type_size(dt, &sz) != MPI_SUCCESS || (sz != 4 && sz != 8) ||
	    MPI_T_cvar_handle_alloc(i, NULL, &h, &count) != MPI_SUCCESS)
		return false;
	rc = count == 1 ? MPI_T_cvar_read(h, buf) : MPI_ERR_OTHER;
	MPI_T_cvar_handle_free(&h);
	if (rc != MPI_SUCCESS)
		return false;
	if (sz == 4) {
		memcpy(&u4, buf, 4);
		*v = sgn ? (double)(int32_t)u4 : (double)u4;
	} else {
		memcpy(&u8, buf, 8);
		*v = sgn ? (double)(int64_t)u8 : (double)u8;
	}
	return *v > 0;
}

static int cmp_lim(const void *a, const void *b)
{
	double x = ((const struct cp_lmo_limit *)a)->bytes;
	double y = ((const struct cp_lmo_limit *)b)->bytes;

	return (x > y) - (x < y);
}

int calib_limits(struct cp_lmo_limit *lim, int max)
{
	char name[256], desc[8];
	int provided, n = 0, num = 0, i, nlen, dlen, verb, bind, scope, k;
	MPI_Datatype dt;
	MPI_T_enum et;
	double v;

	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
		return 0;
	if (MPI_T_cvar_get_num(&num) != MPI_SUCCESS)
		num = 0;
	for (i = 0; i < num && n < max; i++) {
		nlen = sizeof(name);
		dlen = sizeof(desc);
		if (MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &et, desc,
					&dlen, &bind, &scope) != MPI_SUCCESS ||
		    bind != MPI_T_BIND_NO_OBJECT || !is_limit(name) ||
		    strlen(name) >= sizeof(lim[0].name) ||
		    !read_int(i, dt, &v))
			continue;
		for (k = 0; k < n && lim[k].bytes != v; k++)
			;
		/* one name per value, an eager limit's before a
		 * rendezvous one's of the same size */
		if (k < n && (has(name, "rndv") || !has(lim[k].name, "rndv")))
			continue;
		memcpy(lim[k].name, name, strlen(name) + 1);
		lim[k].bytes = v;
		n += k == n;
	}
	MPI_T_finalize();
	qsort(lim, (size_t)n, sizeof(*lim), cmp_lim);
	return n;
}
