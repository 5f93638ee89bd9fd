# tests/fuzz.mk - libFuzzer targets of the parameter file reader and of
# the command line (see Makefile.am).  tests/test_fuzz.sh builds them
# with clang itself (-fsanitize=fuzzer,address,undefined), whatever CC
# the build uses, from the source lists below, and fuzzes each for
# CP_FUZZ_SECS seconds (default 20) from the seed corpus in tests/fuzz/.
TESTS += tests/test_fuzz.sh
dist_check_SCRIPTS += tests/test_fuzz.sh
EXTRA_DIST += tests/fuzz
AM_TESTS_ENVIRONMENT += \
	CP_FUZZ_PARAMS_SOURCES='src/lib/cp_predict.c \
	$(libcpcommon_la_SOURCES) $(libcpmodel_la_SOURCES)' \
	CP_FUZZ_CLI_SOURCES='$(commprof_SOURCES) $(libcpcommon_la_SOURCES) \
	$(libcpanalysis_la_SOURCES) $(libcpreduce_la_SOURCES) \
	$(libcpred_la_SOURCES) $(libcpmodel_la_SOURCES)' \
	CP_FUZZ_CFLAGS='$(SQLITE_CFLAGS) $(LIBDW_CFLAGS) \
	$(GSL_CFLAGS)' \
	CP_FUZZ_LIBS='$(SQLITE_LIBS) $(LIBDW_LIBS) $(GSL_LIBS) -ldl -lm \
	-lpthread'; \
	export CP_FUZZ_PARAMS_SOURCES CP_FUZZ_CLI_SOURCES CP_FUZZ_CFLAGS \
	CP_FUZZ_LIBS;
