#!/bin/sh
# Rows reach the disk at MPI_Finalize, at MPI_Abort, on SIGTERM and
# periodically (COMMPROF_FLUSH_MS): a rank killed with SIGKILL keeps
# what the last flush wrote.  Also COMMPROF_MAX_ROWS, COMMPROF_SAMPLE and
# a bad value (one warning line, the default used).
. "$top_srcdir/tests/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
"$MPICC" -O1 -o "$T/flush" "$top_srcdir/tests/test_flush.c" || fail "cc"

# sends DIR RANK: MPI_Send rows of RANK in DIR
sends() {
	"$COMMPROF" export "$1" --format csv |
	awk -F, -v r="$2" '$1 == r && $2 == "MPI_Send"' | wc -l
}

# at MPI_Abort: rank 0 flushes before aborting; mpirun's exit status
# is the app's
cp_run_preload 60 2 "$T/a" "$T/flush" abort 137 >/dev/null 2>&1
cp_wait_gone "$T/flush abort"
expect_eq "abort: rank 0 rows" "$(sends "$T/a" 0)" 137
expect_eq "abort: reserves after export" \
	"$(ls "$(cp_run_of "$T/a")" | grep -c 'db-reserve$')" 0

# SIGTERM to the ranks: each flushes, then dies of the signal
rm -f "$T/mark"
cp_run_preload 60 2 "$T/t" "$T/flush" wait 211 "$T/mark" \
	>/dev/null 2>&1 &
i=0
while [ ! -f "$T/mark" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f "$T/mark" ] || fail "wait: no marker"
pkill -TERM -f "$T/flush wait" || fail "no rank to signal"
wait
cp_wait_gone "$T/flush wait"
expect_eq "sigterm: rank 0 rows" "$(sends "$T/t" 0)" 211
expect_eq "sigterm: rank 1 rows" "$(sends "$T/t" 1)" 211
expect_eq "sigterm: reserves after export" \
	"$(ls "$(cp_run_of "$T/t")" | grep -c 'db-reserve$')" 0

# SIGKILL after a periodic flush: nothing before it is lost; each
# killed rank leaves its 64 KiB rank-NNNNN.db-reserve, which the first
# commprof command on the directory removes (the ranks are gone)
rm -f "$T/mark"
COMMPROF_FLUSH_MS=50 cp_run_preload 60 2 "$T/k" -x COMMPROF_FLUSH_MS \
	"$T/flush" wait 97 "$T/mark" >/dev/null 2>&1 &
i=0
while [ ! -f "$T/mark" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f "$T/mark" ] || fail "kill: no marker"
sleep 0.5
pkill -KILL -f "$T/flush wait" || fail "no rank to kill"
wait
cp_wait_gone "$T/flush wait"
expect_eq "sigkill: reserves left" "$(ls "$(cp_run_of "$T/k")" | grep -c 'db-reserve$')" 2
expect_eq "sigkill: rank 0 rows" "$(sends "$T/k" 0)" 97
expect_eq "sigkill: reserves after export" \
	"$(ls "$(cp_run_of "$T/k")" | grep -c 'db-reserve$')" 0
ok=$(sqlite3 "$(cp_run_of "$T/k")/rank-00000.db" 'PRAGMA integrity_check' 2>&1)
expect_eq "sigkill: integrity" "$ok" ok

# row limit and sampling: rows limited, aggregates complete
COMMPROF_MAX_ROWS=5 cp_run_preload 60 1 "$T/m" -x COMMPROF_MAX_ROWS \
	"$T/flush" finalize 40 >/dev/null || fail "max rows run"
expect_eq "max_rows: rows" "$(sends "$T/m" 0)" 5
calls=$(sqlite3 "$(cp_run_of "$T/m")/rank-00000.db" \
	"select sum(a.count) from aggs a join ops o on o.id = a.op
	 where o.name = 'MPI_Send'")
expect_eq "max_rows: aggregate count" "$calls" 40
COMMPROF_SAMPLE=4 cp_run_preload 60 1 "$T/s" -x COMMPROF_SAMPLE \
	"$T/flush" finalize 40 >/dev/null || fail "sample run"
expect_eq "sample: rows" "$(sends "$T/s" 0)" 10

# a bad value: one warning line, default used, app unchanged
out=$(COMMPROF_SAMPLE=banana cp_run_preload 60 2 "$T/b" -x COMMPROF_SAMPLE \
	"$T/flush" finalize 12 2>"$T/err") || fail "bad value run"
expect_eq "bad value: stdout" "$out" done
expect_eq "bad value: warning" "$(cat "$T/err")" \
	"commprof: COMMPROF_SAMPLE='banana' is not an integer from 1 to 4294967295; using 1"
expect_eq "bad value: rows" "$(sends "$T/b" 1)" 12
note "abort, sigterm, sigkill, max_rows, sample, bad value"
