#!/bin/sh
# test_runs.sh - every run writes into a directory of its own under
# COMMPROF_DIR: examples/ring on 4 ranks, then on 2 into the same
# directory.  summary reads the latest run (2 ranks), DIR@1 the first
# (4), `commprof runs` lists both, oldest first, a run that does not
# exist is one error line, and a directory written before runs had
# directories (its rank files in it) is still read, as the oldest run.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
app="$top_builddir/examples/ring"
[ -x "$app" ] || fail "no $app"
D="$T/d"

ranks() {	# ranks ARG: the ranks line of commprof summary ARG
	"$COMMPROF" summary "$1" | sed -n 's/^ranks: *//p'
}

cp_run_preload 60 4 "$D" "$app" 2 >/dev/null || fail "4-rank run"
cp_run_preload 60 2 "$D" "$app" 2 >/dev/null || fail "2-rank run"
expect_eq "run directories" "$(ls "$D" | grep -c '^run-')" 2
first=$(ls "$D" | grep '^run-' | head -n 1)
second=$(ls "$D" | grep '^run-' | tail -n 1)
expect_eq "latest run" "$(ranks "$D")" 2
expect_eq "run 1" "$(ranks "$D@1")" 4
expect_eq "run 2" "$(ranks "$D@2")" 2
expect_eq "run by name" "$(ranks "$D@$first")" 4
expect_eq "run directory itself" "$(ranks "$D/$first")" 4
expect_eq "summary names the run" \
	"$("$COMMPROF" summary "$D" | head -n 1)" \
	"commprof summary of $D/$second"
for r in "$D/$first" "$D/$second"; do
	"$PYTHON3" -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("SELECT value FROM meta "
      "WHERE key = \x27run\x27").fetchone()[0])' "$r/rank-00000.db" \
		> "$T/run" || fail "no run key in $r"
	expect_eq "meta run of $r" "$(cat "$T/run")" "${r##*/}"
done

# the export's layout column: ring.c sends a column type and doubles
"$COMMPROF" export "$D" --format csv | "$PYTHON3" -c '
import csv, sys
print(sorted({r["layout"] for r in csv.DictReader(sys.stdin)
              if r["op"] == "MPI_Sendrecv"}))' > "$T/layouts" ||
	fail "export"
expect_eq "layout column" "$(cat "$T/layouts")" \
	"['MPI_DOUBLE', 'vector(64,1,128) of MPI_DOUBLE']"

"$COMMPROF" runs "$D" > "$T/runs" || fail "commprof runs"
expect_eq "runs" "$(tail -n +2 "$T/runs")" "  run  ranks  directory
    1      4  $D/$first
*   2      2  $D/$second"

rc=0
"$COMMPROF" summary "$D@3" >"$T/out" 2>"$T/err" || rc=$?
expect_eq "no run 3: status" "$rc" 1
expect_eq "no run 3: stderr" "$(cat "$T/err")" \
	"commprof: no run 3 in $D: it has runs 1 to 2 (commprof runs $D)"

# an old flat directory: rank files right in it, the oldest run
cp "$D/$first"/rank-*.db "$D"/ || fail "cp"
rm -f "$D/$first/commprof.db"
expect_eq "flat: latest still run-*" "$(ranks "$D")" 2
expect_eq "flat is run 1" "$(ranks "$D@1")" 4
"$COMMPROF" runs "$D" > "$T/runs" || fail "commprof runs (flat)"
expect_eq "runs with flat" "$(tail -n +3 "$T/runs" | awk '{print $NF}')" \
	"$D
$D/$first
$D/$second"
note "$(cat "$T/runs")"

# MPI_Comm_spawn: the children are a job of their own, with a run of
# their own that says it was spawned and by how many; the parent's
# files stay whole.  MPICH 4.0.2 of Debian fails MPI_Comm_spawn here
# without commprof too ("Error in spawn call"): Open MPI only, with TCP
# between the two jobs (shared memory does not reach across jobs).
[ "$CP_MPI" = openmpi ] || { note "spawn: skipped under $CP_MPI"; exit 0; }
cat > "$T/spawn.c" <<'C'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Comm parent, inter;
	int rank, x = 5;

	MPI_Init(&argc, &argv);
	MPI_Comm_get_parent(&parent);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (parent == MPI_COMM_NULL) {
		MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 3, MPI_INFO_NULL, 0,
			       MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
		if (rank == 0)
			MPI_Send(&x, 1, MPI_INT, 0, 1, inter);
		MPI_Comm_disconnect(&inter);
		if (rank == 0)
			printf("parent done\n");
	} else {
		if (rank == 0)
			MPI_Recv(&x, 1, MPI_INT, 0, 1, parent,
				 MPI_STATUS_IGNORE);
		MPI_Comm_disconnect(&parent);
	}
	MPI_Finalize();
	return 0;
}
C
"$MPICC" -O1 -o "$T/spawn" "$T/spawn.c" || fail "cc spawn"
out=$(OMPI_MCA_btl=self,vader,tcp cp_run_preload 60 2 "$T/sp" "$T/spawn") ||
	fail "spawn run: status $?"
expect_eq "spawn: stdout" "$out" "parent done"
"$COMMPROF" runs "$T/sp" > "$T/sp.runs" || fail "runs of spawn"
expect_eq "spawn: ranks per run" \
	"$(tail -n +3 "$T/sp.runs" | awk '{ print $(NF - 1) }' | tr '\n' ' ')" \
	"2 3 "
meta() {	# meta RUNDIR KEY: KEY of rank 0's meta, or "-"
	"$PYTHON3" -c 'import sqlite3, sys
r = sqlite3.connect(sys.argv[1]).execute("SELECT value FROM meta "
    "WHERE key = ?", (sys.argv[2],)).fetchone()
print(r[0] if r else "-")' "$1/rank-00000.db" "$2"
}
parent=$(ls -d "$T/sp"/run-* | head -n 1)
child=$(ls -d "$T/sp"/run-* | tail -n 1)
expect_eq "parent: spawned" "$(meta "$parent" spawned)" -
expect_eq "child: spawned" "$(meta "$child" spawned)" 1
expect_eq "child: parent_size" "$(meta "$child" parent_size)" 2
expect_eq "parent: MPI_Send rows" "$("$COMMPROF" export "$T/sp@1" |
	grep -c '^0,MPI_Send,')" 1
expect_eq "child: MPI_Recv rows" "$("$COMMPROF" export "$T/sp" |
	grep -c '^0,MPI_Recv,')" 1
note "spawn: $(cat "$T/sp.runs")"
