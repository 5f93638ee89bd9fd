# src/cli/local.mk: the commprof command-line tool and its manual pages (see
# Makefile.am).  The tool needs no MPI library: it reads the rank files
# through the reader of db/ (db/local.mk) and resolves callsites through
# src/cli/cp_site.c (libdw); report adds the statistics of libcpanalysis.la;
# it matches sends with receives through libcpanalysis.la (src/cli/cli_match.c).
# Its objects get their own names (per-target CFLAGS), so db/cp_db.c can
# also be built into the profiling library.  What a row's flags mean
# comes from src/common/cp_row.h: no mpi.h.

bin_PROGRAMS += commprof
commprof_SOURCES = \
	src/cli/commprof.c \
	src/cli/cli.h \
	src/cli/cli_io.c \
	src/cli/cli_open.c \
	src/cli/cli_export.c \
	src/cli/cli_lines.c \
	src/cli/cli_report.c \
	src/cli/cli_rtab.c \
	src/cli/cli_runs.c \
	src/cli/cli_match.c \
	src/cli/cli_site.c \
	src/cli/cli_summary.c \
	src/cli/cp_site.c \
	src/cli/cp_site.h \
	src/cli/cp_params_show.c \
	src/cli/cp_params_show.h \
	$(CP_DB_READER)
nodist_commprof_SOURCES = db/cp_schema_gen.h
commprof_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS) $(LIBDW_CFLAGS) \
	$(GSL_CFLAGS)
commprof_LDADD = libcpanalysis.la libcpcommon.la $(SQLITE_LIBS) $(LIBDW_LIBS) \
	$(GSL_LIBS) -ldl -lm

dist_man_MANS += man/commprof.1 man/commprof-env.7

# BUILT_SOURCES covers "make" and "make check"; this also covers
# "make commprof".
db/commprof-cp_db.$(OBJEXT): db/cp_schema_gen.h
