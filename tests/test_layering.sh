#!/bin/sh
# test_layering.sh - the module table of the style guide, kept true:
# which folder may include which (pmpi/ only mpi.h and the runtime's
# record interface, the CLI never the runtime nor mpi.h, src/common/ libc
# only, ...), which outside libraries each may reach, no SQL outside db/,
# and no #include cycle.  The table and the checks are tests/layering.py;
# it prints every violation as FILE:LINE.
. "$top_srcdir/tests/lib.sh"

PYTHONDONTWRITEBYTECODE=1 "$PYTHON3" "$top_srcdir/tests/layering.py" \
	"$top_srcdir" || fail "layering violated (see the lines above)"
