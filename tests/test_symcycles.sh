#!/bin/sh
# test_symcycles.sh - no cycle between the files of a program: in the
# preloaded library, the CLI, its MPI form and the calibrator, a file
# never uses (calls or reads) what another file defines when that file
# uses it back, directly or through a chain (tests/symcycles.py, from nm
# of the objects the build made).  And the library links the writer of
# db/, never its reader (the merge and the queries are the CLI's).
. "$top_srcdir/tests/lib.sh"

[ -n "${CP_SYM_LIB:-}" ] || fail "run me from make check"
command -v nm >/dev/null 2>&1 || skip "no nm"
CHECK="$PYTHON3 $top_srcdir/tests/symcycles.py"

# the checker finds a cycle where there is one: a.c and b.c call each
# other, c.c calls a.c
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' > "$T/a.c"
printf 'int a(int);\nint b(int x) { return a(x); }\n' > "$T/b.c"
printf 'int a(int);\nint c(void) { return a(3); }\n' > "$T/c.c"
for f in a b c; do
	"$MPICC" -c -o "$T/$f.o" "$T/$f.c" || fail "cc $f.c"
done
$CHECK probe "$T/a.o" "$T/b.o" "$T/c.o" > "$T/probe" &&
	fail "no cycle found in a.c <-> b.c"
grep -qx "probe: cycle of 2 files:" "$T/probe" ||
	fail "probe: $(cat "$T/probe")"
grep -q "^  $T/a.c -> $T/b.c: b$" "$T/probe" || fail "probe: no a -> b"

cd "$top_builddir" || fail "no build tree"
for p in "libcommprof.so:$CP_SYM_LIB" "commprof:$CP_SYM_CLI" \
	"commprof-calibrate:$CP_SYM_CAL" "commprof-mpi:$CP_SYM_MPI"; do
	# shellcheck disable=SC2086 # object lists split on blanks
	$CHECK "${p%%:*}" ${p#*:} > "$T/out" ||
		fail "$(grep -v -- ' -> ' "$T/out"; grep '^  ' "$T/out")"
	note "$(tail -n 1 "$T/out")"
done

reader=$(nm "$LIBCP" | awk '{print $NF}' | grep -E \
	'^cp_db_(open_dir|each_[a-z_]+|get_[a-z_]+|put_xfers|query_int)$')
[ -z "$reader" ] || fail "libcommprof.so links the db reader: $reader"
note "libcommprof.so links no db reader symbol"
