/*
 * cp_comm.h - communicator cache, the part not used by pmpi/ (the hot
 * path lookups are declared in src/lib/cp_record.h).
 */
#ifndef CP_COMM_H
#define CP_COMM_H

/* After PMPI_Init: world and self.  Returns 0; cannot fail. */
int cp_comm_init(void);

#endif
