# tests/replay.mk - commprof replay (see Makefile.am).
# tests/test_replay.sh: Alltoall A and B of tests/alltoall_ab.c on 2
# ranks, profiled with a --quick calibration, replayed under PlogPT.

REPLAY_TESTS = tests/test_replay.sh
TESTS += $(REPLAY_TESTS)
dist_check_SCRIPTS += $(REPLAY_TESTS)
EXTRA_DIST += tests/alltoall_ab.c
