"""match_check.py - check the matching of a tests/test_match.c run in
`commprof export --format csv` and the merged meta table.

usage: match_check.py CSV COMMPROF_DB SLEEP_S

Every message and collective row of the program has t_transfer and
t_wait; both rows of a pair carry the same values; the late side of
tag 1 is the sender and of tag 2 the receiver, each with t_wait of at
least 5/6 of the sleep; the late-sender receive's t_transfer is a small
part of its t_measured; the MPI_ANY_SOURCE receive pairs with rank 1;
MPI_Bcast and MPI_Allreduce have an entry skew of at least 5/6 of the
sleep; mu is empty exactly where a prediction is; the meta table counts
every row as matched.  Exit status 0 when all hold.
"""
import csv
import sqlite3
import sys

P2P = {"MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Sendrecv"}
COLL = {"MPI_Barrier", "MPI_Bcast", "MPI_Allreduce"}


def fnum(v):
    return float(v) if v != "" else None


def main():
    path, dbpath, sleep_s = sys.argv[1], sys.argv[2], float(sys.argv[3])
    rd = csv.DictReader(open(path))
    rows = list(rd)
    errors = []
    # one mu_<model> column per model (src/common/cp_row.h)
    models = [c[len("mu_"):] for c in rd.fieldnames if c.startswith("mu_")]

    def check(ok, what):
        if not ok:
            errors.append(what)

    check(models, "no mu_<model> column in the export")
    mine = [r for r in rows if r["op"] in P2P | COLL]
    for r in mine:
        what = "rank %s %s tag %s seq %s" % (r["rank"], r["op"], r["tag"],
                                             r["seq"])
        check(r["t_transfer"] != "" and r["t_wait"] != "",
              what + ": no t_transfer/t_wait")
        if r["t_transfer"] != "":
            check(float(r["t_transfer"]) >= 0, what + ": t_transfer < 0")
        for m in models:
            check((r["mu_" + m] == "") ==
                  (r["pred_" + m] == "" or r["t_transfer"] == "" or
                   float(r["pred_" + m]) <= 0),
                  what + ": mu_%s without prediction or the reverse" % m)
            if r["mu_" + m] != "":
                check(float(r["mu_" + m]) >= 1, what + ": mu < 1")

    msgs = [r for r in mine if r["op"] in P2P]
    colls = [r for r in mine if r["op"] in COLL]
    check(len(msgs) == 14, "%d message rows, want 14" % len(msgs))
    check(len(colls) == 18, "%d collective rows, want 18" % len(colls))

    def half(tag, rank, recv=None):
        got = [r for r in msgs if r["tag"] == str(tag) and
               r["rank"] == str(rank) and
               (recv is None or ("recv" in r["flags"].split("|")) == recv)]
        check(len(got) == 1, "tag %d rank %d: %d rows" % (tag, rank,
                                                         len(got)))
        return got[0] if got else None

    pairs = {t: (half(t, 0), half(t, 1)) for t in (1, 2, 3, 4, 6)}
    pairs["5a"] = (half(5, 0, False), half(5, 1, True))
    pairs["5b"] = (half(5, 1, False), half(5, 0, True))
    for t, (a, b) in pairs.items():
        if not a or not b:
            continue
        check(a["t_transfer"] == b["t_transfer"] and
              a["t_wait"] == b["t_wait"] and a["late"] == b["late"],
              "tag %s: the two halves differ: %s/%s %s/%s %s/%s" %
              (t, a["t_transfer"], b["t_transfer"], a["t_wait"],
               b["t_wait"], a["late"], b["late"]))

    least = sleep_s * 5 / 6
    s, r = pairs[1]
    if s and r:
        check(r["late"] == "sender", "tag 1: late %r, want sender" %
              r["late"])
        check(fnum(r["t_wait"]) >= least, "tag 1: t_wait %s < %g" %
              (r["t_wait"], least))
        check(fnum(r["t_measured"]) >= least and
              fnum(r["t_transfer"]) < fnum(r["t_measured"]) / 5,
              "tag 1: receive t_transfer %s not much below t_measured %s" %
              (r["t_transfer"], r["t_measured"]))
    r, s = pairs[2]
    if s and r:
        check(r["late"] == "receiver", "tag 2: late %r, want receiver" %
              r["late"])
        check(fnum(r["t_wait"]) >= least, "tag 2: t_wait %s < %g" %
              (r["t_wait"], least))
    r = pairs[6][0]
    if r:
        check(r["peer"] == "1" and "anysrc" in r["flags"].split("|"),
              "tag 6: any-source receive peer %s flags %s" %
              (r["peer"], r["flags"]))

    for op in ("MPI_Bcast", "MPI_Allreduce"):
        got = [c for c in colls if c["op"] == op]
        check(len(got) == 2, "%s: %d rows" % (op, len(got)))
        check(len({(c["t_transfer"], c["t_wait"]) for c in got}) == 1,
              "%s: ranks differ in t_transfer or t_wait" % op)
        for c in got:
            check(c["t_wait"] != "" and fnum(c["t_wait"]) >= least,
                  "%s: entry skew %s < %g" % (op, c["t_wait"], least))

    meta = dict(sqlite3.connect(dbpath).execute("SELECT key, value "
                                                "FROM meta"))
    want = {"matched": "1", "match_p2p_rows": "14",
            "match_coll_rows": "18", "match_p2p_left": "0",
            "match_coll_left": "0"}
    for k, v in want.items():
        check(meta.get(k) == v, "meta %s = %r, want %r" % (k, meta.get(k),
                                                           v))
    check("match_note" not in meta, "meta match_note: %r" %
          meta.get("match_note"))

    for e in errors:
        print("match_check: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
