# src/reduce/local.mk - the reduction of a run (see Makefile.am and
# src/reduce/cp_red.h): from every rank's rows to the report's summaries,
# libc only (with libcpreduce's matching and histograms, and the
# decisions of Open MPI's collective algorithms of libcpmodel), so that
# the preloaded library, the commprof command and its MPI form run the
# same code.  A program that links it also links libcpreduce.la and
# libcpmodel.la (directly, or through libcpanalysis.la) and
# libcpcommon.la.  libcpredmpi adds the
# MPI transport (src/reduce/cp_red_mpi.c, PMPI calls only) for the
# library and commprof-mpi; the commprof command never links it.
noinst_LTLIBRARIES += libcpred.la libcpredmpi.la
libcpred_la_SOURCES = \
	src/reduce/cp_red.h src/reduce/cp_red.c src/reduce/cp_red_sum.h \
	src/reduce/cp_red_sum.c
libcpred_la_LIBADD = -lm
libcpredmpi_la_SOURCES = src/reduce/cp_red_mpi.h src/reduce/cp_red_mpi.c
libcpredmpi_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
