# tests/fault_lib.sh - helpers of the fault tests (tests/test_fault_*.sh);
# source it after tests/lib.sh.  The fault tests compare a run with the
# library preloaded against the same run without it: what the app prints
# and its exit status must not change, and what commprof says on stderr
# is counted line by line.

# fault_cc NAME [FLAGS...]: compile tests/NAME.c to $T/NAME with $MPICC
fault_cc() {
	local name=$1; shift
	"$MPICC" -g -O1 "$@" -o "$T/$name" "$top_srcdir/tests/$name.c" ||
		fail "cannot compile tests/$name.c"
}

# cp_lines FILE: the number of lines of FILE that start with "commprof:"
cp_lines() {
	grep -c '^commprof:' "$1"
}

# other_err FILE: FILE without the lines that start with "commprof:"
other_err() {
	grep -v '^commprof:' "$1"
}

# op_calls DIR OP: calls of OP over all ranks, from the per-op totals of
# `commprof summary DIR` (0 when OP is absent)
op_calls() {
	"$COMMPROF" summary "$1" |
	awk -v op="$2" '/^Per-op totals/ { p = 1; next }
		p && $1 == op { n = $2 } END { print n + 0 }'
}

# summary_ok DIR: `commprof summary DIR` works, its per-op calls add up to
# its "calls:" line and that total is not 0; prints the summary to
# $T/summary.txt
summary_ok() {
	"$COMMPROF" summary "$1" > "$T/summary.txt" 2>"$T/summary.err" ||
		fail "commprof summary $1: $(cat "$T/summary.err")"
	awk '/^calls:/ { total = $2 }
		/^Per-op totals/ { p = 1; getline; next }
		p && NF { sum += $2 }
		END { if (total == 0 || sum != total) {
			printf "calls %d, per-op sum %d\n", total, sum
			exit 1 } }' "$T/summary.txt" ||
		fail "summary of $1 does not account for its calls"
}

# integrity DB: PRAGMA integrity_check of DB through python3's sqlite3
integrity() {
	"$PYTHON3" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(",".join(r[0] for r in c.execute("PRAGMA integrity_check")))' \
		"$1" 2>&1
}
