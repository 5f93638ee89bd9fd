# tests/scale.mk - runs of any length and width (see Makefile.am):
# sampling by message identity (tests/test_sample) and the histograms
# of mu (tests/test_hist), no MPI.
check_PROGRAMS += tests/test_sample tests/test_hist
TESTS += tests/test_sample tests/test_hist
tests_test_sample_SOURCES = tests/test_sample.c
tests_test_sample_LDADD = libcpcommon.la
tests_test_hist_SOURCES = tests/test_hist.c
tests_test_hist_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tests_test_hist_LDADD = libcpanalysis.la $(GSL_LIBS) -lm
