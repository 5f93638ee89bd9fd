/*
 * cp_fortran.h - set-up of the Fortran support (src/lib/cp_fortran.c); the
 * functions the wrappers call are declared in src/lib/cp_record.h.
 */
#ifndef CP_FORTRAN_H
#define CP_FORTRAN_H

/* Find the Fortran sentinels' addresses; after PMPI_Init.  Cannot fail:
 * a sentinel not found is never matched. */
void cp_fortran_init(void);

#endif
