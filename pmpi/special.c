/*
 * special.c - the calls marked @nowrap in mpi_calls.def: start and end of
 * profiling (C and Fortran).  They return exactly what the MPI library
 * returned.  Hand-written because each does something else around the
 * real call: MPI_Init starts commprof after it, MPI_Finalize stops it
 * before, MPI_Abort flushes before; MPI_Pcontrol takes variable
 * arguments, which no generated wrapper can pass on.
 */
#include "config.h"

#include "src/lib/cp_record.h"

CP_API int MPI_Init(int *argc, char ***argv)
{
	int rc;

	cp_init_entry_ns = cp_mono_ns();
	rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		cp_rt_init();
	return rc;
}

CP_API int MPI_Init_thread(int *argc, char ***argv, int required,
			   int *provided)
{
	int rc;

	cp_init_entry_ns = cp_mono_ns();
	rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		cp_rt_init();
	return rc;
}

CP_API int MPI_Finalize(void)
{
	cp_rt_finalize();
	return PMPI_Finalize();
}

CP_API int MPI_Abort(MPI_Comm comm, int errorcode)
{
	cp_rt_abort(errorcode);
	return PMPI_Abort(comm, errorcode);
}

/* MPI_Pcontrol's record: its level in u.o.count.  The flusher keeps no
 * rows from level 0 to the next level (the aggregates count on). */
static void pcontrol_rec(struct cp_raw *s, uintptr_t site, int level, int fl)
{
	site = cp_stack_site(site);	/* COMMPROF_STACK */
	s->w0 = CP_W0(site, CP_CALL_MPI_Pcontrol, CP_RK_XFER, fl);
	s->u.o.obj = 0;
	s->u.o.type = MPI_DATATYPE_NULL;
	s->u.o.count = level;
	s->u.o.target = 0;
	s->u.o.st_bytes = 0;
	s->u.o.large = 0;
}

/* The arguments after level mean nothing to Open MPI and MPICH, which
 * ignore them: the real call gets level alone. */
CP_API int MPI_Pcontrol(const int level, ...)
{
	uintptr_t site = (uintptr_t)__builtin_return_address(0);
	struct cp_ring *r = cp_ring_on();
	struct cp_raw *s;
	int rc;

	if (!r)
		return PMPI_Pcontrol(level);
	s = cp_claim(r, 1);
	pcontrol_rec(s, site, level, 0);
	r->nested = 1;
	s->t0 = cp_ticks();
	rc = PMPI_Pcontrol(level);
	s->t1 = cp_ticks();
	r->nested = 0;
	return cp_commit(r, s, 1, false, rc == MPI_SUCCESS, rc);
}

/*
 * Fortran.  The real routines are found behind us by name; each is
 * called with the caller's arguments untouched.
 */
typedef void (*f_init)(MPI_Fint *ierr);
typedef void (*f_init_thread)(MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr);
typedef void (*f_abort)(MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr);
typedef void (*f_pcontrol)(MPI_Fint *level);

#define FORTRAN_NAMES(entry, low, up) \
	CP_API void low(FARGS) __attribute__((alias(#entry))); \
	CP_API void low##_(FARGS) __attribute__((alias(#entry))); \
	CP_API void low##__(FARGS) __attribute__((alias(#entry))); \
	CP_API void up(FARGS) __attribute__((alias(#entry)));

static void f_init_entry(MPI_Fint *ierr)
{
	static f_init real;

	if (!real)
		real = (f_init)cp_f_real("pmpi_init_", "mpi_init_");
	cp_init_entry_ns = cp_mono_ns();
	real(ierr);
	if (*ierr == MPI_SUCCESS)
		cp_rt_init();
}
#define FARGS MPI_Fint *ierr
FORTRAN_NAMES(f_init_entry, mpi_init, MPI_INIT)
#undef FARGS

static void f_init_thread_entry(MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr)
{
	static f_init_thread real;

	if (!real)
		real = (f_init_thread)cp_f_real("pmpi_init_thread_",
						"mpi_init_thread_");
	cp_init_entry_ns = cp_mono_ns();
	real(req, prov, ierr);
	if (*ierr == MPI_SUCCESS)
		cp_rt_init();
}
#define FARGS MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr
FORTRAN_NAMES(f_init_thread_entry, mpi_init_thread, MPI_INIT_THREAD)
#undef FARGS

static void f_finalize_entry(MPI_Fint *ierr)
{
	static f_init real;

	if (!real)
		real = (f_init)cp_f_real("pmpi_finalize_", "mpi_finalize_");
	cp_rt_finalize();
	real(ierr);
}
#define FARGS MPI_Fint *ierr
FORTRAN_NAMES(f_finalize_entry, mpi_finalize, MPI_FINALIZE)
#undef FARGS

static void f_abort_entry(MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr)
{
	static f_abort real;

	if (!real)
		real = (f_abort)cp_f_real("pmpi_abort_", "mpi_abort_");
	cp_rt_abort((int)*code);
	real(comm, code, ierr);
}
#define FARGS MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr
FORTRAN_NAMES(f_abort_entry, mpi_abort, MPI_ABORT)
#undef FARGS

/* MPI_PCONTROL(LEVEL) has no IERROR argument, in every binding. */
static void f_pcontrol_body(f_pcontrol real, uintptr_t site, MPI_Fint *level)
{
	struct cp_ring *r = cp_ring_on();
	struct cp_raw *s;

	if (!r) {
		real(level);
		return;
	}
	s = cp_claim(r, 1);
	pcontrol_rec(s, site, (int)*level, CP_RF_FORTRAN);
	r->nested = 1;
	s->t0 = cp_ticks();
	real(level);
	s->t1 = cp_ticks();
	r->nested = 0;
	(void)cp_commit(r, s, 1, false, true, 0);
}

static void f_pcontrol_entry(MPI_Fint *level)
{
	static f_pcontrol real;

	if (!real)
		real = (f_pcontrol)cp_f_real("pmpi_pcontrol_", "mpi_pcontrol_");
	f_pcontrol_body(real, (uintptr_t)__builtin_return_address(0), level);
}
#define FARGS MPI_Fint *level
FORTRAN_NAMES(f_pcontrol_entry, mpi_pcontrol, MPI_PCONTROL)
#undef FARGS

/* use mpi_f08: the optional ierror may be absent. */
CP_API void mpi_init_f08_(MPI_Fint *ierr)
{
	static f_init real;
	MPI_Fint own;

	if (!real)
		real = (f_init)cp_f_real("mpi_init_f08_", NULL);
	cp_init_entry_ns = cp_mono_ns();
	real(ierr ? ierr : &own);
	if ((ierr ? *ierr : own) == MPI_SUCCESS)
		cp_rt_init();
}

CP_API void mpi_init_thread_f08_(MPI_Fint *req, MPI_Fint *prov,
				 MPI_Fint *ierr)
{
	static f_init_thread real;
	MPI_Fint own;

	if (!real)
		real = (f_init_thread)cp_f_real("mpi_init_thread_f08_", NULL);
	cp_init_entry_ns = cp_mono_ns();
	real(req, prov, ierr ? ierr : &own);
	if ((ierr ? *ierr : own) == MPI_SUCCESS)
		cp_rt_init();
}

CP_API void mpi_finalize_f08_(MPI_Fint *ierr)
{
	static f_init real;

	if (!real)
		real = (f_init)cp_f_real("mpi_finalize_f08_", NULL);
	cp_rt_finalize();
	real(ierr);
}

CP_API void mpi_abort_f08_(MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr)
{
	static f_abort real;

	if (!real)
		real = (f_abort)cp_f_real("mpi_abort_f08_", NULL);
	cp_rt_abort((int)*code);
	real(comm, code, ierr);
}

CP_API void mpi_pcontrol_f08_(MPI_Fint *level)
{
	static f_pcontrol real;

	if (!real)
		real = (f_pcontrol)cp_f_real("mpi_pcontrol_f08_", NULL);
	f_pcontrol_body(real, (uintptr_t)__builtin_return_address(0), level);
}
