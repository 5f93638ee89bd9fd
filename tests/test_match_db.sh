#!/bin/sh
# test_match_db.sh - matching and mu end to end without MPI:
# tests/test_match_db writes two rank files with known times and
# predictions; the export must show exactly:
#   Send 0 -> 1 posted at 1000 ns, Recv posted at 500 ns, ending at
#   2000 ns: t_transfer 1000 ns, t_wait 500 ns, late sender, on both
#   rows; mu against the row's own predictions (200 -> 5, 50 -> 20,
#   4000 -> 4, 3000 -> 3; a 0 or missing prediction: no mu);
#   Bcast entries 3000 and 3100, exits 3200 and 3400: t_transfer 300 ns,
#   t_wait 100 ns, log3P 600 -> mu 2;
#   the MPI_PROC_NULL send is left, and the meta table says so.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

W="$top_builddir/tests/test_match_db"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
[ -x "$W" ] || fail "no $W"
mkdir "$T/d"
"$W" "$T/d" || fail "test_match_db could not write the rank files"
timeout 60 "$COMMPROF" export "$T/d" --format csv >"$T/csv" 2>"$T/err" ||
	fail "export failed: $(cat "$T/err")"
expect_eq "export stderr" "$(cat "$T/err")" ""
cut -d, -f1,2,20,22-34 "$T/csv" >"$T/got"
cat >"$T/want" <<'CSV'
rank,op,seq,pred_lmo,pred_log3p,pred_hockney,pred_loggp,pred_plogp,t_transfer,t_wait,late,mu_lmo,mu_log3p,mu_hockney,mu_loggp,mu_plogp
0,MPI_Send,0,0.000000200,,0.000000000,0.000000050,,0.000001000,0.000000500,sender,5,,,20,
0,MPI_Send,1,0.000000100,,,,,,,,,,,,
0,MPI_Bcast,2,,0.000000600,,,,0.000000300,0.000000100,,,2,,,
1,MPI_Recv,0,0.000004000,,,,0.000003000,0.000001000,0.000000500,sender,4,,,,3
1,MPI_Bcast,1,,0.000000600,,,,0.000000300,0.000000100,,,2,,,
CSV
diff -u "$T/want" "$T/got" >&2 || fail "export differs"
"$PYTHON3" - "$T/d/commprof.db" <<'PY' || fail "meta differs"
import sqlite3, sys
meta = dict(sqlite3.connect(sys.argv[1]).execute("SELECT key, value "
                                                 "FROM meta"))
want = {"matched": "1", "match_p2p_rows": "2", "match_coll_rows": "2",
        "match_p2p_left": "1", "match_coll_left": "0",
        "match_note": "1 message rows not transfers (MPI_PROC_NULL, not "
                      "completed, cancelled)"}
got = {k: meta.get(k) for k in want}
assert got == want, got
PY
exit 0
