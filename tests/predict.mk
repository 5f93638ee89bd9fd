# tests/predict.mk - online predictions without MPI (see Makefile.am):
# a hand-written parameter file, every model's value against its formula.
check_PROGRAMS += tests/test_predict
TESTS += tests/test_predict
tests_test_predict_SOURCES = tests/test_predict.c \
	src/cp_predict.c src/cp_predict.h src/cp_params.c src/cp_params.h
tests_test_predict_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tests_test_predict_LDADD = libcpanalysis.la $(GSL_LIBS) -lm

# calibrate, profile examples/stride with the file, report
TESTS += tests/test_predict_e2e.sh
dist_check_SCRIPTS += tests/test_predict_e2e.sh
