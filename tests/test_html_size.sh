#!/bin/sh
# test_html_size.sh - the HTML report stays small as the run grows: two
# hand-made runs (tests/report_db.py --big), 100 ranks x 100,000 rows and
# 1,000 ranks x 1,000,000 rows, give pages of the same order (the bigger
# at most 3 times the smaller, and under 20 MB), whose charts carry at
# most the bounded data (64 x 64 matrix cells, 4,000 scatter rows, 32
# ranks x 400 timeline bins, 64 links on the per-link chart); with
# Chromium, the bigger page opens and draws in under 5 s.  No MPI.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

[ -x "$COMMPROF" ] || fail "no $COMMPROF"
command -v "$PYTHON3" >/dev/null || skip "no $PYTHON3"
GEN="$top_srcdir/tests/report_db.py"
SCHEMA="$top_srcdir/db/schema.sql"

size() {
	local ranks=$1 rows=$2 s0 s1
	"$PYTHON3" "$GEN" "$SCHEMA" "$T/$rows" --big "$ranks" "$rows" ||
		fail "report_db.py --big $ranks $rows"
	s0=$(date +%s)
	"$COMMPROF" report "$T/$rows" --format html -o "$T/$rows.html" ||
		fail "report of $ranks ranks x $rows rows"
	s1=$(date +%s)
	note "$ranks ranks x $rows rows: page of $(wc -c <"$T/$rows.html")" \
		"bytes, written in $((s1 - s0)) s"
	# the data the charts get, bounded whatever the run
	"$PYTHON3" - "$T/$rows.html" "$ranks" "$rows" <<'PY' || exit 1
import json, re, sys
html = open(sys.argv[1]).read()
ranks, rows = int(sys.argv[2]), int(sys.argv[3])
d = json.loads(re.search(r'<script type="application/json" id="cp-data">'
                         r'(.*?)</script>', html, re.S).group(1))["data"]
m, s, t = d["matrix"], d["scatter"], d["timeline"]
bad = []
if not (m["n"] <= 64 and len(m["p2p"]) <= 64 * 64 and m["p2p"]):
    bad.append("matrix: %d blocks, %d cells" % (m["n"], len(m["p2p"])))
if not (0 < len(s["points"]) <= 4000 and s["rows"] == rows):
    bad.append("scatter: %d points of %d rows" % (len(s["points"]),
                                                 s["rows"]))
if not (0 < len(t["calls"]) <= 32 * 400):
    bad.append("timeline: %d calls" % len(t["calls"]))
if len(d["tables"]["ranks"]["rows"]) != ranks:
    bad.append("ranks table: %d rows" % len(d["tables"]["ranks"]["rows"]))
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

size 100 100000
size 1000 1000000
small=$(wc -c <"$T/100000.html")
big=$(wc -c <"$T/1000000.html")
[ "$big" -le $((3 * small)) ] ||
	fail "page grew from $small to $big bytes with the run (x10)"
[ "$big" -lt 20000000 ] || fail "page of $big bytes, not under 20 MB"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser ||
	true)}
if [ -n "$CHROMIUM" ]; then
	# a timing on a shared host: up to three tries, 15 s apart, when one
	# fails.  Timed: from the navigation to the load event with no chart
	# left pending (0.96 s here in a fast spell; a CI host took 5.3 s,
	# with a half-second pause and the pixel count then inside the
	# timing, before the per-link chart kept its 64 worst links)
	for try in 1 2 3; do
		CP_HTML_MAX_SECONDS=5 "$PYTHON3" \
			"$top_srcdir/tests/html_check.py" "$CHROMIUM" \
			"$T/1000000.html" matrix,scatter,mu,sites,timeline,links \
			"$T/big.png" >"$T/check.out" && break
		cat "$T/check.out"
		[ "$try" = 3 ] && fail "the page of 1,000 ranks in $CHROMIUM"
		note "try $try failed; once more in 15 s"
		sleep 15
	done
	cat "$T/check.out"
	# a chart of 1,000 links x 7 models is unreadable and slow to
	# draw: the 64 worst predicted links, every model's bar
	n=$(awk '/^# chart links +mu_bar per link/ {
		for (i = 1; i < NF; i++) if ($i == "drawn:") print $(i + 1) }' \
		"$T/check.out")
	models=$(cp_models | wc -w)
	[ -n "$n" ] && [ "$n" -le $((64 * models)) ] ||
		fail "the per-link chart has ${n:-no} bars, not at most 64 x $models"
	note "per-link chart: $n bars of 1000 links"
else
	note "no chromium: the opening time is not measured"
fi
