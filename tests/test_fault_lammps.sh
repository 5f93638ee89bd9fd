#!/bin/sh
# test_fault_lammps.sh - LAMMPS (Debian packages lammps, lammps-examples):
# the melt example, shortened to 100 steps with thermo output every 10,
# on 2 ranks with and without the library: the same thermo lines, atom
# and neighbour counts, the same exit status, no commprof line, and a
# summary that accounts for every call of the ops LAMMPS uses here.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/fault_lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
cp_openmpi_only "Debian's lmp"
LMP=$(command -v lmp) ||
	skip "no lmp: apt-get install lammps (scripts/check installs it)"
melt=/usr/share/lammps/examples/melt/in.melt
[ -f "$melt" ] ||
	skip "no $melt: apt-get install lammps-examples"

sed -e 's/^thermo[ \t].*/thermo 10/' -e 's/^run[ \t].*/run 100/' \
	"$melt" > "$T/in.melt"
grep -qx 'run 100' "$T/in.melt" || fail "no run line in $melt"

# results FILE: thermo table (header to last step), atoms, neighbours
results() {
	sed -n '/^Step /,/^Loop time/p' "$1" | grep -v '^Loop time'
	grep -E '^Created [0-9]+ atoms|^Total # of neighbors' "$1"
	grep -E '^Neighbor list builds' "$1"
}

(cd "$T" && cp_mpirun 120 2 "$LMP" -in in.melt -log none) \
	>"$T/base.out" 2>"$T/base.err"
want_rc=$?
expect_eq "status without preload" "$want_rc" 0
results "$T/base.out" > "$T/want"
expect_eq "thermo lines" "$(grep -Ec '^ +[0-9]+ ' "$T/want")" 11

(cd "$T" && cp_run_preload 120 2 "$T/d" "$LMP" -in in.melt -log none) \
	>"$T/prof.out" 2>"$T/err"
got_rc=$?
expect_eq "status" "$got_rc" "$want_rc"
results "$T/prof.out" > "$T/got"
diff "$T/want" "$T/got" >&2 || fail "thermo output differs"
expect_eq "commprof lines" "$(cp_lines "$T/err")" 0
expect_eq "other stderr" "$(other_err "$T/err")" "$(cat "$T/base.err")"

summary_ok "$T/d"
for op in MPI_Allreduce MPI_Sendrecv MPI_Bcast MPI_Send MPI_Irecv \
	MPI_Wait; do
	[ "$(op_calls "$T/d" $op)" -gt 0 ] || fail "no $op calls in summary"
done
# every posted receive is completed by one MPI_Wait
expect_eq "Irecv = Wait" "$(op_calls "$T/d" MPI_Irecv)" \
	"$(op_calls "$T/d" MPI_Wait)"
note "lammps: $(grep -Ec '^ +[0-9]+ ' "$T/want") thermo lines identical;" \
	"$(grep '^calls:' "$T/summary.txt")"
