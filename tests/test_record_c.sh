#!/bin/sh
# test_record_c.sh - every recorded field of every kind of C MPI call:
# tests/test_record_c.c, tests/test_record_comm.c,
# tests/test_record_reuse.c (handles freed and reused between calls) and
# tests/test_record_xthread.c (requests completed on another thread than
# their post's) write the rows they expect, record_check.py compares them
# with `commprof export --format csv`, on 2 and on 3 ranks.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
for prog in test_record_c test_record_comm test_record_reuse \
	test_record_xthread; do
	# -O0: every call keeps its own return address and line
	"$MPICC" -g -O0 -pthread -o "$T/$prog" "$top_srcdir/tests/$prog.c" ||
		fail "cannot compile $prog.c"
	for np in 2 3; do
		d="$T/$prog.$np"
		mkdir "$d" "$d/m" || fail "mkdir"
		out=$(cp_run_preload 60 "$np" "$d/out" "$T/$prog" "$d/m") ||
			fail "$prog np $np: exited with status $?"
		# AddressSanitizer (scripts/sanitize) quarantines freed
		# memory: no handle is reused, and the checks of reuse cannot
		# run there
		[ -z "${CP_PRELOAD_EXTRA:-}" ] ||
			out=$(printf '%s\n' "$out" | grep -v 'unchecked$')
		expect_eq "$prog np $np: stdout" "$out" \
			"$prog: $np ranks done"
		r=0
		while [ "$r" -lt "$np" ]; do
			f=$(printf '%s/rank-%05d.db' "$(cp_run_of "$d/out")" \
				"$r")
			[ -s "$f" ] || fail "$prog np $np: no $f"
			r=$((r + 1))
		done
		"$COMMPROF" export "$d/out" --format csv > "$d/calls.csv" ||
			fail "$prog np $np: commprof export failed"
		"$PYTHON3" "$top_srcdir/tests/record_check.py" "$d/calls.csv" \
			"$d/m" "$np" "$prog.c" \
			"$top_srcdir/src/common/cp_row.h" ||
			fail "$prog np $np: rows differ"
	done
done
