# tests/db.mk: the SQLite layer and the commprof tool, without MPI (see
# Makefile.am).  tests/test_db writes synthetic rank files through the
# writer API; tests/test_db.sh reads them back with the tool and compares
# exact output.

check_PROGRAMS += tests/test_db
tests_test_db_SOURCES = tests/test_db.c $(CP_DB_WRITER)
nodist_tests_test_db_SOURCES = db/cp_schema_gen.h
tests_test_db_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS) -g
tests_test_db_LDADD = libcpcommon.la $(SQLITE_LIBS) -lm
db/tests_test_db-cp_db.$(OBJEXT): db/cp_schema_gen.h

DB_TESTS = tests/test_db.sh
TESTS += $(DB_TESTS)
dist_check_SCRIPTS += $(DB_TESTS)
