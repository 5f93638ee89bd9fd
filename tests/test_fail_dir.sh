#!/bin/sh
# test_fail_dir.sh - when the output directory cannot be created the app
# runs on unchanged: same stdout and exit status as without the preload,
# and at most one "commprof:" warning line per rank (at least one).
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
app="$top_builddir/examples/ring"
[ -x "$app" ] || fail "no $app"
np=2

base=$(cp_mpirun 60 "$np" "$app" 3 2>"$T/base.err")
base_rc=$?
expect_eq "baseline status" "$base_rc" 0

echo "in the way" > "$T/file"
# root ignores permissions: a regular file as the parent (or as the
# directory itself) is what stops root too
for dir in "$T/file/sub" "$T/file"; do
	out=$(cp_run_preload 60 "$np" "$dir" "$app" 3 2>"$T/err")
	rc=$?
	expect_eq "$dir: status" "$rc" "$base_rc"
	expect_eq "$dir: stdout" "$out" "$base"
	n=$(grep -c '^commprof:' "$T/err")
	[ "$n" -ge 1 ] && [ "$n" -le "$np" ] ||
		fail "$dir: $n commprof lines, want 1..$np: $(cat "$T/err")"
	grep -v '^commprof:' "$T/err" > "$T/rest"
	expect_eq "$dir: other stderr" "$(cat "$T/rest")" "$(cat "$T/base.err")"
	expect_eq "$dir: file kept" "$(cat "$T/file")" "in the way"
done
