# src/reduce/local.mk - the reduction of a run (see Makefile.am and
# src/reduce/cp_red.h): from every rank's rows to the report's summaries,
# libc only (with libcpreduce's matching and histograms), so that the
# preloaded library, the commprof command and its MPI form run the same
# code.  A program that links it also links libcpreduce.la (directly,
# or through libcpanalysis.la) and libcpcommon.la.
noinst_LTLIBRARIES += libcpred.la
libcpred_la_SOURCES = \
	src/reduce/cp_red.h src/reduce/cp_red.c src/reduce/cp_red_sum.c
libcpred_la_LIBADD = -lm
