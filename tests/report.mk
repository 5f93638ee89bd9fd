# tests/report.mk - commprof report (see Makefile.am).
# tests/test_report.sh: merged databases written by hand with python3's
# sqlite3 (tests/report_db.py), no MPI.  tests/test_report_run.sh: a real
# run of examples/ring without COMMPROF_PARAMS reports that no
# predictions were made.

REPORT_TESTS = tests/test_report.sh tests/test_report_run.sh
TESTS += $(REPORT_TESTS)
dist_check_SCRIPTS += $(REPORT_TESTS)
EXTRA_DIST += tests/report_db.py
