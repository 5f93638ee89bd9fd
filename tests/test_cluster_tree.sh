#!/bin/sh
# test_cluster_tree.sh - PlogPT's tree of switches on the test bed:
# tests/cluster/bed with tests/cluster/tree.table (4 hosts, two height-1
# switches under one height-2 switch, the top edges as fast as a host's
# link and with shallow buffers), then the same tree with deep buffers.
# tests/alltoall_ab.c runs Alltoall A and B across the hosts.  Checked:
#   - A and B deliver the same data (checksums) on both trees;
#   - shallow buffers: B's burst of 256 KiB per pair overflows the
#     switch buffers (the delay line's drop count) and the kernels' TCP
#     retransmission timeouts (TcpExt TCPTimeouts of the hosts) rise;
#   - deep buffers: no frame is dropped;
#   - three --quick calibrations across the shallow tree measure d(1),
#     the height-1 buffer's delay: their median within 20% of the time
#     its 256 KiB take to drain at 400 Mbit/s (the incast of commprof-calibrate(1) step 9);
#     when it is not, three more, and the median of the six
#     (CP_TREE_D1_AGAIN=1: the six always);
#   - A and B profiled with the first calibration and replayed: the time in
#     the replayed calls nearer the measured under PlogPT's tree (without
#     RTO stalls) than under PLogP, mu averaged over the four runs.
# Root only; skipped where network namespaces cannot be made.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

BED="$top_srcdir/tests/cluster/bed"
TABLE="$top_srcdir/tests/cluster/tree.table"
cp_bed_or_skip

export CPBED_STATE="$T/bed" CPBED_DELAYLINE="$top_builddir/tests/cluster/delayline"
export MPIRUN
trap '"$BED" down >/dev/null 2>&1; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
cd "$T" || fail "cd $T"
"$MPICC" -O1 -o ab "$top_srcdir/tests/alltoall_ab.c" || fail "cc"

# timeouts: TCPTimeouts summed over the 4 hosts
timeouts() {
	local k n=0 v
	for k in 0 1 2 3; do
		v=$("$BED" exec $k cat /proc/net/netstat | awk '
			/^TcpExt:/ && !h { for (i = 1; i <= NF; i++)
				if ($i == "TCPTimeouts") c = i; h = 1; next }
			/^TcpExt:/ { print $c }')
		n=$((n + ${v:-0}))
	done
	echo $n
}

# tree TABLE NAME: bring the tree up, run A and B, leave the results in
# NAME.out and the delay line's log in NAME.log
tree() {
	"$BED" up 4 "$1" >/dev/null || fail "bed up $1"
	t0=$(timeouts)
	for m in 65536 262144; do
		for a in a b; do
			"$BED" run -t 120 -- -np 4 ./ab $a $m 10 2>/dev/null ||
				fail "alltoall $a $m on $2"
		done
	done >"$2.out"
	echo "timeouts $(( $(timeouts) - t0 ))" >>"$2.out"
	"$BED" down >/dev/null
	cp "$CPBED_STATE/delayline.log" "$2.log"
	sed "s/^/# $2: /" "$2.out"
	grep 'frames dropped' "$2.log" | sed "s/^/# $2: /"
	for m in 65536 262144; do
		expect_eq "$2 $m: checksums of A and B" \
			"$(grep " $m bytes" "$2.out" | sed 's/.*checksum //' |
				sort -u | wc -l)" 1
	done
}

# d(1): three quick calibrations across the shallow tree, their median
# (each reads d(1) from the roundtrips of 7 incasts, or 14); A and B use the
# first
"$BED" up 4 "$TABLE" >/dev/null || fail "bed up $TABLE"
for k in 1 2 3; do
	"$BED" run -t 300 -- -np 4 "$top_builddir/commprof-calibrate" --quick \
		-o "$T/q$k.params" >cal$k.out 2>&1 ||
		fail "calibration $k: $(tail -n 5 cal$k.out)"
done
cp "$T/q1.params" "$T/q.params" && cp cal1.out cal.out || fail "cp"
# A and B profiled with it, replayed under PlogPT (the calibrated tree)
# and PLogP (the file without its plogpt lines, failed ones too: a
# 'fail plogpt.d 1' left behind was refused without its 'plogpt.tree')
grep -Ev '^((fail|ambiguous) )?plogpt\.' "$T/q.params" >"$T/p.params"
for m in 65536 262144; do
	for a in a b; do
		"$BED" run -t 120 -- -np 4 -x LD_PRELOAD="$CP_PRELOAD" \
			-x COMMPROF_PARAMS="$T/q.params" \
			-x COMMPROF_DIR="$T/r$a$m" ./ab $a $m 10 >/dev/null 2>&1 ||
			fail "profiled alltoall $a $m"
		"$COMMPROF" replay "$T/r$a$m" --params "$T/q.params" \
			>"pt$a$m.rp" 2>&1 || fail "replay $a $m: $(cat "pt$a$m.rp")"
		"$COMMPROF" replay "$T/r$a$m" --params "$T/p.params" \
			>"p$a$m.rp" 2>&1 || fail "replay $a $m: $(cat "p$a$m.rp")"
	done
done
"$BED" down >/dev/null
grep '^plogpt: height' cal.out | sed 's/^/# /'
want=$(awk '$1 == "height" && $2 == 1 { print $5 * 1024 * 8 / ($3 * 1e6) }' "$TABLE")
# d1_of K...: the median of d(1) in calibrations K... (in d1s)
d1_of() {
	d1s=$(for k in "$@"; do
		awk '$1 == "plogpt.d" && $2 == 1 { print $3 }' "$T/q$k.params"
	done)
	d1=$(printf '%s\n' $d1s | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
}
d1_ok() {
	awk -v d="$d1" -v w="$want" \
		'BEGIN { exit !(d != "" && d >= 0.8 * w && d <= 1.2 * w) }'
}
d1_of 1 2 3
# a noisy measurement is measured again: when the median of three misses,
# three more calibrations, and the median of all six (before d(1) was
# read from the roundtrips' pile, the 90th percentile of each of three
# incasts missed in 10 of 30 quick calibrations, and the median of six
# once in CI)
if ! d1_ok || [ -n "${CP_TREE_D1_AGAIN:-}" ]; then
	note "d(1) $d1 s (median of" $d1s"): three more calibrations"
	"$BED" up 4 "$TABLE" >/dev/null || fail "bed up $TABLE"
	for k in 4 5 6; do
		"$BED" run -t 300 -- -np 4 "$top_builddir/commprof-calibrate" \
			--quick -o "$T/q$k.params" >cal$k.out 2>&1 ||
			fail "calibration $k: $(tail -n 5 cal$k.out)"
	done
	"$BED" down >/dev/null
	d1_of 1 2 3 4 5 6
fi
d1_ok || fail "d(1) ${d1:-not measured} s (median of" $d1s"), the buffer drains in $want s"
note "d(1) $d1 s (median of" $d1s"): the buffer of 256 KiB drains in $want s"
sum_pt=0 sum_pl=0
for m in 65536 262144; do
	for a in a b; do
		# the run's line: measured, predicted, mu, no RTO, mu (time
		# in the replayed calls)
		pt=$(awk -F'|' '$1 ~ /^all/ { split($2, v, " "); print v[5] }' "pt$a$m.rp")
		pl=$(awk -F'|' '$1 ~ /^all/ { split($2, v, " "); print v[3] }' "p$a$m.rp")
		rto=$(awk -F'|' '$1 ~ /^all/ { print $4 + 0 }' "pt$a$m.rp")
		note "$a $m: mu of the time in calls: PlogPT without RTO $pt ($rto sends flagged), PLogP $pl"
		sum_pt=$(awk -v s="$sum_pt" -v x="$pt" 'BEGIN { print s + x }')
		sum_pl=$(awk -v s="$sum_pl" -v x="$pl" 'BEGIN { print s + x }')
	done
done
# over the four runs (one can go to PLogP): a quick calibration's b(2)
# is the median of those of its bursts of 1 MiB a sender in which no
# TCP timed out, 7 more timed when fewer than 3 of 7 were (273 to 368
# Mbit/s in 5 calibrations; the median of all 7 was about 70 Mbit/s
# when most had waited for a timeout)
note "mu_bar over the four: PlogPT without RTO $(awk -v s="$sum_pt" 'BEGIN { print s / 4 }'), PLogP $(awk -v s="$sum_pl" 'BEGIN { print s / 4 }')"
awk -v a="$sum_pt" -v b="$sum_pl" 'BEGIN { exit !(a > 0 && a < b) }' ||
	fail "PlogPT's tree (mu_bar $sum_pt / 4) no nearer than PLogP ($sum_pl / 4)"

tree "$TABLE" shallow
overflow=$(sed -n 's/.*dropped, \([0-9]*\) at full buffers/\1/p' shallow.log)
[ "${overflow:-0}" -gt 0 ] || fail "shallow buffers dropped no frame"
tmo=$(sed -n 's/^timeouts //p' shallow.out)
[ "$tmo" -gt 0 ] || fail "shallow buffers: no TCP timeout"

sed 's/^\(height [0-9]* [0-9.]* [0-9.]*\) [0-9.]*$/\1 4096/' "$TABLE" >deep.table
tree deep.table deep
overflow=$(sed -n 's/.*dropped, \([0-9]*\) at full buffers/\1/p' deep.log)
expect_eq "deep buffers: frames dropped" "$overflow" 0
note "shallow: $(grep -c . shallow.out) lines, timeouts $tmo; deep: none dropped"
