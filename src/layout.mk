# src/layout.mk: datatype layouts, part of the preloaded library (see
# Makefile.am).  src/cp_site.c (callsite resolution) belongs to the CLI:
# src/cli.mk lists it in the commprof program's sources.
libcommprof_la_SOURCES += src/cp_layout.c src/cp_layout.h
