# tests/analysis.mk: build rules of this part (see Makefile.am)
# Check programs of analysis/: no MPI; times synthesized from known
# parameters with a fixed seed.  Each prints one line per check and exits
# 0 (pass) or 1 (fail).
ANALYSIS_TESTS = \
	tests/test_analysis_stats \
	tests/test_analysis_breaks \
	tests/test_analysis_nnls \
	tests/test_analysis_lmo \
	tests/test_analysis_log3p \
	tests/test_analysis_plogpt
check_PROGRAMS += $(ANALYSIS_TESTS)
TESTS += $(ANALYSIS_TESTS)
EXTRA_DIST += tests/test_analysis.h

ANALYSIS_TEST_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
ANALYSIS_TEST_LDADD = libcpanalysis.la $(GSL_LIBS) -lm
tests_test_analysis_stats_SOURCES = tests/test_analysis_stats.c
tests_test_analysis_stats_CFLAGS = $(ANALYSIS_TEST_CFLAGS)
tests_test_analysis_stats_LDADD = $(ANALYSIS_TEST_LDADD)
tests_test_analysis_breaks_SOURCES = tests/test_analysis_breaks.c
tests_test_analysis_breaks_CFLAGS = $(ANALYSIS_TEST_CFLAGS)
tests_test_analysis_breaks_LDADD = $(ANALYSIS_TEST_LDADD)
tests_test_analysis_lmo_SOURCES = tests/test_analysis_lmo.c
tests_test_analysis_lmo_CFLAGS = $(ANALYSIS_TEST_CFLAGS)
tests_test_analysis_lmo_LDADD = $(ANALYSIS_TEST_LDADD)
tests_test_analysis_log3p_SOURCES = tests/test_analysis_log3p.c
tests_test_analysis_log3p_CFLAGS = $(ANALYSIS_TEST_CFLAGS)
tests_test_analysis_log3p_LDADD = $(ANALYSIS_TEST_LDADD)
tests_test_analysis_nnls_SOURCES = tests/test_analysis_nnls.c
tests_test_analysis_nnls_CFLAGS = $(ANALYSIS_TEST_CFLAGS)
tests_test_analysis_nnls_LDADD = $(ANALYSIS_TEST_LDADD)
tests_test_analysis_plogpt_SOURCES = tests/test_analysis_plogpt.c
tests_test_analysis_plogpt_CFLAGS = $(ANALYSIS_TEST_CFLAGS)
tests_test_analysis_plogpt_LDADD = $(ANALYSIS_TEST_LDADD)
