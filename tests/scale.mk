# tests/scale.mk - runs of any length and width (see Makefile.am):
# sampling by message identity (tests/test_sample, no MPI).
check_PROGRAMS += tests/test_sample
TESTS += tests/test_sample
tests_test_sample_SOURCES = tests/test_sample.c
tests_test_sample_LDADD = libcpcommon.la
