# src/common/local.mk - what more than one program uses (see Makefile.am):
# plain libc, never mpi.h, SQLite or GSL, so that the preloaded library,
# the commprof CLI and the calibrator all link it.

noinst_LTLIBRARIES += libcpcommon.la
libcpcommon_la_SOURCES = \
	src/common/cp_clock.h \
	src/common/cp_json.c src/common/cp_json.h \
	src/common/cp_params.c src/common/cp_params.h \
	src/common/cp_pt_params.c src/common/cp_pt_params.h \
	src/common/cp_tl_params.c src/common/cp_tl_params.h \
	src/common/cp_sec.c src/common/cp_sec.h \
	src/common/cp_row.c src/common/cp_row.h \
	src/common/cp_sample.c src/common/cp_sample.h
