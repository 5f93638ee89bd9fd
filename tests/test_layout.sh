#!/bin/sh
# test_layout.sh - datatype layouts: runs tests/test_layout (exact layout
# numbers of known types and of messages of several elements, drop and
# address reuse, a full handle table,
# four threads) under mpirun -np 1.
. "$top_srcdir/tests/lib.sh"

prog="$top_builddir/tests/test_layout"
[ -x "$prog" ] || fail "$prog not built"
cp_mpirun 120 1 "$prog" >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out"
cat "$T/err" >&2
[ "$rc" -eq 77 ] && skip "MPI_THREAD_MULTIPLE not provided"
expect_eq "exit status" "$rc" 0
expect_eq "check groups passed" "$(grep -c '^ok ' "$T/out")" 8
expect_eq "failures reported" "$(grep -c '^FAIL' "$T/err")" 0
exit 0
