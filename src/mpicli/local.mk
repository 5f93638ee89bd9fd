# src/mpicli/local.mk - commprof-mpi, the MPI form of the commprof command
# (see Makefile.am and src/mpicli/commprof_mpi.c): "mpirun -np K commprof
# report DIR" hands itself over to it.  It reduces the run with the MPI
# transport of src/reduce (libcpredmpi.la) and reads the rank files
# through the reader of db/; the plain commprof needs no MPI.
bin_PROGRAMS += commprof-mpi
commprof_mpi_SOURCES = src/mpicli/commprof_mpi.c $(CP_DB_READER)
nodist_commprof_mpi_SOURCES = db/cp_schema_gen.h
commprof_mpi_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(SQLITE_CFLAGS)
commprof_mpi_LDADD = libcpredmpi.la libcpred.la libcpreduce.la libcpmodel.la \
	libcpcommon.la $(MPI_LIBS) $(SQLITE_LIBS) -lm
db/commprof_mpi-cp_db.$(OBJEXT): db/cp_schema_gen.h
