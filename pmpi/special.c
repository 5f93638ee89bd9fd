/*
 * special.c - the calls marked @nowrap in mpi_calls.def: start and end of
 * profiling (C and Fortran).  They return exactly what the MPI library
 * returned.  Hand-written because each does something else around the
 * real call: MPI_Init starts commprof after it, MPI_Finalize stops it
 * before, MPI_Abort flushes before.
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

/*
 * Fortran.  The real routines are found behind us by name; each is
 * called with the caller's arguments untouched.
 */
typedef void (*f_init)(MPI_Fint *ierr);
typedef void (*f_init_thread)(MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr);
typedef void (*f_abort)(MPI_Fint *comm, MPI_Fint *code, MPI_Fint *ierr);

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
