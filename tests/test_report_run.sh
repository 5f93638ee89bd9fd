#!/bin/sh
# test_report_run.sh - a real run of examples/ring on 2 ranks with the
# library preloaded and no COMMPROF_PARAMS: commprof report still works,
# says in one sentence that no predictions were made, and shows where the
# time went (ring.c callsites) in every format.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
app="$top_builddir/examples/ring"
[ -x "$app" ] || fail "no $app"
command -v "$PYTHON3" >/dev/null || skip "no $PYTHON3"

unset COMMPROF_PARAMS
cp_run_preload 60 2 "$T/run" "$app" >"$T/app.out" 2>&1 ||
	fail "ring failed: $(cat "$T/app.out")"
"$COMMPROF" report "$T/run" >"$T/r.text" 2>"$T/r.err" ||
	fail "report status $?: $(cat "$T/r.err")"
[ ! -s "$T/r.err" ] || fail "report stderr: $(cat "$T/r.err")"
grep -q '^predictions: *no predictions were made: ' "$T/r.text" ||
	fail "no 'no predictions were made' sentence: $(cat "$T/r.text")"
expect_eq "sections without predictions" \
	"$(grep -c '^  no predictions (see the header)$' "$T/r.text")" 3
grep -q '^ring\.c:[0-9]* ' "$T/r.text" ||
	fail "no ring.c callsite in section 2: $(cat "$T/r.text")"
"$COMMPROF" report "$T/run" --format json | "$PYTHON3" -c '
import json, sys
j = json.load(sys.stdin)
assert j["header"]["ranks"] == 2, j["header"]
assert j["header"]["rows_predicted"] == 0, j["header"]
assert j["header"]["pred_note"].startswith("no predictions were made")
assert any(s["site"].startswith("ring.c:") for s in j["sites"]["rows"])
' || fail "json report"
"$COMMPROF" report "$T/run" --format csv | "$PYTHON3" -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if r]
assert rows[0] == ["section", "key", "value"], rows[0]
assert any(r[0] == "sites" and r[1].startswith("ring.c:") for r in rows)
' || fail "csv report"
"$COMMPROF" report "$T/run" --format markdown >"$T/r.md" ||
	fail "markdown report"
grep -q '^| ring\.c:' "$T/r.md" || fail "markdown: no ring.c callsite"
note "a run without COMMPROF_PARAMS reports: $(grep '^predictions:' "$T/r.text")"
