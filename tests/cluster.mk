# tests/cluster.mk: the emulated heterogeneous cluster (README
# "Heterogeneous test bed").  tests/cluster/bed builds N network
# namespaces joined by links of known rate and delay through the delay
# line; test_cluster.sh runs commprof-calibrate across them and checks
# that LMO recovers the links; with a tree table it is PlogPT's tree of
# switches with drop-tail buffers (test_cluster_tree.sh).  The delay line is built by plain `make`
# so that the bed works by hand too.

noinst_PROGRAMS += tests/cluster/delayline
tests_cluster_delayline_SOURCES = tests/cluster/delayline.c

CLUSTER_TESTS = tests/test_cluster.sh tests/test_cluster_tree.sh
TESTS += $(CLUSTER_TESTS)
dist_check_SCRIPTS += $(CLUSTER_TESTS)
EXTRA_DIST += tests/cluster/bed tests/cluster/links.table \
	tests/cluster/links2.table tests/cluster/links3.table \
	tests/cluster/links4.table tests/cluster/links5.table \
	tests/cluster/tree.table \
	tests/cluster/pairs.c
