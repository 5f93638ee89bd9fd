# src/local.mk - libcommprof.so, the library preloaded into MPI
# applications (see Makefile.am).  Exported: only the MPI entry points and
# their Fortran names (CP_API); everything else is hidden.

lib_LTLIBRARIES += libcommprof.la
libcommprof_la_SOURCES = \
	pmpi/special.c \
	src/cp_record.h \
	src/cp_time.c src/cp_time.h \
	src/cp_env.c src/cp_env.h \
	src/cp_comm.c src/cp_comm.h \
	src/cp_req.c src/cp_req.h \
	src/cp_fill.c \
	src/cp_coll.c \
	src/cp_fortran.c src/cp_fortran.h \
	src/cp_flush.c \
	src/cp_rt.c src/cp_rt.h \
	src/cp_params.c src/cp_params.h \
	src/cp_predict.c src/cp_predict.h \
	src/cp_pred_rt.c src/cp_pred_rt.h \
	analysis/cp_err.c analysis/cp_err.h \
	analysis/cp_log3p.c analysis/cp_log3p.h \
	analysis/cp_baseline_pred.c analysis/cp_baseline.h \
	db/cp_db.c db/cp_db.h
nodist_libcommprof_la_SOURCES = \
	pmpi/cp_calls_gen.h \
	pmpi/cp_wrappers_gen.c \
	pmpi/cp_fortran_gen.c \
	db/cp_schema_gen.h
libcommprof_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(SQLITE_CFLAGS) \
	-pthread
libcommprof_la_LIBADD = $(MPI_LIBS) $(SQLITE_LIBS) -ldl -lpthread -lm
libcommprof_la_LDFLAGS = -avoid-version -shared
