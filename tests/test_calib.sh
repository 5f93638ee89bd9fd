#!/bin/sh
# test_calib.sh - commprof-calibrate --quick on 3, 4 and 2 ranks.  This
# machine is crowded (more ranks than cores), so the test checks the
# structure of what the calibrator prints and writes, never its figures:
# the header, a line (value or failed estimate) for every regime, rank,
# pair and table, the experiment and round counts that the schedule must
# produce, the library's limits, the n = 2 sums and ambiguities, the
# progress bar, and that the strict reader loads the file.  The figures
# of a default calibration are checked by tests/test_probe.sh.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

CAL="$top_builddir/commprof-calibrate"
TP="$top_builddir/tests/test_params"
[ -x "$CAL" ] || fail "no $CAL"
[ -x "$TP" ] || fail "no $TP"
cd "$T" || fail "cd $T"

# has FILE REGEX: FILE must hold a line matching REGEX
has() {
	grep -Eq "$2" "$1" || fail "$1: no line matching '$2'"
}

# calibrate NP NAME: run --quick, stdout NAME.out, stderr NAME.err
calibrate() {
	t0=$(date +%s)
	rc=0
	cp_mpirun 120 "$1" "$CAL" -o "$2.params" --quick >"$2.out" \
		2>"$2.err" || rc=$?
	secs=$(( $(date +%s) - t0 ))
	[ "$rc" = 0 ] || { cat "$2.out" "$2.err" >&2; fail "$2: status $rc"; }
	note "$2: $secs s"
}

# one experiment per round on a host with fewer CPUs than ranks
ncpu=$(getconf _NPROCESSORS_ONLN)

# --- 3 ranks ---
calibrate 3 c3
[ "$secs" -lt 20 ] || fail "--quick on 3 ranks took $secs s (limit 20)"
expect_eq "header" "$(head -n 1 c3.params)" "commprof-params 2"
expect_eq "last line" "$(tail -n 1 c3.params)" "end"
has c3.params "^mpi_library $CP_MPI_TITLE"
has c3.params '^date [0-9]{4}-[0-9]{2}-[0-9]{2}T'
has c3.params '^hosts 1 [^ ]+$'
has c3.params '^rankmap 3 0 0 0$'
has c3.params '^nranks 3$'
has c3.params '^assume quick$'
# LMO: regimes from 0 B, the sweep, every rank and pair in every regime
has c3.params '^lmo\.regimes [1-8] 0( [0-9]+)*$'
# the sweep: two sizes per doubling to 1 MiB; one to 256 KiB with more
# ranks than CPUs (--quick: man commprof-calibrate(1)), where log3P's
# contiguous sizes stop too
if [ "$ncpu" -lt 3 ]; then
	sweep='64 128 256 '
	last=262144
else
	sweep='64 96 128 '
	last=1048576
fi
has c3.params "^lmo\.sizes [0-9]+ $sweep"
nreg=$(sed -n 's/^lmo\.regimes \([0-9]*\) .*/\1/p' c3.params)
k=0
while [ "$k" -lt "$nreg" ]; do
	for r in 0 1 2; do
		has c3.params "^(fail )?lmo\.C $k $r "
		has c3.params "^(fail )?lmo\.t $k $r "
	done
	for p in "0 1" "0 2" "1 2"; do
		for nm in beta Csum tsum; do
			has c3.params "^(fail )?lmo\.$nm $k $p "
		done
	done
	k=$((k + 1))
done
expect_eq "beta lines" "$(grep -Ec '^(fail )?lmo\.beta ' c3.params)" \
	$((3 * nreg))
# log3P: the quick grids, one cell of every kind
has c3.params '^log3p\.sizes [0-9]+ 8 64 96 '
has c3.params '^log3p\.ssizes [0-9]+ .*1024 .*16384( |$)'
has c3.params '^log3p\.blocks 4 1 8 64 1024$'
has c3.params '^log3p\.gaps 3 8 248 8184$'
for s in 64 1024 65536 $last; do
	has c3.params "^(fail )?log3p\.o_mw $s "
	has c3.params "^(fail )?log3p\.o_net $s "
done
has c3.params "^(fail )?log3p\.l_mw 16384 64 248 "
has c3.params '^(fail )?hockney\.alpha '
has c3.params '^(fail )?hockney\.beta '
has c3.params '^(fail )?loggp\.L '
has c3.params '^(fail )?plogp\.g 0 '
# PLogP's empty message is log3P's (commprof-calibrate(1), step 7): the
# calibrator says which time it took, the empty message's one-way time
# in log3P's rounds (on one host its receive's completion less its
# send's start, between hosts half its roundtrip) or, below it, a
# one-way time of log3P's to 4 KiB, and L + g(0) is that time (figures
# printed to 3 decimals of a us: a time lowered by less than 0.0005 us
# prints as the one it was lowered from)
awk '/^log3p: the empty message.s one-way time/ { h = $7 }
/^baselines: the empty message/ { e = $7; low = /lowered/; own = /log3P/ }
FILENAME ~ /params$/ && $1 == "plogp.L" { l = $2 }
FILENAME ~ /params$/ && $1 == "plogp.g" && $2 == "0" { g = $3 }
END { if (h == "" || e == "" || l == "" || g == "") { print "missing"; exit 1 }
	s = (l + g) * 1e6
	printf "# PLogP L + g(0) %.4f us, the empty message %.3f us, log3P %.3f us\n", s, e, h
	d = s - e; if (d < 0) d = -d
	if (d > 0.0006) exit 1
	d = e - h; if (d < 0) d = -d
	exit !(low ? e <= h : own && d <= 0.0011) }' c3.out c3.params ||
	fail "PLogP's empty message is not log3P's"
grep -q '^assume lmo.n2' c3.params && fail "n2 assumption on 3 ranks"
# tau-Lop: rings of 1 to 3 ranks, then all 3 sending to 2 each (tau 6);
# an o and an L (value or failed) for every size and tau; no network
has c3.params '^taulop\.taus 0 4 1 2 3 6$'
has c3.params '^taulop\.ranks 0 3$'
# with more ranks than CPUs, how the experiments wait was chosen from
# two timings of the same rings, and the choice follows them: yielding
# where that was at least twice as fast (commprof-calibrate(1), step 8)
if [ "$ncpu" -lt 3 ]; then
	awk '/^tau-Lop channel 0: [0-9]+ rings of empty messages/ {
		n++; spin = $13; yield = $18
		want = spin >= 2 * yield && yield > 0
		got = /the experiments wait yielding/
		printf "# %s\n", $0
		if (want != got) bad = 1 }
	END { exit n != 1 || bad }' c3.out ||
		fail "tau-Lop's way of waiting does not follow its timings"
fi
# the sizes: the quick grid and both sides of every LMO regime boundary
# inside it (commprof-calibrate(1), step 8)
"$PYTHON3" - c3.params <<'PY' || fail "tau-Lop's sizes"
import sys
w = {l.split()[0]: l.split()[1:] for l in open(sys.argv[1])
     if l.startswith(("taulop.sizes 0 ", "lmo.regimes "))}
sizes = [float(x) for x in w["taulop.sizes"][2:]]
first = [float(x) for x in w["lmo.regimes"][1:]]
assert sizes == sorted(set(sizes)), sizes
assert {0, 1024, 8192, 65536, 524288} <= set(sizes), sizes
for f in first[1:]:
    if f <= 524288:
        assert f in sizes and any(f - 4096 <= s < f for s in sizes), \
            (f, sizes)
print("# tau-Lop's sizes: %s; regimes from %s" % (
      " ".join("%g" % s for s in sizes), " ".join("%g" % f for f in first)))
PY
nts=$(sed -n 's/^taulop\.sizes 0 \([0-9]*\) .*/\1/p' c3.params)
expect_eq "taulop.o lines" "$(grep -Ec '^(fail )?taulop\.o 0 ' c3.params)" \
	"$nts"
expect_eq "taulop.L lines" "$(grep -Ec '^(fail )?taulop\.L 0 ' c3.params)" \
	$((4 * nts))
# the same cells timed again with each message written before it is sent
expect_eq "taulop.Lw lines" \
	"$(grep -Ec '^(fail )?taulop\.Lw 0 ' c3.params)" $((4 * nts))
has c3.out '^tau-Lop channel 0: L\(m, tau\) of messages written just before'
# and as rounds that start together after a barrier (a collective's),
# on 3 ranks: tau 1 (one message), 2 and 3, with a value at every cell
# (one that took less than its senders' o is 0, the message there before
# its receiver: under MPICH a cell of 4000 B or more failed so once)
expect_eq "taulop.Ls lines" \
	"$(grep -Ec '^(fail )?taulop\.Ls 0 ' c3.params)" $((4 * nts))
expect_eq "taulop.Ls values" "$(grep -Ec '^taulop\.Ls 0 ' c3.params)" \
	$((4 * nts))
has c3.out '^tau-Lop channel 0: L\(m, tau\) of rounds that start together'
# and what an exchange of each size takes more after 10 us to 4 ms outside
# MPI (commprof-calibrate(1), step 8)
expect_eq "taulop.gaps" "$(awk '$1 == "taulop.gaps" && $2 == 0 {
	printf "%s:", $3; for (i = 4; i <= NF; i++) printf " %g", $i }' \
	c3.params)" "4: 1e-05 0.0001 0.001 0.004"
expect_eq "taulop.Lg lines" \
	"$(grep -Ec '^(fail )?taulop\.Lg 0 ' c3.params)" $((4 * nts))
has c3.out '^tau-Lop channel 0: what an exchange takes more after a quiet gap'
has c3.params '^(fail )?taulop\.red '
grep -q '^taulop\.sizes 1 ' c3.params && fail "a network channel on one host"
has c3.out '^tau-Lop channel 0 \(shared memory\) on 3 ranks'

# what the calibrator says: the schedule (with 3 ranks every pair and
# triplet shares a process: one per round), the sweep, the limits and
# regimes, the check off log3P's tables
has c3.out '^lmo experiments: 3 empty roundtrips in 3 rounds, then at each size 3 one-to-one in 3 rounds and 3 one-to-two in 3 rounds$'
has c3.out "^lmo sweep: [0-9]+ sizes from 64 to $last B, 5 repetitions of every experiment at each, "
if [ "$CP_MPI" = openmpi ]; then
	has c3.out '^lmo limits reported by the MPI library: .*btl_vader_eager_limit=4096'
else
	has c3.out '^lmo limits reported by the MPI library: '
fi
has c3.out "^lmo regimes: $nreg$"
has c3.out '^  regime 0: 0 B '
has c3.out '^log3p off the tables, remote, predicted vs measured'
has c3.out '^struct 28 of 64 B +57344 +[0-9.]+ +[0-9.]+ +[0-9.na]+$'
has c3.out '^bytes 1 of 64 B +20000 +[0-9.]+ +[0-9.]+ +[0-9.na]+$'
has c3.out '^log3p: [0-9]+ contiguous sizes, [0-9]+ strided sizes x 4 blocks x 3 gaps '
has c3.out '^lmo regime 0: messages of 0 B '
has c3.out '^lmo\.C 0 2 '
has c3.out '^wrote c3\.params; total wall time '
if [ "$ncpu" -lt 3 ]; then
	has c3.out '^warning: oversubscribed: 3 ranks on a machine with [0-9]+ online CPUs'
	has c3.params '^assume oversubscribed$'
else
	grep -q oversubscribed c3.out && fail "oversubscription reported"
fi
# no progress bar when stderr is not a terminal
[ -s c3.err ] && fail "stderr not empty: $(head -n 3 c3.err)"

# the gauge: 5 moments, the file's range and "assume unsteady" agree
# with the moments printed, unsteady exactly when the slowest moment
# took over 1.5 times the fastest
has c3.out '^gauge: 262144 B between ranks 0 and 1, fastest one-way time at 5 moments \(us\):( [0-9.]+){5}'
has c3.params '^calib\.gauge [0-9.e+-]+ lo [0-9.e+-]+ hi [0-9.e+-]+ n 5$'
"$PYTHON3" - c3.out c3.params <<'PY' || fail "gauge"
import re, sys
out, par = (open(p).read() for p in sys.argv[1:3])
us = [float(x) for x in re.search(r"^gauge: .*\(us\):((?: [0-9.]+)+)",
                                  out, re.M).group(1).split()]
v, lo, hi = (float(x) for x in re.search(
    r"^calib\.gauge (\S+) lo (\S+) hi (\S+) n 5$", par, re.M).groups())
assert abs(lo * 1e6 - min(us)) < 0.051 and abs(hi * 1e6 - max(us)) < 0.051, \
    (us, lo, hi)
assert lo <= v <= hi, (lo, v, hi)
unsteady = "\nassume unsteady\n" in par
assert unsteady == (hi > 1.5 * lo), (unsteady, lo, hi)
assert unsteady == ("warning: the host changed speed" in out), unsteady
print("# gauge: %s us, %s" % (us, "unsteady" if unsteady else "steady"))
PY

# the strict reader loads it, and writes back what it read
"$TP" show c3.params >show.out 2>show.err || fail "show: $(cat show.err)"
has show.out '^lmo\.beta 0 1 2 '
has show.out '^lmo regime 0: messages of 0 B '
"$TP" roundtrip c3.params w1.params || fail "roundtrip"
cmp c3.params w1.params || fail "reader and writer disagree on c3.params"

# --- 4 ranks: disjoint pairs share a round when every rank has a CPU ---
calibrate 4 c4
if [ "$ncpu" -lt 4 ]; then
	has c4.out '^lmo experiments: 6 empty roundtrips in 6 rounds, then at each size 6 one-to-one in 6 rounds and 12 one-to-two in 12 rounds$'
else
	has c4.out '^lmo experiments: 6 empty roundtrips in 3 rounds, then at each size 6 one-to-one in 3 rounds and 12 one-to-two in 12 rounds$'
fi
nreg=$(sed -n 's/^lmo\.regimes \([0-9]*\) .*/\1/p' c4.params)
expect_eq "beta lines" "$(grep -Ec '^(fail )?lmo\.beta ' c4.params)" \
	$((6 * nreg))
has c4.params '^taulop\.taus 0 6 1 2 3 4 8 12$'
"$TP" show c4.params >/dev/null || fail "show c4.params"

# --- 2 ranks: no triplets, the sums measured, the split assumed ---
calibrate 2 c2
has c2.params '^assume lmo\.n2 split_assumed$'
has c2.out '^lmo: 2 ranks, no triplets: each regime.s sums C_0 \+ C_1 and t_0 \+ t_1 \+ 1/beta_01 are measured'
has c2.out '^lmo experiments: 1 empty roundtrips in 1 rounds, then at each size 1 one-to-one in 1 rounds$'
grep -q 'one-to-two' c2.out && fail "one-to-two run on 2 ranks"
has c2.params '^(fail )?lmo\.beta 0 0 1 '
has c2.params '^lmo\.tsum 0 0 1 [0-9.e+-]+ lo '
has c2.params '^ambiguous lmo\.t 0 1 : 2 ranks: only t_0 \+ t_1 \+ 1/beta_01 is determined$'
has c2.params '^taulop\.taus 0 2 1 2$'
"$TP" show c2.params >show2.out || fail "show c2.params"
has show2.out '^LMO, 2 ranks: only the sums C_0 \+ C_1 and t_0 \+ t_1 \+ 1/beta_01 are determined'
has show2.out '^ +ambiguous: 2 ranks: only C_0 \+ C_1 is determined$'

# --progress: the bar, the phase and the time left on stderr
rc=0
cp_mpirun 60 2 "$CAL" -o p.params --quick --progress >p.out 2>p.err || rc=$?
expect_eq "progress status" "$rc" 0
tr '\r' '\n' <p.err >p.lines
has p.lines '^\[[#.]{24}\] +[0-9]+%  lmo sweep +[0-9]+ B +~ *[0-9]+ s left'
has p.lines '^\[[#.]{24}\] +[0-9]+%  log3p '
has p.lines '^\[[#.]{24}\] +[0-9]+%  tau-lop +shared memory rings '
has p.lines '^\[[#.]{24}\] +[0-9]+%  tau-lop +rounds after barrier '
grep -q ' s left' p.out && fail "progress on stdout"

# --help: usage on stdout, status 0, without mpirun
rc=0
"$CAL" --help >h.out 2>h.err || rc=$?
expect_eq "help status" "$rc" 0
expect_eq "help stderr" "$(cat h.err)" ""
has h.out '^usage: mpirun -np N commprof-calibrate -o FILE'
has h.out '^  --samples M +log3P samples per table value'

# --- errors ---
rc=0
cp_mpirun 60 2 "$CAL" --quick >u.out 2>u.err || rc=$?
expect_eq "usage status" "$rc" 2
expect_eq "usage message" "$(head -n 1 u.err)" \
	"commprof-calibrate: missing -o FILE"
for a in "--frob:bad argument '--frob'" \
	"--reps:missing the value of '--reps'"; do
	rc=0
	cp_mpirun 60 2 "$CAL" -o "$T/x.params" "${a%%:*}" >a.out 2>a.err ||
		rc=$?
	expect_eq "${a%%:*} status" "$rc" 2
	expect_eq "${a%%:*} message" "$(head -n 1 a.err)" \
		"commprof-calibrate: ${a#*:}"
done
rc=0
cp_mpirun 60 2 "$CAL" -o "$T/no/such/dir.params" --quick >d.out \
	2>d.err || rc=$?
expect_eq "bad path status" "$rc" 1
expect_eq "bad path message" "$(grep commprof-calibrate d.err)" \
	"commprof-calibrate: $T/no/such/dir.params: no such file or directory"
exit 0
