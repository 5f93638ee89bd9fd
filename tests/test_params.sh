#!/bin/sh
# test_params.sh - the parameter file without MPI: a hand-written file
# (every kind of line: tables, assumptions absent, failed estimates, an
# infinite bound) read back by "params show" as text and JSON, the writer
# and reader agreeing byte for byte, and the strict reader refusing
# damaged copies with one exact "commprof: FILE:LINE: what" line and
# status 1.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

TP="$top_builddir/tests/test_params"
[ -x "$TP" ] || fail "no $TP"

cd "$T" || fail "cd $T"
cat >good.params <<'END'
commprof-params 1
mpi_library Open MPI v4.1.4, package: test
date 2026-01-02T03:04:05Z
hosts 2 nodeA nodeB
rankmap 3 0 0 1
nranks 3
log3p.sizes 2 1024 16384
log3p.strides 1 1024
plogp.sizes 2 0 1024
# comment lines and blank lines are allowed

lmo.M 1024 lo 1024 hi 1024 n 0
lmo.C 0 1.5e-06 lo 1.25e-06 hi 1.75e-06 n 30
lmo.C 1 2e-06 lo 1.5e-06 hi 2.5e-06 n 30
lmo.C 2 2.5e-06 lo 2e-06 hi 3e-06 n 30
lmo.t 0 1e-09 lo 5e-10 hi 1.5e-09 n 40
lmo.t 1 2e-09 lo 1e-09 hi 3e-09 n 40
fail lmo.t 2 : negative per-byte delay t_i
lmo.beta 0 1 1e+09 lo 5e+08 hi inf n 20
lmo.beta 0 2 2e+09 lo 1e+09 hi 4e+09 n 20
fail lmo.beta 1 2 : depends on a failed C_i or t_i
lmo.S 4096 lo 4096 hi 4096 n 0
log3p.o_mw 1024 2.9e-05 lo 2.9e-05 hi 2.9e-05 n 100
log3p.l_mw 16384 1024 0.00042 lo 0.00042 hi 0.00042 n 100
hockney.alpha 2e-06 lo 1e-06 hi 3e-06 n 5
hockney.beta 1e-10 lo 5e-11 hi 1.5e-10 n 5
plogp.g 1024 3e-07 lo 3e-07 hi 3e-07 n 10
end
END

# show NAME ARGS...: stdout NAME.out, stderr NAME.err, status in $rc
show() {
	name=$1; shift
	rc=0
	timeout 30 "$TP" show "$@" >"$name.out" 2>"$name.err" || rc=$?
}

show good good.params
expect_eq "show status" "$rc" 0
cat >want <<'END'
mpi library: Open MPI v4.1.4, package: test
date: 2026-01-02T03:04:05Z
ranks: 3 on nodeA nodeB
lmo.M                              1024 B    [1024, 1024]  n=0
lmo.C 0                         1.5e-06 s    [1.25e-06, 1.75e-06]  n=30
lmo.C 1                           2e-06 s    [1.5e-06, 2.5e-06]  n=30
lmo.C 2                         2.5e-06 s    [2e-06, 3e-06]  n=30
lmo.t 0                           1e-09 s/B  [5e-10, 1.5e-09]  n=40
lmo.t 1                           2e-09 s/B  [1e-09, 3e-09]  n=40
lmo.t 2                    failed: negative per-byte delay t_i
lmo.beta 0 1                      1e+09 B/s  [5e+08, inf]  n=20
lmo.beta 0 2                      2e+09 B/s  [1e+09, 4e+09]  n=20
lmo.beta 1 2               failed: depends on a failed C_i or t_i
lmo.S                              4096 B    [4096, 4096]  n=0
log3p.o_mw 1024                 2.9e-05 s    [2.9e-05, 2.9e-05]  n=100
log3p.l_mw 16384 1024           0.00042 s    [0.00042, 0.00042]  n=100
hockney.alpha                     2e-06 s    [1e-06, 3e-06]  n=5
hockney.beta                      1e-10 s/B  [5e-11, 1.5e-10]  n=5
plogp.g 1024                      3e-07 s    [3e-07, 3e-07]  n=10
END
diff -u want good.out >&2 || fail "show text differs"
[ -s good.err ] && fail "show wrote to stderr: $(cat good.err)"

# JSON: beta a symmetric matrix by rank in B/s, null on the diagonal
show json good.params --format json
expect_eq "json status" "$rc" 0
got=$("$PYTHON3" -c '
import json, sys
d = json.load(open(sys.argv[1]))
b = d["lmo"]["beta_Bps"]
print(len(b), b[0][0], b[1][0]["value"], b[0][2]["value"],
      b[2][1]["fail"], b[0][1]["hi"], len(d["lmo"]["C_s"]),
      d["lmo"]["C_s"][2]["value"], d["rank_host"], d["hosts"],
      d["log3p"]["l_mw_s"][1][0]["value"], d["plogp"]["size_bytes"])
' json.out) || fail "json does not parse"
expect_eq "json" "$got" "3 None 1000000000.0 2000000000.0 depends on a \
failed C_i or t_i None 3 2.5e-06 [0, 0, 1] ['nodeA', 'nodeB'] 0.00042 \
[0, 1024]"

# the writer writes what the reader reads, and reads what it wrote
"$TP" roundtrip good.params w1.params || fail "roundtrip 1"
"$TP" roundtrip w1.params w2.params || fail "roundtrip 2"
cmp w1.params w2.params || fail "writer and reader disagree"

# bad NAME SED-SCRIPT WANT: a damaged copy must fail with exactly WANT
bad() {
	sed "$2" good.params >"$1.params"
	show "$1" "$1.params"
	expect_eq "$1 status" "$rc" 1
	expect_eq "$1 message" "$(cat "$1.err")" "commprof: $1.params:$3"
	[ -s "$1.out" ] && fail "$1 printed on stdout"
	return 0
}
bad header '1s/.*/commprof-params/' "1: expected 'commprof-params 1'"
bad version '1s/1$/2/' "1: unsupported format version 2 (this reader knows 1)"
bad number '15s/2.5e-06/2.5e-0x6/' "15: expected a number after 'lmo.C 2'"
bad nolo '15s/ lo / /' "15: expected 'lo' after 'lmo.C 2 2.5e-06'"
bad rank '15s/C 2/C 3/' "15: rank 3 out of range (nranks 3)"
bad size '24s/16384/8192/' "24: size 8192 not declared in its table"
bad dup '14s/C 1/C 0/' "14: duplicate 'lmo.C 0'"
bad unknown '26s/hockney.beta/hockney.gamma/' \
	"26: unknown parameter 'hockney.gamma'"
bad interval '13s/hi 1.75e-06/hi 1.4e-06/' \
	"13: 'lmo.C 0': value outside its interval"
bad nranks '6s/3/4/' "6: nranks 4 does not match rankmap (3)"
bad missing '/^lmo.beta 0 2/d' "27: missing 'lmo.beta 0 2'"
bad truncated '20,$d' "19: unexpected end of file, expected 'end'"
bad after '$a\
lmo.C 0 1 lo 1 hi 1 n 1' "29: text after 'end'"

# cut in the middle of a line, as a full disk leaves it
head -c 300 good.params >cut.params
show cut cut.params
expect_eq "cut status" "$rc" 1
expect_eq "cut message" "$(cat cut.err)" \
	"commprof: cut.params:13: truncated line (no newline at end of file)"

show missing nosuch.params
expect_eq "missing status" "$rc" 1
expect_eq "missing message" "$(cat missing.err)" \
	"commprof: nosuch.params: cannot open: no such file or directory"

show usage good.params --format xml
expect_eq "usage status" "$rc" 2
exit 0
