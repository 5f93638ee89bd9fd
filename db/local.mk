# db/local.mk: all SQLite I/O (see Makefile.am).  db/schema.sql is the
# documented schema; it is embedded into db/cp_db.c as a C string through
# the generated header db/cp_schema_gen.h (build tree, never committed).
# A line "-- @each_model TEMPLATE" of the schema becomes an expansion of
# CP_MODEL_MAP (src/common/cp_row.h) that the compiler turns into one
# line per model: the list of models stays in that one place.
#
# Two sides: the writer (db/cp_db_write.h) that the profiling library
# links (src/lib/local.mk) and the reader (db/cp_db_read.h: merge and
# queries) that the CLI links (src/cli/local.mk); both build on
# db/cp_db.c, and db/cp_db_int.h is theirs alone.  A target lists one of
# the two variables below and adds $(SQLITE_CFLAGS) and $(SQLITE_LIBS).

CP_DB_COMMON = db/cp_db.c db/cp_db.h db/cp_db_int.h
CP_DB_WRITER = $(CP_DB_COMMON) db/cp_db_write.c db/cp_db_write.h
CP_DB_READER = $(CP_DB_COMMON) db/cp_db_merge.c db/cp_db_read.c \
	db/cp_db_read.h db/cp_db_report.c db/cp_db_view.c

EXTRA_DIST += db/schema.sql
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
