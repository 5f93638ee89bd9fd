#!/bin/sh
# test_html.sh - the HTML pages in a real browser: calibrate (--quick, 2
# ranks), profile examples/stride with the parameter file, write
# "commprof report --format html" and "commprof params show --format
# html", and open both in headless Chromium through the DevTools protocol
# (tests/html_check.py): no script or console error, every chart drawn
# with elements and pixels, a chart in every view (on the params page,
# tau-Lop's gap table among them).  Screenshots stay
# beside the log: tests/test_html.png (the whole report),
# tests/test_html-top.png (its top at half scale, the README's) and
# tests/test_html-params.png.  Skips without Chromium.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser ||
	true)}
[ -n "$CHROMIUM" ] || skip "no chromium (Debian package chromium): the \
pages are not opened in a browser"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
CAL="$top_builddir/commprof-calibrate"
APP="$top_builddir/examples/stride"
CHECK="$top_srcdir/tests/html_check.py"
SHOTS="$top_builddir/tests"

cp_mpirun 300 2 "$CAL" --quick -o "$T/c.params" >"$T/cal.out" 2>&1 ||
	fail "calibration: $(tail -3 "$T/cal.out")"
timeout -k 5 60 "$MPIRUN" -np 2 -x LD_PRELOAD="$CP_PRELOAD" \
	-x COMMPROF_DIR="$T/o" -x COMMPROF_PARAMS="$T/c.params" \
	"$APP" >"$T/prof.out" 2>"$T/prof.err" || fail "stride with commprof"
"$COMMPROF" report "$T/o" --format html -o "$T/r.html" 2>"$T/r.err" ||
	fail "report --format html: $(cat "$T/r.err")"
[ ! -s "$T/r.err" ] || fail "report --format html: $(cat "$T/r.err")"
"$COMMPROF" params show "$T/c.params" --format html >"$T/p.html" \
	2>"$T/p.err" || fail "params show --format html: $(cat "$T/p.err")"
note "report page $(wc -c <"$T/r.html") bytes, params page" \
	"$(wc -c <"$T/p.html") bytes"

# self-contained: no URL the browser would fetch
if grep -Eo '(src|href)="(https?:)?//[^"]*' "$T/r.html" "$T/p.html"; then
	fail "the page loads something from the network"
fi

# the strided view charts the sends whose l_mw is log3P's largest term
# (report section 7): examples/stride's column usually is one, but not
# after every quick calibration (MPICH packs it fast; a crowded host
# lifts the contiguous times the comparison is made with)
views=matrix,scatter,mu,sites,timeline,links,ranks
"$COMMPROF" report "$T/o" --format json -o "$T/r.json" ||
	fail "report --format json"
nstrided=$("$PYTHON3" -c 'import json, sys
print(len(json.load(open(sys.argv[1]))["strided"]["rows"]))' "$T/r.json") ||
	fail "no strided section in the JSON report"
if [ "$nstrided" -gt 0 ]; then
	views="$views,strided"
else
	note "no middleware-dominated strided send: no strided chart expected"
fi
"$PYTHON3" "$CHECK" "$CHROMIUM" "$T/r.html" "$views" \
	"$SHOTS/test_html.png" "$SHOTS/test_html-top.png" ||
	fail "report page in $CHROMIUM"
"$PYTHON3" "$CHECK" "$CHROMIUM" "$T/p.html" links,thresholds,log3p,taulop \
	"$SHOTS/test_html-params.png" >"$T/p.check" ||
	{ cat "$T/p.check"; fail "params page in $CHROMIUM"; }
cat "$T/p.check"
# the calibration's gap table (taulop.Lg), a line per gap over size
grep -q '^# chart taulop  *What a message takes more after a quiet gap.* drawn: ' \
	"$T/p.check" || fail "no chart of the quiet gaps on the params page"
# the collectives' L (taulop.Ls) reaches the page's table, with values
grep -A1 '"Ls_s": \[$' "$T/p.html" | grep -q '^ *\[{"value": [0-9]' ||
	fail "no taulop.Ls values in the params page's data"
note "screenshots: $SHOTS/test_html.png, $SHOTS/test_html-top.png," \
	"$SHOTS/test_html-params.png"
