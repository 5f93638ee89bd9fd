#!/usr/bin/env python3
"""report_db.py SCHEMA DIR [--nopred | --big RANKS ROWS]: write
DIR/commprof.db, a merged
database (db/schema.sql, merged part) with known predictions and errors,
for tests/test_report.sh.  A directory that holds only commprof.db is read
as it is (cp_db_open_dir).  --nopred: the same rows without predictions,
flags, mu or the rank meta keys params, pred_models and pred_note.

Rows (p2p and coll, the rows the report looks at):
  rank 0 MPI_Send  x11  1000 B  site 0x1000  mu_lmo 1..11, mu_hockney 3
  rank 1 MPI_Bcast x2   4096 B  site 0x1100  mu_log3p 1.5, 2.5; mu_loggp 4
  rank 1 MPI_Gather x1    64 B  site 0x1200  CP_PF_LMO_ESCAL, no LMO
  rank 1 MPI_Gather x1    32 B  site 0x1200  CP_PF_LMO_FAILED, no LMO
  rank 0,1 MPI_Send x3   128 B  site 0x2000  strided (vector), flagged
        CP_PF_L3_LMW_LARGEST: log3p 10, 20, 30 us, l_mw 6, 12, 18 us
  rank 1 MPI_Recv  x1   128 B  site 0x2100  the receive of a strided send,
        flagged as well (CP_F_RECV): a message is listed by its send
  rank 0 MPI_Send  x1   128 B  site 0x3000  contiguous, flagged as well
  rank 0 MPI_Wait  x1                       completion: not a p2p row

--big RANKS ROWS: a run of that size instead, made by SQL in SQLite
(tests/test_html_size.sh): every rank sends to the next and receives from
the previous in turn, sizes 1 B to 32 KiB, a strided layout on one send
in eight, every row matched and predicted by every model, the
aggregates to match; an MPI_Bcast from rank 0 every 64th row.
"""
import os
import re
import sqlite3
import sys

PF_ON, PF_ESCAL, PF_LMW, PF_FAILED = 0x1, 0x4, 0x80, 0x400
F_RECV = 0x400
OPS = [(1, "MPI_Send", "blocking", "p2p"), (2, "MPI_Bcast", "blocking", "coll"),
       (3, "MPI_Gather", "blocking", "coll"), (4, "MPI_Wait", "completion",
                                                "completion"),
       (5, "MPI_Recv", "blocking", "p2p")]


def model_names(schema):
    """The models of CP_MODEL_MAP in src/common/cp_row.h, in order."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(schema)))
    text = open(os.path.join(top, "src", "common", "cp_row.h")).read()
    body = text.split("#define CP_MODEL_MAP(X)")[1].split("\n\n")[0]
    return re.findall(r"X\(\s*\w+\s*,\s*(\w+)\s*\)", body)


def schema_version(schema):
    """CP_DB_SCHEMA_VERSION of db/cp_db.h, as a string."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(schema)))
    text = open(os.path.join(top, "db", "cp_db.h")).read()
    return re.search(r"#define CP_DB_SCHEMA_VERSION (\d+)", text).group(1)


def merged_schema(path, models):
    """The merged part of the schema, "-- @each_model" lines expanded as
    db/local.mk does."""
    text = open(path).read()
    part = text.split("-- @merged\n")[1].split("-- @indexes\n")[0]
    out = []
    for line in part.splitlines(True):
        m = re.match(r"(\s*)-- @each_model (.*)$", line)
        out += ([m.group(1) + m.group(2).replace("%", n) + "\n"
                 for n in models] if m else [line])
    return "".join(out)


def big_rows(models):
    """The SQL that writes the rows of --big: model k (of CP_MODEL_MAP)
    predicts (900 + 50 k') + (0.4 + 0.05 k') ns per byte, k' = k mod 5,
    against a transfer time of 450 + bytes / 2 ns."""
    pred = ["(%d + bytes * %.2f)" % (900 + 50 * (k % 5), 0.4 + 0.05 * (k % 5))
            for k in range(len(models))]
    sql = """
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n
                        WHERE i < :rows - 1),
r AS (SELECT i, i % :ranks AS rank, i / :ranks AS seq,
             CASE WHEN i % 64 = 63 THEN 2
                  WHEN (i / :ranks) % 2 = 0 THEN 1 ELSE 5 END AS op,
             1 << ((i / :ranks) % 16) AS bytes FROM n)
INSERT INTO calls (rank, seq, op, thread, peer, root, comm, layout, flags,
                   bytes, count, site, t_start_ns, t_measured_ns,
                   @PRED_COLS@, pred_lmw_ns, pred_flags, t_transfer_ns,
                   @MU_COLS@)
SELECT rank, seq, op, 0,
       CASE op WHEN 1 THEN (rank + 1) % :ranks
               WHEN 5 THEN (rank + :ranks - 1) % :ranks END,
       CASE op WHEN 2 THEN 0 END, 0,
       CASE WHEN op = 1 AND seq % 8 = 0 THEN 1 ELSE 0 END,
       CASE op WHEN 5 THEN 1024 ELSE 0 END, bytes, bytes / 8,
       4096 + 16 * op + (seq % 4), 1000 * seq + rank % 50,
       500 + bytes / 2, @PREDS@,
       CASE WHEN op = 1 AND seq % 8 = 0 THEN 2000 + bytes END,
       CASE WHEN op = 1 AND seq % 8 = 0 THEN 129 ELSE 1 END,
       450 + bytes / 2, @MUS@
FROM r
"""
    return (sql.replace("@PRED_COLS@", ", ".join("pred_%s_ns" % m
                                                 for m in models))
            .replace("@MU_COLS@", ", ".join("mu_%s" % m for m in models))
            .replace("@PREDS@", ", ".join(pred))
            .replace("@MUS@", ", ".join("%s / (450 + bytes / 2)" % p
                                        for p in pred)))


def big(db, models, ranks, nrows, version):
    """A run of ranks x nrows rows (see the file comment)."""
    db.executemany("INSERT INTO meta VALUES (?, ?)", {
        "schema_version": version, "kind": "merged", "ranks": str(ranks),
        "rank_files": "0", "matched": "1"}.items())
    db.executemany("INSERT INTO rank_meta VALUES (?, ?, ?)", [
        (r, k, v) for r in range(ranks) for k, v in (
            ("rank", str(r)), ("size", str(ranks)),
            ("app_time_ns", str((nrows // ranks) * 10000)),
            ("params", "/nonexistent/big.params"),
            ("pred_models", ",".join(models)), ("pred_note", ""))])
    db.executemany("INSERT INTO ops VALUES (?, ?, ?, ?)", OPS)
    db.executemany("INSERT INTO layouts VALUES (?,?,?,?,?,?,?,?,?,?)", [
        (r, i, 1 - i, 0, 8, 8 + 56 * i, 8, 64 if i else None, 1,
         "vector(16,1,8) of MPI_DOUBLE" if i else None)
        for r in range(ranks) for i in (0, 1)])
    db.execute(big_rows(models), {"rows": nrows, "ranks": ranks})
    db.execute("INSERT INTO aggs SELECT rank, site, op, peer, 0, layout,"
               " count(*), sum(bytes), sum(t_measured_ns),"
               " min(t_measured_ns), max(t_measured_ns), count(*)"
               " FROM calls GROUP BY rank, site, op, peer, layout")
    db.execute("CREATE INDEX calls_rank_seq ON calls (rank, seq)")


def main():
    schema, out = sys.argv[1], sys.argv[2]
    nopred = "--nopred" in sys.argv
    os.makedirs(out, exist_ok=True)
    db = sqlite3.connect(os.path.join(out, "commprof.db"))
    models = model_names(schema)
    db.executescript(merged_schema(schema, models))
    if "--big" in sys.argv:
        i = sys.argv.index("--big")
        big(db, models, int(sys.argv[i + 1]), int(sys.argv[i + 2]),
            schema_version(schema))
        db.commit()
        db.close()
        return
    meta = {"schema_version": schema_version(schema), "kind": "merged",
            "ranks": "2",
            "rank_files": "0"}
    if not nopred:
        meta.update(matched="1", match_p2p_rows="11", match_coll_rows="2",
                    match_p2p_left="4", match_coll_left="1",
                    match_note="4 sends had no receive")
    db.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
    for r in (0, 1):
        rm = {"rank": str(r), "size": "2", "app_time_ns": "10000000"}
        if not nopred:
            # rank 0 made MPI calls from 3 threads (without predictions:
            # no threads key, as in files of older versions)
            rm.update(params="/tmp/cluster.params",
                      pred_models=",".join(models), pred_note="",
                      threads=str(3 - 2 * r))
        db.executemany("INSERT INTO rank_meta VALUES (?, ?, ?)",
                       [(r, k, v) for k, v in rm.items()])
    db.executemany("INSERT INTO ops VALUES (?, ?, ?, ?)", OPS)
    db.executemany("INSERT INTO layouts VALUES (?,?,?,?,?,?,?,?,?,?)", [
        (r, 0, 1, 0, 8, 8, 8, None, 1, None) for r in (0, 1)] + [
        (r, 1, 0, 0, 128, 968, 8, 64, 16, "vector(16,1,8) of MPI_DOUBLE")
        for r in (0, 1)])
    rows = []
    seq = {0: 0, 1: 0}

    def add(rank, op, nbytes, site, layout, flags, pred, lmw=None,
            t_tr=None, mu=None, peer=None, root=None, callflags=0):
        pred = pred or {}
        mu = mu or {}
        if nopred:
            pred, mu, lmw, flags = {}, {}, None, 0
        rows.append(dict(
            rank=rank, seq=seq[rank], op=op, thread=0, peer=peer, root=root,
            comm=0, layout=layout, flags=callflags, bytes=nbytes, count=nbytes // 8,
            site=site, t_start_ns=1000 * seq[rank], t_measured_ns=500,
            pred_lmw_ns=lmw, pred_flags=flags,
            t_transfer_ns=t_tr if mu else None,
            **{"pred_%s_ns" % m: pred.get(m) for m in models},
            **{"mu_%s" % m: mu.get(m) for m in models}))
        seq[rank] += 1

    for i in range(11):
        add(0, 1, 1000, 0x1000, 0, PF_ON, {"lmo": 1000.0 * (i + 1),
                                          "hockney": 3000.0}, t_tr=1000,
            mu={"lmo": float(i + 1), "hockney": 3.0}, peer=1)
    for m in (1.5, 2.5):
        add(1, 2, 4096, 0x1100, 0, PF_ON, {"log3p": 1000 * m,
                                          "loggp": 4000.0}, t_tr=1000,
            mu={"log3p": m, "loggp": 4.0}, root=0)
    add(1, 3, 64, 0x1200, 0, PF_ON | PF_ESCAL, {}, root=0)
    add(1, 3, 32, 0x1200, 0, PF_ON | PF_FAILED, {}, root=0)
    for rank, t in ((0, 10000.0), (0, 20000.0), (1, 30000.0)):
        add(rank, 1, 128, 0x2000, 1, PF_ON | PF_LMW,
            {"log3p": t, "lmo": 5000.0}, lmw=0.6 * t, peer=1 - rank)
    add(1, 5, 128, 0x2100, 1, PF_ON | PF_LMW, {"log3p": 30000.0},
        lmw=18000.0, peer=0, callflags=F_RECV)
    add(0, 1, 128, 0x3000, 0, PF_ON | PF_LMW, {"log3p": 9000.0},
        lmw=5000.0, peer=1)
    add(0, 4, 0, 0x4000, None, 0, {})
    cols = list(rows[0])
    db.executemany("INSERT INTO calls (%s) VALUES (%s)" % (
        ",".join(cols), ",".join("?" * len(cols))),
        [[r[c] for c in cols] for r in rows])
    aggs = {}
    for r in rows:
        k = (r["rank"], r["site"], r["op"])
        a = aggs.setdefault(k, [0, 0, 0])
        a[0] += 1
        a[1] += r["bytes"]
        a[2] += r["t_measured_ns"]
    db.executemany("INSERT INTO aggs VALUES (?,?,?,NULL,0,NULL,?,?,?,0,0,?)",
                   [k + (a[0], a[1], a[2], a[0]) for k, a in aggs.items()])
    db.commit()
    db.close()


main()
