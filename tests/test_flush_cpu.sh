#!/bin/sh
# test_flush_cpu.sh - where the flusher runs.  tests/flush_cpu.c binds
# its main thread to one CPU before MPI_Init, as a launcher binds a rank
# to a core; by default (COMMPROF_FLUSH_CPU=socket) its flusher, the
# thread named "commprof", may then run on every CPU of that CPU's
# socket that this job may use (here: the CPUs of the test's own shell),
# so that the rank does not share its core with it; with
# COMMPROF_FLUSH_CPU=rank it stays on the rank's CPU; an unbound rank's
# flusher (the app undoes the launcher's binding) keeps the rank's CPUs.  The main thread's CPUs are never
# changed.  Needs two CPUs.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
"$MPICC" -O1 -o "$T/app" "$top_srcdir/tests/flush_cpu.c" ||
	fail "cannot build tests/flush_cpu.c"

# expand "0-2,5" into "0 1 2 5"
expand() {
	printf '%s\n' "$1" | tr ',' '\n' | awk -F- '
		{ hi = NF > 1 ? $2 : $1; for (c = $1; c <= hi; c++) print c }' |
		sort -n | tr '\n' ' '
}
pkg() {
	cat "/sys/devices/system/cpu/cpu$1/topology/physical_package_id" \
		2>/dev/null || echo -1
}
allowed=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status)
set -- $(expand "$allowed")
[ $# -ge 2 ] || skip "this job may use $# CPU: nothing to move the flusher to"

# run NAME FLUSH_CPU [ARG]: the app's three lines into $T/NAME.out
run() {
	local name=$1 arg=${3:-}

	COMMPROF_FLUSH_CPU=$2 cp_run_preload 60 1 "$T/o-$name" \
		-x COMMPROF_FLUSH_CPU "$T/app" $arg \
		>"$T/$name.out" 2>"$T/$name.err" ||
		fail "$name: exit status $?: $(tail -3 "$T/$name.err")"
	[ ! -s "$T/$name.err" ] ||
		fail "$name: said something: $(head -3 "$T/$name.err")"
}
field() {	# field NAME KEY
	awk -v k="$2" '$1 == k { print $2 }' "$T/$1.out"
}

run socket ""
first=$(field socket first)
want=""
for c in "$@"; do
	[ "$(pkg "$c")" = "$(pkg "$first")" ] && want="$want$c "
done
expect_eq "default: the main thread's CPUs" \
	"$(expand "$(field socket main)")" "$first "
expect_eq "default: the flusher's CPUs (CPU $first's socket, of $allowed)" \
	"$(expand "$(field socket flusher)")" "$want"

run rank rank
expect_eq "COMMPROF_FLUSH_CPU=rank: the flusher's CPUs" \
	"$(expand "$(field rank flusher)")" "$(field rank first) "

run nobind socket nobind
expect_eq "unbound: the flusher's CPUs are the rank's" \
	"$(expand "$(field nobind flusher)")" \
	"$(expand "$(field nobind main)")"
note "flusher: CPUs $(field socket flusher) for a rank on CPU $first, $(field rank flusher) with rank, $(field nobind flusher) unbound"
