# tests/calib.mk: calibration tests (see Makefile.am).
# test_params.sh: the strict reader and "params show" on hand-written
# files, no MPI.  test_calib.sh: commprof-calibrate --quick on 3 and 2
# ranks; structure only, never figures of this crowded machine.

CALIB_TESTS = \
	tests/test_params.sh \
	tests/test_calib.sh
TESTS += $(CALIB_TESTS)
dist_check_SCRIPTS += $(CALIB_TESTS)
# two calibrations in a row agree within their intervals? (by hand)
EXTRA_DIST += tests/calib_agree

check_PROGRAMS += tests/test_params
tests_test_params_SOURCES = \
	tests/test_params.c \
	src/cli/cp_params_show.c \
	src/cli/cp_params_show.h \
	src/cli/cli_html.c \
	src/cli/cli_html_params.c \
	src/cli/cli_io.c
nodist_tests_test_params_SOURCES = src/cli/cli_html_gen.h
tests_test_params_CFLAGS = $(AM_CFLAGS)
tests_test_params_LDADD = libcpcommon.la -lm
