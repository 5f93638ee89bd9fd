# tests/record.mk - tests of the interposition layer itself: the table
# against mpi.h, the generator against bad tables, every wrapped call made
# by some test program, the exported symbols, and the module layering.
RECORD_TESTS = \
	tests/test_protos.sh \
	tests/test_gen_wrappers.sh \
	tests/test_call_coverage.sh \
	tests/test_exports.sh \
	tests/test_layering.sh
TESTS += $(RECORD_TESTS)
dist_check_SCRIPTS += $(RECORD_TESTS)
EXTRA_DIST += tests/layering.py tests/mkvars.py tests/call_coverage.py
TESTS += tests/test_flush.sh tests/test_drops.sh
dist_check_SCRIPTS += tests/test_flush.sh tests/test_drops.sh
EXTRA_DIST += tests/test_flush.c tests/test_drops.c
