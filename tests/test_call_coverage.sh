#!/bin/sh
# test_call_coverage.sh - every call pmpi/mpi_calls.def wraps is made by
# a test program that make check runs (tests/call_coverage.py lists any
# that is not, with its line in the table).
. "$top_srcdir/tests/lib.sh"

PYTHONDONTWRITEBYTECODE=1 "$PYTHON3" "$top_srcdir/tests/call_coverage.py" \
	"$top_srcdir" || fail "wrapped calls no test makes (see above)"
