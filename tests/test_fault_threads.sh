#!/bin/sh
# test_fault_threads.sh - MPI_THREAD_MULTIPLE: 2 ranks, 4 threads each
# making N MPI_Sendrecv (tag 100 + thread) and N MPI_Allreduce (on the
# thread's own dup'ed communicator) at the same time.  Every call is
# counted exactly once: per op in the summary, and per rank, op and
# thread in the exported rows, with no row dropped and no (rank, thread,
# seq) twice.  The app prints the same as without the preload.  MPI time
# is summed over each rank's threads, so summary and report give its
# share of app time x threads (at most 100%) and name the thread count.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/fault_lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
fault_cc test_fault_threads -pthread
nt=4 n=300

want=$(cp_mpirun 60 2 "$T/test_fault_threads" $nt $n 2>"$T/base.err")
want_rc=$?
expect_eq "status without preload" "$want_rc" 0
[ "$want" != "no MPI_THREAD_MULTIPLE" ] ||
	skip "this MPI does not provide MPI_THREAD_MULTIPLE"
expect_eq "stdout without preload" "$want" "threads $nt calls $n errors 0"
got=$(cp_run_preload 60 2 "$T/d" "$T/test_fault_threads" $nt $n \
	2>"$T/err")
got_rc=$?
expect_eq "status" "$got_rc" "$want_rc"
expect_eq "stdout" "$got" "$want"
expect_eq "commprof lines" "$(cp_lines "$T/err")" 0

summary_ok "$T/d"
calls=$((2 * nt * n))
expect_eq "summary: MPI_Sendrecv calls" "$(op_calls "$T/d" MPI_Sendrecv)" \
	$calls
expect_eq "summary: MPI_Allreduce calls" \
	"$(op_calls "$T/d" MPI_Allreduce)" $calls
grep -q '^call rows: *[0-9]* stored, 0 dropped' "$T/summary.txt" ||
	fail "rows dropped: $(grep '^call rows' "$T/summary.txt")"

# the nt workers and the main thread (its final Reduce) made MPI calls
th=$((nt + 1))
grep -qx "threads: *$th per rank made MPI calls; MPI time is summed over them" \
	"$T/summary.txt" || fail "summary names no $th threads: $(head -6 \
	"$T/summary.txt")"
pct=$(sed -n 's/^MPI time: .*(\([0-9.]*\)% of app time x threads)$/\1/p' \
	"$T/summary.txt")
[ -n "$pct" ] || fail "no share of app time x threads: $(grep '^MPI time' \
	"$T/summary.txt")"
grep -E '^(threads|MPI time):' "$T/summary.txt" | sed 's/^/# /'
awk -v p="$pct" 'BEGIN { exit !(p <= 100) }' ||
	fail "summary: MPI share $pct% of app time x threads"
"$COMMPROF" report "$T/d" > "$T/report.txt" || fail "commprof report failed"
grep -q "^MPI share of app time x threads: *$pct %\$" "$T/report.txt" ||
	fail "report share: $(grep '^MPI share' "$T/report.txt")"
"$COMMPROF" report "$T/d" --format json | "$PYTHON3" -c '
import json, sys
h, th = json.load(sys.stdin)["header"], int(sys.argv[1])
assert (h["threads_max"], h["threads_min"]) == (th, th), h
assert abs(h["thread_time"] - th * h["app_time"]) <= 1e-9 * th, h
assert 0 <= h["mpi_share_pct"] <= 100, h
' $th || fail "report json header"

"$COMMPROF" export "$T/d" --format csv > "$T/calls.csv" ||
	fail "commprof export failed"
"$PYTHON3" - "$T/calls.csv" $nt $n <<'PYEOF' || fail "rows differ"
import collections, csv, sys
path, nt, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = list(csv.DictReader(open(path)))
bad = 0
def check(what, got, want):
    global bad
    if got != want:
        print("%s: got %s, want %s" % (what, got, want))
        bad = 1
seen = collections.Counter((r["rank"], r["thread"], r["seq"]) for r in rows)
check("(rank, thread, seq) twice", [k for k, c in seen.items() if c > 1], [])
for rank in "01":
    mine = [r for r in rows if r["rank"] == rank]
    # each thread: its Sendrecv (a send and a receive half, its own tag)
    # and its Allreduce, n of each; the main thread: the final Reduce
    by = collections.Counter((r["op"], r["tag"], r["flags"], r["thread"])
                             for r in mine if r["op"] != "MPI_Reduce")
    threads = sorted({r["thread"] for r in mine if r["op"] != "MPI_Reduce"})
    check("rank %s: threads" % rank, len(threads), nt)
    per = collections.defaultdict(collections.Counter)
    for (op, tag, flags, th), c in by.items():
        per[th][(op, tag, "half" in flags)] += c
    tags = set()
    for th in threads:
        got = per[th]
        sr = [k for k in got if k[0] == "MPI_Sendrecv"]
        check("rank %s thread %s: Sendrecv tags" % (rank, th),
              len({k[1] for k in sr}), 1)
        tag = sr[0][1] if sr else "?"
        tags.add(tag)
        check("rank %s thread %s: rows" % (rank, th), dict(got), {
            ("MPI_Sendrecv", tag, False): n,
            ("MPI_Sendrecv", tag, True): n,
            ("MPI_Allreduce", "", False): n})
    check("rank %s: tags" % rank, sorted(tags),
          sorted(str(100 + t) for t in range(nt)))
    check("rank %s: other ops" % rank,
          sorted({r["op"] for r in mine}),
          ["MPI_Allreduce", "MPI_Reduce", "MPI_Sendrecv"])
sys.exit(bad)
PYEOF
note "$nt threads x $n calls x 2 ops on 2 ranks: each counted once"
