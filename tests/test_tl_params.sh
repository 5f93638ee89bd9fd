#!/bin/sh
# test_tl_params.sh - the tau-Lop section of the parameter file without
# MPI: a hand-written section (both channels, a failed entry, L of
# written messages at two of the cells, a gap table of two cells, one
# below 0) shown as text and JSON, written back byte for byte, and
# damaged copies refused with one exact "commprof: FILE:LINE: what" line.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

TP="$top_builddir/tests/test_params"
[ -x "$TP" ] || fail "no $TP"

cd "$T" || fail "cd $T"
cat >good.params <<'END'
commprof-params 2
mpi_library Open MPI v4.1.4, package: test
date 2026-01-02T03:04:05Z
hosts 1 nodeA
rankmap 2 0 0
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
taulop.sizes 0 2 0 4096
taulop.taus 0 2 1 2
taulop.ranks 0 2
taulop.o 0 0 0 lo 0 hi 0 n 0
taulop.L 0 0 1 1.5e-06 lo 1e-06 hi 2e-06 n 11
taulop.L 0 0 2 3e-06 lo 2e-06 hi 4e-06 n 11
taulop.o 0 4096 0 lo 0 hi 0 n 0
taulop.L 0 4096 1 2.5e-06 lo 2e-06 hi 3e-06 n 11
fail taulop.L 0 4096 2 : below 0 beyond noise
taulop.sizes 1 1 1024
taulop.taus 1 1 1
taulop.ranks 1 4
taulop.o 1 1024 1e-05 lo 9e-06 hi 1.1e-05 n 11
taulop.L 1 1024 1 5e-05 lo 4e-05 hi 6e-05 n 11
taulop.red 2e-11 lo 1e-11 hi 3e-11 n 6
taulop.Lw 0 0 2 4e-06 lo 3e-06 hi 5e-06 n 11
taulop.Lw 0 4096 1 3.5e-06 lo 3e-06 hi 4e-06 n 11
taulop.gaps 0 2 0.0001 0.001
taulop.Lg 0 0 0.0001 -1e-07 lo -3e-07 hi 1e-07 n 11
taulop.Lg 0 4096 0.001 9e-06 lo 8e-06 hi 1e-05 n 11
taulop.Ls 0 4096 2 6e-06 lo 5e-06 hi 7e-06 n 11
end
END


cp_params_show good good.params
expect_eq "show status" "$rc" 0
sed -n '/^tau-Lop/,$p' good.out >got
cat >want <<'END'
tau-Lop channel 0 (shared memory): 2 sizes, tau up to 2, measured on 2 processes
taulop.o 0 0                          0 s    [0, 0]  n=0
taulop.L 0 0 1                  1.5e-06 s    [1e-06, 2e-06]  n=11
taulop.L 0 0 2                    3e-06 s    [2e-06, 4e-06]  n=11
taulop.Lw 0 0 2                   4e-06 s    [3e-06, 5e-06]  n=11
taulop.Lg 0 0 0.0001             -1e-07 s    [-3e-07, 1e-07]  n=11
taulop.o 0 4096                       0 s    [0, 0]  n=0
taulop.L 0 4096 1               2.5e-06 s    [2e-06, 3e-06]  n=11
taulop.Lw 0 4096 1              3.5e-06 s    [3e-06, 4e-06]  n=11
taulop.L 0 4096 2          failed: below 0 beyond noise
taulop.Ls 0 4096 2                6e-06 s    [5e-06, 7e-06]  n=11
taulop.Lg 0 4096 0.001            9e-06 s    [8e-06, 1e-05]  n=11
tau-Lop channel 1 (network): 1 sizes, tau up to 1, measured on 4 processes
taulop.o 1 1024                   1e-05 s    [9e-06, 1.1e-05]  n=11
taulop.L 1 1024 1                 5e-05 s    [4e-05, 6e-05]  n=11
taulop.red                        2e-11 s/B  [1e-11, 3e-11]  n=6
END
diff -u want got >&2 || fail "show text differs"

cp_params_show json good.params --format json
expect_eq "json status" "$rc" 0
got=$("$PYTHON3" -c '
import json, sys
t = json.load(open(sys.argv[1]))["taulop"]
s = t["shm"]
print(s["size_bytes"], s["tau"], s["ranks"],
      s["L_s"][0][1]["value"], s["L_s"][1][1]["fail"],
      t["net"]["o_s"][0]["hi"], t["red_spb"]["value"],
      s["Lw_s"][0][1]["value"], s["Lw_s"][0][0], t["net"]["Lw_s"],
      s["gap_s"], s["Lg_s"][0][0]["value"], s["Lg_s"][1][1]["hi"],
      s["Lg_s"][0][1], "gap_s" in t["net"], s["Ls_s"][1][1]["value"],
      s["Ls_s"][0][0])
' json.out) || fail "json does not parse"
expect_eq "json" "$got" "[0, 4096] [1, 2] 2 3e-06 \
below 0 beyond noise 1.1e-05 2e-11 4e-06 None [[None]] [0.0001, 0.001] \
-1e-07 1e-05 None False 6e-06 None"

"$TP" roundtrip good.params w1.params || fail "roundtrip 1"
"$TP" roundtrip w1.params w2.params || fail "roundtrip 2"
cmp w1.params w2.params || fail "writer and reader disagree"
grep -c '^taulop\.' w1.params > n
expect_eq "taulop lines written" "$(cat n)" 20

# a file without the section: JSON says null
sed '/taulop/d' good.params >none.params
cp_params_show none none.params --format json
expect_eq "no section" "$("$PYTHON3" -c '
import json, sys; print(json.load(open(sys.argv[1]))["taulop"])' none.out)" \
	None

cp_params_bad chan '17s/sizes 0/sizes 2/' "17: channel '2' is not 0 or 1"
cp_params_bad order '18s/2 1 2/2 2 1/' \
	"18: 'taulop.taus 0' values must increase from 1"
cp_params_bad early '17,18d' "18: 'taulop.o 0' before its sizes and taus"
cp_params_bad size '22s/L 0 0 2/L 0 1 2/' "22: 'taulop.L 0': size 1 not declared"
cp_params_bad tau '22s/L 0 0 2/L 0 0 3/' "22: 'taulop.L 0': tau 3 not declared"
cp_params_bad dup '23s/taulop.o 0 4096/taulop.o 0 0/' "23: duplicate 'taulop.o'"
cp_params_bad interval '21s/hi 2e-06/hi 1e-06/' \
	"21: 'taulop.L': value outside its interval or not a number"
cp_params_bad name '31s/taulop.red/taulop.blue/' "31: unknown parameter 'taulop.blue'"
cp_params_bad lwtau '32s/Lw 0 0 2/Lw 0 0 3/' "32: 'taulop.Lw 0': tau 3 not declared"
cp_params_bad lstau '37s/Ls 0 4096 2/Ls 0 4096 3/' \
	"37: 'taulop.Ls 0': tau 3 not declared"
cp_params_bad gaps '34s/0.0001 0.001/0.001 0.0001/' \
	"34: 'taulop.gaps 0' values must be above 0 and increase"
cp_params_bad gapn '34s/0 2 0.0001/0 3 0.0001/' \
	"34: 'taulop.gaps 0' must declare N values and give them"
cp_params_bad lggap '35s/Lg 0 0 0.0001/Lg 0 0 0.0002/' \
	"35: 'taulop.Lg 0': gap 0.0002 not declared"
cp_params_bad lgearly '34d' "34: 'taulop.Lg 0' before its sizes and gaps"
exit 0
