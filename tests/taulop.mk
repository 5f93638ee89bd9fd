# tests/taulop.mk - collectives and tau-Lop (see Makefile.am).
# tests/test_coll_sched.sh compares the collective schedules of
# analysis/cp_coll_sched.c, pair by pair, with the messages Open MPI's
# pml/monitoring counts, under Open MPI's decisions and every algorithm
# forced.
TESTS += tests/test_coll_sched.sh
dist_check_SCRIPTS += tests/test_coll_sched.sh
EXTRA_DIST += tests/test_coll_mon.c

# tau-Lop's formulas and its estimation from Ring times, without MPI
check_PROGRAMS += tests/test_analysis_taulop
TESTS += tests/test_analysis_taulop
tests_test_analysis_taulop_SOURCES = tests/test_analysis_taulop.c
tests_test_analysis_taulop_CFLAGS = $(AM_CFLAGS) $(GSL_CFLAGS)
tests_test_analysis_taulop_LDADD = libcpanalysis.la $(GSL_LIBS) -lm

# the tau-Lop section of the parameter file: show, JSON, round trip,
# damaged lines
TESTS += tests/test_tl_params.sh
dist_check_SCRIPTS += tests/test_tl_params.sh

# the PlogPT section of the parameter file: show, JSON, round trip,
# damaged lines
TESTS += tests/test_pt_params.sh
dist_check_SCRIPTS += tests/test_pt_params.sh

# tau-Lop in real runs: the concurrency of messages, the algorithms of
# examples/colls as Open MPI decides them, a forced algorithm followed
TESTS += tests/test_taulop_run.sh
dist_check_SCRIPTS += tests/test_taulop_run.sh
EXTRA_DIST += tests/test_tau.c tests/test_noncommute.c

# the accuracy measure: a default calibration on 4 ranks, examples/colls
# off the calibration grids, tau-Lop's mu_bar against the baselines
TESTS += tests/test_taulop_accuracy.sh
dist_check_SCRIPTS += tests/test_taulop_accuracy.sh
EXTRA_DIST += tests/coll_check.py

# tau-Lop on LAMMPS's melt (2 ranks, 500 steps): the halo exchanges
TESTS += tests/test_taulop_lammps.sh
dist_check_SCRIPTS += tests/test_taulop_lammps.sh

# the interned count arrays of the v collectives (src/lib/cp_vec.c),
# without MPI
check_PROGRAMS += tests/test_vec
TESTS += tests/test_vec
tests_test_vec_SOURCES = tests/test_vec.c src/lib/cp_vec.c src/lib/cp_vec.h
tests_test_vec_LDADD = -lpthread
