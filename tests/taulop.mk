# tests/taulop.mk - collectives and tau-Lop (see Makefile.am).
# tests/test_coll_sched.sh compares the collective schedules of
# analysis/cp_coll_sched.c, pair by pair, with the messages Open MPI's
# pml/monitoring counts, under Open MPI's decisions and every algorithm
# forced.
TESTS += tests/test_coll_sched.sh
dist_check_SCRIPTS += tests/test_coll_sched.sh
EXTRA_DIST += tests/test_coll_mon.c
