# tests/layout.mk: tests of datatype layouts and callsite resolution (see
# Makefile.am).

# an MPI program with src/lib/cp_layout.c linked in directly, run under mpirun
check_PROGRAMS += tests/test_layout
tests_test_layout_SOURCES = tests/test_layout.c src/lib/cp_layout.c \
	src/lib/cp_time.c src/lib/cp_time.h \
	src/lib/cp_htab.c src/lib/cp_htab.h \
	src/lib/cp_layout.h
tests_test_layout_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) -pthread
tests_test_layout_LDADD = $(MPI_LIBS) -lpthread

# the same resolver test as a PIE (base = load address) and as a non-PIE
# executable (base 0); built with -g, the line it expects is __LINE__
check_PROGRAMS += tests/test_site tests/test_site_nopie
tests_test_site_SOURCES = tests/test_site.c src/cli/cp_site.c src/cli/cp_site.h
tests_test_site_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) -g
tests_test_site_LDADD = $(LIBDW_LIBS) -ldl
tests_test_site_nopie_SOURCES = $(tests_test_site_SOURCES)
tests_test_site_nopie_CFLAGS = $(tests_test_site_CFLAGS)
tests_test_site_nopie_LDFLAGS = -no-pie
tests_test_site_nopie_LDADD = $(tests_test_site_LDADD)

TESTS += tests/test_layout.sh tests/test_site.sh tests/test_rebuild.sh
dist_check_SCRIPTS += tests/test_layout.sh tests/test_site.sh \
	tests/test_rebuild.sh
