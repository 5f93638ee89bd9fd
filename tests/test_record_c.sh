#!/bin/sh
# test_record_c.sh - every recorded field of every kind of C MPI call:
# tests/test_record_c.c writes the rows it expects, record_check.py
# compares them with `commprof export --format csv`, on 2 and on 3 ranks.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
# -O0: every call keeps its own return address and line
"$MPICC" -g -O0 -o "$T/rec" "$top_srcdir/tests/test_record_c.c" ||
	fail "cannot compile test_record_c.c"

for np in 2 3; do
	mkdir "$T/m$np" || fail "mkdir"
	out=$(cp_run_preload 60 "$np" "$T/out$np" "$T/rec" "$T/m$np") ||
		fail "np $np: test_record_c exited with status $?"
	expect_eq "np $np: stdout" "$out" "test_record_c: $np ranks done"
	r=0
	while [ "$r" -lt "$np" ]; do
		f=$(printf '%s/out%s/rank-%05d.db' "$T" "$np" "$r")
		[ -s "$f" ] || fail "np $np: no $f"
		r=$((r + 1))
	done
	"$COMMPROF" export "$T/out$np" --format csv > "$T/calls$np.csv" ||
		fail "np $np: commprof export failed"
	"$PYTHON3" "$top_srcdir/tests/record_check.py" "$T/calls$np.csv" \
		"$T/m$np" "$np" test_record_c.c \
		"$top_srcdir/src/common/cp_row.h" || fail "np $np: rows differ"
done
