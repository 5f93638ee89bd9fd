# tests/predict.mk - online predictions without MPI (see Makefile.am):
# a hand-written parameter file, every model's value against its formula
# and against the fitting side's prediction (libcpanalysis.la).
check_PROGRAMS += tests/test_predict
TESTS += tests/test_predict
tests_test_predict_SOURCES = tests/test_predict.c \
	src/lib/cp_predict.c src/lib/cp_predict.h
tests_test_predict_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tests_test_predict_LDADD = libcpanalysis.la libcpcommon.la $(GSL_LIBS) -lm

# calibrate, profile examples/stride with the file, report
TESTS += tests/test_predict_e2e.sh
dist_check_SCRIPTS += tests/test_predict_e2e.sh

# a default calibration, then messages off its grids (tests/probe.c):
# mu_bar of log3P and LMO within their bounds
TESTS += tests/test_probe.sh
dist_check_SCRIPTS += tests/test_probe.sh
EXTRA_DIST += tests/probe.c tests/gauge.c
