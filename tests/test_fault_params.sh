#!/bin/sh
# test_fault_params.sh - COMMPROF_PARAMS names a missing file, a corrupt
# one (garbage) and a truncated one (the first half of a file written by
# commprof-calibrate --quick on 2 ranks).  Each time the app prints the
# same and exits the same as without the preload, its calls are still
# recorded (commprof summary works), and exactly one stderr line of the
# whole job starts with "commprof:" and names the file.  The complete
# file gives no line at all.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/fault_lib.sh"

CAL="$top_builddir/commprof-calibrate"
[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
[ -x "$CAL" ] || fail "no $CAL"
fault_cc test_fault_app
cd "$T" || fail "cd"
np=2 steps=40

cp_mpirun 120 2 "$CAL" --quick -o "$T/good.params" >"$T/cal.out" \
	2>"$T/cal.err" || fail "commprof-calibrate: $(cat "$T/cal.err")"
lines=$(wc -l < "$T/good.params")
[ "$lines" -ge 10 ] || fail "calibration wrote only $lines lines"
head -n $((lines / 2)) "$T/good.params" > "$T/truncated.params"
# text, binary and an overlong line: what a wrong file may hold
{
	echo "this is not a parameter file"
	printf 'lmo.C 0 \001\377\376 lo nan hi -inf n x\n'
	head -c 3000 /dev/zero | tr '\0' 'z'
	printf '\n\000\000\200end\n'
} > "$T/corrupt.params"
# the strict reader takes the good file and refuses the others
"$COMMPROF" params show "$T/good.params" >/dev/null 2>&1 ||
	fail "params show refuses the calibrated file"
for bad in missing corrupt truncated; do
	! "$COMMPROF" params show "$T/$bad.params" >/dev/null 2>&1 ||
		fail "params show accepts $bad.params"
done

want=$(cp_mpirun 60 $np "$T/test_fault_app" rows $steps 2>"$T/base.err")
want_rc=$?
expect_eq "status without preload" "$want_rc" 0

# run NAME FILE: the app under the preload with COMMPROF_PARAMS=FILE
run() {
	got=$(COMMPROF_PARAMS="$2" cp_run_preload 60 $np "$T/out-$1" \
		-x COMMPROF_PARAMS "$T/test_fault_app" rows $steps \
		2>"$T/err-$1")
	got_rc=$?
	expect_eq "$1: status" "$got_rc" "$want_rc"
	expect_eq "$1: stdout" "$got" "$want"
	expect_eq "$1: other stderr" "$(other_err "$T/err-$1")" \
		"$(other_err "$T/base.err")"
	summary_ok "$T/out-$1"
	expect_eq "$1: Sendrecv calls" \
		"$(op_calls "$T/out-$1" MPI_Sendrecv)" $((np * steps))
}

run good "$T/good.params"
expect_eq "good: commprof lines" "$(cp_lines "$T/err-good")" 0
for bad in missing corrupt truncated; do
	f="$T/$bad.params"
	run $bad "$f"
	n=$(cp_lines "$T/err-$bad")
	[ "$n" = 1 ] ||
		fail "$bad: $n commprof lines, want 1 naming $f: $(cat "$T/err-$bad")"
	grep '^commprof:' "$T/err-$bad" | grep -qF "$f" ||
		fail "$bad: the commprof line does not name $f: $(cat "$T/err-$bad")"
	note "$bad: $(cat "$T/err-$bad")"
done
