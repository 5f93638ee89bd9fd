#!/bin/sh
# test_report.sh - commprof report on merged databases written by hand
# (tests/report_db.py): exact mu statistics, the best-model mark, the
# strided send listed with its exact savings and the contiguous one not,
# the worst-call order, every format parsed; then the same rows without
# predictions, and usage errors.  No MPI.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -x "$COMMPROF" ] || fail "no $COMMPROF"
command -v "$PYTHON3" >/dev/null || skip "no $PYTHON3"
GEN="$top_srcdir/tests/report_db.py"
SCHEMA="$top_srcdir/db/schema.sql"

D="$T/syn"
"$PYTHON3" "$GEN" "$SCHEMA" "$D" || fail "report_db.py failed"

for f in text markdown json csv; do
	"$COMMPROF" report "$D" --top 3 --format "$f" >"$T/r.$f" \
		2>"$T/r.$f.err" || fail "report --format $f: status $?"
	[ ! -s "$T/r.$f.err" ] || fail "report --format $f: stderr: \
$(cat "$T/r.$f.err")"
done
"$COMMPROF" report "$D" --top 3 -o "$T/o.txt" >"$T/o.out" ||
	fail "report -o failed"
[ ! -s "$T/o.out" ] || fail "report -o wrote to stdout"
cmp -s "$T/o.txt" "$T/r.text" || fail "report -o differs from stdout"
"$COMMPROF" summary "$D" >"$T/summary" || fail "summary failed"

"$PYTHON3" - "$T" "$(cp_model_list s/^//)" <<'EOF' || fail "report content"
import csv, json, sys
T = sys.argv[1]
PRED_MODELS = sys.argv[2]
j = json.load(open(T + "/r.json"))
def eq(what, got, want):
    if got != want:
        sys.exit("%s: got %r, want %r" % (what, got, want))
def near(what, got, want):
    if abs(got - want) > 1e-9 * abs(want):
        sys.exit("%s: got %r, want %r" % (what, got, want))

# 1. exact statistics; the lowest mu_bar of each group is the best
acc = j["accuracy"]["rows"]
def row(group, key, model):
    r = [a for a in acc if (a["group"], a["key"], a["model"]) ==
         (group, key, model)]
    eq("rows of %s %s %s" % (group, key, model), len(r), 1)
    return r[0]
lmo = row("all", "all", "lmo")
eq("lmo stats", [lmo[k] for k in ("rows", "mu_bar", "median", "p90")],
   [11, 6, 6, 10])
near("log3p p90", row("all", "all", "log3p")["p90"], 2.4)
best = {(a["group"], a["key"]): a["model"] for a in acc if a["best"]}
eq("best models", best, {("all", "all"): "log3p",
                         ("op", "MPI_Bcast"): "log3p",
                         ("op", "MPI_Send"): "hockney",
                         ("size", "512 B-1 KiB"): "hockney",
                         ("size", "4-8 KiB"): "log3p"})
eq("plogp absent", [a for a in acc if a["model"] == "plogp"], [])
why = {(w["model"], w["reason"]): w["rows"]
       for w in j["coverage_reasons"]["rows"]}
eq("escalation", why.get(("lmo", "not predicted: gather in LMO's M1..M2 "
                          "(escalation region)")), 1)
eq("kappa failed", why.get(("lmo", "not predicted: an LMO estimate it "
                            "needs failed (calibration)")), 1)
cov = {c["model"]: c for c in j["coverage"]["rows"]}
eq("lmo coverage", [cov["lmo"][k] for k in ("rows", "predicted",
                                            "compared")], [20, 14, 11])

# 3. the strided send, with savings per call and in total; not the
# contiguous one at 0x3000, nor the receive of the message at 0x2100
st = j["strided"]["rows"]
eq("strided sites", sorted({s["site"] for s in st}), ["0x2000"])
eq("strided fixes", [s["fix"] for s in st],
   ["contiguous layout", "manual packing", "blocked packing"])
for s in st:
    eq("strided calls", s["calls"], 3)
    eq("strided layout", (s["bytes"], s["block_bytes"], s["stride_bytes"],
                          s["layout"]),
       (128, 8, 64, "vector(16,1,8) of MPI_DOUBLE"))
    near("mean log3p", s["pred_log3p"], 20e-6)
    near("mean l_mw", s["pred_lmw"], 12e-6)
want = {"contiguous layout": (12e-6, None, None, 36e-6),
        "manual packing": (3e-6, 0.4e-6, 10e-6, 9e-6),
        "blocked packing": (8.7e-6, None, None, 26.1e-6)}
for s in st:
    w = want[s["fix"]]
    near(s["fix"], s["saving"], w[0])
    near(s["fix"] + " total", s["saving_total"], w[3])
    if w[1] is None:
        eq(s["fix"] + " range", (s["saving_lo"], s["saving_hi"]),
           (None, None))
    else:
        near(s["fix"] + " low", s["saving_lo"], w[1])
        near(s["fix"] + " high", s["saving_hi"], w[2])

# 4. worst: largest mu first, ties in (rank, seq) order, --top 3
wo = j["worst"]["rows"]
eq("lmo worst", [w["mu"] for w in wo if w["model"] == "lmo"], [11, 10, 9])
near("lmo worst pred", [w["pred"] for w in wo if w["model"] == "lmo"][0],
     11e-6)
eq("log3p worst", [w["mu"] for w in wo if w["model"] == "log3p"],
   [2.5, 1.5])
eq("worst fields", {k: wo[0][k] for k in ("rank", "site", "op", "bytes",
                                          "peer", "t_transfer")},
   {"rank": 0, "site": "0x1000", "op": "MPI_Send", "bytes": 1000,
    "peer": 1, "t_transfer": 1e-06})

# 9. collectives: the two broadcasts (4096 B, rows without the
# library's algorithm: not known), log3P's mu 1.5 and 2.5, LogGP's 4;
# 10. no tau-Lop row
co = j["collectives"]["rows"]
eq("collectives", [(c["op"], c["size"], c["algorithm"], c["model"],
                    c["rows"], c["mu_bar"], c["best"]) for c in co],
   [("MPI_Bcast", "4-8 KiB", "(not known)", "log3p", 2, 2.0, True),
    ("MPI_Bcast", "4-8 KiB", "(not known)", "loggp", 2, 4.0, False)])
eq("collectives times", [co[0]["t_transfer"], co[0]["t_wait"]], [1e-6, None])
eq("coll_worst", j["coll_worst"]["rows"], [])

# 0. header
h = j["header"]
eq("header", [h[k] for k in ("ranks", "params", "pred_models",
                             "rows_predicted", "matched",
                             "match_p2p_rows", "match_note")],
   [2, "/tmp/cluster.params", PRED_MODELS, 18, "yes",
    11, "4 sends had no receive"])
# bytes: each message once, by its send (the receive at 0x2100 adds
# nothing); the callsite tables still show what each site moved
eq("bytes", h["bytes"], 11 * 1000 + 2 * 4096 + 64 + 32 + 3 * 128 + 128)
# MPI time is summed over threads: its share is of app time x threads
# (10 ms x 3 threads on rank 0, 10 ms x 1 on rank 1)
eq("threads", [h[k] for k in ("app_time", "threads_max", "threads_min",
                              "thread_time")], [0.02, 3, 1, 0.04])
eq("share", round(h["mpi_share_pct"], 9), round(100 * h["mpi_time"] / 0.04,
                                                9))
eq("summary threads", [l for l in open(T + "/summary")
                       if l.startswith("threads:")],
   ["threads:    1 to 3 per rank made MPI calls; MPI time is summed over "
    "them\n"])
eq("summary share", [l.split("(")[1] for l in open(T + "/summary")
                     if l.startswith("MPI time:")],
   ["%.2f%% of app time x threads)\n" % (100 * h["mpi_time"] / 0.04)])

# 2. the callsite table has the numbers of commprof summary
summ = {}
for line in open(T + "/summary"):
    f = line.split()
    if len(f) == 7 and f[0].startswith("0x"):
        summ[f[0]] = (int(f[2]), int(f[3]), float(f[4]))
eq("receive site", summ["0x2100"][:2], (1, 128))
eq("sites", {s["site"]: (s["calls"], s["bytes"], round(s["time"] * 1e3, 3))
             for s in j["sites"]["rows"]},
   {k: v for k, v in summ.items() if k in ("0x1000", "0x2000", "0x1100")})

# 5., 6. load balance: per rank (rank 0 made 3 threads' MPI calls: its
# share is of 10 ms x 3), and a callsite's MPI time over its ranks
eq("ranks", [(r["rank"], round(r["mpi_time"], 12), r["calls"],
              r["bytes_sent"], round(r["pct_app"], 9))
             for r in j["ranks"]["rows"]],
   [(0, 7.5e-6, 15, 11000 + 3 * 128, round(100 * 7.5e-6 / 0.03, 9)),
    (1, 3e-6, 6, 4096 * 2 + 64 + 32 + 128, round(100 * 3e-6 / 0.01, 9))])
sr = [r for r in j["site_ranks"]["rows"] if r["site"] == "0x2000"]
eq("site over ranks", [(r["ranks"], r["min"], r["min_rank"], r["mean"],
                        r["max"], r["max_rank"]) for r in sr],
   [(2, 5e-7, 1, 7.5e-7, 1e-6, 0)])

# csv: one table per section, "section" first, same rows as json
tables, cur = [], None
for r in csv.reader(open(T + "/r.csv")):
    if not r:
        cur = None
    elif cur is None:
        eq("csv header", r[0], "section")
        cur = r[1:]
        tables.append([])
    else:
        tables[-1].append(dict(zip(cur, r[1:]), section=r[0]))
kv, tabs = tables[0], {t[0]["section"]: t for t in tables[1:] if t}
eq("csv ranks", [r["value"] for r in kv if r["key"] == "ranks"], ["2"])
for name in ("accuracy", "coverage", "sites", "strided", "worst"):
    eq("csv rows of " + name, len(tabs[name]), len(j[name]["rows"]))
eq("csv best", [(a["key"], a["model"]) for a in tabs["accuracy"]
                if a["best"] == "true"],
   [(a["key"], a["model"]) for a in acc if a["best"]])
eq("csv note", [r["value"] for r in kv if r["section"] == "strided"],
   [j["strided"]["note"]])

# text and markdown: the mark on the best model's line only
MODELS = {a["model"] for a in acc}
def marked_text(lines):
    out, key = [], None
    for l in lines:
        f = l.split()
        i = next((i for i, x in enumerate(f) if x in MODELS), None)
        if i is None:
            continue
        key = " ".join(f[1:i]) if i else key
        if f[-1] == "*":
            out.append((key, f[i]))
    return out
def marked_md(lines):
    out, key = [], None
    for l in lines:
        f = [x.strip() for x in l.split("|")][1:-1]
        if len(f) != 8 or f[2] not in MODELS:
            continue
        key = f[1] or key
        if f[7] == "*":
            out.append((key, f[2]))
    return out
text = open(T + "/r.text").read().split("\n1. Model accuracy")[1]
text = text.split("\n\n")[0].splitlines()[3:]
want = [(a["key"], a["model"]) for a in acc if a["best"]]
eq("text marks", marked_text(text), want)
md = open(T + "/r.markdown").read().splitlines()
eq("markdown marks", marked_md(md), want)
EOF

# text: sections numbered 1, 2, 3... once each; no line past column 120
# unless --wide (this report has lines of 300 columns when not folded);
# papers cited by name
expect_eq "section numbers" "$(grep -o '^[0-9]*\. ' "$T/r.text" | tr -d '. ' |
	tr '\n' ' ')" "1 2 3 4 5 6 7 8 9 10 "
long=$(awk 'length($0) > 120' "$T/r.text" | head -1)
[ -z "$long" ] || fail "text line over 120 columns: $long"
"$COMMPROF" report "$D" --top 3 --wide >"$T/r.wide" || fail "--wide"
wide=$(awk '{ if (length($0) > n) n = length($0) } END { print n }' \
	"$T/r.wide")
[ "$wide" -gt 120 ] || fail "--wide: longest line $wide, want > 120"
grep -q '00[1-4] ' "$T/r.text" && fail "a paper cited by number: \
$(grep '00[1-4] ' "$T/r.text")"
grep -q 'Cameron, Ge and Sun' "$T/r.text" || fail "log3P paper not named"

# the same rows without predictions: one sentence says so; sections 1,
# 3 and 4 say "no predictions", section 2 is there
N="$T/nopred"
"$PYTHON3" "$GEN" "$SCHEMA" "$N" --nopred || fail "report_db.py --nopred"
"$COMMPROF" report "$N" >"$T/n.text" 2>"$T/n.err" || fail "nopred status"
[ ! -s "$T/n.err" ] || fail "nopred stderr: $(cat "$T/n.err")"
grep -q '^predictions: *no predictions were made: COMMPROF_PARAMS was not set' \
	"$T/n.text" || fail "nopred: no sentence: $(cat "$T/n.text")"
expect_eq "nopred notes" \
	"$(grep -c '^  no predictions (see the header)$' "$T/n.text")" 3
grep -q '^MPI share of app time: ' "$T/n.text" ||
	fail "nopred: share label: $(grep '^MPI share' "$T/n.text")"
grep -q '^0x1000 .*MPI_Send *11 *11000 ' "$T/n.text" ||
	fail "nopred: no callsite table"
"$COMMPROF" report "$N" --format json | "$PYTHON3" -c '
import json, sys
j = json.load(sys.stdin)
assert j["header"]["rows_predicted"] == 0, j["header"]
h = j["header"]
assert (h["threads_max"], h["threads_min"]) == (0, 0), h
assert h["thread_time"] == h["app_time"] == 0.02, h
assert j["header"]["params"] is None
assert j["accuracy"]["rows"] == [] and j["worst"]["rows"] == []
assert j["strided"]["note"].startswith("no predictions")
assert len(j["sites"]["rows"]) == 7, j["sites"]
' || fail "nopred json"

# usage errors: exact message and status 2
rc=0
"$COMMPROF" report "$D" --format xml >/dev/null 2>"$T/e1" || rc=$?
expect_eq "bad format status" "$rc" 2
expect_eq "bad format message" "$(cat "$T/e1")" \
	"commprof: report: unknown format 'xml'; use text, markdown, json, csv or \
html"
rc=0
"$COMMPROF" report --top 3 >/dev/null 2>"$T/e2" || rc=$?
expect_eq "missing dir status" "$rc" 2
expect_eq "missing dir message" "$(cat "$T/e2")" \
	"commprof: report: missing DIR; try 'commprof --help'"
# html: one line, and no file, when Chart.js cannot be found
rc=0
COMMPROF_CHARTJS="$T/none.js" "$COMMPROF" report "$D" --format html \
	-o "$T/r.html" 2>"$T/e3" || rc=$?
expect_eq "no chart.js status" "$rc" 1
expect_eq "no chart.js message" "$(cat "$T/e3")" \
	"commprof: no Chart.js to draw the page (looked at $T/none.js \
(COMMPROF_CHARTJS)); install Debian's libjs-chart.js or set COMMPROF_CHARTJS"
[ ! -e "$T/r.html" ] || fail "no chart.js: $T/r.html was made"

# html: in the matrix, rank 1's Bcast from root 0 goes 0 -> 1 and its
# Gathers to root 0 go 1 -> 0; the same when they are MPI_Ibcast and
# MPI_Igather (the page's script is not run: any file stands for Chart.js)
echo '/* not Chart.js */' >"$T/fake.js"
R="$T/rooted"
cp -R "$D" "$R"
"$PYTHON3" -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
d.execute("UPDATE ops SET name = \"MPI_I\" || lower(substr(name, 5, 1))"
          " || substr(name, 6) WHERE class = \"coll\"")
d.commit()' "$R/commprof.db" || fail "renaming the collectives"
for d in "$D" "$R"; do
	COMMPROF_CHARTJS="$T/fake.js" "$COMMPROF" report "$d" --format html \
		-o "$d.html" || fail "report --format html of $d"
	"$PYTHON3" - "$d.html" <<'PY' || fail "rooted matrix of $d"
import json, re, sys
h = open(sys.argv[1]).read()
d = json.loads(re.search(r'<script type="application/json" id="cp-data">'
                         r'(.*?)</script>', h, re.S).group(1))["data"]
got = sorted(tuple(c[:4]) for c in d["matrix"]["coll"])
want = [(0, 1, 2 * 4096, 2), (1, 0, 64 + 32, 2)]
if got != want:
    sys.exit("%s: coll cells %s, want %s" % (sys.argv[1], got, want))
PY
done
note "report: statistics, marks, strided savings, worst calls, 4 formats"
