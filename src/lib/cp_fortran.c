/*
 * cp_fortran.c - what the Fortran wrappers need beyond the C ones.
 *
 * Open MPI's Fortran layers call PMPI_ functions directly, so commprof
 * wraps every Fortran name itself (pmpi/gen_wrappers.py) and calls the
 * real Fortran routine behind it, which leaves every sentinel
 * (MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS(ES)_IGNORE) to the MPI library:
 * buffers are passed on untouched, and only the copies commprof reads are
 * translated here.  Open MPI's sentinels are common blocks that libmpi
 * and the mpi_f08 library each define, so all addresses they have are
 * collected.  MPICH's are members of its own common blocks; it publishes
 * their addresses in C variables that its first Fortran call (or
 * Fortran MPI_Init) sets: MPI_F_STATUS(ES)_IGNORE, the standard's, and
 * its own MPIR_F_MPI_BOTTOM and MPIR_F_MPI_IN_PLACE.  Missed, such a
 * sentinel was read as a status and MPICH aborted the application
 * ("Fatal error in MPI_Status_f2c").
 */
#include "config.h"

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "src/lib/cp_comm.h"
#include "src/lib/cp_fortran.h"
#include "src/lib/cp_state.h"

#define NADDR 6

enum { S_IN_PLACE, S_BOTTOM, S_STATUS, S_STATUSES, S_COUNT };

static const char *const sym[S_COUNT] = {
	"mpi_fortran_in_place", "mpi_fortran_bottom",
	"mpi_fortran_status_ignore", "mpi_fortran_statuses_ignore",
};
static const char *const libs[] = {
	"libmpi.so.40", "libmpi_mpifh.so.40", "libmpi_usempif08.so.40",
	"libmpi_usempi_ignore_tkr.so.40",
};
static const void *addr[S_COUNT][NADDR];

static void add(int s, const void *a)
{
	for (int i = 0; a && i < NADDR; i++) {
		if (addr[s][i] == a)
			return;
		if (!addr[s][i]) {
			addr[s][i] = a;
			return;
		}
	}
}

/* MPICH: the sentinel addresses its Fortran layer compares with.  A
 * program whose main is C has made no Fortran call yet: run the same
 * set-up MPICH's first Fortran call would (it only stores addresses). */
static void add_mpich(void)
{
	static const char *const ptr[S_COUNT] = {
		"MPIR_F_MPI_IN_PLACE", "MPIR_F_MPI_BOTTOM",
		"MPI_F_STATUS_IGNORE", "MPI_F_STATUSES_IGNORE",
	};
	/* mpi_f08's are objects of their own */
	static const char *const obj[S_COUNT] = {
		"MPIR_F08_MPI_IN_PLACE", "MPIR_F08_MPI_BOTTOM",
		"MPIR_F08_MPI_STATUS_IGNORE_OBJ",
		"MPIR_F08_MPI_STATUSES_IGNORE_OBJ",
	};
	int *need = dlsym(RTLD_DEFAULT, "MPIR_F_NeedInit");
	void (*setup)(void) = (void (*)(void))dlsym(RTLD_DEFAULT,
						     "mpirinitf_");

	if (need && *need && setup) {
		setup();
		*need = 0;
	}
	for (int s = 0; s < S_COUNT; s++) {
		void *const *p = dlsym(RTLD_DEFAULT, ptr[s]);

		if (p)
			add(s, *p);
		add(s, dlsym(RTLD_DEFAULT, obj[s]));
	}
}

void cp_fortran_init(void)
{
	static const char *const suffix[] = { "_", "", "__" };
	char name[64];

	add_mpich();
	for (int s = 0; s < S_COUNT; s++)
		for (unsigned k = 0; k < 3; k++) {
			snprintf(name, sizeof(name), "%s%s", sym[s],
				 suffix[k]);
			add(s, dlsym(RTLD_DEFAULT, name));
			for (unsigned l = 0; l < sizeof(libs) / sizeof(*libs);
			     l++) {
				void *h = dlopen(libs[l],
						 RTLD_LAZY | RTLD_NOLOAD);
				if (!h)
					continue;
				add(s, dlsym(h, name));
				dlclose(h);
			}
		}
}

static inline bool is(int s, const void *p)
{
	for (int i = 0; i < NADDR && addr[s][i]; i++)
		if (addr[s][i] == p)
			return true;
	return false;
}

__thread bool cp_f_desc __attribute__((tls_model("initial-exec")));

const void *cp_f_buf(const void *buf)
{
	if (cp_f_desc && buf)
		buf = *(const void *const *)buf;
	if (is(S_IN_PLACE, buf))
		return MPI_IN_PLACE;
	if (is(S_BOTTOM, buf))
		return MPI_BOTTOM;
	return buf;
}

bool cp_f_status_ignored(const MPI_Fint *st)
{
	return is(S_STATUS, st);
}

bool cp_f_statuses_ignored(const MPI_Fint *st)
{
	return is(S_STATUSES, st);
}

const MPI_Datatype *cp_f_types(const MPI_Fint *t, MPI_Comm comm)
{
	static __thread MPI_Datatype out[1024];
	int n = cp_comm_get(comm)->size;

	if (!t || n < 0 || n > 1024)
		return NULL;
	for (int i = 0; i < n; i++)
		out[i] = PMPI_Type_f2c(t[i]);
	return out;
}

/* Stands in for a Fortran routine the MPI library lacks: fails the call
 * the way MPI would, never crashes. */
static void missing(void)
{
	cp_warn_once("a Fortran MPI routine was not found behind commprof");
}

void *cp_f_real(const char *name, const char *alt)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f && alt)
		f = dlsym(RTLD_NEXT, alt);
	return f ? f : (void *)missing;
}
