# tests/bench.mk - smoke test of the overhead benchmark (see Makefile.am
# and bench/local.mk): bench/overhead --quick prints every row and every
# number parses.  Its figures are never checked: the benchmark is not a
# timed test.

TESTS += tests/test_bench_smoke.sh
dist_check_SCRIPTS += tests/test_bench_smoke.sh
