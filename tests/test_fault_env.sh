#!/bin/sh
# test_fault_env.sh - nonsense values for every COMMPROF_* variable of
# commprof-env(7) but COMMPROF_PARAMS (test_fault_params.sh): each costs
# exactly one warning line (rank 0's) that names the variable, the
# default is used (every call recorded), and the app prints the same and
# exits the same as without the preload.  All of them at once: one line
# per variable.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/fault_lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
fault_cc test_fault_app
cd "$T" || fail "cd"
np=2 steps=40
want=$(cp_mpirun 60 $np "$T/test_fault_app" rows $steps 2>"$T/base.err")
want_rc=$?
expect_eq "status without preload" "$want_rc" 0

# run DIR VAR=VALUE...: the app under the preload with these settings
run() {
	local dir=$1 xs="" a l; shift
	l=$(printf '%.100s' "$*")
	for a in "$@"; do
		xs="$xs -x ${a%%=*}"
	done
	# shellcheck disable=SC2086
	got=$(env "$@" timeout -k 5 60 "$MPIRUN" -np $np \
		-x LD_PRELOAD="$CP_PRELOAD" $xs "$T/test_fault_app" rows $steps \
		2>"$T/err")
	got_rc=$?
	expect_eq "$l: status" "$got_rc" "$want_rc"
	expect_eq "$l: stdout" "$got" "$want"
	expect_eq "$l: other stderr" "$(other_err "$T/err")" \
		"$(other_err "$T/base.err")"
	# the defaults: every call counted, one row per call half
	expect_eq "$l: Sendrecv calls" "$(op_calls "$dir" MPI_Sendrecv)" \
		$((np * steps))
	rows=$("$COMMPROF" export "$dir" --format csv |
		awk -F, '$2 == "MPI_Sendrecv"' | wc -l)
	expect_eq "$l: Sendrecv rows" "$rows" $((2 * np * steps))
}

# one VAR VALUE: exactly one warning line, naming VAR and VALUE
one() {
	local d
	d="$T/out-$(printf '%s' "$1$2" | cksum | cut -d' ' -f1)"
	run "$d" COMMPROF_DIR="$d" "$1=$2"
	expect_eq "$1='$2': commprof lines" "$(cp_lines "$T/err")" 1
	grep -qF "commprof: $1='$2' " "$T/err" ||
		fail "$1='$2': warning does not name $1='$2': $(cat "$T/err")"
	checked=$((checked + 1))
}

checked=0
# only plain decimal digits: no sign, space, hex or exponent
for v in -5 lots 1e6 99999999999999999999999 0x10 "7 rows" " 5" "+5" \
	"5 " 1e3; do
	one COMMPROF_MAX_ROWS "$v"
done
for v in 0 -1 2.5 many 4294967296 " 2" "+2"; do
	one COMMPROF_SAMPLE "$v"
done
for v in 0 5 soon 3600001 "100ms"; do
	one COMMPROF_FLUSH_MS "$v"
done
for v in 1000 3000 65535 0x10000 big 33554432 "+2048"; do
	one COMMPROF_RING "$v"
done
for v in maybe 2 on "1 "; do
	one COMMPROF_DISABLE "$v"
done
for v in 0 17 deep "+2"; do
	one COMMPROF_STACK "$v"
done
for v in any core 1 "rank " Socket; do
	one COMMPROF_FLUSH_CPU "$v"
done

# a path too long for the library: the default ./commprof-out, here in $T
long=$(printf '%05000d' 0 | tr 0 x)
run "$T/commprof-out" COMMPROF_DIR="$T/$long"
expect_eq "COMMPROF_DIR too long: commprof lines" "$(cp_lines "$T/err")" 1
grep -q '^commprof: COMMPROF_DIR=' "$T/err" ||
	fail "COMMPROF_DIR too long: warning does not name it: $(cat "$T/err")"
checked=$((checked + 1))

# all of them at once: one line each
rm -rf "$T/commprof-out"
run "$T/commprof-out" COMMPROF_DIR="$T/$long" COMMPROF_MAX_ROWS=lots \
	COMMPROF_SAMPLE=0 COMMPROF_FLUSH_MS=soon COMMPROF_RING=3000 \
	COMMPROF_DISABLE=maybe
expect_eq "all at once: commprof lines" "$(cp_lines "$T/err")" 6
for v in DIR MAX_ROWS SAMPLE FLUSH_MS RING DISABLE; do
	expect_eq "all at once: lines about COMMPROF_$v" \
		"$(grep -c "^commprof: COMMPROF_$v=" "$T/err")" 1
done

# a row limit: summary counts stored, dropped, not kept and lost rows in
# one unit (a Sendrecv is two rows): they add up to every row made
d="$T/limit"
run_limit() {
	env COMMPROF_DIR="$d" COMMPROF_MAX_ROWS=50 timeout -k 5 60 \
		"$MPIRUN" -np $np -x LD_PRELOAD="$CP_PRELOAD" -x COMMPROF_DIR \
		-x COMMPROF_MAX_ROWS "$T/test_fault_app" rows $steps
}
expect_eq "row limit: stdout" "$(run_limit 2>"$T/err")" "$want"
line=$("$COMMPROF" summary "$d" | grep '^call rows:')
sum=$(printf '%s\n' "$line" | awk '{ print $3 + $5 + $9 + $15 }')
expect_eq "row limit: $line" "$sum" \
	$((np * (2 * steps + steps / 8 + 2)))
expect_eq "row limit: stored" "$(printf '%s\n' "$line" | awk '{ print $3 }')" \
	$((np * 50))
note "$checked nonsense values and all at once: one line each"
