# db/local.mk: all SQLite I/O (see Makefile.am).  db/schema.sql is the
# documented schema; it is embedded into db/cp_db.c as a C string through
# the generated header db/cp_schema_gen.h (build tree, never committed).
# A line "-- @each_model TEMPLATE" of the schema becomes an expansion of
# CP_MODEL_MAP (src/common/cp_row.h) that the compiler turns into one
# line per model: the list of models stays in that one place.
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
	sed -e '/^[[:space:]]*-- @each_model /{' \
		-e 's/^\([[:space:]]*\)-- @each_model \(.*\)%\(.*\)$$/#define CP_DB_SCHEMA_COL(id, name) "\1\2" #name "\3\\n"\nCP_MODEL_MAP(CP_DB_SCHEMA_COL)\n#undef CP_DB_SCHEMA_COL/' \
		-e 'b' -e '}' \
		-e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' \
		$(srcdir)/db/schema.sql; \
	echo ';'; } >$@.tmp && mv $@.tmp $@
