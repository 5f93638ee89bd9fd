# analysis/local.mk: build rules of this part (see Makefile.am)
# libcpanalysis: estimation math of the models (GSL and libc only),
# linked by the CLI, the calibrator and the preloaded library.
noinst_LTLIBRARIES += libcpanalysis.la
libcpanalysis_la_SOURCES = \
	analysis/cp_err.h analysis/cp_err.c \
	analysis/cp_stats.h analysis/cp_stats.c \
	analysis/cp_breaks.h analysis/cp_breaks.c \
	analysis/cp_lmo.h analysis/cp_lmo.c \
	analysis/cp_log3p.h analysis/cp_log3p.c \
	analysis/cp_baseline.h analysis/cp_baseline.c \
	analysis/cp_baseline_pred.c \
	analysis/cp_match.h analysis/cp_match.c
libcpanalysis_la_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
libcpanalysis_la_LIBADD = $(GSL_LIBS) -lm
