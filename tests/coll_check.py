#!/usr/bin/env python3
"""coll_check.py CSV JSON PARAMS SIZES TARGET: examples/colls' 24
configurations (8 operations at the 3 block sizes SIZES, between 1000
and 500000 bytes and on no grid of the calibration PARAMS) in a
profile's export CSV and report JSON: a table of the median measured
time (t_transfer) and the median predictions of tau-Lop, Hockney and
LogGP with their mu, the algorithm Open MPI ran; exits 1 unless
tau-Lop predicts at least 20 of the 24 and its mu_bar is below
Hockney's and LogGP's on the configurations each predicts too, and,
with TARGET 1, unless tau-Lop's mu_bar is at most 1.30 (issue 15).
Used by tests/test_taulop_accuracy.sh (one host) and
tests/test_cluster.sh (the test bed's hosts)."""
import csv, json, statistics, sys
ops = ["MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Allgather",
       "MPI_Alltoall", "MPI_Gather", "MPI_Scatter",
       "MPI_Reduce_scatter_block"]
models = ("taulop", "hockney", "loggp")
sizes = [int(s) for s in sys.argv[4].split()]
# no block size on a grid of the calibration
grid = set()
for line in open(sys.argv[3]):
    w = line.split()
    if w and w[0] in ("taulop.sizes", "log3p.sizes", "plogp.sizes"):
        grid.update(float(x) for x in w[1:])
on = [s for s in sizes if float(s) in grid]
assert not on, "block sizes on a calibration grid: %s" % on
assert all(1000 <= s <= 500000 for s in sizes), sizes
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["op"] in ops and int(r["bytes"]) >= 1000]
alg = {}
for c in json.load(open(sys.argv[2]))["collectives"]["rows"]:
    if c["model"] == "taulop":
        alg.setdefault(c["op"], set()).add(c["algorithm"])
print("%-25s %7s %5s %10s | %10s %10s %10s | %6s %6s %6s" % (
      "op", "bytes", "rows", "t_med us", "tau-Lop", "Hockney", "LogGP",
      "mu_tl", "mu_hk", "mu_lg"))
mu = {m: {} for m in models}
conf = 0
for op in ops:
    for b in sorted({int(r["bytes"]) for r in rows if r["op"] == op}):
        conf += 1
        c = [r for r in rows if r["op"] == op and int(r["bytes"]) == b]
        c = [r for r in c if r["t_transfer"]]
        t = statistics.median(float(r["t_transfer"]) for r in c)
        pred = {}
        for m in models:
            v = [float(r["pred_" + m]) for r in c if r["pred_" + m]]
            if c and len(v) == len(c) and min(v) > 0:
                pred[m] = statistics.median(v)
                mu[m][(op, b)] = max(t, pred[m]) / min(t, pred[m])
        f = lambda m: "%10.2f" % (pred[m] * 1e6) if m in pred else \
            "%10s" % "-"
        g = lambda m: "%6.3f" % mu[m][(op, b)] if m in pred else \
            "%6s" % "-"
        print("%-25s %7d %5d %10.2f | %s %s %s | %s %s %s" % (
              op, b, len(c), t * 1e6, f("taulop"), f("hockney"),
              f("loggp"), g("taulop"), g("hockney"), g("loggp")))
for op in ops:
    print("# %s: %s" % (op, ", ".join(sorted(alg.get(op, ["-"])))))
assert conf == 24, "%d configurations, want 24" % conf
n = len(mu["taulop"])
bar = {m: sum(v.values()) / len(v) if v else float("inf")
       for m, v in mu.items()}
print("# tau-Lop predicts %d of %d configurations, mu_bar %.3f" % (
      n, conf, bar["taulop"]))
bad = []
if n < 20:
    bad.append("tau-Lop predicts %d configurations, want >= 20" % n)
# each baseline on the configurations both it and tau-Lop predict
for m in models[1:]:
    same = set(mu["taulop"]) & set(mu[m])
    tl = sum(mu["taulop"][k] for k in same) / max(len(same), 1)
    bm = sum(mu[m][k] for k in same) / max(len(same), 1)
    print("# on the %d configurations %s predicts too: tau-Lop %.3f, "
          "%s %.3f" % (len(same), m, tl, m, bm))
    if not same or tl >= bm:
        bad.append("tau-Lop does not beat %s: %.3f against %.3f on %d "
                   "configurations" % (m, tl, bm, len(same)))
met = bar["taulop"] <= 1.30
print("# target mu_bar <= 1.30: %s" % ("met" if met else "not met"))
if not met and sys.argv[5] == "1":
    bad.append("tau-Lop mu_bar %.3f > 1.30" % bar["taulop"])
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
