#!/bin/sh
# The module table of style.md, kept true: pmpi/ sees only mpi.h and the
# core's record interface; src/ writes no SQL; db/ knows no MPI; analysis/
# is GSL and libc only.
. "$top_srcdir/tests/lib.sh"

cd "$top_srcdir" || fail "no source tree"
check() {	# DIR PATTERN WHAT
	hits=$(grep -n -E "$2" $1 2>/dev/null)
	[ -z "$hits" ] || fail "$3: $hits"
}
check "pmpi/*.c pmpi/*.py" '#include *[<"](sqlite3|gsl/|stdio)' \
	"pmpi/ includes SQLite, GSL or stdio"
check "pmpi/*.c" '#include "(db|analysis)/' "pmpi/ includes db/ or analysis/"
check "src/*/*.c src/*/*.h" '#include *[<"]sqlite3' "src/ includes sqlite3.h"
check "src/*/*.c" '(SELECT|INSERT|CREATE TABLE) ' "src/ contains SQL"
check "db/*.c db/*.h" '#include *[<"]mpi\.h' "db/ includes mpi.h"
check "analysis/*.c analysis/*.h" '#include *[<"](mpi\.h|sqlite3)' \
	"analysis/ includes MPI or SQLite"
note "layering holds"
