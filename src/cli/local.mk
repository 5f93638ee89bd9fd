# src/cli/local.mk: the commprof command-line tool and its manual pages (see
# Makefile.am).  The tool needs no MPI library: it reads the rank files
# through db/cp_db.c and resolves callsites through src/cli/cp_site.c (libdw);
# report adds db/cp_db_report.c and the statistics of libcpanalysis.la;
# it matches sends with receives through libcpanalysis.la (src/cli/cli_match.c).
# Its objects get their own names (per-target CFLAGS), so db/cp_db.c can
# also be built into the profiling library.  MPI_CFLAGS only for the
# CP_F_* and CP_PEER_* constants of src/lib/cp_record.h.

bin_PROGRAMS += commprof
commprof_SOURCES = \
	src/cli/commprof.c \
	src/cli/cli.h \
	src/cli/cli_export.c \
	src/cli/cli_lines.c \
	src/cli/cli_ranks.c \
	src/cli/cli_views.h \
	src/cli/cli_report.c \
	src/cli/cli_rtab.c \
	src/cli/cli_match.c \
	src/cli/cli_site.c \
	src/cli/cli_summary.c \
	src/cli/cp_site.c \
	src/cli/cp_site.h \
	src/cli/cp_params_show.c \
	src/cli/cp_params_show.h \
	db/cp_db.c \
	db/cp_db.h \
	db/cp_db_int.h \
	db/cp_db_report.c \
	db/cp_db_view.c
nodist_commprof_SOURCES = db/cp_schema_gen.h
commprof_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS) $(LIBDW_CFLAGS) \
	$(MPI_CFLAGS) $(GSL_CFLAGS)
commprof_LDADD = libcpanalysis.la libcpcommon.la $(SQLITE_LIBS) $(LIBDW_LIBS) \
	$(GSL_LIBS) -ldl -lm

dist_man_MANS += man/commprof.1 man/commprof-env.7

# BUILT_SOURCES covers "make" and "make check"; this also covers
# "make commprof".
db/commprof-cp_db.$(OBJEXT): db/cp_schema_gen.h
