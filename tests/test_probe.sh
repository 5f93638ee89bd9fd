#!/bin/sh
# test_probe.sh - predictions off the calibration grids, from a default
# calibration (commprof-calibrate -o FILE, no other option, 2 ranks):
# tests/probe.c sends one-way messages of 2100 B to 900 KB, contiguous,
# single doubles 2 to 200 doubles apart, and blocks of 16 B and 40 B at
# strides of 3 to 200 doubles, none a point of any calibration grid, one
# warm-up message first for each size and layout (tag 1000 and up, left
# out below: see probe.c); it prints the same with and without commprof.
# From `commprof export`:
#   - log3P's mu_bar over all its messages (sends and receives) <= 1.15;
#   - LMO's mu_bar over the contiguous ones <= 1.30;
# and `commprof report` lists, in its strided section, sends of 16-B and
# of 40-B blocks (those whose l_mw is log3P's largest term) and no
# contiguous one.  mu_bar per model and per layout is printed.
#
# Timings: a crowded host (other jobs of other users) lifts a share of
# the messages by milliseconds, and no model predicts that; a try whose
# bounds fail is repeated (calibration and probe), up to three tries in
# all, and every try's figures are printed.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

CAL="$top_builddir/commprof-calibrate"
[ -x "$CAL" ] || fail "no $CAL"
cd "$T" || fail "cd $T"
"$MPICC" -O2 -o probe "$top_srcdir/tests/probe.c" ||
	fail "cannot compile probe.c"

# one try: calibrate, run the probe with and without commprof, check
try() {
	t0=$(date +%s)
	cp_mpirun 300 2 "$CAL" -o c.params >cal.out 2>cal.err ||
		{ cat cal.out cal.err >&2; fail "calibration: status $?"; }
	note "default calibration on 2 ranks: $(( $(date +%s) - t0 )) s"
	cp_mpirun 120 2 ./probe >plain.out 2>plain.err ||
		{ cat plain.err >&2; fail "probe without commprof"; }
	rm -rf out
	cp_run_preload 120 2 "$T/out" -x COMMPROF_PARAMS="$T/c.params" \
		./probe >cp.out 2>cp.err ||
		{ cat cp.err >&2; fail "probe with commprof"; }
	expect_eq "probe: same output" "$(cat cp.out)" "$(cat plain.out)"
	grep -q '^commprof:' cp.err && fail "warned: $(cat cp.err)"
	"$COMMPROF" export out --format json -o e.json ||
		fail "commprof export"
	"$COMMPROF" report out --format json -o r.json ||
		fail "commprof report"
	"$PYTHON3" - e.json r.json <<'PY'
import json, sys

rows = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
models = ["lmo", "log3p", "hockney", "loggp", "plogp"]
kinds = [("contiguous", lambda r: r["contiguous"] == 1),
         ("1 double", lambda r: r["contiguous"] == 0 and
          r["block_bytes"] == 8),
         ("16 B blocks", lambda r: r["block_bytes"] == 16 and
          r["contiguous"] == 0),
         ("40 B blocks", lambda r: r["block_bytes"] == 40)]
every = [r for r in rows if r["op"] in ("MPI_Send", "MPI_Irecv")]
p2p = [r for r in every if r["tag"] < 1000]


def mu_bar(sel, m):
    v = [r["mu_" + m] for r in sel if r.get("mu_" + m) is not None]
    return (sum(v) / len(v), len(v)) if v else (None, 0)


print("# %-12s %6s" % ("layout", "rows") +
      "".join(" %8s" % m for m in models))
for name, f in [("all", lambda r: True)] + kinds:
    sel = [r for r in p2p if f(r)]
    cells = []
    for m in models:
        b, n = mu_bar(sel, m)
        cells.append(" %8s" % ("%.3f" % b if b else "-"))
    print("# %-12s %6d" % (name, len(sel)) + "".join(cells))
b, n = mu_bar(every, "log3p")
print("# with the warm-up messages: log3P mu_bar %.3f over %d rows" % (b, n))
bad = []
l3, n3 = mu_bar(p2p, "log3p")
lmo, nl = mu_bar([r for r in p2p if r["contiguous"] == 1], "lmo")
if n3 < 0.9 * len(p2p):
    bad.append("log3P priced %d of %d messages" % (n3, len(p2p)))
if l3 is None or l3 > 1.15:
    bad.append("log3P mu_bar over all %s > 1.15" % l3)
if lmo is None or lmo > 1.30:
    bad.append("LMO mu_bar over the contiguous %s > 1.30" % lmo)
sends = [g for g in rep["strided"]["rows"] if g.get("op") == "MPI_Send"]
blocks = sorted({g["block_bytes"] for g in sends})
print("# strided section, sends by block bytes: %s" % blocks)
for b in (16, 40):
    if b not in blocks:
        bad.append("no send of %d-B blocks in the strided section" % b)
if any(g.get("stride_bytes") is None for g in sends):
    bad.append("a contiguous send in the strided section")
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

for n in 1 2 3; do
	if try; then
		note "try $n passed"
		exit 0
	fi
	note "try $n failed"
done
fail "bounds missed in 3 tries"
