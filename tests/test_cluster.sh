#!/bin/sh
# test_cluster.sh - LMO on an emulated heterogeneous cluster (issue 7):
# tests/cluster/bed makes 4 hosts (network namespaces) joined by the
# links of tests/cluster/links.table through the delay line, and
# commprof-calibrate runs across them.  Checked, against the table:
#   - the bed: (T_ij(M) - T_ij(0)) / M of the raw series (--series) is
#     within 10% of every link's per-byte time after Ethernet framing,
#     and the links come out in their order;
#   - LMO's C_i follow the per-host delay shares h_i (order, and
#     C_i - C_0 within 20 us of h_i - h_0);
#   - LMO's 1/beta_ij: every link within 10% of its configured rate
#     after framing, in the configured order;
#   - a profiled application (tests/cluster/pairs.c: messages between
#     every pair at sizes off the calibration grid) prints the same line
#     with and without commprof, and `commprof report` gives mu_bar per
#     link: LMO's is lower than Hockney's (one link's parameters for
#     all) on every slow link (<= 200 Mbit/s).
# Root only; skipped where network namespaces cannot be made.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

BED="$top_srcdir/tests/cluster/bed"
TABLE="$top_srcdir/tests/cluster/links.table"
CAL="$top_builddir/commprof-calibrate"
M=61440		# below Open MPI's TCP eager limit of 64 KiB
[ "$(id -u)" = 0 ] || skip "not root: the test bed needs network namespaces"
ip netns add "cpbed-probe$$" 2>/dev/null ||
	skip "ip netns add failed: no network namespaces here"
ip netns del "cpbed-probe$$"
[ -c /dev/net/tun ] || skip "no /dev/net/tun: the delay line needs TAPs"
ip link show cpbed-br >/dev/null 2>&1 &&
	skip "a test bed is up already (tests/cluster/bed down frees it)"
[ -x "$CAL" ] || fail "no $CAL"

export CPBED_STATE="$T/bed" CPBED_DELAYLINE="$top_builddir/tests/cluster/delayline"
export MPIRUN
# the bed leaves nothing behind, whatever happens below
trap '"$BED" down >/dev/null 2>&1; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
cd "$T" || fail "cd $T"

t0=$(date +%s)
"$BED" up 4 "$TABLE" || fail "bed up"
"$MPICC" -O2 -o pairs "$top_srcdir/tests/cluster/pairs.c" ||
	fail "cannot compile pairs.c"
# calibrate: one calibration across the bed, then the checks
calibrate() {
	rc=0
	"$BED" run -t 120 -- "$CAL" -o bed.params --quick --reps 20 --lmo-stat min \
		--lmo-bytes "$M" --series series >cal.out 2>cal.err || rc=$?
	[ "$rc" = 0 ] ||
		{ cat cal.out cal.err >&2; fail "calibrate: status $rc"; }
	note "calibration across the bed: $(( $(date +%s) - t0 )) s"
	grep -q '^hosts 4 cpbed-h0 cpbed-h1 cpbed-h2 cpbed-h3$' bed.params ||
		fail "4 hosts expected: $(grep '^hosts' bed.params)"
	"$COMMPROF" params show bed.params --format json >p.json ||
		fail "params show --format json"
	check
}

check() {
"$PYTHON3" - "$TABLE" series p.json "$M" <<'PY'
import json, statistics, sys

# Ethernet framing: a segment of 1448 payload bytes (MSS 1460 less 12
# of TCP timestamps) costs 1514 + 4 FCS + 8 preamble + 12 gap = 1538
EFF = 1448 / 1538
table, series, pjson, M = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rate, delay = {}, {}
for line in open(table):
    line = line.split('#')[0].split()
    if line:
        a, b = sorted((int(line[0]), int(line[1])))
        rate[a, b], delay[a, b] = float(line[2]) * 1e6, float(line[3])
n = 1 + max(max(p) for p in rate)
pairs = sorted(rate)
cfg = {p: 8 / (rate[p] * EFF) for p in pairs}          # s/B on the wire
# per-host shares: delay(a, b) = h_a + h_b, solved like LMO's C_i
tot = sum(delay.values())
h = [((n - 1) * sum(delay[p] for p in pairs if i in p) - tot) /
     ((n - 1) * (n - 2)) for i in range(n)]

samples = {}
for line in open(series):
    if line.startswith('#'):
        continue
    f = line.split()
    if f[0] in ('rt0', 'o2o'):
        key = (f[0],) + tuple(sorted((int(f[1]), int(f[2]))))
    else:
        key = (f[0], int(f[1])) + tuple(sorted((int(f[2]), int(f[3]))))
    samples.setdefault(key, []).append(float(f[-1]))
med = {k: statistics.median(v) for k, v in samples.items()}
bed = {p: (med[('o2o',) + p] - med[('rt0',) + p]) / M for p in pairs}

p = json.load(open(pjson))['lmo']
C = [c.get('value') for c in p['C_s']]
beta = {q: p['beta_Bps'][q[0]][q[1]] for q in pairs}
bad = []
print('# link  rate Mbit/s  delay us | 1/beta ns/B: framed    bed    LMO'
      '   (LMO with t=0)')
for q in pairs:
    b = beta[q]
    lmo = 1 / b['value'] if 'value' in b else None
    t0 = None
    if None not in (C[q[0]], C[q[1]]):
        t0 = (med[('o2o',) + q] - 2 * C[q[0]] - 2 * C[q[1]]) / M
    print('# %d-%d %12.0f %9.0f | %19.2f %6.2f %6s %8s' % (
        q[0], q[1], rate[q] / 1e6, delay[q], cfg[q] * 1e9, bed[q] * 1e9,
        '%.2f' % (lmo * 1e9) if lmo else 'failed',
        '%.2f' % (t0 * 1e9) if t0 else '-'))
    if abs(bed[q] / cfg[q] - 1) > 0.10:
        bad.append('bed %d-%d: %.2f ns/B, configured %.2f' %
                   (q + (bed[q] * 1e9, cfg[q] * 1e9)))
    if lmo is None:
        bad.append('lmo beta %d-%d failed: %s' % (q + (b.get('fail'),)))
    elif abs(lmo / cfg[q] - 1) > 0.10:
        bad.append('lmo beta %d-%d: 1/beta %.2f ns/B, configured %.2f' %
                   (q + (lmo * 1e9, cfg[q] * 1e9)))
order = lambda d: sorted(pairs, key=lambda q: d[q])
if order(bed) != order(cfg):
    bad.append('bed links out of order: %s, configured %s' %
               (order(bed), order(cfg)))
ib = {q: 1 / beta[q]['value'] for q in pairs if 'value' in beta[q]}
if len(ib) == len(pairs) and order(ib) != order(cfg):
    bad.append('LMO links out of order: %s, configured %s' %
               (order(ib), order(cfg)))
T = [t.get('value') for t in p['t_spb']]

print('# host  h us   C_i us   (C_i - C_0) - (h_i - h_0) us   t_i ns/B')
for i in range(n):
    if C[i] is None:
        bad.append('lmo C_%d failed' % i)
        continue
    dev = (C[i] - C[0]) * 1e6 - (h[i] - h[0])
    print('# %4d %5.0f %8.1f %8.1f %32s' % (
        i, h[i], C[i] * 1e6, dev,
        '%.2f' % (T[i] * 1e9) if T[i] is not None else 'failed'))
    if abs(dev) > 20:
        bad.append('C_%d - C_0 off the delays by %.1f us' % (i, dev))
if None not in C and sorted(range(n), key=lambda i: C[i]) != \
        sorted(range(n), key=lambda i: h[i]):
    bad.append('C_i out of the order of the delays')
for b in bad:
    print('FAIL: ' + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

# a crowded 2-core machine has slow spells (issue 7): up to three tries
calibrate || { note "retrying"; calibrate; } || { note "retrying"; calibrate; } ||
	fail "links not recovered in 3 calibrations"

# the application, without and with commprof (predicting from bed.params)
profile() {
	rm -rf out
	"$BED" run -t 120 -- ./pairs >plain.out 2>plain.err ||
		{ cat plain.err >&2; fail "pairs without commprof"; }
	"$BED" run -t 120 -- -x LD_PRELOAD="$top_builddir/.libs/libcommprof.so" \
		-x COMMPROF_DIR="$T/out" -x COMMPROF_PARAMS="$T/bed.params" \
		./pairs >cp.out 2>cp.err ||
		{ cat cp.err >&2; fail "pairs with commprof"; }
	expect_eq "pairs: same output" "$(cat cp.out)" "$(cat plain.out)"
	"$COMMPROF" report out --format json -o rep.json ||
		fail "commprof report"
	"$PYTHON3" - "$TABLE" rep.json <<'PY'
import json, sys
rate = {}
for line in open(sys.argv[1]):
    f = line.split('#')[0].split()
    if f:
        rate['%d-%d' % tuple(sorted((int(f[0]), int(f[1]))))] = float(f[2])
acc = json.load(open(sys.argv[2]))['accuracy']['rows']
mu = {}
for r in acc:
    if r['group'] == 'link':
        mu.setdefault(r['key'], {})[r['model']] = (r['mu_bar'], r['rows'])
bad = []
print('# link  rate Mbit/s | mu_bar: LMO  Hockney   rows | LMO better')
for k in sorted(rate):
    m = mu.get(k, {})
    if 'lmo' not in m or 'hockney' not in m:
        bad.append('link %s: no mu_bar for lmo and hockney: %s' % (k, m))
        continue
    (l, n), (h, _) = m['lmo'], m['hockney']
    print('# %-5s %11.0f | %12.3f %8.3f %6d | %s' % (
        k, rate[k], l, h, n, 'yes' if l < h else 'no'))
    if rate[k] <= 200 and not l < h:
        bad.append('slow link %s: LMO mu_bar %.3f not below Hockney %.3f'
                   % (k, l, h))
for b in bad:
    print('FAIL: ' + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
profile || { note "retrying once"; profile; } || fail "LMO not ahead on slow links"
exit 0
