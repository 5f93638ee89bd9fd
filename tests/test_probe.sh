#!/bin/sh
# test_probe.sh - predictions off the calibration grids, from a default
# calibration (commprof-calibrate -o FILE, no other option, 2 ranks):
# tests/probe.c sends one-way messages of 2100 B to 900 KB, contiguous,
# single doubles 2 to 200 doubles apart, and blocks of 16 B and 40 B at
# strides of 3 to 200 doubles, none a point of any calibration grid, one
# warm-up message first for each size and layout (tag 1000 and up, left
# out below: see probe.c); it prints the same with and without commprof.
# A configuration is a size and layout; its measured time is the 10%
# quantile of the t_transfer of its 20 messages (probe.c's default),
# sent in rounds so that one slow spell of a crowded host lifts one of
# them: the statistic of the calibration's values (LMO's and log3P's
# are 10% quantiles of their samples), so that a model is held to what
# it predicts.  It was the fastest of 4 messages before, which
# estimates a higher quantile, and noisily: over the same runs log3P's
# mu_bar came out 0.008 to 0.022 higher that way (probe.c); log3P's
# mu_bar of the fastest message is printed too.
# From `commprof export`, mu of each configuration against each model's
# prediction, and:
#   - log3P's mu_bar over all configurations <= 1.25 under Open MPI,
#     1.30 under MPICH (the target, 1.15, is printed as met or not, and
#     asserted with CP_PROBE_TARGETS=1: since the calibrator measures
#     log3P in rounds, amid other messages (commprof-calibrate(1)),
#     six runs of this test gave 1.157 to 1.189 under Open MPI, where
#     the calibration of the stop before gave 1.26 to 1.29, and 1.084
#     and 1.085 under MPICH, where it gave 1.20 to 1.41; since log3P
#     reads its block columns at equal cache lines, 1.154 to 1.181 in
#     three under Open MPI and 1.089 in one under MPICH (those as the
#     fastest of 4); since log3P's remote times are one-way on the
#     host's clock and its rounds go by size, 1.135 to 1.162 in seven
#     under Open MPI (three at most 1.15), 1.088 and 1.104 in two under
#     MPICH; the bounds fail a log3P that regressed to the calibration
#     before the rounds);
#   - LMO's mu_bar over the contiguous ones <= 1.50 (the target, 1.30,
#     likewise printed, and asserted with CP_PROBE_TARGETS=1: under
#     MPICH three steady tries of one check gave 1.30 to 1.36, Open MPI
#     1.05 to 1.09, as the fastest of 4; with the 10% quantile of 20,
#     1.136 to 1.221 in six under Open MPI, 1.279 and 1.151 under
#     MPICH);
# and `commprof report` lists, in its strided section, sends of 16-B and
# of 40-B blocks (those whose l_mw is log3P's largest term) and no
# contiguous one.  mu_bar per model and per layout is printed, and for
# information the mean of mu over single messages too.
#
# Timings: a crowded host slows whole calibrations and probes (with the
# 1-min load at 5 to 13 on 2 cores, log3P's mu_bar came out 1.8 to 2.0
# and LMO's 1.9 to 2.1 from calibrations that took 92 to 170 s instead
# of about 50; with a second 2-rank job beside it and the 1-min load
# still under 2, log3P's came out 1.2 to 3.4).  A try whose bounds fail
# is repeated (calibration and probe), up to three tries in all, and
# every try's figures and load are printed.  A failed try counts as a
# failure if the host was not crowded (1-min load at its start and end
# at most twice the processors, and at most a quarter of the
# once-a-second samples of runnable processes above the ranks and the
# sampler: cp_busy_stop) and steady: tests/gauge.c, 2 s before the
# calibration, after it and after the probes, found the fastest and the
# slowest 0.2-s window of one-way 256 KiB within 1.3 times each other,
# and the calibration did not find itself unsteady (its own gauge,
# commprof-calibrate(1))
# (on this project's 2-vCPU machines, idle, they alternate between
# about 40 and 125 us in spells of seconds, and a try that calibrated
# in one spell and probed in another saw every model's mu_bar over the
# contiguous sends at 1.8 to 2.3); if every try failed on a crowded or
# unsteady host, the test is skipped (status 77) and says so: such
# timings say nothing about the models.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

CAL="$top_builddir/commprof-calibrate"
[ -x "$CAL" ] || fail "no $CAL"
cd "$T" || fail "cd $T"
"$MPICC" -O2 -o probe "$top_srcdir/tests/probe.c" ||
	fail "cannot compile probe.c"
"$MPICC" -O2 -o gauge "$top_srcdir/tests/gauge.c" ||
	fail "cannot compile gauge.c"

# gauge: 2 s of tests/gauge.c, its smallest and largest window value
# added to the try's (speeds)
gauge() {
	cp_mpirun 60 2 ./gauge 2 >>speeds || fail "gauge"
}

# one try: calibrate, run the probe with and without commprof, check
try() {
	load0=$(cut -d' ' -f1 /proc/loadavg)
	: >speeds
	gauge
	t0=$(date +%s)
	cp_busy_start
	cp_mpirun 300 2 "$CAL" -o c.params >cal.out 2>cal.err ||
		{ cat cal.out cal.err >&2; fail "calibration: status $?"; }
	note "default calibration on 2 ranks: $(( $(date +%s) - t0 )) s," \
		"load $(cut -d' ' -f1-3 /proc/loadavg)"
	note "calibration's $(grep -h '^gauge' cal.out)"
	gauge
	cp_mpirun 120 2 ./probe >plain.out 2>plain.err ||
		{ cat plain.err >&2; fail "probe without commprof"; }
	rm -rf out
	cp_run_preload 120 2 "$T/out" -x COMMPROF_PARAMS="$T/c.params" \
		./probe >cp.out 2>cp.err ||
		{ cat cp.err >&2; fail "probe with commprof"; }
	busy=$(cp_busy_stop 2)
	gauge
	note "samples with more than 2 ranks and the sampler runnable:" \
		"${busy% *} of ${busy#* }"
	note "one-way 256 KiB (us), fastest and slowest 0.2-s window of" \
		"the gauges before, after the calibration and after the" \
		"probes:" $(cat speeds)
	expect_eq "probe: same output" "$(cat cp.out)" "$(cat plain.out)"
	grep -q '^commprof:' cp.err && fail "warned: $(cat cp.err)"
	"$COMMPROF" export out --format json -o e.json ||
		fail "commprof export"
	"$COMMPROF" report out --format json -o r.json ||
		fail "commprof report"
	"$PYTHON3" - e.json r.json "${CP_PROBE_TARGETS:-0}" "$CP_MPI" <<'PY'
import json, statistics, sys

rows = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
models = ["lmo", "log3p", "hockney", "loggp", "plogp"]
kinds = [("contiguous", lambda r: r["contiguous"] == 1),
         ("1 double", lambda r: r["contiguous"] == 0 and
          r["block_bytes"] == 8),
         ("16 B blocks", lambda r: r["block_bytes"] == 16 and
          r["contiguous"] == 0),
         ("40 B blocks", lambda r: r["block_bytes"] == 40)]
sends = [r for r in rows if r["op"] == "MPI_Send" and r["tag"] < 1000]
conf = {}
for r in sends:
    k = (r["bytes"], r["block_bytes"], r["stride_bytes"], r["contiguous"])
    conf.setdefault(k, []).append(r)


def mu(a, b):
    return max(a, b) / min(a, b)


def mu_conf(rs, m, stat):
    """mu of one configuration: stat of its messages' times against the
    model"""
    e = rs[0].get("pred_" + m)
    if not e:
        return None
    return mu(stat([r["t_transfer"] for r in rs]), e)


def q10(v):
    """the 10% quantile, interpolated as GSL's (the calibrator's)"""
    return statistics.quantiles(v, n=10, method="inclusive")[0]


def mu_bar(f, m, stat=q10):
    v = [mu_conf(rs, m, stat) for rs in conf.values() if f(rs[0])]
    v = [x for x in v if x is not None]
    return (sum(v) / len(v), len(v)) if v else (None, 0)


def mu_msg(f, m):
    v = [r["mu_" + m] for r in sends if f(r) and r.get("mu_" + m)]
    return sum(v) / len(v) if v else None


reps = min(len(rs) for rs in conf.values()) if conf else 0
print("# mu_bar of the 10%% quantile of each configuration's %d messages"
      % reps + " (log3P also of its fastest message, and over single"
      " messages)")
print("# %-12s %6s" % ("layout", "confs") +
      "".join(" %8s" % m for m in models) + "  log3p: fastest  per message")
for name, f in [("all", lambda r: True)] + kinds:
    n = sum(1 for rs in conf.values() if f(rs[0]))
    cells = []
    for m in models:
        b, k = mu_bar(f, m)
        cells.append(" %8s" % ("%.3f" % b if b else "-"))
    fast, k = mu_bar(f, "log3p", min)
    msg = mu_msg(f, "log3p")
    print("# %-12s %6d" % (name, n) + "".join(cells) +
          "  %14s  %11s" % ("%.3f" % fast if fast else "-",
                             "%.3f" % msg if msg else "-"))
bad = []
l3, n3 = mu_bar(lambda r: True, "log3p")
lmo, nl = mu_bar(lambda r: r["contiguous"] == 1, "lmo")
if n3 < len(conf):
    bad.append("log3P priced %d of %d configurations" % (n3, len(conf)))
# (what, mu_bar, the issue's target, the bound held without
# CP_PROBE_TARGETS=1)
for what, mu, target, loose in (("log3P mu_bar over all", l3, 1.15,
                                 1.30 if sys.argv[4] == "mpich" else 1.25),
                                ("LMO mu_bar over the contiguous", lmo,
                                 1.30, 1.50)):
    bound = target if sys.argv[3] == "1" else loose
    if mu is not None:
        print("# %s %.3f: the target %.2f %s" %
              (what, mu, target, "met" if mu <= target else "not met"))
    if mu is None or mu > bound:
        bad.append("%s %s > %.2f" % (what, mu, bound))
listed = [g for g in rep["strided"]["rows"] if g.get("op") == "MPI_Send"]
blocks = sorted({g["block_bytes"] for g in listed})
print("# strided section, sends by block bytes: %s" % blocks)
for b in (16, 40):
    if b not in blocks:
        bad.append("no send of %d-B blocks in the strided section" % b)
if any(g.get("stride_bytes") is None for g in listed):
    bad.append("a contiguous send in the strided section")
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# was the host crowded: the larger 1-min load of the try's start and
# end above twice the processors, or, in more than a quarter of the
# samples taken while it timed, another process runnable beside the
# ranks (cp_busy_stop)?
crowded() {
	awk -v a="$load0" -v b="$(cut -d' ' -f1 /proc/loadavg)" \
	    -v n="$(nproc)" -v busy="$busy" 'BEGIN {
		split(busy, s, " ")
		exit !((a > b ? a : b) > 2 * n || 4 * s[1] > s[2])
	}'
}

# did the host change speed: the gauges' slowest window more than 1.3
# times their fastest, or the calibration saw it itself (assume
# unsteady: its own gauge's moments more than 1.5 times apart)?
moved() {
	grep -q '^assume unsteady$' c.params && return 0
	awk '{ for (i = 1; i <= NF; i++) {
		lo = (!n || $i < lo) ? $i : lo; hi = $i > hi ? $i : hi; n++ } }
	     END { exit !(n && hi > 1.3 * lo) }' speeds
}

quiet=0
for n in 1 2 3; do
	if try; then
		note "try $n passed"
		exit 0
	fi
	if crowded; then
		note "try $n failed on a crowded host (load $load0 to" \
			"$(cut -d' ' -f1 /proc/loadavg), $(nproc) processors)"
	elif moved; then
		note "try $n failed on a host that changed speed (gauges:" \
			"$(cat speeds | tr '\n' ' ')$(grep -h '^assume unsteady$' \
			c.params | sed 's/^/; the calibration says /'))"
	else
		note "try $n failed (load $load0 to" \
			"$(cut -d' ' -f1 /proc/loadavg))"
		quiet=$((quiet + 1))
	fi
done
[ "$quiet" -gt 0 ] ||
	skip "bounds missed in 3 tries, all on a crowded or unsteady host"
fail "bounds missed in 3 tries, $quiet on a host that was not crowded"
