# tests/report.mk - commprof report (see Makefile.am).
# tests/test_report.sh: merged databases written by hand with python3's
# sqlite3 (tests/report_db.py), no MPI.  tests/test_report_run.sh: a real
# run of examples/ring without COMMPROF_PARAMS reports that no
# predictions were made.  tests/test_html.sh: the HTML pages of a real
# run and of its parameter file in headless Chromium (skips without it),
# through tests/html_check.py; its screenshots stay in tests/.
# tests/test_html_size.sh: the page of hand-made runs of 100,000 and
# 1,000,000 rows stays of the same size, and opens in under 5 s.

REPORT_TESTS = tests/test_report.sh tests/test_report_run.sh \
	tests/test_html.sh tests/test_html_size.sh
TESTS += $(REPORT_TESTS)
dist_check_SCRIPTS += $(REPORT_TESTS)
EXTRA_DIST += tests/report_db.py tests/html_check.py
CLEANFILES += tests/test_html.png tests/test_html-top.png \
	tests/test_html-params.png
