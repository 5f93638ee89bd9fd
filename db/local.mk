# db/local.mk: all SQLite I/O (see Makefile.am).  db/schema.sql is the
# documented schema; it is embedded into db/cp_db.c as a C string through
# the generated header db/cp_schema_gen.h (build tree, never committed).
# Whoever links db/cp_db.c adds $(SQLITE_CFLAGS) and $(SQLITE_LIBS).
# db/cp_db_report.c holds the queries of "commprof report" only: the CLI
# links it (src/cli.mk), the profiling library does not.  db/cp_db_int.h
# is shared by the two and nobody outside db/.

EXTRA_DIST += db/schema.sql db/cp_db.h db/cp_db_int.h
BUILT_SOURCES += db/cp_schema_gen.h
CLEANFILES += db/cp_schema_gen.h

db/cp_schema_gen.h: db/schema.sql
	$(AM_V_GEN)$(MKDIR_P) db && { \
	echo '/* generated from db/schema.sql by db/local.mk: do not edit */'; \
	echo 'static const char cp_db_schema_sql[] ='; \
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
		$(srcdir)/db/schema.sql; \
	echo ';'; } >$@.tmp && mv $@.tmp $@
