#!/bin/sh
# test_params.sh - the parameter file without MPI: a hand-written file
# (every kind of line: tables, LMO's regimes and where they start,
# assumptions absent, failed and ambiguous estimates, infinite bounds and
# an infinite rate) read back by "params show" as text and JSON, the
# writer and reader agreeing byte for byte, and the strict reader
# refusing damaged copies with one exact "commprof: FILE:LINE: what" line
# and status 1.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

TP="$top_builddir/tests/test_params"
[ -x "$TP" ] || fail "no $TP"

cd "$T" || fail "cd $T"
cat >good.params <<'END'
commprof-params 2
mpi_library Open MPI v4.1.4, package: test
date 2026-01-02T03:04:05Z
hosts 2 nodeA nodeB
rankmap 3 0 0 1
nranks 3
lmo.regimes 2 0 4096
lmo.source 1 btl_vader_eager_limit=4096
lmo.sizes 3 1024 4096 65536
log3p.sizes 2 1024 16384
log3p.ssizes 1 16384
log3p.blocks 1 8
log3p.gaps 1 1016
plogp.sizes 2 0 1024
# comment lines and blank lines are allowed

lmo.C 0 0 1.5e-06 lo 1.25e-06 hi 1.75e-06 n 30
lmo.C 0 1 2e-06 lo 1.5e-06 hi 2.5e-06 n 30
lmo.C 0 2 2.5e-06 lo 2e-06 hi 3e-06 n 30
lmo.t 0 0 1e-09 lo 5e-10 hi 1.5e-09 n 40
lmo.t 0 1 0 lo 0 hi 3e-09 n 40
ambiguous lmo.t 0 1 : interval wider than the smallest sum it is part of
fail lmo.t 0 2 : the regime's system does not determine it
lmo.beta 0 0 1 1e+09 lo 5e+08 hi inf n 20
lmo.beta 0 0 2 inf lo 2e+09 hi inf n 20
fail lmo.beta 0 1 2 : the regime's system does not determine it
lmo.Csum 0 0 1 3.5e-06 lo 3e-06 hi 4e-06 n 6
lmo.Csum 0 0 2 4e-06 lo 3.5e-06 hi 4.5e-06 n 6
lmo.Csum 0 1 2 4.5e-06 lo 4e-06 hi 5e-06 n 6
lmo.tsum 0 0 1 2e-09 lo 1.5e-09 hi 2.5e-09 n 6
lmo.tsum 0 0 2 1e-09 lo 5e-10 hi 1.5e-09 n 6
lmo.tsum 0 1 2 3e-09 lo 2e-09 hi 4e-09 n 6
lmo.C 1 0 3e-06 lo 3e-06 hi 3e-06 n 30
lmo.C 1 1 3e-06 lo 3e-06 hi 3e-06 n 30
lmo.C 1 2 3e-06 lo 3e-06 hi 3e-06 n 30
lmo.t 1 0 0 lo 0 hi 0 n 30
lmo.t 1 1 0 lo 0 hi 0 n 30
lmo.t 1 2 0 lo 0 hi 0 n 30
lmo.beta 1 0 1 1e+10 lo 1e+10 hi 1e+10 n 30
lmo.beta 1 0 2 1e+10 lo 1e+10 hi 1e+10 n 30
lmo.beta 1 1 2 1e+10 lo 1e+10 hi 1e+10 n 30
lmo.Csum 1 0 1 6e-06 lo 6e-06 hi 6e-06 n 8
lmo.Csum 1 0 2 6e-06 lo 6e-06 hi 6e-06 n 8
lmo.Csum 1 1 2 6e-06 lo 6e-06 hi 6e-06 n 8
lmo.tsum 1 0 1 1e-10 lo 1e-10 hi 1e-10 n 8
lmo.tsum 1 0 2 1e-10 lo 1e-10 hi 1e-10 n 8
lmo.tsum 1 1 2 1e-10 lo 1e-10 hi 1e-10 n 8
lmo.S 4096 lo 4096 hi 4096 n 0
log3p.o_mw 1024 2.9e-05 lo 2.9e-05 hi 2.9e-05 n 100
log3p.l_mw 16384 8 1016 0.00042 lo 0.0004 hi 0.00044 n 100
hockney.alpha 2e-06 lo 1e-06 hi 3e-06 n 5
hockney.beta 1e-10 lo 5e-11 hi 1.5e-10 n 5
plogp.g 1024 3e-07 lo 3e-07 hi 3e-07 n 10
end
END

# show NAME ARGS...: stdout NAME.out, stderr NAME.err, status in $rc

cp_params_show good good.params
expect_eq "show status" "$rc" 0
cat >want <<'END'
mpi library: Open MPI v4.1.4, package: test
date: 2026-01-02T03:04:05Z
ranks: 3 on nodeA nodeB
lmo regime 0: messages of 0 B to 4095 B
lmo.C 0 0                           1.5e-06 s    [1.25e-06, 1.75e-06]  n=30
lmo.C 0 1                             2e-06 s    [1.5e-06, 2.5e-06]  n=30
lmo.C 0 2                           2.5e-06 s    [2e-06, 3e-06]  n=30
lmo.t 0 0                             1e-09 s/B  [5e-10, 1.5e-09]  n=40
lmo.t 0 1                                 0 s/B  [0, 3e-09]  n=40
                                 ambiguous: interval wider than the smallest sum it is part of
lmo.t 0 2                      failed: the regime's system does not determine it
lmo.beta 0 0 1                        1e+09 B/s  [5e+08, inf]  n=20
lmo.beta 0 0 2                          inf B/s  [2e+09, inf]  n=20
lmo.beta 0 1 2                 failed: the regime's system does not determine it
lmo.Csum 0 0 1                      3.5e-06 s    [3e-06, 4e-06]  n=6
lmo.Csum 0 0 2                        4e-06 s    [3.5e-06, 4.5e-06]  n=6
lmo.Csum 0 1 2                      4.5e-06 s    [4e-06, 5e-06]  n=6
lmo.tsum 0 0 1                        2e-09 s/B  [1.5e-09, 2.5e-09]  n=6
lmo.tsum 0 0 2                        1e-09 s/B  [5e-10, 1.5e-09]  n=6
lmo.tsum 0 1 2                        3e-09 s/B  [2e-09, 4e-09]  n=6
lmo regime 1: messages of 4096 B and more (starts at btl_vader_eager_limit=4096)
lmo.C 1 0                             3e-06 s    [3e-06, 3e-06]  n=30
lmo.C 1 1                             3e-06 s    [3e-06, 3e-06]  n=30
lmo.C 1 2                             3e-06 s    [3e-06, 3e-06]  n=30
lmo.t 1 0                                 0 s/B  [0, 0]  n=30
lmo.t 1 1                                 0 s/B  [0, 0]  n=30
lmo.t 1 2                                 0 s/B  [0, 0]  n=30
lmo.beta 1 0 1                        1e+10 B/s  [1e+10, 1e+10]  n=30
lmo.beta 1 0 2                        1e+10 B/s  [1e+10, 1e+10]  n=30
lmo.beta 1 1 2                        1e+10 B/s  [1e+10, 1e+10]  n=30
lmo.Csum 1 0 1                        6e-06 s    [6e-06, 6e-06]  n=8
lmo.Csum 1 0 2                        6e-06 s    [6e-06, 6e-06]  n=8
lmo.Csum 1 1 2                        6e-06 s    [6e-06, 6e-06]  n=8
lmo.tsum 1 0 1                        1e-10 s/B  [1e-10, 1e-10]  n=8
lmo.tsum 1 0 2                        1e-10 s/B  [1e-10, 1e-10]  n=8
lmo.tsum 1 1 2                        1e-10 s/B  [1e-10, 1e-10]  n=8
lmo.S                                  4096 B    [4096, 4096]  n=0
log3p.o_mw 1024                     2.9e-05 s    [2.9e-05, 2.9e-05]  n=100
log3p.l_mw SIZE BLOCK GAP: a message of SIZE bytes in blocks of BLOCK, the stride BLOCK + GAP
log3p.l_mw 16384 8 1016             0.00042 s    [0.0004, 0.00044]  n=100
hockney.alpha                         2e-06 s    [1e-06, 3e-06]  n=5
hockney.beta                          1e-10 s/B  [5e-11, 1.5e-10]  n=5
plogp.g 1024                          3e-07 s    [3e-07, 3e-07]  n=10
END
diff -u want good.out >&2 || fail "show text differs"
[ -s good.err ] && fail "show wrote to stderr: $(cat good.err)"

# JSON: LMO per regime, beta a symmetric matrix by rank in B/s, null on
# the diagonal, "inf" where 1/beta is 0; ambiguities beside the values
cp_params_show json good.params --format json
expect_eq "json status" "$rc" 0
got=$("$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["lmo"]["regimes"]
b = r[0]["beta_Bps"]
print(len(r), r[1]["first_bytes"], r[1]["source"], len(b), b[0][0],
      b[1][0]["value"], b[0][2]["value"], b[2][1]["fail"], b[0][1]["hi"],
      r[0]["t_spb"][1]["ambiguous"], r[0]["tsum_spb"][2][1]["value"],
      r[1]["Csum_s"][0][1]["value"], d["rank_host"], d["hosts"],
      d["log3p"]["l_mw_s"][0][0][0]["value"], d["log3p"]["gap_bytes"],
      d["plogp"]["size_bytes"])
' json.out) || fail "json does not parse"
expect_eq "json" "$got" "2 4096 btl_vader_eager_limit=4096 3 None \
1000000000.0 inf the regime's system does not determine it inf interval \
wider than the smallest sum it is part of 3e-09 6e-06 [0, 0, 1] \
['nodeA', 'nodeB'] 0.00042 [1016] [0, 1024]"

# the writer writes what the reader reads, and reads what it wrote
"$TP" roundtrip good.params w1.params || fail "roundtrip 1"
"$TP" roundtrip w1.params w2.params || fail "roundtrip 2"
cmp w1.params w2.params || fail "writer and reader disagree"

# a host that changed speed while calibrated: the gauge's line and the
# warning, and nothing else, in show; both in JSON; written back as read
sed -e 's/^plogp\.sizes .*/&\nassume unsteady/' \
	-e 's/^end$/calib.gauge 4e-05 lo 3.7e-05 hi 0.000125 n 4\nend/' \
	good.params >uns.params
cp_params_show uns uns.params
expect_eq "unsteady status" "$rc" 0
grep -v -e '^warning: the host changed speed while it was measured (calib\.gauge: the same message.s fastest time at several moments, from lo to hi); a run in another spell can be off by up to hi/lo whatever the model: calibrate again on a quiet host$' \
	-e '^calib\.gauge  *4e-05 s    \[3\.7e-05, 0\.000125\]  n=4$' uns.out \
	>uns.rest
expect_eq "unsteady lines" $(($(wc -l <uns.out) - $(wc -l <uns.rest))) 2
diff -u good.out uns.rest >&2 || fail "show of the unsteady file differs"
cp_params_show unsj uns.params --format json
got=$("$PYTHON3" -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
print(a["assume"], a["gauge_s"]["lo"], a["gauge_s"]["hi"], a["gauge_s"]["n"],
      b["assume"], b["gauge_s"])
' unsj.out json.out) || fail "unsteady json does not parse"
expect_eq "unsteady json" "$got" "['unsteady'] 3.7e-05 0.000125 4 [] None"
"$TP" roundtrip uns.params u1.params || fail "roundtrip unsteady"
"$TP" roundtrip u1.params u2.params || fail "roundtrip unsteady 2"
cmp u1.params u2.params || fail "writer and reader disagree (unsteady)"
grep -q '^assume unsteady$' u1.params || fail "assume unsteady not written"

# log3P's strided sizes and blocks without a gap: l_mw is an empty table
# (JSON once did arithmetic on its NULL; tests/fuzz/corpus/params/no-gaps)
sed -e 's/^log3p\.gaps .*/log3p.gaps 0/' -e '/^log3p\.l_mw /d' \
	good.params >nogap.params
cp_params_show nogap nogap.params --format json
expect_eq "no gaps status" "$rc" 0
got=$("$PYTHON3" -c '
import json, sys
l = json.load(open(sys.argv[1]))["log3p"]
print(l["ssize_bytes"], l["block_bytes"], l["gap_bytes"], l["l_mw_s"])
' nogap.out) || fail "no gaps json does not parse"
expect_eq "no gaps json" "$got" "[16384] [8] [] [[[]]]"

# bad NAME SED-SCRIPT WANT: a damaged copy must fail with exactly WANT
cp_params_bad header '1s/.*/commprof-params/' "1: expected 'commprof-params 2'"
cp_params_bad version '1s/2$/1/' "1: unsupported format version 1 (this reader knows 2)"
cp_params_bad number '19s/2.5e-06 lo/2.5e-0x6 lo/' \
	"19: expected a number after 'lmo.C 0 2'"
cp_params_bad inf '17s/1.5e-06 lo/inf lo/' "17: expected a number after 'lmo.C 0 0'"
cp_params_bad nolo '19s/ lo / /' "19: expected 'lo' after 'lmo.C 0 2 2.5e-06'"
cp_params_bad rank '19s/C 0 2/C 0 3/' "19: rank 3 out of range (nranks 3)"
cp_params_bad regime '19s/C 0 2/C 2 2/' "19: regime 2 out of range (2 regimes)"
cp_params_bad size '50s/16384 8/8192 8/' "50: size 8192 not declared in its table"
cp_params_bad block '50s/ 8 1016/ 16 1016/' "50: block 16 not declared in its table"
cp_params_bad dup '18s/C 0 1/C 0 0/' "18: duplicate 'lmo.C 0 0'"
cp_params_bad unknown '52s/hockney.beta/hockney.gamma/' \
	"52: unknown parameter 'hockney.gamma'"
cp_params_bad interval '17s/hi 1.75e-06/hi 1.4e-06/' \
	"17: 'lmo.C 0 0': value outside its interval"
cp_params_bad nranks '6s/3/4/' "6: nranks 4 does not match rankmap (3)"
cp_params_bad missing '/^lmo.tsum 1 0 2/d' "53: missing 'lmo.tsum 1 0 2'"
cp_params_bad ambig '23s/^fail lmo.t 0 2 .*/ambiguous lmo.t 0 2 : why/' \
	"23: 'ambiguous lmo.t 0 2' without a value before it, or twice"
cp_params_bad source '8s/source 1/source 2/' "8: expected 'lmo.source K TEXT', K \
a regime after the first, TEXT one word under 64 bytes"
cp_params_bad noregimes '/^lmo.regimes/d' "7: 'lmo.source' before 'lmo.regimes'"
cp_params_bad truncated '20,$d' "19: unexpected end of file, expected 'end'"
cp_params_bad after '$a\
lmo.C 0 0 1 lo 1 hi 1 n 1' "55: text after 'end'"

# cut in the middle of a line, as a full disk leaves it
head -c 300 good.params >cut.params
cp_params_show cut cut.params
expect_eq "cut status" "$rc" 1
expect_eq "cut message" "$(cat cut.err)" \
	"commprof: cut.params:13: truncated line (no newline at end of file)"

cp_params_show missing nosuch.params
expect_eq "missing status" "$rc" 1
expect_eq "missing message" "$(cat missing.err)" \
	"commprof: nosuch.params: cannot open: no such file or directory"

cp_params_show usage good.params --format xml
expect_eq "usage status" "$rc" 2
exit 0
