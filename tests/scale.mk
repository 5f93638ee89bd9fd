# tests/scale.mk - runs of any length and width (see Makefile.am):
# sampling by message identity (tests/test_sample), the histograms of mu
# (tests/test_hist) and the reduction (tests/test_reduce), no MPI.
check_PROGRAMS += tests/test_sample tests/test_hist tests/test_reduce
TESTS += tests/test_sample tests/test_hist tests/test_reduce
tests_test_sample_SOURCES = tests/test_sample.c
tests_test_sample_LDADD = libcpcommon.la
tests_test_hist_SOURCES = tests/test_hist.c
tests_test_hist_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tests_test_hist_LDADD = libcpanalysis.la $(GSL_LIBS) -lm
tests_test_reduce_SOURCES = tests/test_reduce.c
tests_test_reduce_LDADD = libcpred.la libcpreduce.la libcpmodel.la \
	libcpcommon.la -lm

# The job reduces itself at MPI_Finalize (tests/test_finalize.sh, MPI).
TESTS += tests/test_finalize.sh
dist_check_SCRIPTS += tests/test_finalize.sh

# "mpirun -np K commprof report DIR" (tests/test_mpi_report.sh, MPI).
TESTS += tests/test_mpi_report.sh
dist_check_SCRIPTS += tests/test_mpi_report.sh

# Sampled at 10% by identity, mu_bar stays within 5% of the whole run's
# (tests/test_sample_mu.sh, MPI; tests/sample_keep samples its rank files
# by the library's rule).
check_PROGRAMS += tests/sample_keep
tests_sample_keep_SOURCES = tests/sample_keep.c
tests_sample_keep_LDADD = libcpcommon.la
TESTS += tests/test_sample_mu.sh
dist_check_SCRIPTS += tests/test_sample_mu.sh
