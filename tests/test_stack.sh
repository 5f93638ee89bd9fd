#!/bin/sh
# test_stack.sh - COMMPROF_STACK=N takes the N-th caller of an MPI call
# as its callsite, for calls made through a wrapper library: the
# application tests/stack/app.c calls wrap_send() and wrap_allreduce() of
# the shared library tests/stack/wrap.c (wrap_send through inner_send).
# By default a row's site is the line that called MPI_X (in the library);
# with 2, its caller's; with 3, the next; the application's output is
# the same with and without the library.  Lines are found by the
# markers in the sources (/* SEND */ ...).  2 ranks.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
src="$top_srcdir/tests/stack"
"$MPICC" -g -O0 -fPIC -shared -o "$T/libwrap.so" "$src/wrap.c" ||
	fail "cannot build the wrapper library"
"$MPICC" -g -O0 -o "$T/app" "$src/app.c" -L"$T" -lwrap \
	-Wl,-rpath,"$T" || fail "cannot build the application"
cp_mpirun 60 2 "$T/app" >"$T/plain.out" 2>&1 ||
	fail "the application alone: exit status $?"
expect_eq "output" "$(cat "$T/plain.out")" "app: done"

at() {	# at FILE MARKER: file:line of the marker
	echo "$1:$(grep -n "/\* $2 \*/" "$src/$1" | cut -d: -f1)"
}

# sites DEPTH: "op rank callsite function" of the Send and Allreduce rows
sites() {
	local d="$T/out$1"

	if [ "$1" = 1 ]; then
		cp_run_preload 60 2 "$d" "$T/app" >"$T/pre$1.out" 2>&1
	else
		COMMPROF_STACK=$1 timeout -k 5 60 "$MPIRUN" -np 2 \
			-x LD_PRELOAD="$CP_PRELOAD" -x COMMPROF_DIR="$d" \
			-x COMMPROF_STACK "$T/app" >"$T/pre$1.out" 2>&1
	fi || fail "COMMPROF_STACK=$1: exit status $?"
	expect_eq "COMMPROF_STACK=$1: output" "$(cat "$T/pre$1.out")" \
		"$(cat "$T/plain.out")"
	"$COMMPROF" export "$d" --format csv >"$T/rows$1.csv" ||
		fail "commprof export failed"
	awk -F, 'NR > 1 && $2 ~ /^MPI_(Send|Allreduce)$/ {
		print $2, $1, $12, $21 }' "$T/rows$1.csv" | sort
}

expect_eq "COMMPROF_STACK unset: sites" "$(sites 1)" \
"MPI_Allreduce 0 $(at wrap.c ALL) wrap_allreduce
MPI_Allreduce 1 $(at wrap.c ALL) wrap_allreduce
MPI_Send 0 $(at wrap.c SEND) inner_send"
expect_eq "COMMPROF_STACK=2: sites" "$(sites 2)" \
"MPI_Allreduce 0 $(at app.c APP_ALL) main
MPI_Allreduce 1 $(at app.c APP_ALL) main
MPI_Send 0 $(at wrap.c INNER) wrap_send"
expect_eq "COMMPROF_STACK=3: the Send's site" \
	"$(sites 3 | grep '^MPI_Send')" "MPI_Send 0 $(at app.c APP_SEND) main"
note "COMMPROF_STACK: 1, 2 and 3 frames up through a wrapper library"
