/*
 * cp_coll_mca.c - coll/tuned's MCA settings through MPI_T control
 * variables (src/lib/cp_coll_mca.h).
 */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "src/lib/cp_coll_mca.h"

/* The integer control variable name, or dflt when it cannot be read. */
static int cvar_int(const char *name, int dflt)
{
	MPI_T_cvar_handle h;
	int idx, n, v = dflt;

	if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS ||
	    MPI_T_cvar_handle_alloc(idx, NULL, &h, &n) != MPI_SUCCESS)
		return dflt;
	if (n != 1 || MPI_T_cvar_read(h, &v) != MPI_SUCCESS)
		v = dflt;
	MPI_T_cvar_handle_free(&h);
	return v;
}

/* True when the string control variable name is set and not empty. */
static bool cvar_set(const char *name)
{
	MPI_T_cvar_handle h;
	char buf[4096] = "";
	int idx, n;
	bool set = false;

	if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS ||
	    MPI_T_cvar_handle_alloc(idx, NULL, &h, &n) != MPI_SUCCESS)
		return false;
	if (n > 0 && n < (int)sizeof(buf) &&
	    MPI_T_cvar_read(h, buf) == MPI_SUCCESS)
		set = buf[0] != '\0';
	MPI_T_cvar_handle_free(&h);
	return set;
}

void cp_coll_mca_read(struct cp_coll_mca *m)
{
	char nm[128];
	int prov, op;

	cp_coll_mca_default(m);
	if (MPI_T_init_thread(MPI_THREAD_SINGLE, &prov) != MPI_SUCCESS)
		return;
	m->use_dynamic = cvar_int("coll_tuned_use_dynamic_rules", 0) != 0;
	m->rules_file = cvar_set("coll_tuned_dynamic_rules_filename");
	m->bcast_radix = cvar_int("coll_tuned_bcast_algorithm_knomial_radix",
				  4);
	for (op = 0; op < CP_COLL_NOPS; op++) {
		const char *o = cp_coll_op_name(op);

		snprintf(nm, sizeof(nm), "coll_tuned_%s_algorithm", o);
		m->alg[op] = cvar_int(nm, 0);
		snprintf(nm, sizeof(nm), "coll_tuned_%s_algorithm_segmentsize",
			 o);
		m->segsize[op] = cvar_int(nm, 0);
		snprintf(nm, sizeof(nm), "coll_tuned_%s_algorithm_tree_fanout",
			 o);
		m->tree_fanout[op] = cvar_int(nm, m->tree_fanout[op]);
		snprintf(nm, sizeof(nm),
			 "coll_tuned_%s_algorithm_chain_fanout", o);
		m->chain_fanout[op] = cvar_int(nm, m->chain_fanout[op]);
		snprintf(nm, sizeof(nm),
			 "coll_tuned_%s_algorithm_max_requests", o);
		m->max_requests[op] = cvar_int(nm, 0);
	}
	MPI_T_finalize();
}
