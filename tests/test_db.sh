#!/bin/sh
# test_db.sh - the SQLite layer and the commprof tool, without MPI:
# tests/test_db writes two rank files with known rows through the writer
# API; commprof export (csv, json) and summary must print exactly what
# they hold, callsites resolved to test_db.c:<line> of the marked call.
# Then: error cases with exact stderr and status, a stale merge rebuilt,
# a rank file cut in the middle, a writer killed right after a commit.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

TESTDB="$top_builddir/tests/test_db"
[ -x "$COMMPROF" ] || fail "no $COMMPROF"
[ -x "$TESTDB" ] || fail "no $TESTDB"

# run_cp NAME ARGS...: commprof with stdout in $T/NAME.out, stderr in
# $T/NAME.err, status in $rc; bounded
run_cp() {
	name=$1; shift
	rc=0
	timeout 60 "$COMMPROF" "$@" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
}

# expect_file WHAT FILE: FILE must equal stdin
expect_file() {
	cat >"$T/want"
	diff -u "$T/want" "$2" >&2 || fail "$1 differs"
}

L=$(grep -n 'cp_test_here();	/\* callsite \*/' \
	"$top_srcdir/tests/test_db.c" | cut -d: -f1)
[ -n "$L" ] || fail "callsite marker not found in test_db.c"
S="test_db.c:$L"

# the model columns of the export, from CP_MODEL_MAP: every model's
# prediction 0 in these rows, no mu
PRED=$(cp_model_list 's/^/pred_/')
MU=$(cp_model_list 's/^/mu_/')
ZERO=$(cp_model_list 's/.*/0.000000000/')
NONE=$(cp_model_list 's/.*//')

D="$T/run"
mkdir "$D"
"$TESTDB" "$D" || fail "test_db could not write the rank files"

# --- export csv: exact text, (rank, seq) order, sentinels, quoting
run_cp csv export "$D" --format csv
expect_eq "export csv status" "$rc" 0
expect_file "export csv stderr" "$T/csv.err" </dev/null
expect_file "export csv" "$T/csv.out" <<EOF
rank,op,peer,root,tag,comm_size,bytes,contiguous,block_bytes,stride_bytes,nblocks,callsite,t_start,t_measured,count,comm,t_incall,flags,thread,seq,function,$PRED,t_transfer,t_wait,late,$MU,layout,algorithm
0,MPI_Send,1,,7,2,1000,1,8,,1,$S,0.001000000,0.000002500,125,0,,,0,0,main,$ZERO,,,,$NONE,MPI_DOUBLE,
0,MPI_Isend,MPI_PROC_NULL,,9,2,0,0,8,64,16,$S,0.002000000,0.000000100,4,0,0.000000050,procnull|nonblock,0,1,main,$ZERO,,,,$NONE,"vector(16,1,8) of MPI_DOUBLE",
0,MPI_Bcast,,0,,2,4096,,,,,0x10,3.000000001,0.000000300,512,3,,inplace,1,2,,$ZERO,,,,$NONE,,binomial
1,MPI_Recv,0,,7,2,1000,1,1,,1,$S,0.001000500,0.000002000,1000,0,0.000000000,recv,0,0,main,$ZERO,,,,$NONE,MPI_BYTE,
1,MPI_Recv,MPI_ANY_SOURCE,,,2,0,1,1,,1,$S,0.005000000,1.234567890,0,0,,nonblock|notdone|anysrc|anytag|recv,0,1,main,$ZERO,,,,$NONE,MPI_BYTE,
1,"MPI_Odd,""x""",,1,0,3,1099511627776,,,,,$S,0.006000000,0.000000007,0,1,,zero|persistent|fortran|cancelled|varblock|inter,0,2,main,$ZERO,,,,$NONE,,
EOF
[ -f "$D/commprof.db" ] || fail "no merged $D/commprof.db"

# -o FILE: same text, nothing on stdout; the merge is reused
run_cp csvo export --format=csv -o "$T/o.csv" "$D"
expect_eq "export -o status" "$rc" 0
expect_file "export -o stdout" "$T/csvo.out" </dev/null
diff "$T/csv.out" "$T/o.csv" >&2 || fail "export -o differs from stdout"

# --- export json: parsed, keys in order, types
run_cp json export "$D" --format json
expect_eq "export json status" "$rc" 0
"$PYTHON3" - "$T/json.out" "$S" "$PRED" "$MU" <<'EOF' || fail "export json"
import json, sys
rows = json.load(open(sys.argv[1]))
site = sys.argv[2]
keys = ("rank op peer root tag comm_size bytes contiguous block_bytes "
        "stride_bytes nblocks callsite t_start t_measured count comm "
        "t_incall flags thread seq function").split() + \
    sys.argv[3].split(",") + "t_transfer t_wait late".split() + \
    sys.argv[4].split(",") + ["layout", "algorithm"]
assert len(rows) == 6, len(rows)
for r in rows:
    assert list(r) == keys, list(r)
assert [(r["rank"], r["seq"]) for r in rows] == \
    [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
a, b, c, d, e, f = rows
assert a["op"] == "MPI_Send" and a["peer"] == 1 and a["root"] is None
assert a["bytes"] == 1000 and a["callsite"] == site
assert a["function"] == "main" and a["t_start"] == 0.001
assert a["t_incall"] is None and a["flags"] is None
assert b["peer"] == "MPI_PROC_NULL" and b["stride_bytes"] == 64
assert b["flags"] == "procnull|nonblock" and b["t_incall"] == 5e-08
assert b["layout"] == "vector(16,1,8) of MPI_DOUBLE" and c["layout"] is None
assert c["algorithm"] == "binomial" and a["algorithm"] is None
assert c["callsite"] == "0x10" and c["function"] is None
assert c["tag"] is None and c["contiguous"] is None and c["thread"] == 1
assert e["peer"] == "MPI_ANY_SOURCE" and e["t_measured"] == 1.23456789
assert f["op"] == 'MPI_Odd,"x"' and f["bytes"] == 1099511627776
assert f["tag"] == 0 and f["root"] == 1
EOF

# --- summary: totals from the aggregates (the first put_aggs is replaced)
run_cp sum summary "$D"
expect_eq "summary status" "$rc" 0
expect_file "summary stderr" "$T/sum.err" </dev/null
F="%-24s %-20s %-18s %12s %14s %12s %7s %12s\n"
G="%-18s %12s %14s %12s %7s %12s\n"
{
	echo "commprof summary of $D"
	echo "ranks:      2"
	echo "app time:   5.000000 s (summed over ranks)"
	echo "MPI time:   1.234578 s (24.69% of app time)"
	echo "calls:      11"
	echo "bytes:      1099511639872"
	echo "call rows:  6 stored, 2 dropped (buffer full)," \
		"3 not kept (row limit or sampling), 0 lost (disk full);" \
		"rows, not calls: a Sendrecv has two"
	echo
	echo "Top callsites by MPI time"
	printf "$F" site function op calls bytes "time(ms)" "%mpi" "avg(us)"
	printf "$F" "$S" main MPI_Recv 5 5000 1234.570 100.00 246913.978
	printf "$F" "$S" main MPI_Send 3 3000 0.008 0.00 2.533
	printf "$F" 0x10 "" MPI_Bcast 1 4096 0.000 0.00 0.300
	printf "$F" "$S" main MPI_Isend 1 0 0.000 0.00 0.100
	printf "$F" "$S" main 'MPI_Odd,"x"' 1 1099511627776 0.000 0.00 0.007
	echo
	echo "Per-class totals"
	printf "$G" class calls bytes "time(ms)" "%mpi" "avg(us)"
	printf "$G" other 11 1099511639872 1234.578 100.00 112234.354
	echo
	echo "Per-op totals"
	printf "$G" op calls bytes "time(ms)" "%mpi" "avg(us)"
	printf "$G" MPI_Recv 5 5000 1234.570 100.00 246913.978
	printf "$G" MPI_Send 3 3000 0.008 0.00 2.533
	printf "$G" MPI_Bcast 1 4096 0.000 0.00 0.300
	printf "$G" MPI_Isend 1 0 0.000 0.00 0.100
	printf "$G" 'MPI_Odd,"x"' 1 1099511627776 0.000 0.00 0.007
} >"$T/sum.want"
expect_file "summary" "$T/sum.out" <"$T/sum.want"
run_cp top summary --top 1 "$D"
expect_eq "summary --top 1 rows" \
	"$(grep -c "^$S .*MPI_" "$T/top.out")" 1

# --- errors: one line, exact text and status
run_cp nodir export "$T/nope" --format csv
expect_eq "no dir status" "$rc" 1
expect_file "no dir stdout" "$T/nodir.out" </dev/null
echo "commprof: cannot open $T/nope: no such file or directory" |
	expect_file "no dir stderr" "$T/nodir.err"
mkdir "$T/empty"
run_cp empty summary "$T/empty"
expect_eq "empty dir status" "$rc" 1
echo "commprof: no rank files in $T/empty" |
	expect_file "empty dir stderr" "$T/empty.err"
mkdir "$T/junk"
echo "not a database at all, but long enough to have a header......" \
	>"$T/junk/rank-00000.db"
run_cp junk export "$T/junk"
expect_eq "junk dir status" "$rc" 1
grep -q "^commprof: no readable rank files in $T/junk (rank-00000.db: " \
	"$T/junk.err" || fail "junk dir stderr: $(cat "$T/junk.err")"
# rank files of another schema version: said, with both versions
mkdir "$T/old"
cp "$D"/rank-0000[01].db "$T/old/"
for f in "$T"/old/rank-*.db; do
	"$PYTHON3" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE meta SET value = ? WHERE key = ?", ("1", "schema_version"))
c.commit()' "$f" || fail "cannot age $f"
done
run_cp old report "$T/old"
expect_eq "old schema status" "$rc" 1
why="rank-0000[01].db: schema version 1, this commprof reads [0-9]*"
grep -q "no readable rank files in $T/old ($why: written by another version)$" \
	"$T/old.err" || fail "old schema stderr: $(cat "$T/old.err")"
run_cp usage export
expect_eq "usage status" "$rc" 2
echo "commprof: export: missing DIR; try 'commprof --help'" |
	expect_file "usage stderr" "$T/usage.err"
run_cp fmt export "$D" --format xml
expect_eq "bad format status" "$rc" 2
echo "commprof: export: unknown format 'xml'; use csv or json" |
	expect_file "bad format stderr" "$T/fmt.err"
run_cp noval export "$D" --format
expect_eq "option without value status" "$rc" 2
echo "commprof: export: missing the value of '--format'; try 'commprof --help'" |
	expect_file "option without value stderr" "$T/noval.err"
run_cp cmd frob
expect_eq "unknown command status" "$rc" 2
echo "commprof: unknown command 'frob'; try 'commprof --help'" |
	expect_file "unknown command stderr" "$T/cmd.err"
run_cp help --help
expect_eq "help status" "$rc" 0
for w in summary export COMMPROF_DIR COMMPROF_MAX_ROWS COMMPROF_SAMPLE \
	COMMPROF_FLUSH_MS COMMPROF_RING COMMPROF_DISABLE COMMPROF_PARAMS \
	COMMPROF_FLUSH_CPU; do
	grep -q "$w" "$T/help.out" || fail "--help lacks $w"
done
run_cp subhelp report "$D" --help
expect_eq "report --help status" "$rc" 0
cmp -s "$T/help.out" "$T/subhelp.out" || fail "report --help: not the usage"
run_cp params params
expect_eq "params without show status" "$rc" 2
echo "commprof: params: expected 'show FILE'; try 'commprof --help'" |
	expect_file "params without show stderr" "$T/params.err"
run_cp version --version
grep -q '^commprof [0-9][0-9.]*$' "$T/version.out" || fail "--version"

# --- a stale merge is rebuilt: a rank file gone, then rewritten
rm "$D/rank-00001.db"
run_cp stale export "$D"
expect_eq "stale rows" "$(grep -c '^1,' "$T/stale.out")" 0
expect_eq "stale rank 0 rows" "$(grep -c '^0,' "$T/stale.out")" 3
"$TESTDB" "$D" || fail "test_db rewrite"
run_cp fresh export "$D"
diff "$T/csv.out" "$T/fresh.out" >&2 || fail "rewritten run not merged"

# --- a merged file alone is enough
mkdir "$T/only"
cp "$D/commprof.db" "$T/only/"
run_cp only export "$T/only"
diff "$T/csv.out" "$T/only.out" >&2 || fail "commprof.db alone not read"

# --- a directory we cannot write: the merge is made in $TMPDIR
if [ "$(id -u)" != 0 ]; then
	rm "$D/commprof.db"
	chmod 555 "$D"
	run_cp ro export "$D"
	chmod 755 "$D"
	expect_eq "read-only dir status" "$rc" 0
	diff "$T/csv.out" "$T/ro.out" >&2 || fail "read-only dir export"
	[ ! -e "$D/commprof.db" ] || fail "merge written into read-only dir"
else
	note "running as root: read-only directory case not checked"
fi

# --- rows whose columns go between NULL and values: each as written
# (the writer binds only the parameters that changed) ---
mkdir "$T/binds"
"$TESTDB" --binds "$T/binds" || fail "test_db --binds"
"$PYTHON3" - "$T/binds/rank-00000.db" "$(cp_model_list 's/^/pred_/; s/$/_ns/')" <<'PY' ||
import sqlite3, sys
preds = sys.argv[2].split(",")
d = sqlite3.connect(sys.argv[1])
cols = ["seq", "op", "peer", "tag", "bytes", "t_measured_ns", "t_incall_ns",
        "alg"] + preds
rows = d.execute("SELECT %s FROM calls ORDER BY seq" % ", ".join(cols)).fetchall()
assert len(rows) == 206, "%d rows, not 206" % len(rows)
for r in rows:
    i = r[0]
    want = [i, i % 2, i % 5 if i % 3 else None, 7 if i % 4 else None, i // 10,
            i % 6, None if i % 2 else i, None if i % 3 else 2] + \
        [((i + k) % 7) * 1.5 if (i + k) % 4 else None
         for k in range(len(preds))]
    assert list(r) == want, "row %d: %s, not %s" % (i, r, want)
PY
	fail "rows bound in part"

# --- a rank file cut in the middle: the rows before the cut, one warning
B="$T/big"
mkdir "$B"
"$TESTDB" --big "$B" || fail "test_db --big"
size=$(stat -c %s "$B/rank-00000.db")
truncate -s $((size / 2)) "$B/rank-00000.db"
for pass in 1 2; do
	run_cp big$pass export "$B"
	expect_eq "cut file status ($pass)" "$rc" 0
	expect_eq "cut file warnings ($pass)" "$(wc -l <"$T/big$pass.err")" 1
	w="using the rows that could be read"
	case $(cat "$T/big$pass.err") in
	"commprof: $B/rank-00000.db: damaged ("*"); $w") ;;
	*) fail "cut file warning: $(cat "$T/big$pass.err")" ;;
	esac
done
diff "$T/big1.out" "$T/big2.out" >&2 || fail "cut file: merge not reused"
n=$(($(wc -l <"$T/big1.out") - 1))
[ "$n" -gt 0 ] && [ "$n" -lt 20000 ] || fail "cut file kept $n rows"
# the rows kept are seq 0..n-1 with their own values
awk -F, 'NR > 1 && ($20 != NR - 2 || $7 != 8 * (NR - 2)) { exit 1 }' \
	"$T/big1.out" || fail "cut file rows are not a clean prefix"
note "cut rank file: $n of 20000 rows kept"

# --- 40 ranks: all merged, in rank order
M="$T/many"
mkdir "$M"
"$TESTDB" --many "$M" || fail "test_db --many"
run_cp many export "$M"
expect_eq "40 ranks status" "$rc" 0
expect_eq "40 ranks rows" "$(cut -d, -f1,7 "$T/many.out" | tail -n +2 |
	tr '\n' ' ')" "$(i=0; while [ $i -lt 40 ]; do
	printf '%d,%d ' $i $((100 * i)); i=$((i + 1)); done)"
run_cp manysum summary "$M"
expect_eq "40 ranks summary" "$(grep '^ranks:' "$T/manysum.out")" \
	"ranks:      40"

# --- a rank killed before closing leaves rank-NNNNN.db-reserve; commprof
# removes it only where the rank's meta names this host and a pid that
# is gone: kept for a live pid, another host, and a file without pid
if command -v sqlite3 >/dev/null; then
	gone=$(sh -c 'echo $$')
	setmeta() {
		sqlite3 "$M/rank-0000$1.db" "INSERT OR REPLACE INTO meta VALUES
			('host', '$2'), ('pid', '$3')" || fail "sqlite3 rank $1"
	}
	setmeta 0 "$(uname -n)" $$
	setmeta 1 "$(uname -n)" "$gone"
	setmeta 2 elsewhere.invalid "$gone"
	for r in 0 1 2 3; do : >"$M/rank-0000$r.db-reserve"; done
	run_cp res summary "$M"
	expect_eq "reserves status" "$rc" 0
	kept="rank-00000.db-reserve rank-00002.db-reserve"
	expect_eq "reserves kept" "$(cd "$M" && echo *-reserve)" \
		"$kept rank-00003.db-reserve"
else
	note "no sqlite3 command: reserve removal not checked"
fi

# --- a writer SIGKILLed right after a commit keeps the batch
K="$T/kill"
mkdir "$K"
"$TESTDB" --kill "$K" || fail "test_db --kill"
[ -e "$K/rank-00000.db-wal" ] || fail "killed writer left no WAL"
run_cp kill export "$K"
expect_eq "killed writer status" "$rc" 0
expect_file "killed writer" "$T/kill.out" <<EOF
rank,op,peer,root,tag,comm_size,bytes,contiguous,block_bytes,stride_bytes,nblocks,callsite,t_start,t_measured,count,comm,t_incall,flags,thread,seq,function,$PRED,t_transfer,t_wait,late,$MU,layout,algorithm
0,MPI_Send,1,,1,2,10,,,,,0x10,0.000000001,0.000000001,10,0,,,0,0,,$ZERO,,,,$NONE,,
0,MPI_Send,1,,2,2,20,,,,,0x10,0.000000002,0.000000001,20,0,,,0,1,,$ZERO,,,,$NONE,,
0,MPI_Send,1,,3,2,30,,,,,0x10,0.000000003,0.000000001,30,0,,,0,2,,$ZERO,,,,$NONE,,
EOF
exit 0
