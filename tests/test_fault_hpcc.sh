#!/bin/sh
# test_fault_hpcc.sh - HPC Challenge (Debian package hpcc), its example
# input shrunk to N = 200 on a 1 x 2 grid, on 2 ranks with and without
# the library: the same result lines (HPL's residual check and norms,
# PTRANS's residual, the error counts of RandomAccess and FFT,
# Success=1; not the timings nor StarDGEMM's randomly seeded residual),
# the same exit status, no commprof line, and a summary that accounts
# for every call of the ops hpcc is known to use.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/fault_lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
cp_openmpi_only "Debian's hpcc"
HPCC=$(command -v hpcc) ||
	skip "no hpcc: apt-get install hpcc (scripts/check installs it)"
inf=/usr/share/doc/hpcc/examples/_hpccinf.txt
[ -f "$inf" ] || skip "no $inf (package hpcc without its example input)"

# lines 6 (Ns), 11 and 12 (Ps, Qs) of the HPL input
for d in base prof; do
	mkdir "$T/$d" || fail "mkdir"
	sed -e '6s/^[0-9]* /200 /' -e '11s/^[0-9]* /1 /' \
		-e '12s/^[0-9]* /2 /' "$inf" > "$T/$d/hpccinf.txt"
done
expect_eq "shrunk input" "$(sed -n '6p;11p;12p' "$T/base/hpccinf.txt" |
	awk '{ printf "%s ", $1 }')" "200 1 2 "

# results DIR: the result lines of DIR/hpccoutf.txt
results() {
	grep -E -e '^\|\|Ax-b\|\||residual checks|^Success=' \
		-e '^HPL_[A-Za-z]*norm[1I]=|^PTRANS_residual=' \
		-e '_Errors=|^MPIFFT_maxErr=|^Found [0-9]+ errors' \
		"$1/hpccoutf.txt"
}

(cd "$T/base" && cp_mpirun 120 2 "$HPCC") >"$T/base.out" 2>"$T/base.err"
want_rc=$?
expect_eq "status without preload" "$want_rc" 0
results "$T/base" > "$T/want"
grep -qx 'Success=1' "$T/want" || fail "hpcc failed without the preload"
grep -q 'PASSED' "$T/want" || fail "no HPL residual line"

(cd "$T/prof" && cp_run_preload 120 2 "$T/d" "$HPCC") >"$T/prof.out" \
	2>"$T/err"
got_rc=$?
expect_eq "status" "$got_rc" "$want_rc"
results "$T/prof" > "$T/got"
diff "$T/want" "$T/got" >&2 || fail "result lines differ"
expect_eq "commprof lines" "$(cp_lines "$T/err")" 0

summary_ok "$T/d"
for op in MPI_Sendrecv MPI_Allreduce MPI_Bcast MPI_Alltoall MPI_Isend \
	MPI_Irecv MPI_Barrier; do
	[ "$(op_calls "$T/d" $op)" -gt 0 ] || fail "no $op calls in summary"
done
note "hpcc: $(wc -l < "$T/want") result lines identical;" \
	"$(grep '^calls:' "$T/summary.txt")"
