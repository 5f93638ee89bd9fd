#!/bin/sh
# test_rebuild.sh - callsites are checked by build id: examples/ring.c
# built with -g, profiled, then rebuilt with two more lines at its top
# (its code moves) before commprof reads the run.  Before the rebuild
# the MPI_Sendrecv callsites are ring.c:LINE; after it, no ring.c line at
# all (every site of the rebuilt module is module+offset: a line of the
# new build would name other code) and one note on stderr names the
# module.  The rank files carry the module's build id.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
src="$top_srcdir/examples/ring.c"
cp "$src" "$T/ring.c" || fail "cp"
"$MPICC" -g -O0 -o "$T/ring" "$T/ring.c" || fail "cc"
cp_run_preload 60 2 "$T/d" "$T/ring" 2 >/dev/null || fail "run"

sites() {	# sites: distinct MPI_Sendrecv callsites of the export
	"$COMMPROF" export "$T/d" --format csv 2>"$T/err" | "$PYTHON3" -c '
import csv, sys
print(" ".join(sorted({r["callsite"] for r in csv.DictReader(sys.stdin)
                       if r["op"] == "MPI_Sendrecv"})))'
}
want=$(grep -n 'MPI_Sendrecv(' "$T/ring.c" | cut -d: -f1 |
	sed 's/^/ring.c:/' | sort | tr '\n' ' ')
expect_eq "before: sites" "$(sites) " "$want"
expect_eq "before: stderr" "$(cat "$T/err")" ""
run=$(cp_run_of "$T/d")
id=$(sqlite3 "$run/rank-00000.db" \
	"select build_id from modules where path = '$T/ring'") ||
	fail "cannot read modules"
[ -n "$id" ] || fail "no build id recorded for $T/ring"

# the same program, its code two lines and a function further down
{ echo 'static int cp_pad(int x) { return x + 1; }'
  echo 'int cp_use(int x) { return cp_pad(x); }'
  cat "$src"; } > "$T/ring.c"
"$MPICC" -g -O0 -o "$T/ring" "$T/ring.c" || fail "cc again"
rm -f "$run/commprof.db"
got=$(sites)
case $got in
*ring.c:*) fail "after rebuild: a line of the new build: $got" ;;
ring+0x*" "ring+0x*) ;;
*) fail "after rebuild: site '$got', want ring+0x..." ;;
esac
expect_eq "after: note" "$(cat "$T/err")" "commprof: note: $T/ring is not \
the build that ran (its build id differs): its callsites are module+offset"
note "build id $id; after the rebuild: $got"
