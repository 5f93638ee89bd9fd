#!/bin/sh
# test_match.sh - the matching of sends with receives and of collective
# instances on a real run: tests/test_match.c makes 2 ranks wait for each
# other by a known sleep, and match_check.py checks in the export and
# the merged meta table that every message and collective row got
# t_transfer, the late side and a wait of about the sleep.  A run with
# COMMPROF_SAMPLE=2 must not be matched, and say why.
. "$(dirname "$0")/lib.sh"

SLEEP_S=0.060		# SLEEP_MS of test_match.c

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
"$PYTHON3" -c 'import sqlite3' 2>/dev/null ||
	skip "python3 without sqlite3"
"$MPICC" -g -O0 -o "$T/match" "$top_srcdir/tests/test_match.c" ||
	fail "cannot compile test_match.c"

out=$(cp_run_preload 60 2 "$T/out" "$T/match") ||
	fail "test_match exited with status $?"
expect_eq "stdout" "$out" "test_match: done"
"$COMMPROF" export "$T/out" --format csv >"$T/calls.csv" 2>"$T/err" ||
	fail "commprof export failed: $(cat "$T/err")"
expect_eq "export stderr" "$(cat "$T/err")" ""
"$PYTHON3" "$top_srcdir/tests/match_check.py" "$T/calls.csv" \
	"$(cp_run_of "$T/out")/commprof.db" "$SLEEP_S" || fail "matching differs"

# one row in two kept: pairs would be wrong, so nothing is matched
out=$(COMMPROF_SAMPLE=2 cp_run_preload 60 2 "$T/s" -x COMMPROF_SAMPLE \
	"$T/match") || fail "sampled test_match exited with status $?"
"$COMMPROF" export "$T/s" --format csv >"$T/s.csv" 2>"$T/err" ||
	fail "commprof export (sampled) failed: $(cat "$T/err")"
expect_eq "sampled export stderr" "$(cat "$T/err")" ""
"$PYTHON3" - "$(cp_run_of "$T/s")/commprof.db" "$T/s.csv" <<'PY' || fail "sampled run"
import csv, sqlite3, sys
meta = dict(sqlite3.connect(sys.argv[1]).execute("SELECT key, value "
                                                 "FROM meta"))
note = meta.get("match_note", "")
assert meta.get("matched") == "0", meta
assert note.startswith("not matched: ") and "COMMPROF_SAMPLE" in note, note
assert int(note.split()[2]) > 0, note
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows and all(r["t_transfer"] == "" for r in rows), "matched rows"
PY
exit 0
