#!/bin/sh
# test_taulop_run.sh - tau-Lop inside real runs, from a hand-written
# parameter file whose tables are linear in size and in tau (so that
# every prediction is exact): the concurrency of messages as the library
# sees it (tests/test_tau.c: a ping-pong prices tau 1, a halo exchange's
# Irecv + Send and a Sendrecv tau 2) and the quiet gap before a message
# (an exchange 20 ms after the last call pays the gap table's price for
# it), and examples/colls on 4 ranks: the
# algorithm Open MPI 4.1 picks for each collective and size, shown by
# the report, every collective predicted; then the same run with a
# broadcast algorithm forced through the MCA, which the library reads
# and the report follows.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
COLLS="$top_builddir/examples/colls"
[ -x "$COLLS" ] || fail "no $COLLS"
"$MPICC" -O1 -o "$T/tau" "$top_srcdir/tests/test_tau.c" ||
	fail "cannot build test_tau"

# o(m) = 0.1 us, L(m, tau) = tau (1 us + m ns), reductions 0.01 ns/B
{
	cat <<'END'
commprof-params 2
mpi_library test
date 2026-11-24T00:00:00Z
hosts 1 h
rankmap 4 0 0 0 0
nranks 4
lmo.regimes 1 0
log3p.sizes 0
plogp.sizes 0
END
	for r in 0 1 2 3; do
		echo "lmo.C 0 $r 1e-06 lo 1e-06 hi 1e-06 n 5"
		echo "lmo.t 0 $r 0 lo 0 hi 0 n 5"
	done
	for p in "0 1" "0 2" "0 3" "1 2" "1 3" "2 3"; do
		echo "lmo.beta 0 $p 1e+09 lo 1e+09 hi 1e+09 n 5"
		echo "lmo.Csum 0 $p 2e-06 lo 2e-06 hi 2e-06 n 5"
		echo "lmo.tsum 0 $p 1e-09 lo 1e-09 hi 1e-09 n 5"
	done
	echo "taulop.sizes 0 4 0 1000 100000 1000000"
	echo "taulop.taus 0 6 1 2 3 4 8 12"
	echo "taulop.ranks 0 4"
	for m in 0 1000 100000 1000000; do
		echo "taulop.o 0 $m 1e-07 lo 1e-07 hi 1e-07 n 11"
		for t in 1 2 3 4 8 12; do
			v=$(awk -v m=$m -v t=$t 'BEGIN { printf "%.9g",
				t * (1e-6 + m * 1e-9) }')
			echo "taulop.L 0 $m $t $v lo $v hi $v n 11"
		done
	done
	echo "taulop.red 1e-11 lo 1e-11 hi 1e-11 n 5"
	echo "end"
} >"$T/t.params"

# tau_run NAME PARAMS: test_tau profiled into $T/NAME, exported to
# $T/NAME.csv
tau_run() {
	cp_mpirun 60 2 -x LD_PRELOAD="$CP_PRELOAD" -x COMMPROF_DIR="$T/$1" \
		-x COMMPROF_PARAMS="$2" "$T/tau" >"$T/$1.out" \
		2>"$T/$1.err" || fail "test_tau: $(cat "$T/$1.err")"
	"$COMMPROF" export "$T/$1" --format csv >"$T/$1.csv" ||
		fail "export"
}

# --- tau of point-to-point messages ---
tau_run p "$T/t.params"
# tau 1: 0.1 + 2 (1 + 1) us; tau 2: 0.1 + 2 * 2 (1 + 1) us
"$PYTHON3" - "$T/p.csv" <<'PY' || fail "tau of the messages"
import csv, sys
want = {"1": 4100.0, "2": 8100.0, "3": 8100.0, "4": 8100.0}
bad = []
n = 0
for r in csv.DictReader(open(sys.argv[1])):
    if r["tag"] not in want:
        continue
    n += 1
    got = float(r["pred_taulop"]) * 1e9
    if abs(got - want[r["tag"]]) > 1e-6 * want[r["tag"]]:
        bad.append("%s tag %s rank %s: %.3f ns, want %.1f" % (
            r["op"], r["tag"], r["rank"], got, want[r["tag"]]))
print("\n".join(bad))
sys.exit(1 if bad or n != 16 else 0)
PY

# --- the quiet gap before a message ---
# the same file with a gap table: 1 us more after 1 ms outside MPI, 50
# us after 10 ms or more.  Tag 4's exchange, 20 ms after the Sendrecv
# on both ranks, pays 50 us, its Send too (a post is no call that ends a
# gap); the others, a few us after their last call, at most 1 us.
{
	sed '/^end$/d' "$T/t.params"
	echo "taulop.gaps 0 2 0.001 0.01"
	for m in 0 1000 100000 1000000; do
		echo "taulop.Lg 0 $m 0.001 1e-06 lo 1e-06 hi 1e-06 n 11"
		echo "taulop.Lg 0 $m 0.01 5e-05 lo 5e-05 hi 5e-05 n 11"
	done
	echo "end"
} >"$T/g.params"
tau_run g "$T/g.params"
"$PYTHON3" - "$T/g.csv" <<'PY' || fail "the messages' quiet gaps"
import csv, sys
base = {"1": 4100.0, "2": 8100.0, "3": 8100.0, "4": 8100.0}
bad = []
n = 0
for r in csv.DictReader(open(sys.argv[1])):
    if r["tag"] not in base:
        continue
    n += 1
    got = float(r["pred_taulop"]) * 1e9 - base[r["tag"]]
    ok = abs(got - 50000) < 0.05 if r["tag"] == "4" else -0.05 < got <= 1000
    print("# %s tag %s rank %s: the gap added %.1f ns" % (
        r["op"], r["tag"], r["rank"], got))
    if not ok:
        bad.append("%s tag %s rank %s: the gap added %.3f ns" % (
            r["op"], r["tag"], r["rank"], got))
print("\n".join("FAIL: " + b for b in bad))
sys.exit(1 if bad or n != 16 else 0)
PY

# --- the collectives: algorithms, every call priced ---
# (the schedules are Open MPI's: under another MPI nothing is priced
# over rounds)
if [ "$CP_MPI" != openmpi ]; then
	note "tau 1 and 2 priced; collectives: Open MPI's only"
	exit 0
fi
cp_run_preload 120 4 "$T/c" -x COMMPROF_PARAMS="$T/t.params" "$COLLS" 3 \
	1500 24000 >"$T/c.out" 2>"$T/c.err" || fail "colls: $(cat "$T/c.err")"
"$COMMPROF" report "$T/c" --format json >"$T/c.json" || fail "report"
# The collective sections come from the reduction: the first report
# merged no call row; after export merged them, and from the rows alone
# (the merge without its reduction), the sections are the same.
CDB="$(cp_run_of "$T/c")/commprof.db"
merged() {
	"$PYTHON3" -c '
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
print(d.execute("SELECT value FROM meta WHERE key = \x27rows_merged\x27")
      .fetchone()[0], d.execute("SELECT count(*) FROM calls").fetchone()[0])
' "$CDB"
}
sections() {
	"$PYTHON3" -c '
import json, sys
j = json.load(open(sys.argv[1]))
r = lambda v: float("%.6g" % v) if isinstance(v, float) else v
for t in ("collectives", "coll_worst"):
    rows = j[t]["rows"]
    if not rows:
        sys.exit("no %s rows" % t)
    for row in rows:
        print(t, json.dumps({k: r(v) for k, v in sorted(row.items())}))
' "$1"
}
expect_eq "first report: rows_merged, call rows" "$(merged)" "0 0"
sections "$T/c.json" >"$T/c.first" || fail "collective sections"
"$COMMPROF" export "$T/c" --format csv >/dev/null || fail "export"
case $(merged) in
"1 0"|"0 "*) fail "export merged no rows: $(merged)" ;;
esac
"$COMMPROF" report "$T/c" --format json >"$T/c2.json" || fail "report 2"
sections "$T/c2.json" >"$T/c.merged" || fail "sections after export"
diff -u "$T/c.first" "$T/c.merged" >&2 ||
	fail "collective sections differ once the rows are merged"
"$PYTHON3" -c '
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.execute("DELETE FROM meta WHERE key = \x27reduced\x27")
d.commit()' "$CDB" || fail "dropping the reduction"
"$COMMPROF" report "$T/c" --format json >"$T/c3.json" || fail "report 3"
sections "$T/c3.json" >"$T/c.rows" || fail "sections from rows"
diff -u "$T/c.first" "$T/c.rows" >&2 ||
	fail "collective sections from the rows differ from the reduction's"
# a reduction written before red_coll_worst: read, no worst calls
cp -r "$(cp_run_of "$T/c")" "$T/old"
rm -f "$T/old/commprof.db"
"$PYTHON3" -c '
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.execute("DROP TABLE red_coll_worst")
d.commit()' "$T/old/commprof-reduced.db" || fail "dropping red_coll_worst"
"$COMMPROF" report "$T/old" --format json >"$T/old.json" ||
	fail "report of a reduction without red_coll_worst"
"$PYTHON3" -c '
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(0 if j["collectives"]["rows"] and not j["coll_worst"]["rows"]
         and j["header"]["reduced"] == "job" else
         "collectives %d, coll_worst %d, reduced %r" % (
             len(j["collectives"]["rows"]), len(j["coll_worst"]["rows"]),
             j["header"]["reduced"]))' "$T/old.json" ||
	fail "a reduction without red_coll_worst"
# groups FILE: the (op, size, algorithm) groups of tau-Lop in the
# report, less the barriers and colls' closing 4-byte allreduce
groups() {
	"$PYTHON3" -c '
import json, sys
for c in json.load(open(sys.argv[1]))["collectives"]["rows"]:
    if c["model"] == "taulop" and c["op"] != "MPI_Barrier" and \
            c["size"] != "4-8 B" and \
            c["op"] not in ("MPI_Allgatherv", "MPI_Reduce_scatter"):
        print(c["op"], c["size"], c["algorithm"], c["rows"])' "$1"
}
groups "$T/c.json" >"$T/got"
cat >"$T/want" <<'END'
MPI_Bcast 1-2 KiB binary_tree 12
MPI_Bcast 16-32 KiB basic_linear 12
MPI_Reduce 1-2 KiB binary 12
MPI_Reduce 16-32 KiB chain 12
MPI_Allreduce 1-2 KiB recursive_doubling 12
MPI_Allreduce 16-32 KiB rabenseifner 12
MPI_Allgather 1-2 KiB recursive_doubling 12
MPI_Allgather 16-32 KiB recursive_doubling 12
MPI_Alltoall 1-2 KiB linear_sync 12
MPI_Alltoall 16-32 KiB linear_sync 12
MPI_Gather 1-2 KiB basic_linear 12
MPI_Gather 16-32 KiB binomial 12
MPI_Scatter 1-2 KiB binomial 12
MPI_Scatter 16-32 KiB basic_linear 12
MPI_Reduce_scatter_block 1-2 KiB recursive_halving 12
MPI_Reduce_scatter_block 16-32 KiB recursive_halving 12
END
diff -u "$T/want" "$T/got" >&2 ||
	fail "algorithms or tau-Lop rows differ from Open MPI 4.1's rules"

# --- the rows hold the algorithm the library decided, with or without
# a parameter file: the same run without one, row by row (rank, seq),
# every collective row of colls (the v forms too) has one, and it is the
# one the priced run stored and the report showed ---
cp_run_preload 120 4 "$T/n" "$COLLS" 3 1500 24000 >"$T/n.out" \
	2>"$T/n.err" || fail "colls without parameters: $(cat "$T/n.err")"
"$COMMPROF" export "$T/n" --format csv >"$T/n.csv" ||
	fail "export (no parameters)"
"$COMMPROF" export "$T/c" --format csv >"$T/c0.csv" || fail "export"
anote=$("$PYTHON3" - "$T/c0.csv" "$T/n.csv" <<'PY'
import csv, sys
colls = ("MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce",
         "MPI_Allgather", "MPI_Alltoall", "MPI_Gather", "MPI_Scatter",
         "MPI_Reduce_scatter_block", "MPI_Allgatherv", "MPI_Reduce_scatter")
def algs(path):
    return {(r["rank"], r["seq"]): (r["op"], r["algorithm"])
            for r in csv.DictReader(open(path)) if r["op"] in colls}
a, b = algs(sys.argv[1]), algs(sys.argv[2])
bad = sorted(k for k in a if not a[k][1])
if bad:
    sys.exit("collective rows without an algorithm: %s" % bad[:5])
if a != b:
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    sys.exit("rows differ without parameters: %s" %
             [(k, a.get(k), b.get(k)) for k in diff[:5]])
print("%d collective rows" % len(a))
PY
) || fail "the rows' algorithms"
note "algorithm in every row, the same without a parameter file: $anote"

# --- the v forms: every rank's blocks reach the price.  colls gives
# rank r 2 (r + 1) / 5 of the size, so the ranks' rows differ in bytes;
# a price from its own block alone would differ by rank, the call's
# price from all blocks is the same on every rank ---
"$COMMPROF" export "$T/c" --format csv >"$T/c.csv" || fail "export (v)"
vnote=$("$PYTHON3" - "$T/c.csv" <<'PY'
import csv, sys
rows = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["op"] in ("MPI_Allgatherv", "MPI_Reduce_scatter"):
        rows.setdefault((r["op"], int(r["rank"])), []).append(r)
bad, said = [], []
for op in ("MPI_Allgatherv", "MPI_Reduce_scatter"):
    per = [sorted(rows.get((op, k), []), key=lambda r: int(r["seq"]))
           for k in range(4)]
    if {len(x) for x in per} != {6}:
        bad.append("%s: %s rows per rank, want 6" %
                   (op, [len(x) for x in per]))
        continue
    for i in range(6):
        call = [x[i] for x in per]
        price = {r["pred_taulop"] for r in call}
        sizes = {r["bytes"] for r in call}
        if len(sizes) != 4:
            bad.append("%s call %d: blocks %s, want 4 sizes" %
                       (op, i, sorted(sizes)))
        if "" in price or len(price) != 1:
            bad.append("%s call %d (blocks %s B): tau-Lop %s" %
                       (op, i, sorted(sizes, key=int), sorted(price)))
    said.append("%s %.2f/%.2f us" % (op, float(per[0][0]["pred_taulop"]) *
                                     1e6, float(per[0][3]["pred_taulop"]) *
                                     1e6))
for b in bad:
    print("FAIL:", b, file=sys.stderr)
print("; ".join(said))
sys.exit(1 if bad else 0)
PY
) || fail "allgatherv and reduce_scatter not priced from all blocks"
note "v forms priced the same on every rank (1500/24000 B): $vnote"

# --- an operation that does not commute: Open MPI 4.1's coll/tuned
# decides by other rules (coll_tuned_decision_fixed.c, 4 ranks: allreduce
# recursive doubling, reduce linear, reduce_scatter_block basic linear,
# reduce_scatter non-overlapping); the rows flag it and follow, and a
# new commuting operation after MPI_Op_free is not taken for the freed ---
"$MPICC" -O1 -o "$T/nc" "$top_srcdir/tests/test_noncommute.c" ||
	fail "cannot build test_noncommute"
cp_run_preload 120 4 "$T/n" -x COMMPROF_PARAMS="$T/t.params" "$T/nc" \
	>"$T/nc.out" 2>"$T/nc.err" || fail "noncommute: $(cat "$T/nc.err")"
"$COMMPROF" export "$T/n" --format csv >"$T/nc.csv" || fail "export"
ncnote=$("$PYTHON3" - "$T/nc.csv" <<'PY'
import csv, sys
want = {"MPI_Allreduce": "recursive_doubling", "MPI_Reduce": "linear",
        "MPI_Reduce_scatter_block": "basic_linear",
        "MPI_Reduce_scatter": "non-overlapping"}
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["op"] in want]
bad, said = [], []
for op, alg in sorted(want.items()):
    for rank in range(4):
        rs = sorted((r for r in rows if r["op"] == op and
                     int(r["rank"]) == rank), key=lambda r: int(r["seq"]))
        nwant = 3 if op == "MPI_Allreduce" else 2
        if len(rs) != nwant:
            bad.append("%s rank %d: %d rows, not %d" % (op, rank, len(rs),
                                                      nwant))
            continue
        c, n = rs[:2]
        nc = ["noncommute" in r["flags"].split("|") for r in rs]
        if nc != [False, True, False][:nwant]:
            bad.append("%s rank %d: noncommute %s, want %s" % (op, rank,
                       nc, [False, True, False][:nwant]))
        if nwant == 3 and rs[2]["algorithm"] != c["algorithm"]:
            bad.append("%s rank %d: a new commuting op after the free: %r"
                       % (op, rank, rs[2]["algorithm"]))
        if n["algorithm"] != alg or c["algorithm"] in ("", alg):
            bad.append("%s rank %d: commuting %r, not commuting %r "
                       "(want another, then %r)" % (op, rank,
                       c["algorithm"], n["algorithm"], alg))
        if not n["pred_taulop"]:
            bad.append("%s rank %d: not priced" % (op, rank))
    said.append("%s %s -> %s" % (op[4:], c["algorithm"], n["algorithm"]))
for b in bad:
    print("FAIL:", b, file=sys.stderr)
print(", ".join(said))
sys.exit(1 if bad else 0)
PY
) || fail "reductions by an operation that does not commute"
note "not commuting: $ncnote"

# --- a broadcast algorithm forced: the library reads it, the report
# follows ---
cp_run_preload 120 4 "$T/f" -x COMMPROF_PARAMS="$T/t.params" \
	--mca coll_tuned_use_dynamic_rules 1 \
	--mca coll_tuned_bcast_algorithm 6 "$COLLS" 3 1500 24000 \
	>"$T/f.out" 2>"$T/f.err" || fail "colls forced: $(cat "$T/f.err")"
"$COMMPROF" report "$T/f" --format json >"$T/f.json" || fail "report"
groups "$T/f.json" | grep '^MPI_Bcast' >"$T/got"
printf '%s\n' "MPI_Bcast 1-2 KiB binomial 12" \
	"MPI_Bcast 16-32 KiB binomial 12" >"$T/want"
diff -u "$T/want" "$T/got" >&2 || fail "forced bcast not followed"
mca=$("$PYTHON3" -c '
import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT value FROM rank_meta "
      "WHERE rank = 0 AND key = \x27coll_mca\x27").fetchone()[0])' \
	"$(cp_run_of "$T/f")/commprof.db") || fail "no coll_mca"
case $mca in
*"dynamic=1"*"bcast=6,"*) ;;
*) fail "coll_mca '$mca' does not hold the forced bcast" ;;
esac
note "tau 1 and 2 priced; 16 (operation, size) groups as Open MPI 4.1" \
	"decides; forced: $mca"
