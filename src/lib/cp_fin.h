/*
 * cp_fin.h - the reduction of the job inside the job, at MPI_Finalize
 * (src/lib/cp_fin.c): the ranks match their messages and reduce what the
 * report prints of them to rank 0, which writes commprof-reduced.db
 * beside its rank file, so that a report needs no merge of the rows.
 */
#ifndef CP_FIN_H
#define CP_FIN_H

struct cp_db;

/*
 * cp_fin_reduce - collective over MPI_COMM_WORLD: every rank that took
 * part in the start-up's collective calls calls it from MPI_Finalize,
 * with its rank file (committed, still open) or NULL when it has none.
 * The ranks decide together whether to run (COMMPROF_FINALIZE_MS > 0,
 * every rank has its rank file and no warning) and give up together
 * past COMMPROF_FINALIZE_MS; a reduction not made leaves its reason in
 * rank 0's meta (reduce_note) and the CLI reduces after the run.
 * Cannot fail; its MPI calls are PMPI's, on a duplicate of the world.
 */
void cp_fin_reduce(struct cp_db *db);

#endif
