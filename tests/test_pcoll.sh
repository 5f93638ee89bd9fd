#!/bin/sh
# test_pcoll.sh - persistent collectives, in the spelling the MPI has
# (MPI-4's MPI_<op>_init, Open MPI's MPIX_<op>_init): one row per Start,
# class coll, flagged persistent, with its bytes and root; the
# application's output and exit status are those it has without the
# library.  tests/test_pcoll.c on 2 ranks.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
"$MPICC" -g -O0 -o "$T/test_pcoll" "$top_srcdir/tests/test_pcoll.c" ||
	fail "cannot compile test_pcoll.c"
cp_mpirun 60 2 "$T/test_pcoll" >"$T/plain.out" 2>&1
plain=$?
cp_run_preload 60 2 "$T/out" "$T/test_pcoll" >"$T/pre.out" 2>&1
expect_eq "exit status with the library" "$?" "$plain"
expect_eq "output" "$(cat "$T/plain.out")" "test_pcoll: done"
expect_eq "output with the library" "$(cat "$T/pre.out")" \
	"$(cat "$T/plain.out")"
"$COMMPROF" export "$T/out" --format csv >"$T/rows.csv" ||
	fail "commprof export failed"
# the four made together: rank, op without its MPI_/MPIX_ prefix, root,
# bytes, flags (column 18); with how often
got=$(awk -F, 'NR > 1 && $2 ~ /(Barrier|Bcast|Reduce|Allreduce)_init$/ {
		sub(/^MPIX?_/, "", $2); print $1, $2, $4, $7, $18 }' \
	"$T/rows.csv" | sort | uniq -c | sed 's/^ *//')
want="3 0 Allreduce_init  56 persistent
3 0 Barrier_init  0 persistent
3 0 Bcast_init 0 24 persistent
3 0 Reduce_init 1 20 persistent
3 1 Allreduce_init  56 persistent
3 1 Barrier_init  0 persistent
3 1 Bcast_init 0 24 persistent
3 1 Reduce_init 1 20 persistent"
expect_eq "rows of the persistent collectives" "$got" "$want"
run=$(cp_run_of "$T/out")
cls=$("$PYTHON3" -c 'import sqlite3, sys
print(" ".join(sorted({c for (c,) in sqlite3.connect(sys.argv[1]).execute(
    "SELECT o.class FROM calls c JOIN ops o ON o.id = c.op"
    " WHERE o.name LIKE \"%_init\"")})))' "$run/rank-00000.db")
expect_eq "class" "$cls" "coll"
# every other one: 3 rows, each as its nonblocking form's one row (root,
# bytes, flags but persistent for nonblock); 18 of them
"$PYTHON3" - "$T/rows.csv" <<'PYEOF' || fail "rows of the persistent collectives differ from their nonblocking forms"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad, n = [], 0
for rank in ("0", "1"):
    mine = [r for r in rows if r["rank"] == rank]
    for op in sorted({re.sub(r"^MPIX?_", "", r["op"]) for r in mine
                      if r["op"].endswith("_init")}):
        if op in ("Barrier_init", "Bcast_init", "Reduce_init",
                  "Allreduce_init"):
            continue
        p = [(r["root"], r["bytes"], r["flags"].replace("persistent",
                                                         "nonblock"))
             for r in mine if re.sub(r"^MPIX?_", "", r["op"]) == op]
        i = [(r["root"], r["bytes"], r["flags"]) for r in mine
             if r["op"] == "MPI_I" + op[0].lower() + op[1:-5]]
        n += rank == "0"
        if len(p) != 3 or len(i) != 1 or set(p) != set(i):
            bad.append("rank %s %s: %s, nonblocking %s" % (rank, op, p, i))
if n != 18:
    bad.append("%d persistent collectives besides the four, want 18" % n)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
note "persistent collectives: a row per start"
