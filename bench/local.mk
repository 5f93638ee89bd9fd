# bench/local.mk - the overhead benchmark (see Makefile.am and README's
# Performance section).  bench/overhead is the script; it runs
# bench/overhead_loop with no preload, with bench/libcpfloor.so (a minimal
# PMPI wrapper: the floor of any interposition), with mpiP when MPIP_LIB
# names it, and with libcommprof.so.  Not a test: `make` builds the
# programs, the script is run by hand (tests/test_bench_smoke.sh runs it
# with --quick).  bench/report times the reduction and the report of
# runs of 64 to 16,384 ranks, made by bench/replicate from a real job's
# rank files (README, Runs of any size); run by hand too, as is
# bench/coll_rounds (below).

dist_noinst_SCRIPTS += bench/overhead bench/report bench/replicate

noinst_PROGRAMS += bench/overhead_loop
bench_overhead_loop_SOURCES = bench/overhead_loop.c
bench_overhead_loop_CFLAGS = $(AM_CFLAGS) -O2 $(MPI_CFLAGS)
bench_overhead_loop_LDADD = $(MPI_LIBS)

# bench/coll_rounds: what tau-Lop's rules for a collective's rounds
# inside a host rest on (a fan-out of one buffer, of several, a ring
# after a barrier, against one message), side by side; run by hand.
noinst_PROGRAMS += bench/coll_rounds
bench_coll_rounds_SOURCES = bench/coll_rounds.c
bench_coll_rounds_CFLAGS = $(AM_CFLAGS) -O2 $(MPI_CFLAGS)
bench_coll_rounds_LDADD = $(MPI_LIBS)

# A shared library that is never installed: libtool makes a .so of a
# noinst library only when it is given an -rpath.
noinst_LTLIBRARIES += bench/libcpfloor.la
bench_libcpfloor_la_SOURCES = bench/floor.c
bench_libcpfloor_la_CFLAGS = $(AM_CFLAGS) -O2 $(MPI_CFLAGS)
bench_libcpfloor_la_LIBADD = $(MPI_LIBS)
bench_libcpfloor_la_LDFLAGS = -module -avoid-version -shared \
	-rpath $(abs_builddir)/bench
