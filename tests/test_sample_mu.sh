#!/bin/sh
# test_sample_mu.sh - sampling by message identity keeps the accuracy:
# examples/ring on 2 ranks (timed: no rank waits for a core) with a
# quick calibration's predictions, whose rank files are then sampled at
# 10% by the library's own rule (tests/sample_keep: a message by the hash of its identity and place,
# the same at both ends), still reports mu for the messages it kept, all
# of them matched, about one in ten of the run's, and each model's mu_bar
# over them is within 5% of its mu_bar over every message of the same
# run.  On a loaded machine the mean is made by a few preempted
# messages (mu 10^4 to 10^5: one moved a 10% sample's mu_bar by 126%),
# which no sample of 10% can promise to hold: so the 5% bound is
# checked on mu_bar over the rows below the whole run's 99th percentile
# of mu (the same bound for both), and on the plain mu_bar only when 3
# standard errors of a 10% sample's mean, from every row's mu, are
# within 5%.  Where even the rows below p99 spread so that 3 standard
# errors of their sample's mean exceed 5% (MPICH on a loaded host: p99
# of mu in the hundreds), that mean is held to 3 standard errors: the
# sample is unbiased, and no 10% sample promises more.  The sample keeps
# or leaves a message's two rows (and a collective call's) together, and
# their mu move together (one transfer timed at both ends): the standard
# errors are those of a sample of these clusters, not of single rows
# (up to about 1.4 times larger).  The report's mu_bar is the mean of the
# rows it reduced.  A
# job run with COMMPROF_SAMPLE=10 itself matches and reports mu for
# what it kept.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -x "$COMMPROF" ] || fail "no $COMMPROF"
"$PYTHON3" -c 'import sqlite3' 2>/dev/null || skip "python3 without sqlite3"
CAL="$top_builddir/commprof-calibrate"
RING="$top_builddir/examples/ring"
KEEP="$top_builddir/tests/sample_keep"
[ -x "$KEEP" ] || fail "no $KEEP"

cp_mpirun 300 2 "$CAL" --quick -o "$T/c.params" >"$T/cal.out" 2>&1 ||
	fail "calibration: $(tail -3 "$T/cal.out")"
COMMPROF_FINALIZE_MS=0 cp_run_preload 300 2 "$T/o" \
	-x COMMPROF_PARAMS="$T/c.params" -x COMMPROF_FINALIZE_MS \
	"$RING" 6000 >/dev/null 2>"$T/o.err" ||
	fail "ring with commprof: status $?: $(tail -3 "$T/o.err")"
mkdir "$T/all" "$T/s10" || fail "mkdir"
cp "$(cp_run_of "$T/o")"/rank-*.db "$T/all/" || fail "cp"
cp "$T/all"/rank-*.db "$T/s10/" || fail "cp"

# Leave out of $T/s10 the rows COMMPROF_SAMPLE=10 would not have kept:
# the rows of each rank in the order the flusher saw them (seq), named
# as src/lib/cp_flush.c names them (identity()).
# Each row's message (or collective call), "name place" as the rule
# names it, goes to $T/keys: the send and receive rows of one message,
# kept or left together, are one cluster of the sample.
"$PYTHON3" - "$KEEP" "$T/s10" "$T/keys" <<'PY' || fail "sampling the run"
import glob, sqlite3, subprocess, sys
keys = open(sys.argv[3], "w")
NOTMSG = 0x0001 | 0x0040 | 0x0080    # CP_F_PROCNULL, _NOTDONE, _CANCELLED
RECV = 0x0400                          # CP_F_RECV
for path in sorted(glob.glob(sys.argv[2] + "/rank-*.db")):
    c = sqlite3.connect(path)
    me = int(dict(c.execute("SELECT key, value FROM meta"))["rank"])
    cls = dict(c.execute("SELECT id, class FROM ops"))
    rows = c.execute("SELECT seq, op, peer, tag, comm, flags FROM calls "
                     "ORDER BY seq").fetchall()
    assert [r[0] for r in rows] == list(range(len(rows))), path
    names = []
    for seq, op, peer, tag, comm, flags in rows:
        if cls[op] == "coll":
            names.append("%d -1 -1 0" % comm)
        elif (cls[op] == "p2p" and peer is not None and peer >= 0 and
              tag is not None and not flags & NOTMSG):
            s, r = (peer, me) if flags & RECV else (me, peer)
            names.append("%d %d %d %d" % (comm, s, r, tag))
        else:
            names.append("-")
    place = {}
    for (seq, *_), name in zip(rows, names):
        if name == "-":
            keys.write("%d %d r%d.%d\n" % (me, seq, me, seq))
        else:
            place[name] = place.get(name, -1) + 1
            keys.write("%d %d %s.%d\n" % (me, seq, name.replace(" ", ":"),
                                          place[name]))
    keep = subprocess.run([sys.argv[1], "10"], input="\n".join(names) +
                          "\n", capture_output=True, text=True,
                          check=True).stdout.split()
    out = [(r[0],) for r, k in zip(rows, keep) if k == "0"]
    c.executemany("DELETE FROM calls WHERE seq = ?", out)
    c.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                  (("sample", "10"), ("sample_by", "identity"),
                   ("rows_not_kept", str(len(out)))))
    c.commit()
PY
"$COMMPROF" report "$T/all" --format json >"$T/all.json" ||
	fail "report of the run"
"$COMMPROF" report "$T/s10" --format json >"$T/s10.json" ||
	fail "report of the run sampled at 10%"
"$COMMPROF" export "$T/all" --format csv -o "$T/all.csv" ||
	fail "export of the run"
"$COMMPROF" export "$T/s10" --format csv -o "$T/s10.csv" ||
	fail "export of the sampled run"
"$PYTHON3" - "$T/all.json" "$T/s10.json" "$T/all.csv" "$T/s10.csv" \
	"$T/keys" <<'PY' || exit 1
import csv, json, math, re, sys
def left_ok(h):
    # every message row left unmatched is one whose two clocks disagree
    # (its receive ended before its send began: a few ns, the ranks'
    # tick rates, under load); a half sampled away without its mate is
    # left under another note
    m = re.search(r"(\d+) message rows whose receive ended before",
                  h.get("match_note", ""))
    return h["match_p2p_left"] == (int(m.group(1)) if m else 0)
full, s10 = (json.load(open(p)) for p in sys.argv[1:3])
rf, rs = (list(csv.DictReader(open(p))) for p in sys.argv[3:5])
def acc(rep):
    return {a["model"]: (a["rows"], a["mu_bar"])
            for a in rep["accuracy"]["rows"] if a["group"] == "all"}
key = {}
for line in open(sys.argv[5]):
    rank, seq, k = line.split()
    key[rank, seq] = k
def mus(rows, m):
    return [float(r["mu_" + m]) for r in rows if r.get("mu_" + m)]
def keyed(rows, m):
    return [(key[r["rank"], r["seq"]], float(r["mu_" + m]))
            for r in rows if r.get("mu_" + m)]
def mean(v):
    return sum(v) / len(v)
def rel_se(pop, kept, top=math.inf):
    # relative standard error of the mean over the rows (of mu at most
    # top) of a sample that keeps each cluster (a message's two rows,
    # a collective call's rows) with probability f, from the whole run's
    # clusters: a ratio estimator under Poisson sampling, var =
    # (1 - f) / f * sum of (Y_i - R n_i)^2 / N^2
    y, n = {}, {}
    for k, v in pop:
        if v <= top:
            y[k] = y.get(k, 0.0) + v
            n[k] = n.get(k, 0) + 1
    rows, tot = sum(n.values()), sum(y.values())
    r = tot / rows
    f = len([1 for _, v in kept if v <= top]) / rows
    d2 = sum((y[k] - r * n[k]) ** 2 for k in y)
    return math.sqrt((1 - f) / f * d2) / rows / r
hf, hs = full["header"], s10["header"]
assert hs["match_p2p_rows"] > 0 and left_ok(hs), hs
share = hs["match_p2p_rows"] / hf["match_p2p_rows"]
assert 0.05 < share < 0.2, "kept %.3f of the matched rows" % share
af, as_ = acc(full), acc(s10)
assert af and set(af) == set(as_), (af, as_)
off = []
for m in sorted(af):
    f, s = mus(rf, m), mus(rs, m)
    for rep, v in ((af, f), (as_, s)):
        assert rep[m][0] == len(v), (m, rep[m][0], len(v))
        assert abs(rep[m][1] - mean(v)) <= 1e-3 * mean(v), (m, rep[m])
    top = sorted(f)[int(0.99 * (len(f) - 1))]
    tf = mean([v for v in f if v <= top])
    ts = mean([v for v in s if v <= top])
    err99 = abs(ts - tf) / tf
    kf, ks = keyed(rf, m), keyed(rs, m)
    se99 = rel_se(kf, ks, top)
    se = rel_se(kf, ks)
    err = abs(mean(s) - mean(f)) / mean(f)
    print("# %-8s mu_bar %.3f over %d rows, sampled %.3f over %d: %.2f %%"
          " (3 standard errors %.1f %%); below p99 %.2f: %.3f, %.3f: "
          "%.2f %% (3 standard errors %.1f %%)" % (
              m, mean(f), len(f), mean(s), len(s), 100 * err, 300 * se, top,
              tf, ts, 100 * err99, 300 * se99))
    if err99 > max(0.05, 3 * se99):
        off.append("%s below p99 by %.2f %%" % (m, 100 * err99))
    if 3 * se <= 0.05 and err > 0.05:
        off.append("%s by %.2f %%" % (m, 100 * err))
assert not off, "mu_bar off: " + ", ".join(off)
PY

# the job itself sampled at 10%: what it kept is matched and has mu
COMMPROF_FINALIZE_MS=0 COMMPROF_SAMPLE=10 cp_run_preload 300 2 "$T/j" \
	-x COMMPROF_PARAMS="$T/c.params" -x COMMPROF_FINALIZE_MS \
	-x COMMPROF_SAMPLE "$RING" 6000 >/dev/null 2>"$T/j.err" ||
	fail "ring with COMMPROF_SAMPLE=10: status $?: $(tail -3 "$T/j.err")"
"$COMMPROF" report "$T/j" --format json >"$T/j.json" ||
	fail "report of the sampled job"
"$PYTHON3" - "$T/j.json" "$T/all.json" <<'PY' || exit 1
import json, re, sys
def left_ok(h):
    # every message row left unmatched is one whose two clocks disagree
    # (its receive ended before its send began: a few ns, the ranks'
    # tick rates, under load); a half sampled away without its mate is
    # left under another note
    m = re.search(r"(\d+) message rows whose receive ended before",
                  h.get("match_note", ""))
    return h["match_p2p_left"] == (int(m.group(1)) if m else 0)
job, full = (json.load(open(p)) for p in sys.argv[1:3])
h = job["header"]
assert h["match_p2p_rows"] > 0 and left_ok(h), h
share = h["match_p2p_rows"] / full["header"]["match_p2p_rows"]
assert 0.05 < share < 0.2, "the job kept %.3f of the rows" % share
acc = [a for a in job["accuracy"]["rows"] if a["group"] == "all"]
assert acc and all(a["mu_bar"] >= 1 for a in acc), acc
print("# COMMPROF_SAMPLE=10: %d message rows matched (%.1f %%), mu_bar %s"
      % (h["match_p2p_rows"], 100 * share,
         " ".join("%s %.3f" % (a["model"], a["mu_bar"]) for a in acc)))
PY
exit 0
