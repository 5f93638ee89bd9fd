# src/lib/local.mk - libcommprof.so, the library preloaded into MPI
# applications (see Makefile.am).  Exported: only the MPI entry points and
# their Fortran names (CP_API); everything else is hidden.  Of analysis/
# it links the evaluation of the models (libcpmodel.la) and, through the
# reduction of src/reduce (libcpred.la), the matching and histograms
# (libcpreduce.la): no GSL.

lib_LTLIBRARIES += libcommprof.la
libcommprof_la_SOURCES = \
	pmpi/special.c \
	src/lib/cp_compiler.h \
	src/lib/cp_record.h \
	src/lib/cp_event.h \
	src/lib/cp_time.c src/lib/cp_time.h \
	src/lib/cp_env.c src/lib/cp_env.h \
	src/lib/cp_htab.c src/lib/cp_htab.h \
	src/lib/cp_state.c src/lib/cp_state.h \
	src/lib/cp_comm.c src/lib/cp_comm.h \
	src/lib/cp_ring.c src/lib/cp_ring.h src/lib/cp_raw.h \
	src/lib/cp_stack.c src/lib/cp_stack.h \
	src/lib/cp_derive.c src/lib/cp_derive.h \
	src/lib/cp_agg.c src/lib/cp_agg.h \
	src/lib/cp_req.c src/lib/cp_req.h \
	src/lib/cp_tau.h \
	src/lib/cp_wait.c src/lib/cp_wait.h \
	src/lib/cp_coll.c src/lib/cp_coll.h \
	src/lib/cp_vec.c src/lib/cp_vec.h \
	src/lib/cp_fortran.c src/lib/cp_fortran.h \
	src/lib/cp_flush.c src/lib/cp_flush.h \
	src/lib/cp_rt.c src/lib/cp_rt.h \
	src/lib/cp_fin.c src/lib/cp_fin.h \
	src/lib/cp_layout.c src/lib/cp_layout.h \
	src/lib/cp_predict.c src/lib/cp_predict.h \
	src/lib/cp_pred_rt.c src/lib/cp_pred_rt.h \
	src/lib/cp_coll_mca.c src/lib/cp_coll_mca.h \
	$(CP_DB_WRITER)
nodist_libcommprof_la_SOURCES = \
	pmpi/cp_calls_gen.h \
	pmpi/cp_wrappers_gen.c \
	pmpi/cp_fortran_gen.c \
	db/cp_schema_gen.h
libcommprof_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) $(SQLITE_CFLAGS) \
	$(UNWIND_CFLAGS) -pthread
libcommprof_la_LIBADD = libcpcommon.la libcpmodel.la libcpred.la \
	libcpredmpi.la libcpreduce.la $(MPI_LIBS) \
	$(SQLITE_LIBS) $(UNWIND_LIBS) -ldl -lpthread -lm
libcommprof_la_LDFLAGS = -avoid-version -shared
