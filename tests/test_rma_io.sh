#!/bin/sh
# test_rma_io.sh - one-sided and file calls are rows of their own classes
# (rma, io) with their bytes, target world rank and callsite, never
# matched as messages; MPI_Pcontrol(0) stops keeping rows, not counting
# calls; the application's output and exit status are those it has
# without the library.  tests/test_rma_io.c on 2 ranks.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
src="$top_srcdir/tests/test_rma_io.c"
"$MPICC" -g -O0 -o "$T/test_rma_io" "$src" || fail "cannot compile"

cp_mpirun 60 2 "$T/test_rma_io" "$T/plain.dat" >"$T/plain.out" 2>&1
plain=$?
cp_run_preload 60 2 "$T/out" "$T/test_rma_io" "$T/pre.dat" \
	>"$T/pre.out" 2>&1
pre=$?
expect_eq "exit status with the library" "$pre" "$plain"
expect_eq "exit status" "$plain" 0
expect_eq "output with the library" "$(cat "$T/pre.out")" \
	"$(cat "$T/plain.out")"

"$COMMPROF" export "$T/out" --format json >"$T/rows.json" ||
	fail "commprof export failed"
"$COMMPROF" summary "$T/out" >"$T/summary.txt" || fail "summary failed"
"$COMMPROF" report "$T/out" >"$T/report.txt" || fail "report failed"
run=$(cp_run_of "$T/out")

"$PYTHON3" - "$T/rows.json" "$T/summary.txt" "$T/report.txt" "$src" \
	"$run/rank-00000.db" "$run/rank-00001.db" <<'EOF' || fail "rows differ"
import json, re, sqlite3, sys

rows = json.load(open(sys.argv[1]))
summary, report = open(sys.argv[2]).read(), open(sys.argv[3]).read()
src = open(sys.argv[4]).read().split("\n")
bad = []

def line_of(op):
    """The one line of the test program that makes op."""
    n = [i + 1 for i, l in enumerate(src)
         if re.search(r"\b%s\(" % op, l) and not l.startswith(" *")]
    return n[0] if len(n) == 1 else None

# op -> bytes, rank 0 and rank 1 (None: no target, 0 bytes)
RMA = {"MPI_Get": 40, "MPI_Accumulate": 28, "MPI_Get_accumulate": 36,
       "MPI_Fetch_and_op": 8, "MPI_Compare_and_swap": 4, "MPI_Rput": 11,
       "MPI_Rget": 13}
TARGET_SYNC = ("MPI_Win_lock", "MPI_Win_unlock", "MPI_Win_flush",
               "MPI_Win_flush_local")
SYNC = ("MPI_Win_lock_all", "MPI_Win_unlock_all", "MPI_Win_flush_all",
        "MPI_Win_flush_local_all", "MPI_Win_post", "MPI_Win_start",
        "MPI_Win_complete", "MPI_Win_wait")
IO = {"MPI_File_write_at": 68, "MPI_File_iwrite": 3, "MPI_File_write": 1,
      "MPI_File_write_all": 2, "MPI_File_write_at_all": 4,
      "MPI_File_iwrite_at": 5, "MPI_File_iwrite_all": 6,
      "MPI_File_iwrite_at_all": 7, "MPI_File_read": 1,
      "MPI_File_read_all": 2, "MPI_File_read_at": 8, "MPI_File_iread": 9,
      "MPI_File_iread_at": 10, "MPI_File_iread_all": 11,
      "MPI_File_iread_at_all": 12, "MPI_File_write_shared": 13,
      "MPI_File_iwrite_shared": 14, "MPI_File_write_ordered": 15,
      "MPI_File_read_shared": 13, "MPI_File_iread_shared": 14,
      "MPI_File_read_ordered": 15}

def one(rank, op):
    r = [x for x in rows if x["rank"] == rank and x["op"] == op]
    if len(r) != 1:
        bad.append("rank %d: %d rows of %s, want 1" % (rank, len(r), op))
        return None
    x = r[0]
    want = "test_rma_io.c:%s" % line_of(op)
    if x["callsite"] != want:
        bad.append("rank %d %s: callsite %s, want %s" % (
            rank, op, x["callsite"], want))
    return x

def expect(rank, op, bytes_, peer):
    x = one(rank, op)
    if x and (x["bytes"], x["peer"]) != (bytes_, peer):
        bad.append("rank %d %s: bytes %s peer %s, want %s %s" % (
            rank, op, x["bytes"], x["peer"], bytes_, peer))

for rank in (0, 1):
    peer = 1 - rank
    for op, b in RMA.items():
        expect(rank, op, b, peer)
    for op in TARGET_SYNC:
        expect(rank, op, 0, peer)
    for op in SYNC:
        expect(rank, op, 0, None)
    for op, b in IO.items():
        expect(rank, op, b, None)
    # the read's bytes are what its status says arrived
    expect(rank, "MPI_File_read_at_all", 200 if rank == 0 else 68, None)
    puts = sorted((x["bytes"], x["peer"]) for x in rows
                  if x["rank"] == rank and x["op"] == "MPI_Put")
    if puts != [(4, peer), (12, peer)]:
        bad.append("rank %d: Put rows %s" % (rank, puts))
    fences = [x for x in rows if x["rank"] == rank and
              x["op"] == "MPI_Win_fence"]
    if len(fences) != 2 or any(x["bytes"] != 0 or x["peer"] is not None
                               for x in fences):
        bad.append("rank %d: fence rows %s" % (rank, fences))
    # paused: Pcontrol's own rows kept, the Allreduce between them not
    if len([x for x in rows if x["rank"] == rank and
            x["op"] == "MPI_Pcontrol"]) != 2:
        bad.append("rank %d: want the 2 Pcontrol rows" % rank)
    # ... and level 1 keeps rows again: the Barrier after it
    last = max((x for x in rows if x["rank"] == rank),
               key=lambda x: x["seq"])
    if (last["op"], last["function"]) != ("MPI_Barrier", "main"):
        bad.append("rank %d: last row %s in %s, want main's Barrier" % (
            rank, last["op"], last["function"]))
if any(x["op"] == "MPI_Allreduce" for x in rows):
    bad.append("rows of MPI_Allreduce, made at Pcontrol level 0")
# ... while the aggregates count them
m = re.search(r"^MPI_Allreduce +(\d+) ", summary.split("Per-op totals")[1],
              re.M)
if not m or m.group(1) != "8":
    bad.append("summary: Allreduce calls %s, want 8" %
               (m.group(1) if m else None))

# classes: in the rank files' ops and in the summary's totals
for db in sys.argv[5:]:
    c = dict(sqlite3.connect(db).execute("SELECT name, class FROM ops"))
    for op in list(RMA) + list(TARGET_SYNC) + list(SYNC) + \
            ["MPI_Put", "MPI_Win_fence"]:
        if c.get(op) != "rma":
            bad.append("%s: class of %s is %s" % (db, op, c.get(op)))
    for op in IO:
        if c.get(op) != "io":
            bad.append("%s: class of %s is %s" % (db, op, c.get(op)))
ncalls = {"rma": 0, "io": 0}
for x in rows:
    if x["op"] in RMA or x["op"] in TARGET_SYNC or x["op"] in SYNC or \
            x["op"] in ("MPI_Put", "MPI_Win_fence"):
        ncalls["rma"] += 1
    elif x["op"].startswith("MPI_File_"):
        ncalls["io"] += 1
part = summary.split("Per-class totals")[1].split("Per-op totals")[0]
for cls, n in ncalls.items():
    m = re.search(r"^%s +(\d+) " % cls, part, re.M)
    if not m or int(m.group(1)) != n:
        bad.append("summary: %s calls %s, want %d" % (
            cls, m.group(1) if m else None, n))

# not messages: the report's message and collective rows are the
# barriers alone, and no message row is left unmatched
nbar = len([x for x in rows if x["op"] == "MPI_Barrier"])
for what, want in (("message and collective rows", nbar),
                   ("message rows left unmatched", 0)):
    m = re.search(r"^%s: +(\d+)$" % what, report, re.M)
    if not m or int(m.group(1)) != want:
        bad.append("report: %s %s, want %d" % (
            what, m.group(1) if m else None, want))
for x in rows:
    if (x["op"].startswith("MPI_File_") or x["op"] in RMA) and \
            x["t_transfer"] is not None:
        bad.append("%s of rank %d matched" % (x["op"], x["rank"]))
if bad:
    print("\n".join(bad))
    sys.exit(1)
EOF

# the Fortran bindings: MPI_PCONTROL(LEVEL) has no IERROR
"$MPIFC" -g -O0 -o "$T/test_rma_io_f" "$top_srcdir/tests/test_rma_io_f.f90" ||
	fail "cannot compile test_rma_io_f.f90"
cp_mpirun 60 2 "$T/test_rma_io_f" "$T/fplain.dat" >"$T/fplain.out" 2>&1
plain=$?
cp_run_preload 60 2 "$T/fout" "$T/test_rma_io_f" "$T/fpre.dat" \
	>"$T/fpre.out" 2>&1
expect_eq "Fortran: exit status with the library" "$?" "$plain"
expect_eq "Fortran: output" "$(cat "$T/fpre.out")" "$(cat "$T/fplain.out")"
expect_eq "Fortran: output" "$(cat "$T/fplain.out")" "test_rma_io_f: done 7"
"$COMMPROF" export "$T/fout" --format csv >"$T/f.csv" ||
	fail "commprof export (Fortran) failed"
# rank,op,peer,bytes of each row; the Barrier at level 0 is left out
got=$(cut -d, -f1,2,3,7 "$T/f.csv" | tail -n +2 | sort)
want=$(sort <<ROWS
0,MPI_Win_fence,,0
0,MPI_Win_fence,,0
0,MPI_Put,1,20
0,MPI_File_write_at,,12
0,MPI_Barrier,,0
0,MPI_File_read_at,,40
0,MPI_Pcontrol,,0
0,MPI_Pcontrol,,0
1,MPI_Win_fence,,0
1,MPI_Win_fence,,0
1,MPI_Put,0,20
1,MPI_File_write_at,,12
1,MPI_Barrier,,0
1,MPI_File_read_at,,12
1,MPI_Pcontrol,,0
1,MPI_Pcontrol,,0
ROWS
)
expect_eq "Fortran rows" "$got" "$want"
expect_eq "Fortran: Barrier calls counted" \
	"$("$COMMPROF" summary "$T/fout" | awk '/^Per-op totals/ { p = 1 }
		p && $1 == "MPI_Barrier" { print $2 }')" 4
note "rma and io rows, classes, bytes and targets as made"
