/*
 * cp_row.h - what a stored call row means: the peer sentinels and the
 * row flags (calls.flags, db/schema.sql).  The preloaded library sets
 * them, the CLI and the tests read them; plain C, no MPI, so that the
 * lowest modules of the library can use them without the wrappers'
 * header (src/lib/cp_record.h).
 */
#ifndef CP_ROW_H
#define CP_ROW_H

/* Special peer and root values, stored as they are in the database. */
#define CP_PEER_NONE	(-1)	/* the call has no peer */
#define CP_PEER_PROCNULL (-2)	/* MPI_PROC_NULL */
#define CP_PEER_ANY	(-3)	/* MPI_ANY_SOURCE, not (yet) resolved */

/* struct cp_event.flags */
#define CP_F_PROCNULL	0x0001	/* peer was MPI_PROC_NULL */
#define CP_F_INPLACE	0x0002	/* a buffer was MPI_IN_PLACE */
#define CP_F_ZERO	0x0004	/* count was zero */
#define CP_F_NONBLOCK	0x0008	/* row completed at request completion */
#define CP_F_PERSIST	0x0010	/* persistent request (Start) */
#define CP_F_FORTRAN	0x0020	/* called through a Fortran binding */
#define CP_F_NOTDONE	0x0040	/* request never completed before finalize */
#define CP_F_CANCELLED	0x0080	/* request was cancelled */
#define CP_F_ANYSRC	0x0100	/* posted with MPI_ANY_SOURCE */
#define CP_F_ANYTAG	0x0200	/* posted with MPI_ANY_TAG */
#define CP_F_RECV	0x0400	/* the row receives (bytes from status) */
#define CP_F_VARBLOCK	0x0800	/* v/w collective: bytes is this rank's total */
#define CP_F_INTER	0x1000	/* intercommunicator: peer/root in remote group */
#define CP_F_HALF	0x2000	/* receive half of a Sendrecv: a row of its
				 * own (for matching), not a second call */

#endif
