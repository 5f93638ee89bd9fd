# tests/match.mk: matching of sends with receives and of collective
# instances (see Makefile.am).  tests/test_analysis_match checks
# analysis/cp_match on synthetic rows without MPI; tests/test_match.sh
# runs a 2-rank program with known late sides and checks the export.
check_PROGRAMS += tests/test_analysis_match
TESTS += tests/test_analysis_match
tests_test_analysis_match_SOURCES = tests/test_analysis_match.c
tests_test_analysis_match_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tests_test_analysis_match_LDADD = libcpanalysis.la $(GSL_LIBS) -lm

TESTS += tests/test_match.sh
dist_check_SCRIPTS += tests/test_match.sh
EXTRA_DIST += tests/test_match.c tests/match_check.py
