#!/bin/sh
# test_sample_mu.sh - sampling by message identity keeps the accuracy:
# examples/ring on 4 ranks with a quick calibration's predictions, whose
# rank files are then sampled at 10% by the library's own rule
# (tests/sample_keep: a message by the hash of its identity and place,
# the same at both ends), still reports mu for the messages it kept, all
# of them matched, about one in ten of the run's, and each model's mu_bar
# over them is within 5% of its mu_bar over every message of the same
# run, unless the run's own mu are so spread (a loaded machine: a few
# preempted messages of mu 10^4 make the mean) that no 10% sample can
# promise 5%: then within 3 standard errors of a 10% sample's mean,
# computed from every row's mu, and the test says so.  A job run with
# COMMPROF_SAMPLE=10 itself matches and reports mu for what it kept.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -x "$COMMPROF" ] || fail "no $COMMPROF"
"$PYTHON3" -c 'import sqlite3' 2>/dev/null || skip "python3 without sqlite3"
CAL="$top_builddir/commprof-calibrate"
RING="$top_builddir/examples/ring"
KEEP="$top_builddir/tests/sample_keep"
[ -x "$KEEP" ] || fail "no $KEEP"

cp_mpirun 300 2 "$CAL" --quick -o "$T/c.params" >"$T/cal.out" 2>&1 ||
	fail "calibration: $(tail -3 "$T/cal.out")"
COMMPROF_FINALIZE_MS=0 cp_run_preload 120 4 "$T/o" \
	-x COMMPROF_PARAMS="$T/c.params" -x COMMPROF_FINALIZE_MS \
	"$RING" 3000 >/dev/null 2>&1 || fail "ring with commprof"
mkdir "$T/all" "$T/s10" || fail "mkdir"
cp "$(cp_run_of "$T/o")"/rank-*.db "$T/all/" || fail "cp"
cp "$T/all"/rank-*.db "$T/s10/" || fail "cp"

# Leave out of $T/s10 the rows COMMPROF_SAMPLE=10 would not have kept:
# the rows of each rank in the order the flusher saw them (seq), named
# as src/lib/cp_flush.c names them (identity()).
"$PYTHON3" - "$KEEP" "$T/s10" <<'PY' || fail "sampling the run"
import glob, sqlite3, subprocess, sys
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
"$PYTHON3" - "$T/all.json" "$T/s10.json" "$T/all.csv" <<'PY' || exit 1
import csv, json, math, sys
full, s10 = (json.load(open(p)) for p in sys.argv[1:3])
rows = list(csv.DictReader(open(sys.argv[3])))
def mu(rep):
    return {a["model"]: (a["rows"], a["mu_bar"])
            for a in rep["accuracy"]["rows"] if a["group"] == "all"}
hf, hs = full["header"], s10["header"]
assert hs["match_p2p_rows"] > 0 and hs["match_p2p_left"] == 0, hs
share = hs["match_p2p_rows"] / hf["match_p2p_rows"]
assert 0.05 < share < 0.2, "kept %.3f of the matched rows" % share
mf, ms = mu(full), mu(s10)
assert mf and set(mf) == set(ms), (mf, ms)
off = []
for m in sorted(mf):
    mu = [float(r["mu_" + m]) for r in rows if r.get("mu_" + m)]
    assert len(mu) == mf[m][0], (m, len(mu), mf[m][0])
    mean = sum(mu) / len(mu)
    sd = math.sqrt(sum((v - mean) ** 2 for v in mu) / (len(mu) - 1))
    # the relative standard error of the mean of a 10% sample
    se = sd / mean * math.sqrt((1 - ms[m][0] / len(mu)) / ms[m][0])
    bound = max(0.05, 3 * se)
    err = abs(ms[m][1] - mf[m][1]) / mf[m][1]
    print("# %-8s mu_bar %.4f over %d rows, sampled %.4f over %d: %.2f %%"
          "%s" % (m, mf[m][1], mf[m][0], ms[m][1], ms[m][0], 100 * err,
                  "" if bound == 0.05 else " (mu too spread for 5%%: "
                  "3 standard errors are %.1f %%)" % (300 * se)))
    if err > bound:
        off.append("%s by %.2f %%" % (m, 100 * err))
assert not off, "mu_bar off: " + ", ".join(off)
PY

# the job itself sampled at 10%: what it kept is matched and has mu
COMMPROF_FINALIZE_MS=0 COMMPROF_SAMPLE=10 cp_run_preload 120 4 "$T/j" \
	-x COMMPROF_PARAMS="$T/c.params" -x COMMPROF_FINALIZE_MS \
	-x COMMPROF_SAMPLE "$RING" 3000 >/dev/null 2>&1 ||
	fail "ring with COMMPROF_SAMPLE=10"
"$COMMPROF" report "$T/j" --format json >"$T/j.json" ||
	fail "report of the sampled job"
"$PYTHON3" - "$T/j.json" "$T/all.json" <<'PY' || exit 1
import json, sys
job, full = (json.load(open(p)) for p in sys.argv[1:3])
h = job["header"]
assert h["match_p2p_rows"] > 0 and h["match_p2p_left"] == 0, h
share = h["match_p2p_rows"] / full["header"]["match_p2p_rows"]
assert 0.05 < share < 0.2, "the job kept %.3f of the rows" % share
acc = [a for a in job["accuracy"]["rows"] if a["group"] == "all"]
assert acc and all(a["mu_bar"] >= 1 for a in acc), acc
print("# COMMPROF_SAMPLE=10: %d message rows matched (%.1f %%), mu_bar %s"
      % (h["match_p2p_rows"], 100 * share,
         " ".join("%s %.3f" % (a["model"], a["mu_bar"]) for a in acc)))
PY
exit 0
