# src/calib.mk: the calibrator commprof-calibrate and the parameter file
# code (see Makefile.am).  The calibrator is a plain MPI program built
# with MPI_CFLAGS/MPI_LIBS (what $(MPICC) adds); it links the estimation
# math of libcpanalysis.la (GSL).  src/cp_params.c is plain libc so that
# the CLI (commprof params show: src/cp_params_show.c) and the preloaded
# library can build it in as well.

bin_PROGRAMS += commprof-calibrate
commprof_calibrate_SOURCES = \
	src/calibrate.c \
	src/calib.h \
	src/calib_sched.c \
	src/calib_meas.c \
	src/cp_params.c \
	src/cp_params.h
commprof_calibrate_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(GSL_CFLAGS)
commprof_calibrate_LDADD = libcpanalysis.la $(MPI_LIBS) $(GSL_LIBS) -lm

dist_man_MANS += man/commprof-calibrate.1 man/commprof-params.5
