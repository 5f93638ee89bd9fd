# tests/symcycles.mk - the file-level call graph of each program has no
# cycle, and the library links no reader of db/ (see Makefile.am and
# tests/test_symcycles.sh).  The object lists are automake's own.

TESTS += tests/test_symcycles.sh
dist_check_SCRIPTS += tests/test_symcycles.sh
EXTRA_DIST += tests/symcycles.py
AM_TESTS_ENVIRONMENT += \
	CP_SYM_LIB='$(libcommprof_la_OBJECTS) $(libcpmodel_la_OBJECTS) \
	$(libcpred_la_OBJECTS) $(libcpredmpi_la_OBJECTS) \
	$(libcpreduce_la_OBJECTS) $(libcpcommon_la_OBJECTS)' \
	CP_SYM_CLI='$(commprof_OBJECTS) $(libcpanalysis_la_OBJECTS) \
	$(libcpred_la_OBJECTS) $(libcpreduce_la_OBJECTS) \
	$(libcpmodel_la_OBJECTS) $(libcpcommon_la_OBJECTS)' \
	CP_SYM_CAL='$(commprof_calibrate_OBJECTS) \
	$(libcpanalysis_la_OBJECTS) $(libcpreduce_la_OBJECTS) \
	$(libcpmodel_la_OBJECTS) $(libcpcommon_la_OBJECTS)' \
	CP_SYM_MPI='$(commprof_mpi_OBJECTS) $(libcpredmpi_la_OBJECTS) \
	$(libcpred_la_OBJECTS) $(libcpreduce_la_OBJECTS) \
	$(libcpmodel_la_OBJECTS) $(libcpcommon_la_OBJECTS)'; \
	export CP_SYM_LIB CP_SYM_CLI CP_SYM_CAL CP_SYM_MPI;
