#!/bin/sh
# test_other_mpi.sh - the library refuses to start under the MPI it was
# not built for: examples/ring.c built with MPICH and run by MPICH's
# launcher with the Open MPI build preloaded prints what it prints without
# it and exits the same; stderr has one line more, from rank 0, naming
# both MPIs; no rank file is written.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
# Only the Open MPI build: the MPICH build's wrappers take handles as
# MPICH's 32-bit integers, so even passing an Open MPI application's
# pointer handles through unrecorded cuts them (a crash in PMPI_Bcast).
case $CP_MPI in
openmpi) other=mpich want="built for openmpi, but the application runs MPICH" ;;
*) skip "a $CP_MPI build cannot pass Open MPI's pointer handles through" ;;
esac
occ=mpicc.$other ofc=mpifort.$other orun=mpirun.$other
command -v "$occ" >/dev/null 2>&1 && command -v "$orun" >/dev/null 2>&1 ||
	skip "no $occ or $orun: the other MPI is not installed"

"$occ" -O1 -o "$T/ring" "$top_srcdir/examples/ring.c" || fail "$occ"
# Not ring_f: the other MPI's Fortran layer binds its PMPI_* calls to the
# MPI library that libcommprof.so brings along, which comes first in the
# lookup order; no check of ours can keep that application alive.
progs=ring

# orun SECS NP DIR|- PROG ARGS: the other MPI's launcher, preloading us
# unless DIR is -
orun() {
	local secs=$1 np=$2 dir=$3
	shift 3
	if [ "$dir" = - ]; then
		CP_MPI=$other CP_MPI_LAUNCHER=$orun timeout -k 5 "$secs" \
			"$MPIRUN" -np "$np" "$@"
	else
		CP_MPI=$other CP_MPI_LAUNCHER=$orun timeout -k 5 "$secs" \
			"$MPIRUN" -np "$np" -x LD_PRELOAD="$CP_PRELOAD" \
			-x COMMPROF_DIR="$dir" "$@"
	fi
}

for p in $progs; do
	base=$(orun 60 2 - "$T/$p" 3 2>"$T/$p.base.err")
	base_rc=$?
	expect_eq "$p: status without us" "$base_rc" 0
	out=$(orun 60 2 "$T/o-$p" "$T/$p" 3 2>"$T/$p.err")
	rc=$?
	expect_eq "$p: status" "$rc" "$base_rc"
	expect_eq "$p: stdout" "$out" "$base"
	grep '^commprof:' "$T/$p.err" > "$T/$p.lines"
	expect_eq "$p: commprof lines" "$(wc -l < "$T/$p.lines")" 1
	grep -qF "commprof: $want" "$T/$p.lines" ||
		fail "$p: line is '$(cat "$T/$p.lines")', want '$want ...'"
	grep -v '^commprof:' "$T/$p.err" > "$T/$p.rest"
	expect_eq "$p: other stderr" "$(cat "$T/$p.rest")" \
		"$(cat "$T/$p.base.err")"
	[ ! -e "$T/o-$p" ] || fail "$p: rank files written: $(ls "$T/o-$p")"
	note "$p: $(cat "$T/$p.lines")"
done
