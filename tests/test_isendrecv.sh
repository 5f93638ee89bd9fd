#!/bin/sh
# test_isendrecv.sh - MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace
# (MPICH 4): one request completes two rows, its send and its receive
# half, as MPI_Sendrecv gives them (peer, tag, bytes, flags) but flagged
# nonblock, whether MPI_Wait, MPI_Test or MPI_Waitall completes it; the
# large-count bindings are flagged large; the receive half is recorded
# as posted (MPICH 4.0 completes an Isendrecv with an empty status:
# source 0, tag 0, no bytes), so one from MPI_ANY_SOURCE keeps that
# peer.  The application's output and exit status are those it has
# without the library.
# tests/test_isendrecv.c on 2 ranks; skipped under an MPI without
# MPI_Isendrecv (Open MPI 4.1).
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
"$MPICC" -g -O0 -o "$T/test_isendrecv" \
	"$top_srcdir/tests/test_isendrecv.c" ||
	fail "cannot compile test_isendrecv.c"
cp_mpirun 60 2 "$T/test_isendrecv" >"$T/plain.out" 2>&1
plain=$?
if [ "$plain" = 0 ] &&
   [ "$(cat "$T/plain.out")" = "test_isendrecv: no MPI_Isendrecv" ]; then
	skip "this MPI has no MPI_Isendrecv"
fi
expect_eq "output" "$(cat "$T/plain.out")" "test_isendrecv: done"
cp_run_preload 60 2 "$T/out" "$T/test_isendrecv" >"$T/pre.out" 2>&1
expect_eq "exit status with the library" "$?" "$plain"
expect_eq "output with the library" "$(cat "$T/pre.out")" \
	"$(cat "$T/plain.out")"
"$COMMPROF" export "$T/out" --format csv >"$T/rows.csv" ||
	fail "commprof export failed"
"$PYTHON3" - "$T/rows.csv" <<'PYEOF' || fail "rows of MPI_Isendrecv (see above)"
import collections, csv, sys

rows = list(csv.DictReader(open(sys.argv[1])))
bad = []


def flags(r, drop=()):
    return "|".join(sorted(set(r["flags"].split("|")) - {""} - set(drop)))


def keys(op, tags, drop=()):
    return collections.Counter(
        (r["rank"], r["peer"], r["tag"], r["bytes"], flags(r, drop))
        for r in rows if r["op"] == op and r["tag"] in tags)


for blocking, nb, tag in (("MPI_Sendrecv", "MPI_Isendrecv", "7"),
                          ("MPI_Sendrecv_replace", "MPI_Isendrecv_replace",
                           "8")):
    want = keys(blocking, (tag,))
    got = keys(nb, (tag,), ("nonblock",))
    if sum(want.values()) != 4:
        bad.append("%s: %d rows, want 4 (2 ranks x send, half)" %
                   (blocking, sum(want.values())))
    if got != want + want:
        bad.append("%s, each twice: %s; %s: %s" % (blocking, sorted(want),
                                                   nb, sorted(got)))
    every = {flags(r) for r in rows if r["op"] == nb and r["tag"] == tag}
    if not all("nonblock" in f.split("|") for f in every):
        bad.append("%s rows not flagged nonblock: %s" % (nb, every))
for op, tag in (("MPI_Isendrecv", "9"), ("MPI_Isendrecv_replace", "10")):
    got = sorted((r["rank"], flags(r)) for r in rows
                 if r["op"] == op and r["tag"] == tag)
    want = sorted((k, f) for k in "01" for f in (
        "large|nonblock", "half|large|nonblock|recv"))
    if got != want:
        bad.append("%s_c: %s, want %s" % (op, got, want))
# the receive half as posted (8 ints from anyone), the send as made
got = sorted((r["rank"], r["peer"], r["bytes"], flags(r)) for r in rows
             if r["op"] == "MPI_Isendrecv" and
             (r["tag"] == "11" or "anysrc" in r["flags"]))
want = sorted([(k, str(1 - int(k)), "8", "nonblock") for k in "01"] +
              [(k, "MPI_ANY_SOURCE", "32", "anysrc|anytag|half|nonblock|recv")
               for k in "01"])
if got != want:
    bad.append("MPI_ANY_SOURCE: %s, want %s" % (got, want))
print("# %d rows of MPI_Isendrecv and MPI_Isendrecv_replace" %
      sum(r["op"].startswith("MPI_Isendrecv") for r in rows))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PYEOF
note "MPI_Isendrecv: a send row and a receive half per request"
