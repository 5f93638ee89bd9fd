#!/bin/sh
# test_bench_smoke.sh - bench/overhead --quick runs from the build tree and
# prints its whole table: a row with a number (and an added number) for
# every benchmark and configuration, the callgrind rows when valgrind is
# installed, both RSS lines and the target line.  Never the figures: this
# machine is shared and the quick counts are tiny.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

B="$top_srcdir/bench/overhead"
[ -z "${CP_SANITIZE:-}" ] ||
	skip "sanitizer build: bench/overhead preloads the libraries itself," \
		"without the ASan runtime first, and times them"
[ -x "$top_builddir/bench/overhead_loop" ] || fail "no bench/overhead_loop"
[ -f "$top_builddir/bench/.libs/libcpfloor.so" ] || fail "no libcpfloor.so"
command -v "$PYTHON3" >/dev/null 2>&1 || skip "no $PYTHON3"

rc=0
(cd "$top_builddir" && MPIP_LIB= timeout -k 5 300 "$PYTHON3" "$B" \
	--quick) >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 0 ] || { cat "$T/out" "$T/err" >&2; fail "status $rc"; }
cat "$T/out"

# has REGEX: some line of the output matches the extended REGEX
has() {
	grep -Eq "$1" "$T/out" || fail "no line matching '$1'"
}
num='-?[0-9]+\.[0-9]'
has '^mpiP: not at hand \(set MPIP_LIB\)$'
for b in 'PROC_NULL send, 1 rank' 'ping-pong 0 B, 2 ranks' \
	'ping-pong 8 B, 2 ranks' 'Allreduce 8 B, 2 ranks'; do
	has "^$b +none +$num +-$"
	for c in floor commprof 'cp\+pred'; do
		has "^$b +$c +$num +$num$"
	done
done
# 16 timed rows, then 4 rows of the prediction cost (ratio, ns/call)
expect_eq "timed rows" \
	"$(grep -Ec '^(PROC_NULL send|ping-pong|Allreduce)[ ,]' "$T/out")" 20
for b in 'PROC_NULL send, 1 rank' 'ping-pong 0 B, 2 ranks' \
	'ping-pong 8 B, 2 ranks' 'Allreduce 8 B, 2 ranks'; do
	has "^$b +[0-9]+\\.[0-9]{3} +$num$"
done
has '^commprof: [0-9]+ of [1-9][0-9]* calls found the ring full'
if command -v valgrind >/dev/null 2>&1; then
	has '^none +[0-9]+\.[0-9] +-?[0-9]+\.[0-9] +-$'
	has "^floor +$num +$num +$num$"
	has "^commprof +$num +$num +$num$"
else
	has '^callgrind: not at hand \(install valgrind\)$'
fi
kb='[0-9]+ kB'
add='\(\+-?[0-9]+ kB\)'
for c in none commprof; do
	has "^RSS $c +100000 PROC_NULL calls: VmHWM $kb before, $kb after $add;\
 after MPI_Finalize $kb $add$"
done
has '^target: commprof adds <= 40 ns/call on PROC_NULL and ping-pong:'\
' (met|NOT met)$'
expect_eq "last line" "$(tail -n 1 "$T/out" | cut -d: -f1)" target
if grep -q 'n/a' "$T/out"; then
	fail "a figure is missing (n/a)"
fi
note "table complete"
