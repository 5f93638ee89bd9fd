#!/bin/sh
# test_fault_fork.sh - an application that forks (each rank's child does
# plain work, rank 0's prints a line, and leaves with exit(); the parent
# waits and goes on with MPI) and one that starts with MPI_Init_thread
# (in C, and in Fortran through `use mpi` and `use mpi_f08`).  All print
# the same and exit the same as without the preload, their calls are all
# recorded, and a child writes nothing of ours: no commprof line, no
# file but the rank files, no row beyond the parents' calls.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/fault_lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
fault_cc test_fault_app
np=2 steps=64
# scripts/sanitize: LeakSanitizer cannot stop, in a forked child, the
# threads that only its parent has ("Running thread N was not suspended.
# False leaks are possible." on the child's stderr): no leak check here,
# ASan and UBSan still check every access.
if [ -n "${CP_SANITIZE:-}" ]; then
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	note "sanitizer build: leak detection off (forked children)"
fi

for mode in fork thread; do
	want=$(cp_mpirun 60 $np "$T/test_fault_app" $mode $steps \
		2>"$T/base.err")
	want_rc=$?
	expect_eq "$mode: status without preload" "$want_rc" 0
	# a short flush period: the flusher runs while the child lives
	got=$(COMMPROF_FLUSH_MS=10 cp_run_preload 60 $np "$T/$mode" \
		-x COMMPROF_FLUSH_MS "$T/test_fault_app" $mode $steps \
		2>"$T/err")
	got_rc=$?
	expect_eq "$mode: status" "$got_rc" "$want_rc"
	expect_eq "$mode: stdout" "$got" "$want"
	expect_eq "$mode: commprof lines" "$(cp_lines "$T/err")" 0
	expect_eq "$mode: other stderr" "$(other_err "$T/err")" \
		"$(other_err "$T/base.err")"
	expect_eq "$mode: files" \
		"$(cd "$(cp_run_of "$T/$mode")" && ls -A | tr '\n' ' ')" \
		"rank-00000.db rank-00001.db "
	for r in 0 1; do
		db="$(cp_run_of "$T/$mode")/rank-0000$r.db"
		expect_eq "$mode: rank $r integrity" "$(integrity "$db")" ok
	done
	summary_ok "$T/$mode"
	expect_eq "$mode: Sendrecv calls" \
		"$(op_calls "$T/$mode" MPI_Sendrecv)" $((np * steps))
	expect_eq "$mode: Allreduce calls" \
		"$(op_calls "$T/$mode" MPI_Allreduce)" $((np * (steps / 8)))
	expect_eq "$mode: Reduce calls" "$(op_calls "$T/$mode" MPI_Reduce)" \
		$((np * 2))
	rows=$("$COMMPROF" export "$T/$mode" --format csv | tail -n +2 |
		wc -l)
	# a Sendrecv is a send and a receive row
	expect_eq "$mode: rows" "$rows" $((np * (2 * steps + steps / 8 + 2)))
done

# What the children did, seen by strace: no file of ours opened, written,
# truncated, renamed or removed by a child (a child that ran our exit
# handler would write the parent's rank file through its inherited
# SQLite connection, which leaves no trace the checks above can see).
if command -v strace >/dev/null 2>&1 &&
   strace -f -qq -o /dev/null true 2>/dev/null; then
	: > "$T/pids"
	calls=open,openat,creat,write,pwrite64,writev,pwritev,ftruncate
	calls=$calls,unlink,unlinkat,rename,renameat,renameat2
	COMMPROF_FLUSH_MS=10 timeout -k 5 60 strace -f -qq -y -o "$T/st" \
		-e trace=$calls \
		"$MPIRUN" -np $np -x LD_PRELOAD="$CP_PRELOAD" \
		-x COMMPROF_DIR="$T/st-out" -x COMMPROF_FLUSH_MS \
		"$T/test_fault_app" fork $steps 0 "$T/pids" >"$T/st.out" \
		2>"$T/st.err" || fail "fork under strace: status $?"
	expect_eq "fork under strace: children" "$(wc -l < "$T/pids")" $np
	grep -qF "$(cp_run_of "$T/st-out")/rank-" "$T/st" ||
		fail "strace shows no access to the rank files at all"
	while read -r pid; do
		grep "^$pid " "$T/st" | grep -F "$T/st-out" > "$T/child" &&
			fail "child $pid touched our files: $(head -n 3 "$T/child")"
	done < "$T/pids"
	note "strace: the $np children touched no file of ours"
else
	note "no strace (or no ptrace): what the children did to files" \
		"not checked"
fi

# MPI_Init_thread from Fortran, `use mpi` and `use mpi_f08`: same output,
# every call recorded and flagged fortran, the rank files finished
fbit=$(sed -n 's/^#define CP_F_FORTRAN[ \t]*\(0x[0-9a-fA-F]*\).*/\1/p' \
	"$top_srcdir/src/common/cp_row.h")
[ -n "$fbit" ] || fail "no CP_F_FORTRAN in cp_row.h"
nf=0
for prog in test_fault_thread_f test_fault_thread_f08; do
	if ! command -v "$MPIFC" >/dev/null 2>&1 ||
	   ! "$MPIFC" -g -J "$T" -o "$T/$prog" "$top_srcdir/tests/$prog.f90" \
		2>"$T/fc.err"; then
		note "$prog does not compile here: skipped"
		continue
	fi
	want=$(cp_mpirun 60 $np "$T/$prog" 2>"$T/base.err")
	want_rc=$?
	expect_eq "$prog: status without preload" "$want_rc" 0
	got=$(cp_run_preload 60 $np "$T/$prog.d" "$T/$prog" 2>"$T/err")
	got_rc=$?
	expect_eq "$prog: status" "$got_rc" "$want_rc"
	expect_eq "$prog: stdout" "$got" "$want"
	expect_eq "$prog: commprof lines" "$(cp_lines "$T/err")" 0
	expect_eq "$prog: Allreduce calls" \
		"$(op_calls "$T/$prog.d" MPI_Allreduce)" $((np * 24))
	for r in 0 1; do
		expect_eq "$prog: rank $r rows, fortran ones, finished" \
			"$("$PYTHON3" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
q = lambda s: c.execute(s).fetchone()[0]
print(q("select count(*) from calls"),
      q("select count(*) from calls where flags & %d" % int(sys.argv[2], 0)),
      q("select value from meta where key = \"finished\""))' \
			"$(cp_run_of "$T/$prog.d")/rank-0000$r.db" "$fbit")" \
			"24 24 1"
	done
	nf=$((nf + 1))
done
note "fork, MPI_Init_thread (C and $nf Fortran): unchanged, all recorded"
