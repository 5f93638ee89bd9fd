#!/bin/sh
# test_site.sh - callsite resolution: runs tests/test_site (PIE) and
# tests/test_site_nopie on themselves, and on copies stripped of debug
# info (symbol+offset expected) and of every symbol (module+offset).
. "$top_srcdir/tests/lib.sh"

command -v strip >/dev/null 2>&1 || skip "strip not found"
for p in test_site test_site_nopie; do
	prog="$top_builddir/tests/$p"
	[ -x "$prog" ] || fail "$prog not built"
	strip -g -o "$T/$p-g" "$prog" || fail "strip -g $p"
	strip -s -o "$T/$p-s" "$prog" || fail "strip -s $p"
	timeout -k 5 60 "$prog" "$T/$p-g" "$T/$p-s" >"$T/out" 2>"$T/err"
	rc=$?
	cat "$T/out"
	cat "$T/err" >&2
	expect_eq "$p exit status" "$rc" 0
	expect_eq "$p check groups passed" "$(grep -c '^ok ' "$T/out")" 4
done
exit 0
