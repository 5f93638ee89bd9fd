#!/bin/sh
# test_record_f.sh - Fortran bindings: tests/test_record_f.f90 (use mpi),
# the same program with include 'mpif.h' (test_record_fh, made here) and,
# where the compiler has the module, test_record_f08.f90 (use mpi_f08) on
# 2 ranks under the preload, with the MPI of the build.  Their "! expect" lines become
# the manifest of record_check.py; every row must carry the fortran flag,
# MPI_IN_PLACE must reach MPI intact (the programs check the result), and
# the rank files must be complete after the Fortran MPI_Finalize.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
command -v "$MPIFC" >/dev/null 2>&1 || skip "no $MPIFC"
command -v sqlite3 >/dev/null 2>&1 || fail "no sqlite3"
fbit=$(sed -n 's/^#define CP_F_FORTRAN[ \t]*\(0x[0-9a-fA-F]*\).*/\1/p' \
	"$top_srcdir/src/common/cp_row.h")
[ -n "$fbit" ] || fail "no CP_F_FORTRAN in cp_row.h"
fbit=$((fbit))

# manifest SRC DIR: the "! expect R:" lines of SRC as expect-R.tsv
manifest() {
	"$PYTHON3" - "$1" "$2" <<'PYEOF'
import sys
src, out = sys.argv[1:3]
rows = {0: [], 1: []}
for n, line in enumerate(open(src), 1):
    s = line.strip()
    if not s.startswith("! expect "):
        continue
    who, rest = s[len("! expect "):].split(":", 1)
    f = rest.split()
    assert len(f) == 11, line
    row = "\t".join(f[:10] + [str(n + 1), f[10]])
    for r in rows:
        if who == "*" or who == str(r):
            rows[r].append(row)
for r, lines in rows.items():
    with open("%s/expect-%d.tsv" % (out, r), "w") as fh:
        fh.write("".join(l + "\n" for l in lines))
PYEOF
}

# include 'mpif.h' comes after implicit none, in place of the use line:
# the line numbers stay those of the expect lines
sed -e "/^  use mpi$/d" \
	-e "s/^  implicit none$/&\n  include 'mpif.h'/" \
	-e 's/program test_record_f$/program test_record_fh/' \
	"$top_srcdir/tests/test_record_f.f90" > "$T/test_record_fh.f90"
grep -q "^  include 'mpif.h'$" "$T/test_record_fh.f90" || fail "no mpif.h"

want_out="allreduce 84 bcast 32"
ran=0
for prog in test_record_f test_record_fh test_record_f08; do
	src="$top_srcdir/tests/$prog.f90"
	[ "$prog" != test_record_fh ] || src="$T/$prog.f90"
	# mpif.h declares no interfaces: gfortran >= 10 needs leave to pass
	# one buffer as INTEGER here and DOUBLE PRECISION there
	fl=
	[ "$prog" != test_record_fh ] || fl=-fallow-argument-mismatch
	if ! "$MPIFC" -g -O0 $fl -J "$T" -o "$T/$prog" "$src" \
		2>"$T/cc.err"; then
		[ "$prog" = test_record_f08 ] || fail "cannot compile $prog"
		note "$prog does not compile here: skipped"
		continue
	fi
	mkdir "$T/m-$prog" || fail "mkdir"
	manifest "$src" "$T/m-$prog" || fail "$prog: manifest"
	out=$(cp_run_preload 60 2 "$T/o-$prog" "$T/$prog") ||
		fail "$prog: exited with status $?"
	expect_eq "$prog: stdout" "$out" "$want_out"
	"$COMMPROF" export "$T/o-$prog" --format csv > "$T/$prog.csv" ||
		fail "$prog: commprof export failed"
	"$PYTHON3" "$top_srcdir/tests/record_check.py" "$T/$prog.csv" \
		"$T/m-$prog" 2 "$prog.f90" "$top_srcdir/src/common/cp_row.h" ||
		fail "$prog: rows differ"
	for r in 00000 00001; do
		db="$(cp_run_of "$T/o-$prog")/rank-$r.db"
		n=$(sqlite3 "$db" "select count(*) from calls") ||
			fail "$prog: cannot read $db"
		[ "$n" -gt 0 ] || fail "$prog: no calls in $db"
		n=$(sqlite3 "$db" \
			"select count(*) from calls where (flags & $fbit) = 0")
		expect_eq "$prog: rank $r rows without the fortran flag" "$n" 0
		# written by the Fortran MPI_Finalize, the last thing we do
		n=$(sqlite3 "$db" \
			"select count(*) from meta where key = 'app_time_ns'")
		expect_eq "$prog: rank $r app_time_ns after finalize" "$n" 1
	done
	ran=$((ran + 1))
done
note "$ran Fortran programs checked"
