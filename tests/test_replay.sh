#!/bin/sh
# test_replay.sh - commprof replay on real runs: tests/alltoall_ab.c's
# Alltoall A and B on 2 ranks, profiled with a --quick calibration.  The
# replay must take every send and receive row (one Isend or Irecv per
# row, matched: no receive left without its send), give each rank a
# positive time in its replayed calls, end no earlier than the time it
# spent outside them (kept as measured), predict no RTO without a tree calibration, and fail with
# one line on a bad model, a missing parameter file and a run without
# parameters.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
CAL="$top_builddir/commprof-calibrate"
[ -x "$CAL" ] || fail "no $CAL"
"$MPICC" -O1 -o "$T/ab" "$top_srcdir/tests/alltoall_ab.c" || fail "cc"

cp_mpirun 120 2 "$CAL" --quick -o "$T/c.params" >"$T/cal.out" 2>&1 ||
	fail "calibration: $(tail -n 5 "$T/cal.out")"

for alg in a b; do
	COMMPROF_PARAMS="$T/c.params" cp_run_preload 60 2 "$T/$alg" \
		-x COMMPROF_PARAMS "$T/ab" $alg 65536 20 >"$T/$alg.out" 2>&1 ||
		fail "alltoall $alg: $(cat "$T/$alg.out")"
	"$COMMPROF" replay "$T/$alg" >"$T/$alg.rp" 2>"$T/$alg.err" ||
		fail "replay $alg: status $?: $(cat "$T/$alg.err")"
	[ ! -s "$T/$alg.err" ] || fail "replay $alg stderr: $(cat "$T/$alg.err")"
	cat "$T/$alg.rp"
	rows=$("$COMMPROF" export "$T/$alg" --format csv |
		awk -F, 'NR > 1 && ($2 ~ /send|recv|Send|Recv/)' | wc -l)
	"$PYTHON3" - "$T/$alg.rp" "$rows" <<'PY' || fail "replay $alg output"
import sys
text = open(sys.argv[1]).read()
rows = int(sys.argv[2])
lines = [l.split("|") for l in text.splitlines() if l.count("|") == 3]
ranks = [l for l in lines if l[0].split() and l[0].split()[0].isdigit()]
allr = [l for l in lines if l[0].split() and l[0].split()[0] == "all"]
assert len(ranks) == 2 and len(allr) == 1, lines
msgs = [int(l[0].split()[-1]) for l in ranks]
# 20 calls x 1 step x (1 send + 1 receive) per rank
assert msgs == [40, 40] and sum(msgs) == rows, (msgs, rows)
for l in ranks + allr:
    m, p, mu, q, muq = (float(x) for x in l[1].split())
    assert m > 0 and p > 0 and mu >= 1, l
    em, ep, eq = (float(x) for x in l[2].split())
    # no RTO drawn: the replay without stalls is the same replay
    assert q == p and muq == mu and eq == ep, ("no RTO column", l)
    # the computation between calls is kept: at least the measured end
    # less the measured time in the calls, at most twice the end
    assert em - m <= ep * (1 + 1e-6) and ep <= 2 * em, ("end", em, ep, m)
    assert int(l[3]) == 0, ("RTO without d(h)", l)
assert "no matching send" not in text, text
print("ok: %d rows replayed" % rows)
PY
done

# a failed g(m) is left out of the table, and said: PlogPT's (measured
# both ends sending), or PLogP's in a file without the PlogPT section
sed 's/^plogpt\.g 1448 .*/fail plogpt.g 1448 : test/' \
	"$T/c.params" >"$T/f.params"
"$COMMPROF" replay "$T/a" --params "$T/f.params" >"$T/f.rp" 2>"$T/err" ||
	fail "replay with a failed g(1448): $(cat "$T/err")"
grep -q "^note: .*PlogPT's g(1448) test: left out" \
	"$T/f.rp" || fail "no note of the failed g(1448): $(cat "$T/f.rp")"
sed -e 's/^plogp\.g 64 .*/fail plogp.g 64 : negative derived value (noise)/' \
	-e '/^plogpt\./d' "$T/c.params" >"$T/f.params"
"$COMMPROF" replay "$T/a" --params "$T/f.params" >"$T/f.rp" 2>"$T/err" ||
	fail "replay with a failed g(64): $(cat "$T/err")"
grep -q "^note: .*PLogP's g([0-9]*) .*: left out" \
	"$T/f.rp" || fail "no note of the failed g(64): $(cat "$T/f.rp")"

"$COMMPROF" replay "$T/a" --model loggp >/dev/null 2>"$T/err"
expect_eq "bad model status" $? 2
expect_eq "bad model: one line" "$(wc -l <"$T/err")" 1
"$COMMPROF" replay "$T/a" --params "$T/none.params" >/dev/null 2>"$T/err"
expect_eq "missing params status" $? 1
expect_eq "missing params: one line" "$(wc -l <"$T/err")" 1
cp_run_preload 60 2 "$T/np" "$T/ab" a 1024 2 >/dev/null 2>&1 ||
	fail "run without params"
"$COMMPROF" replay "$T/np" >/dev/null 2>"$T/err"
expect_eq "no params status" $? 1
grep -q 'give --params FILE' "$T/err" || fail "no hint: $(cat "$T/err")"
note "alltoall A and B replayed; errors in one line"
