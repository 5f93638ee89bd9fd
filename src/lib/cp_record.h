/*
 * cp_record.h - the interface between the generated MPI wrappers (pmpi/)
 * and the core, and the one header of src/lib/ that pmpi/ includes.  A
 * wrapper writes what it saw, raw, into its thread's ring
 * (src/lib/cp_ring.h) and times the call; everything a row means is
 * decided in src/lib/, by the flusher, never in pmpi/.
 *
 * Each module declares its own interface in its own header; this one
 * only gathers those the wrappers call, and no module of the library
 * includes it.
 *
 * Hot path rules (style.md): no malloc, lock, stdio or syscall in any
 * inline of these headers; the vDSO clock and rdtsc are fine.
 */
#ifndef CP_RECORD_H
#define CP_RECORD_H

#include "src/common/cp_row.h"		/* CP_F_*, CP_PEER_* */
#include "src/lib/cp_coll.h"		/* cp_blk_*, cp_msg_* */
#include "src/lib/cp_comm.h"		/* cp_comm_new, cp_win_new, ... */
#include "src/lib/cp_compiler.h"	/* CP_API, cp_unlikely */
#include "src/lib/cp_event.h"		/* cp_status_bytes */
#include "src/lib/cp_fortran.h"		/* cp_f_* */
#include "src/lib/cp_layout.h"		/* cp_layout_note, cp_layout_drop */
#include "src/lib/cp_ring.h"		/* cp_ring_on, cp_claim, cp_publish */
#include "src/lib/cp_stack.h"		/* cp_stack_site */
#include "src/lib/cp_rt.h"		/* cp_rt_init, _finalize, _abort */
#include "src/lib/cp_state.h"		/* cp_init_entry_ns */
#include "src/lib/cp_time.h"		/* cp_ticks */
#include "src/lib/cp_wait.h"		/* cp_wait_*, cp_start_*, cp_note */

#endif
