#!/bin/sh
# test_pt_params.sh - the PlogPT section of the parameter file without
# MPI: a hand-written section (a tree of height 2, three sizes, a failed
# g) shown as text and JSON, written back byte for byte, and damaged
# copies refused with one exact "commprof: FILE:LINE: what" line.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

TP="$top_builddir/tests/test_params"
[ -x "$TP" ] || fail "no $TP"

cd "$T" || fail "cd $T"
# the section as the writer puts it: values with 9 digits
cat >good.params <<'END'
commprof-params 2
mpi_library Open MPI v4.1.4, package: test
date 2026-01-02T03:04:05Z
hosts 2 nodeA nodeB
rankmap 2 0 1
nranks 2
lmo.regimes 1 0
log3p.sizes 0
plogp.sizes 0
lmo.C 0 0 1.5e-06 lo 1.25e-06 hi 1.75e-06 n 30
lmo.C 0 1 2e-06 lo 1.5e-06 hi 2.5e-06 n 30
lmo.t 0 0 0 lo 0 hi 0 n 0
lmo.t 0 1 0 lo 0 hi 0 n 0
lmo.beta 0 0 1 1e+09 lo 5e+08 hi 2e+09 n 20
lmo.Csum 0 0 1 3.5e-06 lo 3e-06 hi 4e-06 n 6
lmo.tsum 0 0 1 2e-09 lo 1.5e-09 hi 2.5e-09 n 6
plogpt.tree 2
plogpt.pair 0 1
plogpt.sizes 3 0 1024 65536
plogpt.L 4.5e-06 lo 4e-06 hi 5e-06 n 20
plogpt.g 0 1.2e-06 lo 1.1e-06 hi 1.3e-06 n 21
plogpt.os 0 6e-07 lo 5e-07 hi 7e-07 n 22
plogpt.or 0 8e-07 lo 7e-07 hi 9e-07 n 23
fail plogpt.g 1024 : below 0 beyond noise
plogpt.os 1024 9e-07 lo 8e-07 hi 1e-06 n 24
plogpt.or 1024 1.1e-06 lo 1e-06 hi 1.2e-06 n 25
plogpt.g 65536 5.5e-05 lo 5e-05 hi 6e-05 n 26
plogpt.os 65536 1.2e-05 lo 1.1e-05 hi 1.3e-05 n 27
plogpt.or 65536 1.5e-05 lo 1.4e-05 hi 1.6e-05 n 28
plogpt.b 1 1.25e+09 lo 1.2e+09 hi 1.3e+09 n 12
plogpt.d 1 2e-07 lo 1.5e-07 hi 2.5e-07 n 13
plogpt.b 2 625000000 lo 600000000 hi 650000000 n 14
plogpt.d 2 4e-07 lo 3e-07 hi 5e-07 n 15
plogpt.eps_s 0.05 lo 0.03 hi 0.07 n 8
plogpt.eps_t 3e-06 lo 2e-06 hi 4e-06 n 9
end
END


cp_params_show good good.params
expect_eq "show status" "$rc" 0
sed -n '/^PlogPT/,$p' good.out >got
cat >want <<'END'
PlogPT (both ends sending, ranks 0 and 1; tree of height 2 over 4 leaves)
plogpt.L                        4.5e-06 s    [4e-06, 5e-06]  n=20
    size B  g(m) s                           o_s(m) s                         o_r(m) s
         0  1.2e-06 [1.1e-06, 1.3e-06]       6e-07 [5e-07, 7e-07]             8e-07 [7e-07, 9e-07]
      1024  failed                           9e-07 [8e-07, 1e-06]             1.1e-06 [1e-06, 1.2e-06]
     65536  5.5e-05 [5e-05, 6e-05]           1.2e-05 [1.1e-05, 1.3e-05]       1.5e-05 [1.4e-05, 1.6e-05]
plogpt.g 1024              failed: below 0 beyond noise
plogpt.b 1                     1.25e+09 B/s  [1.2e+09, 1.3e+09]  n=12
plogpt.d 1                        2e-07 s    [1.5e-07, 2.5e-07]  n=13
plogpt.b 2                     6.25e+08 B/s  [6e+08, 6.5e+08]  n=14
plogpt.d 2                        4e-07 s    [3e-07, 5e-07]  n=15
plogpt.eps_s                       0.05      [0.03, 0.07]  n=8
plogpt.eps_t                      3e-06 s    [2e-06, 4e-06]  n=9
END
diff -u want got >&2 || fail "show text differs"

cp_params_show json good.params --format json
expect_eq "json status" "$rc" 0
got=$("$PYTHON3" -c '
import json, sys
t = json.load(open(sys.argv[1]))["plogpt"]
print(t["height"], t["pair"], t["size_bytes"], t["L_s"]["value"],
      t["g_s"][1]["fail"], t["g_s"][2]["n"], t["os_s"][1]["hi"], t["or_s"][2]["lo"],
      len(t["b_Bps"]), t["b_Bps"][1]["value"], t["d_s"][0]["n"], t["eps_S"]["value"],
      t["eps_T_s"]["hi"])
' json.out) || fail "json does not parse"
expect_eq "json" "$got" "2 [0, 1] [0, 1024, 65536] 4.5e-06 \
below 0 beyond noise 26 1e-06 1.4e-05 2 625000000 13 0.05 4e-06"

# the writer puts back the section as it was, line for line
"$TP" roundtrip good.params w1.params || fail "roundtrip 1"
"$TP" roundtrip w1.params w2.params || fail "roundtrip 2"
cmp w1.params w2.params || fail "writer and reader disagree"
grep 'plogpt\.' good.params >want
grep 'plogpt\.' w1.params >got
diff -u want got >&2 || fail "section written back differs"
expect_eq "plogpt lines written" "$(grep -c 'plogpt\.' w1.params)" 19

# a file without the section: no text, JSON says null
sed '/plogpt/d' good.params >none.params
cp_params_show none none.params
grep -q PlogPT none.out && fail "a PlogPT block without its section"
cp_params_show none none.params --format json
expect_eq "no section" "$("$PYTHON3" -c '
import json, sys; print(json.load(open(sys.argv[1]))["plogpt"])' none.out)" \
	None

cp_params_bad size '27s/plogpt.g 65536/plogpt.g 4096/' \
	"27: 'plogpt.g': size 4096 not in 'plogpt.sizes'"
cp_params_bad height '32s/plogpt.b 2/plogpt.b 3/' "32: 'plogpt.b': height 3 outside 1..2"
cp_params_bad early '19d' "20: 'plogpt.g' before 'plogpt.sizes'"
cp_params_bad notree '17d' "29: 'plogpt.b' before 'plogpt.tree'"
cp_params_bad dup '25s/plogpt.os 1024/plogpt.os 0/' "25: duplicate 'plogpt.os 0'"
cp_params_bad duptree '18i plogpt.tree 1' "18: duplicate 'plogpt.tree'"
cp_params_bad dupsizes '20i plogpt.sizes 1 0' "20: duplicate 'plogpt.sizes'"
cp_params_bad order '19s/0 1024 65536/0 65536 1024/' \
	"19: 'plogpt.sizes' values must increase from 0"
cp_params_bad pair '18s/pair 0 1/pair 0 2/' \
	"18: 'plogpt.pair' needs two different ranks below nranks (2)"
cp_params_bad number '20s/4.5e-06/4.5e-0x/' \
	"20: 'plogpt.L': value outside its interval or not a number"
cp_params_bad interval '31s/hi 2.5e-07/hi 1e-07/' \
	"31: 'plogpt.d 1': value outside its interval or not a number"
cp_params_bad ambig '20a ambiguous plogpt.L : why' "21: 'ambiguous' on 'plogpt.L'"
cp_params_bad name '34s/plogpt.eps_s/plogpt.eps_x/' \
	"34: unknown parameter 'plogpt.eps_x'"
exit 0
