#!/bin/sh
# test_drops.sh - the aggregates keep every call under its callsite and
# peer when rows are dropped: tests/test_drops.c makes 5 calls a step
# from 5 callsites (a send to MPI_PROC_NULL, a Sendrecv with the other
# rank, an Isend to MPI_PROC_NULL and its Wait, an Allreduce) as fast as
# it can with COMMPROF_RING=1024, on 2 ranks; then 3 threads a rank make
# the 3 calls that wait for no other rank.  Rows must be dropped (else
# the test proves nothing), and each rank's aggregates must hold, per
# op, one callsite, its peer (the world rank; MPI_PROC_NULL; none) and
# every call: no call falls back to the "(unknown)" site.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
"$MPICC" -g -O0 -pthread -o "$T/drops" "$top_srcdir/tests/test_drops.c" ||
	fail "cannot compile test_drops.c"

for run in "1 100000" "3 100000"; do
	set -- $run
	nt=$1 n=$2
	d="$T/d$nt"
	out=$(COMMPROF_RING=1024 cp_run_preload 120 2 "$d" -x COMMPROF_RING \
		"$T/drops" "$nt" "$n" 2>"$T/err") ||
		fail "$nt threads: exited with status $?"
	[ "$out" != "no MPI_THREAD_MULTIPLE or not 2 ranks" ] ||
		skip "this MPI does not provide MPI_THREAD_MULTIPLE"
	expect_eq "$nt threads: stdout" "$out" "drops $nt $n errors 0"
	expect_eq "$nt threads: stderr" "$(cat "$T/err")" ""
	for r in 0 1; do
		f="$(cp_run_of "$d")/rank-0000$r.db"
		"$PYTHON3" - "$f" "$r" "$nt" "$n" <<'PY' ||
import sqlite3, sys
path, rank, nt, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    int(sys.argv[4])
c = sqlite3.connect(path)
meta = dict(c.execute("SELECT key, value FROM meta"))
dropped = int(meta.get("rows_dropped", 0))
groups = {}
for op, site, peer, calls in c.execute(
        "SELECT o.name, a.site, a.peer, sum(a.count) FROM aggs a "
        "JOIN ops o ON o.id = a.op GROUP BY o.name, a.site, a.peer"):
    groups.setdefault(op, []).append((site, peer, calls))
want = {"MPI_Send": (-2, nt * n), "MPI_Isend": (-2, nt * n),
        "MPI_Wait": (None, nt * n), "MPI_Reduce": (None, 1)}
if nt == 1:
    want.update({"MPI_Sendrecv": (1 - rank, n), "MPI_Allreduce": (None, n)})
bad = []
if dropped <= 0:
    bad.append("no row dropped: the test proves nothing")
for op, (peer, calls) in sorted(want.items()):
    got = groups.pop(op, [])
    if len(got) != 1 or not got[0][0] or got[0][1:] != (peer, calls):
        bad.append("%s: (site, peer, calls) %s, want one (site, %s, %d)" %
                   (op, got, peer, calls))
if groups:
    bad.append("other ops: %s" % groups)
print("# rank %d, %d thread(s): %d rows dropped, %d stored; every call "
      "under its callsite and peer" % (rank, nt, dropped, c.execute(
          "SELECT count(*) FROM calls").fetchone()[0]))
if bad:
    sys.exit("\n".join(bad))
PY
			fail "$nt threads, rank $r: aggregates incomplete"
	done
	calls=$("$COMMPROF" summary "$d" | sed -n 's/^calls: *//p')
	per=5
	[ "$nt" = 1 ] || per=3
	expect_eq "$nt threads: summary calls" "$calls" \
		$((2 * (per * nt * n + 1)))
done
note "rows dropped, every call in the aggregates under its site and peer"
