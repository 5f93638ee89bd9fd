#!/bin/sh
# test_large.sh - MPI-4 large-count bindings (MPI_X_c, where mpi.h has
# them: MPICH 4): each is recorded as the call it binds (MPI_X), flagged
# "large", with the row its int binding gives for the same arguments
# (point-to-point, collective, one-sided and file calls alike);
# a count over 2^31 is kept whole; the application's output and exit
# status are those it has without the library.  tests/test_large.c on 2
# ranks, then tests/test_large_f08.f90 (use mpi_f08, MPICH's Fortran
# large-count bindings); skipped under an MPI without the bindings (Open
# MPI 4.1).
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
"$MPICC" -g -O0 -o "$T/test_large" "$top_srcdir/tests/test_large.c" ||
	fail "cannot compile test_large.c"
cp_mpirun 120 2 "$T/test_large" "$T/plain.dat" >"$T/plain.out" 2>&1
plain=$?
if [ "$plain" = 0 ] &&
   [ "$(cat "$T/plain.out")" = "test_large: no large-count bindings" ]; then
	skip "this MPI has no MPI-4 large-count bindings"
fi
expect_eq "output" "$(cat "$T/plain.out")" "test_large: done"
cp_run_preload 120 2 "$T/out" "$T/test_large" "$T/pre.dat" \
	>"$T/pre.out" 2>&1
expect_eq "exit status with the library" "$?" "$plain"
expect_eq "output with the library" "$(cat "$T/pre.out")" \
	"$(cat "$T/plain.out")"
"$COMMPROF" export "$T/out" --format csv >"$T/rows.csv" ||
	fail "commprof export failed"
PYTHONDONTWRITEBYTECODE=1 "$PYTHON3" - "$T/rows.csv" \
	"$top_srcdir/pmpi/gen_wrappers.py" "$top_srcdir/pmpi/mpi_calls.def" \
	"$top_srcdir/tests/test_large.c" \
	<<'PYEOF' || fail "rows of the large-count bindings (see above)"
import collections, csv, importlib.util, re, sys

spec = importlib.util.spec_from_file_location("gen", sys.argv[2])
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
# the MPI_X_c test_large.c makes whose MPI_X the table wraps, but for a
# window's making (no row): each must be wrapped, its rows flagged
table = {e.name: e for e in gen.parse(sys.argv[3])}
made = set(re.findall(r"\b(MPI_\w+)_c\s*\(", open(sys.argv[4]).read()))
want = {x for x in made if x in table and "winnew" not in table[x].roles}
rows = list(csv.DictReader(open(sys.argv[1])))
BIG = 2**31 + 8
bad = []


def flags(r):
    return set(r["flags"].split("|")) - {""}


def key(r):
    return (r["rank"], r["op"], r["peer"], r["root"], r["bytes"],
            r["count"], "|".join(sorted(flags(r) - {"large"})))


large = [r for r in rows if "large" in flags(r) and int(r["bytes"]) != BIG]
if any(r["op"].endswith("_c") for r in rows):
    bad.append("a row named with _c: %s" % sorted(
        {r["op"] for r in rows if r["op"].endswith("_c")}))
seen = {r["op"] for r in large}
if seen != want:
    bad.append("flagged large: %s missing, %s not in the table" % (
        sorted(want - seen), sorted(seen - want)))
# each large row has its twin made through the int binding
small = [r for r in rows if "large" not in flags(r) and r["op"] in seen]
a = collections.Counter(key(r) for r in large)
b = collections.Counter(key(r) for r in small)
for k in sorted(set(a) | set(b)):
    if a[k] != b[k]:
        bad.append("rank %s %s peer %s root %s bytes %s count %s [%s]: "
                   "%d large, %d int" % (k + (a[k], b[k])))
big = sorted((r["rank"], r["op"], r["count"], "large" in flags(r))
             for r in rows if int(r["bytes"]) == BIG)
if big != [("0", "MPI_Send", str(BIG), True),
           ("1", "MPI_Recv", str(BIG), True)]:
    bad.append("the message of 2^31 + 8 bytes: %s" % big)
print("# %d large rows, %d calls, each as its int binding's row; "
      "2^31 + 8 bytes: %s" % (len(large), len(seen), big))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
note "large-count bindings: rows of the call they bind, flagged large"

# use mpi_f08 with counts of kind MPI_COUNT_KIND: rows flagged fortran
# and large, at the program's own lines
command -v "$MPIFC" >/dev/null 2>&1 || skip "no $MPIFC (the C part passed)"
src="$top_srcdir/tests/test_large_f08.f90"
"$MPIFC" -g -O0 -J "$T" -o "$T/test_large_f08" "$src" ||
	fail "cannot compile test_large_f08.f90"
cp_run_preload 60 2 "$T/outf" "$T/test_large_f08" >"$T/f.out" 2>&1 ||
	fail "test_large_f08 with the library: exit status $?"
expect_eq "Fortran output" "$(cat "$T/f.out")" "test_large_f08: done"
"$COMMPROF" export "$T/outf" --format csv >"$T/f.csv" ||
	fail "commprof export failed"
line() { grep -n "call $1(" "$src" | cut -d: -f1; }
got=$(awk -F, 'NR > 1 && $2 ~ /^MPI_(Send|Recv|Allreduce)$/ {
		n = split($12, p, ":"); print $1, $2, $7, $18, p[n] }' \
	"$T/f.csv" | sort)
want="0 MPI_Allreduce 12 fortran|large $(line MPI_Allreduce)
0 MPI_Send 48 fortran|large $(line MPI_Send)
1 MPI_Allreduce 12 fortran|large $(line MPI_Allreduce)
1 MPI_Recv 48 fortran|recv|large $(line MPI_Recv)"
expect_eq "Fortran rows: rank, op, bytes, flags, line" "$got" "$want"
note "use mpi_f08 large-count bindings: flagged fortran and large"
