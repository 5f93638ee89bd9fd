#!/bin/sh
# test_finalize.sh - the job reduces itself at MPI_Finalize: examples/ring
# on 4 ranks with a quick calibration's predictions leaves
# commprof-reduced.db beside the rank files, the report says so and
# prints what the CLI prints of the same rank files reduced after the
# run (every section, every number, within 1e-9 of it: sums merged in
# another order, tests/report_same.py); the application's output is
# unchanged.  COMMPROF_FINALIZE_MS=0, a rank without a rank file and an
# MPI_Abort leave no reduced file, the same exit status and output, and
# the report says why; a bad COMMPROF_FINALIZE_MS costs one line.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
"$PYTHON3" -c 'import sqlite3' 2>/dev/null || skip "python3 without sqlite3"
CAL="$top_builddir/commprof-calibrate"
RING="$top_builddir/examples/ring"
R=commprof-reduced.db

cp_mpirun 300 2 "$CAL" --quick -o "$T/c.params" >"$T/cal.out" 2>&1 ||
	fail "calibration: $(tail -3 "$T/cal.out")"
cp_mpirun 60 4 "$RING" 300 >"$T/plain.out" 2>&1 || fail "ring"
cp_run_preload 60 4 "$T/o" -x COMMPROF_PARAMS="$T/c.params" "$RING" 300 \
	>"$T/prof.out" 2>"$T/prof.err" || fail "ring with commprof"
diff "$T/plain.out" "$T/prof.out" >&2 || fail "output changed"
[ -f "$(cp_run_of "$T/o")/$R" ] || fail "no $R: $(cat "$T/prof.err")"

# the same rank files, reduced by the CLI
mkdir "$T/off"
cp "$(cp_run_of "$T/o")"/rank-*.db "$T/off/"
"$COMMPROF" report "$T/o" --format json --top 5 >"$T/job.json" ||
	fail "report of the job's reduction"
"$COMMPROF" report "$T/off" --format json --top 5 >"$T/off.json" ||
	fail "report reduced after the run"
PYTHONPATH="$top_srcdir/tests" "$PYTHON3" - "$T/job.json" "$T/off.json" \
	"$(cp_run_of "$T/o")/$R" <<'PY' || exit 1
import json, sqlite3, sys
from report_same import differences
job, off = (json.load(open(p)) for p in sys.argv[1:3])
meta = dict(sqlite3.connect(sys.argv[3]).execute("SELECT key, value "
                                                 "FROM meta"))
assert meta["kind"] == "reduced" and meta["ranks"] == "4", meta
hj, ho = job.pop("header"), off.pop("header")
assert hj["reduced"] == "job" and ho["reduced"] == "offline", (hj, ho)
for k in ("reduced", "directory"):
    hj.pop(k)
    ho.pop(k)
assert hj == ho, "headers differ: %r %r" % (hj, ho)
diff = differences(job, off)
assert not diff, "sections differ: " + "; ".join(diff[:5])
acc = [a for a in job["accuracy"]["rows"] if a["group"] == "all"]
assert acc and hj["match_p2p_rows"] > 0 and hj["calls_compared"] > 0, hj
print("# job's reduction (%s ms) = the CLI's: %d models compared on %d "
      "message rows" % (meta["reduce_ms"], len(acc), hj["match_p2p_rows"]))
PY

# not reduced: COMMPROF_FINALIZE_MS=0, or a rank without its rank file
COMMPROF_FINALIZE_MS=0 cp_run_preload 60 2 "$T/z" -x COMMPROF_FINALIZE_MS \
	"$RING" 20 >"$T/z.out" 2>&1 || fail "ring, COMMPROF_FINALIZE_MS=0"
[ ! -e "$(cp_run_of "$T/z")/$R" ] || fail "$R with COMMPROF_FINALIZE_MS=0"
"$COMMPROF" report "$T/z" >"$T/z.txt" || fail "report of z"
grep -q '^not reduced inside the job: *COMMPROF_FINALIZE_MS=0$' "$T/z.txt" ||
	fail "no note: $(grep reduce "$T/z.txt")"
# rank 1 cannot write its directory (a file in the way stops root too):
# the other must not wait for it at MPI_Finalize
cp_mpirun 60 2 "$RING" 20 >"$T/plain2.out" 2>&1 || fail "ring on 2"
echo "in the way" >"$T/file"
# (rank 1's own COMMPROF_DIR: no MPMD line, which only Open MPI's
# launcher takes with -x)
cat >"$T/w.sh" <<EOF || fail "w.sh"
#!/bin/sh
[ "\${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-0}}" != 1 ] ||
	export COMMPROF_DIR="$T/file"
exec "$RING" 20
EOF
chmod +x "$T/w.sh" || fail "chmod"
cp_run_preload 60 2 "$T/w" "$T/w.sh" >"$T/w.out" 2>"$T/w.err" ||
	fail "ring, a rank without file: $?"
diff "$T/plain2.out" "$T/w.out" >&2 || fail "output changed"
expect_eq "a rank without file: warnings" "$(grep -c '^commprof:' \
	"$T/w.err")" 1
[ ! -e "$(cp_run_of "$T/w")/$R" ] || fail "$R without rank 1's file"
"$COMMPROF" report "$T/w" >"$T/w.txt" 2>/dev/null || fail "report of w"
grep -q '^not reduced inside the job: *a rank had no rank file' "$T/w.txt" ||
	fail "no note: $(grep reduce "$T/w.txt")"

# a value that does not parse: one line, the default (reduced)
COMMPROF_FINALIZE_MS=soon cp_run_preload 60 2 "$T/s" \
	-x COMMPROF_FINALIZE_MS "$RING" 20 >"$T/s.out" 2>"$T/s.err" ||
	fail "ring, COMMPROF_FINALIZE_MS=soon"
expect_eq "bad value: warning" "$(cat "$T/s.err")" "commprof: \
COMMPROF_FINALIZE_MS='soon' is not an integer from 0 to 3600000; using 10000"
[ -f "$(cp_run_of "$T/s")/$R" ] || fail "no $R with the default budget"

# MPI_Abort: no reduction, the note says why
"$MPICC" -O1 -o "$T/flush" "$top_srcdir/tests/test_flush.c" || fail "cc"
cp_run_preload 60 2 "$T/a" "$T/flush" abort 50 >/dev/null 2>&1
[ ! -e "$(cp_run_of "$T/a")/$R" ] || fail "$R after MPI_Abort"
"$COMMPROF" report "$T/a" >"$T/a.txt" 2>/dev/null || fail "report of a"
grep -q '^not reduced inside the job: *a rank did not reach MPI_Finalize$' \
	"$T/a.txt" || fail "abort note: $(grep reduce "$T/a.txt")"
note "COMMPROF_FINALIZE_MS=0, a rank without its file, MPI_Abort: not reduced"
