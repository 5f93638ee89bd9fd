/*
 * cp_fortran.h - what the Fortran wrappers need beyond the C ones
 * (src/lib/cp_fortran.c): the real routines behind us, and the
 * sentinels (MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS(ES)_IGNORE) of the
 * Fortran bindings.
 */
#ifndef CP_FORTRAN_H
#define CP_FORTRAN_H

#include <stdbool.h>
#include <mpi.h>

/* INTEGERs in a Fortran status (MPI_STATUS_SIZE); MPI-4 names it. */
#ifdef MPI_F_STATUS_SIZE
#define CP_F_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define CP_F_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#endif

/* Find the Fortran sentinels' addresses; after PMPI_Init.  Cannot fail:
 * a sentinel not found is never matched. */
void cp_fortran_init(void);
/* Address of the real Fortran routine `name` (or `alt`), resolved once
 * behind us in the link order; never NULL (a stub that fails the call
 * with MPI_ERR_INTERN and warns, should the MPI library lack it). */
void *cp_f_real(const char *name, const char *alt);
/* Set while a wrapper of MPICH's mpi_f08 (<name>_f08ts_) runs: its
 * choice buffers are array descriptors, whose first member is the data
 * address. */
extern __thread bool cp_f_desc __attribute__((tls_model("initial-exec")));
/* MPI_IN_PLACE / MPI_BOTTOM for a Fortran sentinel, else the buffer's
 * address (buf, or the address in descriptor buf when cp_f_desc). */
const void *cp_f_buf(const void *buf);
/* True when st is MPI_STATUS_IGNORE (resp. MPI_STATUSES_IGNORE). */
bool cp_f_status_ignored(const MPI_Fint *st);
bool cp_f_statuses_ignored(const MPI_Fint *st);
/* Fortran datatype array as C handles (per-thread scratch), NULL if the
 * communicator is too large for it. */
const MPI_Datatype *cp_f_types(const MPI_Fint *t, MPI_Comm comm);

#endif
