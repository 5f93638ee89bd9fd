#!/bin/sh
# test_nompi.sh - a process that never calls MPI_Init runs unchanged with
# the library preloaded and leaves no output directory behind.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
cd "$T" || fail "cd"

run() {
	out=$(LD_PRELOAD="$CP_PRELOAD" COMMPROF_DIR="$T/out" "$@" 2>"$T/err")
	rc=$?
}

run /bin/true
expect_eq "true: status" "$rc" 0
expect_eq "true: stderr" "$(cat "$T/err")" ""
run /bin/false
expect_eq "false: status" "$rc" 1
run sh -c 'echo hi; echo oops >&2; exit 3'
expect_eq "sh: status" "$rc" 3
expect_eq "sh: stdout" "$out" "hi"
expect_eq "sh: stderr" "$(cat "$T/err")" "oops"
# the default directory, too, must not appear
out=$(env -u COMMPROF_DIR LD_PRELOAD="$CP_PRELOAD" sh -c 'echo hi')
expect_eq "default dir: stdout" "$out" "hi"
[ ! -e "$T/out" ] || fail "COMMPROF_DIR created by a non-MPI process"
[ ! -e "$T/commprof-out" ] || fail "commprof-out created by a non-MPI process"
# mpirun itself with the library preloaded, starting a non-MPI program
out=$(LD_PRELOAD="$CP_PRELOAD" COMMPROF_DIR="$T/out" \
	timeout -k 5 60 "$MPIRUN" -np 2 /bin/echo hi 2>"$T/err")
rc=$?
expect_eq "mpirun: status" "$rc" 0
expect_eq "mpirun: stdout" "$out" "hi
hi"
expect_eq "mpirun: stderr" "$(grep -c '^commprof:' "$T/err")" 0
[ ! -e "$T/out" ] || fail "COMMPROF_DIR created without MPI_Init"
