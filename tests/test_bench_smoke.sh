#!/bin/sh
# test_bench_smoke.sh - bench/overhead --quick runs from the build tree and
# prints its whole table: a row with a number (and an added number) for
# every benchmark and configuration, the callgrind rows when valgrind is
# installed, the drop rates, the flusher's throughput, the stalls of a
# timed ping-pong without and with commprof, both RSS lines and the
# target lines; and bench/coll_rounds' table on 2 ranks.  Never the
# figures: this machine is shared and the quick counts are tiny.
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
num='-?[0-9]+\.[0-9]+'
has '^mpiP: not at hand \(set MPIP_LIB\)$'
for b in 'PROC_NULL send, 1 rank' 'Isend\+Wait, 1 rank' \
	'ping-pong 0 B, 2 ranks' 'ping-pong 8 B, 2 ranks' \
	'Allreduce 8 B, 2 ranks'; do
	has "^$b +none +$num +- +-$"
	has "^$b +floor +$num +$num +-$"
	for c in commprof 'cp\+pred'; do
		# x floor: n/a when the floor's added time is not above 0
		has "^$b +$c +$num +$num +($num|n/a)$"
	done
done
expect_eq "timed rows" \
	"$(grep -Ec '^(PROC_NULL send|Isend\+Wait|ping-pong [08] B|Allreduce 8 B), [12] ranks? ' \
	"$T/out")" 20
has '^commprof: [0-9]+ of [1-9][0-9]* calls found the ring full'
if command -v valgrind >/dev/null 2>&1; then
	# --quick counts the two calls of the targets
	for c in 'Send to PROC_NULL' 'Isend\+Wait to PROC_NULL'; do
		has "^$c +$num +$num +$num +$num$"
		has "^$c +$num +$num$"
	done
else
	has '^callgrind: not at hand \(install valgrind\)$'
fi
for r in 250000 1000000 4000000 'cp\+pred +1000000'; do
	case $r in cp*) ;; *) r="commprof +$r" ;; esac
	has "^$r +[0-9]+ +$num +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]{2} \
(complete|INCOMPLETE .*)$"
done
for c in commprof 'cp\+pred'; do
	has "^$c +20000 calls in [0-9.]+ s, [0-9]+ rows stored, [0-9]+ \
dropped, [0-9.]+ s to the end of MPI_Finalize: [0-9]+ rows/s$"
done
has '^stalls: 5000 round trips of 1 KiB, 2 ranks, each timed; medians over the rounds$'
for c in none commprof; do
	has "^$c +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$"
done
has "^commprof / none: mean $num, median $num, p99\.9 $num, max $num; round \
trips over 100 us [0-9]+ against [0-9]+$"
kb='[0-9]+ kB'
add='\(\+-?[0-9]+ kB\)'
for c in none commprof; do
	has "^RSS $c +100000 PROC_NULL calls: VmHWM $kb before, $kb after $add;\
 after MPI_Finalize $kb $add$"
done
has "^    aggregates: [0-9]+ MPI_Send calls in [0-9]+ \\(callsite, peer\\) \
groups?, [0-9]+ under peer -?[0-9]+; rows: [0-9]+ stored, [0-9]+ dropped, \
[0-9]+ not kept$"
v='(met|NOT met)'
has "^target: Send to PROC_NULL <= \+60 instructions: $v \($num\)$"
has "^target: Send to PROC_NULL <= 1\.5 x the floor's added ns: $v \
\(([0-9.-]+|n/a)\)$"
has "^target: Isend\+Wait to PROC_NULL <= \+150 instructions: $v \($num\)$"
has "^target: every call of the long loop in the aggregates under its \
callsite and peer: $v$"
has "^target: 1 million calls/s on one rank drop no row: \
(met|NOT met|not shown) \(([0-9]+|n/a) dropped, ([0-9]+|n/a) calls/s kept; \
commprof and cp\+pred\)$"
expect_eq "last line" "$(tail -n 1 "$T/out" | cut -d: -f1)" target
# a missing figure, except the ratio to a floor that added nothing
if grep -v ' x the floor' "$T/out" | grep -v '^[A-Za-z+ ,0-9-]* \(commprof\|cp+pred\) .* n/a$' |
	grep -q 'n/a'; then
	fail "a figure is missing (n/a)"
fi
note "table complete"

# bench/coll_rounds: a row per size, each pattern's median and the three
# ratios; a bad argument is refused
CR="$top_builddir/bench/coll_rounds"
[ -x "$CR" ] || fail "no $CR"
rc=0
cp_mpirun 60 2 "$CR" -r 3 1000 20000 >"$T/cr" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$T/cr" >&2; fail "coll_rounds: status $rc"; }
cat "$T/cr"
expect_eq "coll_rounds rows" \
	"$(grep -Ec "^ +(1000|20000)( +$num){8}$" "$T/cr")" 2
if cp_mpirun 60 2 "$CR" -r 0 >"$T/cr0" 2>&1; then
	fail "coll_rounds took -r 0"
fi
grep -q '^usage: ' "$T/cr0" || fail "coll_rounds -r 0: no usage line"
