/*
 * cp_req.h - pending nonblocking and persistent requests, the part not
 * called by pmpi/ directly (see src/lib/cp_record.h for the rest).
 */
#ifndef CP_REQ_H
#define CP_REQ_H

#include "src/lib/cp_record.h"

/* Keep ev until request req completes; ci is the communicator's info
 * (needed to resolve a wildcard source).  A full table records the row
 * at once, flagged CP_F_NOTDONE.  Cannot fail. */
void cp_req_track(MPI_Request req, const struct cp_event *ev, int persist,
		  const struct cp_comm_info *ci);
/* Fill a receive's bytes, source and tag from its completion status. */
void cp_fill_done(struct cp_event *ev, const MPI_Status *st,
		  const struct cp_comm_info *ci);
/* At finalize: record every request still pending, flagged notdone. */
void cp_req_flush_pending(uint64_t now);

#endif
