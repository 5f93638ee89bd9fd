# examples/local.mk - the bundled example applications (see Makefile.am).
# They are plain MPI programs that know nothing of commprof: quickstart
# and tests/test_examples.sh run them with and without the preload.

noinst_PROGRAMS += examples/ring
examples_ring_SOURCES = examples/ring.c
examples_ring_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_ring_LDADD = $(MPI_LIBS)

# Fortran without AC_PROG_FC: the program has no objects and its link
# command compiles the source with the MPI Fortran wrapper.
EXTRA_DIST += examples/ring.f90
if HAVE_MPIFC
noinst_PROGRAMS += examples/ring_f
examples_ring_f_SOURCES =
examples_ring_f_DEPENDENCIES = examples/ring.f90
examples_ring_f_LDADD =
examples_ring_f_LINK = $(MPIFC) -g -O2 -J examples $(srcdir)/examples/ring.f90 -o $@
CLEANFILES += examples/*.mod
endif

# strided and contiguous sends of the same size: the report flags the
# first as middleware-dominated (tests/test_predict_e2e.sh)
noinst_PROGRAMS += examples/stride
examples_stride_SOURCES = examples/stride.c
examples_stride_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_stride_LDADD = $(MPI_LIBS)

# the eight collectives at three sizes, each call after a barrier: what
# a new user profiles first (tests/test_taulop_run.sh, README "Collectives")
noinst_PROGRAMS += examples/colls
examples_colls_SOURCES = examples/colls.c
examples_colls_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_colls_LDADD = $(MPI_LIBS)
