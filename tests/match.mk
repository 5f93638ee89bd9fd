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

# tests/test_match_db writes rank files with predictions through the
# writer API (no MPI); tests/test_match_db.sh checks the exact export.
check_PROGRAMS += tests/test_match_db
tests_test_match_db_SOURCES = tests/test_match_db.c $(CP_DB_WRITER)
nodist_tests_test_match_db_SOURCES = db/cp_schema_gen.h
tests_test_match_db_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
tests_test_match_db_LDADD = libcpcommon.la $(SQLITE_LIBS) -lm
db/tests_test_match_db-cp_db.$(OBJEXT): db/cp_schema_gen.h
TESTS += tests/test_match_db.sh
dist_check_SCRIPTS += tests/test_match_db.sh
