# src/calib/local.mk: the calibrator commprof-calibrate (see Makefile.am),
# a plain MPI program built with MPI_CFLAGS/MPI_LIBS (what $(MPICC) adds);
# it links the estimation math of libcpanalysis.la (GSL).  It writes the parameter file through
# libcpcommon.la (src/common/cp_params.c).

bin_PROGRAMS += commprof-calibrate
commprof_calibrate_SOURCES = \
	src/calib/calibrate.c \
	src/calib/calib.h \
	src/calib/calib_run.c \
	src/calib/calib_sched.c \
	src/calib/calib_limits.c \
	src/calib/calib_lmo.c \
	src/calib/calib_log3p.c \
	src/calib/calib_meas.c \
	src/calib/calib_gauge.c \
	src/calib/calib_taulop.c \
	src/calib/calib_plogpt.c
commprof_calibrate_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(GSL_CFLAGS)
commprof_calibrate_LDADD = libcpanalysis.la libcpcommon.la $(MPI_LIBS) $(GSL_LIBS) -lm

dist_man_MANS += man/commprof-calibrate.1 man/commprof-params.5
