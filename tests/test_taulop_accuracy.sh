#!/bin/sh
# test_taulop_accuracy.sh - what a new user gets for collectives: a
# default calibration on 4 ranks of this host (bound to cores: below),
# then examples/colls (the
# eight collectives at 1500, 24000 and 200000 bytes per block, none on a
# calibration grid, every call after a barrier) profiled with its file;
# MPI_Allgatherv and MPI_Reduce_scatter of the same run are priced too.
# Over the 24 (operation, size) configurations, each measured by its
# calls' median t_transfer (last rank's exit minus last rank's entry)
# against their median prediction: tau-Lop predicts at least 20, and
# its mu_bar is below Hockney's and LogGP's over the same rounds and
# configurations.  Prints the table per configuration, tau-Lop's mu_bar
# against the target of 1.30, and the report's collective
# section; PLogP's g(m) of the same calibration fails at 2 sizes at
# most.  CP_TAULOP_TARGETS=1 asserts the target too, which 9 of 10 runs
# met on 4 ranks sharing 2 cores, bound; unbound profiles gave 1.25 to
# 1.44 (README "Collectives").  The same on a second profile at 5000,
# 60000 and 500000 bytes (below).  Then one
# more profile with MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_
# set: the page-fault rule reads them (prices only, no timing).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

CAL="$top_builddir/commprof-calibrate"
COLLS="$top_builddir/examples/colls"
[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
[ -x "$CAL" ] && [ -x "$COLLS" ] || fail "no $CAL or $COLLS"
[ "$CP_MPI" = openmpi ] ||
	skip "tau-Lop prices Open MPI's collectives, not $CP_MPI_TITLE's"
SIZES="1500 24000 200000"
SIZES2="5000 60000 500000"
# Ranks bound to cores, two to a core when there are fewer cores than
# ranks, for the calibration and every run.  Open MPI leaves more ranks
# than cores unbound, and on 2 cores the scheduler then moved the 4
# about so that the same call's median time changed up to 5-fold from
# run to run (Scatter of 24000 B: 5.6 to 28 us in six runs).  The
# measured times of one of those runs predicted another's with mu_bar
# 1.13 to 1.61 (mean 1.35 over the 30 pairs); bound, 1.06 to 1.20 (mean
# 1.13): no model can be judged on one unbound run.
BIND="--bind-to core:overload-allowed --map-by core"

cp_mpirun 300 4 $BIND "$COLLS" 20 $SIZES >"$T/plain.out" 2>"$T/plain.err" ||
	fail "colls without commprof: $(cat "$T/plain.err")"
# A calibration on a busy machine may fail a baseline's estimate, which
# leaves that model out of the run (its pred_models says which are in):
# take up to three.
for try in 1 2 3; do
	cp_mpirun 600 4 $BIND "$CAL" -o "$T/c.params" >"$T/cal.out" 2>&1 ||
		fail "calibration: $(tail -3 "$T/cal.out")"
	rm -rf "$T/d"
	cp_run_preload 300 4 "$T/d" $BIND -x COMMPROF_PARAMS="$T/c.params" \
		"$COLLS" 20 $SIZES >"$T/cp.out" 2>"$T/cp.err" ||
		fail "colls with commprof: $(cat "$T/cp.err")"
	got=$("$PYTHON3" -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT value FROM meta "
      "WHERE key = \x27pred_models\x27").fetchone()[0])' \
		"$(cp_run_of "$T/d")/rank-00000.db") ||
		fail "no pred_models in rank 0"
	case ,$got, in
	*,taulop,*) ;;
	*) fail "tau-Lop left out of the run: models $got" ;;
	esac
	case ,$got, in
	*,hockney,*) case ,$got, in *,loggp,*) break ;; esac ;;
	esac
	note "calibration $try: models $got; again"
done
# PLogP's g(m) at log3P's sizes: with the mean of the empty roundtrips
# beside the tables' 10% quantiles, L came out above the one-way time of
# every size to 4 KiB and g(m) failed at 14 sizes of 38
# (commprof-calibrate(1), step 7)
"$COMMPROF" params show "$T/c.params" >"$T/params.txt" || fail "params show"
gfail=$(grep -c '^plogp\.g .*failed' "$T/params.txt")
note "PLogP g(m): $gfail sizes failed of $(grep -c '^plogp\.g ' "$T/params.txt")"
[ "$gfail" -le 2 ] || fail "PLogP's g(m) failed at $gfail sizes"
expect_eq "colls: same output" "$(cat "$T/cp.out")" "$(cat "$T/plain.out")"
expect_eq "colls: stderr" "$(cat "$T/cp.err")" ""

# check_sizes DIR SIZES: the 24 configurations of the profile in DIR
# (examples/colls at SIZES), the table, the assertions and the report's
# collective section; its export in DIR.csv
check_sizes() {
	"$COMMPROF" export "$1" --format csv >"$1.csv" || fail "export"
	"$COMMPROF" report "$1" --format json >"$1.json" || fail "report"
	"$COMMPROF" report "$1" >"$1.txt" || fail "report (text)"
	note "examples/colls at $2 bytes per block"
	"$PYTHON3" "$top_srcdir/tests/coll_check.py" "$1.csv" "$1.json" \
		"$T/c.params" "$2" "${CP_TAULOP_TARGETS:-0}" ||
		{ cat "$T/cal.out"; fail "tau-Lop's collectives at $2"; }
	sed -n '/^9\. Collectives/,/^$/p' "$1.txt"
}
check_sizes "$T/d" "$SIZES"

# The same calibration on a second profile at other sizes, chosen after
# the rules of the model were set on the first: the same assertions,
# the target printed (and asserted by CP_TAULOP_TARGETS=1).  On
# 2026-12-01 it gave 1.483, 1.636 and 1.691: examples/colls refills its
# whole buffer (2 MB a rank here) before every call, which leaves the
# 5000-B calls out of the caches (README "Collectives").
rm -rf "$T/d2"
cp_run_preload 300 4 "$T/d2" $BIND -x COMMPROF_PARAMS="$T/c.params" \
	"$COLLS" 20 $SIZES2 >"$T/cp2.out" 2>"$T/cp2.err" ||
	fail "colls with commprof at $SIZES2: $(cat "$T/cp2.err")"
expect_eq "colls at $SIZES2: stderr" "$(cat "$T/cp2.err")" ""
check_sizes "$T/d2" "$SIZES2"

# The v forms (colls: rank r's block 2 (r + 1) / 5 of the size), outside
# the 24: each call is one time and one price on every rank, so rank 0's
# rows, by its block; tau-Lop must price every one, and its mu_bar over
# the 6 must be below Hockney's and LogGP's over the same rounds; the
# table is shown.
"$PYTHON3" - "$T/d.csv" <<'PY' || fail "the v forms' predictions"
import csv, statistics, sys
models = ("taulop", "hockney", "loggp")
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["op"] in ("MPI_Allgatherv", "MPI_Reduce_scatter") and
        r["rank"] == "0" and r["t_transfer"]]
bad, mus = [], {m: [] for m in models}
for op in ("MPI_Allgatherv", "MPI_Reduce_scatter"):
    for b in sorted({int(r["bytes"]) for r in rows if r["op"] == op}):
        c = [r for r in rows if r["op"] == op and int(r["bytes"]) == b]
        t = statistics.median(float(r["t_transfer"]) for r in c)
        out = []
        for m in models:
            v = [float(r["pred_" + m]) for r in c if r["pred_" + m]]
            if len(v) != len(c):
                out.append("%s -" % m)
                if m == "taulop":
                    bad.append("%s %d B: tau-Lop priced %d of %d calls" %
                               (op, b, len(v), len(c)))
                continue
            p = statistics.median(v)
            mu = max(t, p) / min(t, p)
            out.append("%s %.2f us mu %.3f" % (m, p * 1e6, mu))
            mus[m].append(mu)
        print("# %-18s rank 0's block %6d B, %d calls, t_med %.2f us: %s" %
              (op, b, len(c), t * 1e6, ", ".join(out)))
bar = {m: sum(v) / len(v) for m, v in mus.items() if len(v) == 6}
if "taulop" not in bar:
    bad.append("%d v configurations priced, want 6" % len(mus["taulop"]))
else:
    print("# v forms: mu_bar over 6: %s" % ", ".join(
          "%s %.3f" % (m, bar[m]) for m in models if m in bar))
    for m in models[1:]:
        if m in bar and not bar["taulop"] < bar[m]:
            bad.append("v forms: tau-Lop mu_bar %.3f not below %s's %.3f"
                       % (bar["taulop"], m, bar[m]))
for x in bad:
    print("FAIL:", x, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# The run's glibc settings reach the page-fault rule (MALLOC_*, read by
# the library at MPI_Init, README "Collectives"): with both thresholds
# at 16 MiB glibc neither maps nor trims scratch buffers of these sizes,
# no call faults in fresh pages, and tau-Lop's reduce-scatter at 200000
# B, whose price with glibc's defaults is mostly pages, is priced below
# half of it; MPI_Bcast's linear tree mallocs nothing and is priced
# the same.  Prices only, no timing.
cp_run_preload 300 4 "$T/m" -x COMMPROF_PARAMS="$T/c.params" \
	-x MALLOC_MMAP_THRESHOLD_=16777216 -x MALLOC_TRIM_THRESHOLD_=16777216 \
	"$COLLS" 20 $SIZES >"$T/m.out" 2>"$T/m.err" ||
	fail "colls with commprof and MALLOC_*: $(cat "$T/m.err")"
expect_eq "colls with MALLOC_*: same output" "$(cat "$T/m.out")" \
	"$(cat "$T/plain.out")"
"$COMMPROF" export "$T/m" --format csv >"$T/m.csv" || fail "export (MALLOC_*)"
"$PYTHON3" - "$T/d.csv" "$T/m.csv" <<'PY' || fail "MALLOC_* and tau-Lop's page faults"
import csv, statistics, sys


def pred(path, op, b):
    return statistics.median(float(r["pred_taulop"])
                             for r in csv.DictReader(open(path))
                             if r["op"] == op and int(r["bytes"]) == b
                             and r["pred_taulop"])


bad = []
for op, b, cmp in (("MPI_Reduce_scatter_block", 200000, "lower"),
                   ("MPI_Bcast", 200000, "same")):
    d, m = pred(sys.argv[1], op, b), pred(sys.argv[2], op, b)
    print("# %s %d B: tau-Lop %.2f us with glibc's defaults, %.2f us with "
          "MALLOC_* at 16 MiB" % (op, b, d * 1e6, m * 1e6))
    if cmp == "lower" and not m < 0.5 * d:
        bad.append("%s not priced lower under MALLOC_*" % op)
    if cmp == "same" and abs(m - d) > 1e-3 * d:
        bad.append("%s priced differently under MALLOC_*" % op)
for x in bad:
    print("FAIL:", x, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
