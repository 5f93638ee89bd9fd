# pmpi/local.mk - the generated MPI wrappers (see Makefile.am).  One table,
# pmpi/mpi_calls.def, and one generator write the C wrappers, the Fortran
# wrappers and the call-id header into the build tree; none is committed.

GEN_WRAPPERS = $(PYTHON3) $(srcdir)/pmpi/gen_wrappers.py
GEN_DEPS = $(srcdir)/pmpi/mpi_calls.def $(srcdir)/pmpi/gen_wrappers.py
EXTRA_DIST += pmpi/mpi_calls.def pmpi/gen_wrappers.py
BUILT_SOURCES += pmpi/cp_calls_gen.h
CLEANFILES += pmpi/cp_calls_gen.h pmpi/cp_wrappers_gen.c \
	pmpi/cp_fortran_gen.c

pmpi/cp_calls_gen.h: $(GEN_DEPS)
	$(AM_V_GEN)$(MKDIR_P) pmpi && $(GEN_WRAPPERS) \
		$(srcdir)/pmpi/mpi_calls.def calls $@
pmpi/cp_wrappers_gen.c: $(GEN_DEPS)
	$(AM_V_GEN)$(MKDIR_P) pmpi && $(GEN_WRAPPERS) \
		$(srcdir)/pmpi/mpi_calls.def c $@
pmpi/cp_fortran_gen.c: $(GEN_DEPS)
	$(AM_V_GEN)$(MKDIR_P) pmpi && $(GEN_WRAPPERS) \
		$(srcdir)/pmpi/mpi_calls.def fortran $@
