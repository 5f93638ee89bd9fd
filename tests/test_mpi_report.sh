#!/bin/sh
# test_mpi_report.sh - "mpirun -np K commprof report DIR": commprof hands
# itself over to commprof-mpi, whose K ranks reduce the run (a share of
# the rank files and of the messages each) and whose rank 0 then prints
# what commprof alone prints of the same rank files: a run of 4 ranks
# with predictions, replicated into 12 (bench/replicate), on 3 ranks,
# every section and number the same (within 1e-9: sums merged in
# another order, tests/report_same.py); summary on 2 ranks prints once,
# of the latest run when given an output directory.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -x "$top_builddir/commprof-mpi" ] || fail "no commprof-mpi"
"$PYTHON3" -c 'import sqlite3' 2>/dev/null || skip "python3 without sqlite3"
CAL="$top_builddir/commprof-calibrate"
RING="$top_builddir/examples/ring"

cp_mpirun 300 2 "$CAL" --quick -o "$T/c.params" >"$T/cal.out" 2>&1 ||
	fail "calibration: $(tail -3 "$T/cal.out")"
COMMPROF_FINALIZE_MS=0 cp_run_preload 60 4 "$T/r4" \
	-x COMMPROF_PARAMS="$T/c.params" -x COMMPROF_FINALIZE_MS \
	"$RING" 100 >/dev/null 2>&1 || fail "ring with commprof"
"$PYTHON3" "$top_srcdir/bench/replicate" "$(cp_run_of "$T/r4")" "$T/a" 12 ||
	fail "replicate"
cp -r "$T/a" "$T/b"
cp -r "$T/r4" "$T/r4b"
cp -r "$T/a" "$T/c"
cp_mpirun 120 3 "$COMMPROF" report "$T/a" --format json --top 3 \
	>"$T/mpi.json" 2>"$T/mpi.err" || fail "mpirun commprof report: $?"
[ ! -s "$T/mpi.err" ] || fail "mpirun commprof report: $(cat "$T/mpi.err")"
"$COMMPROF" report "$T/b" --format json --top 3 >"$T/one.json" ||
	fail "commprof report"
PYTHONPATH="$top_srcdir/tests" "$PYTHON3" - "$T/mpi.json" "$T/one.json" \
	"$T/a/commprof-reduced.db" <<'PY' || exit 1
import json, sqlite3, sys
from report_same import differences
mpi, one = (json.load(open(p)) for p in sys.argv[1:3])
meta = dict(sqlite3.connect(sys.argv[3]).execute("SELECT key, value "
                                                 "FROM meta"))
assert meta["reduced_by"] == "commprof-mpi" and meta["reduce_ranks"] == "3" \
    and meta["ranks"] == "12", meta
hm, ho = mpi.pop("header"), one.pop("header")
assert hm["reduced"] == "commprof-mpi" and ho["reduced"] == "offline", \
    (hm["reduced"], ho["reduced"])
for k in ("reduced", "directory"):
    hm.pop(k)
    ho.pop(k)
assert hm == ho, "headers differ: %r %r" % (hm, ho)
diff = differences(mpi, one)
assert not diff, "sections differ: " + "; ".join(diff[:5])
assert hm["ranks"] == 12 and hm["match_p2p_rows"] > 0, hm
print("# 12 ranks on 3 MPI ranks = on one process: %d message rows "
      "matched" % hm["match_p2p_rows"])
PY
cp_mpirun 120 2 "$COMMPROF" summary "$T/c" >"$T/sum.mpi" 2>&1 ||
	fail "mpirun commprof summary"
"$COMMPROF" summary "$T/b" >"$T/sum.one" || fail "commprof summary"
expect_eq "summary on 2 ranks" "$(sed 1d "$T/sum.mpi")" \
	"$(sed 1d "$T/sum.one")"

# an output directory: its latest run is the one reduced
cp_mpirun 120 2 "$COMMPROF" summary "$T/r4" >"$T/r4.mpi" 2>&1 ||
	fail "mpirun commprof summary of an output directory"
[ -f "$(cp_run_of "$T/r4")/commprof-reduced.db" ] ||
	fail "commprof-mpi did not reduce the latest run"
"$COMMPROF" summary "$T/r4b" >"$T/r4.one" || fail "commprof summary"
expect_eq "summary of the latest run on 2 ranks" "$(sed 1d "$T/r4.mpi")" \
	"$(sed 1d "$T/r4.one")"
