#!/bin/sh
# test_fault_disk.sh - the output directory is on a 512 KiB tmpfs and the
# run records far more rows than fit.  The app prints the same and exits
# the same as without the preload, commprof says at most one line per
# process, and every rank file it left passes PRAGMA integrity_check.
# The disk fills up mid-run: each rank file keeps every row up to the cut
# (seq 0 to N-1, N > 0 on some rank, no gap) and counts the rest in meta
# rows_lost_disk, so that stored + lost is every row the rank made.
. "$(dirname "$0")/lib.sh"
. "$top_srcdir/tests/fault_lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
mkdir "$T/mnt" || fail "mkdir"
mount -t tmpfs -o size=512k commprof-test "$T/mnt" 2>"$T/mount.err" ||
	skip "cannot mount a tmpfs (needs root): $(cat "$T/mount.err")"
trap 'umount "$T/mnt"; rm -rf "$T"' EXIT
fault_cc test_fault_app

steps=20000	# 20000 Sendrecv rows or more a rank: megabytes of SQLite
# rows_of DB: "max(seq) + 1, count of rows, meta rows_lost_disk"
rows_of() {
	"$PYTHON3" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
n, m = c.execute("SELECT count(*), coalesce(max(seq), -1) + 1"
                 " FROM calls WHERE seq >= 0").fetchone()
lost = c.execute("SELECT value FROM meta"
                 " WHERE key = \"rows_lost_disk\"").fetchone()
print(m, n, lost[0] if lost else "none")' "$1" 2>&1
}

files=0
for np in 1 2; do
	stored=0
	want=$(cp_mpirun 60 "$np" "$T/test_fault_app" rows $steps \
		2>"$T/base.err")
	want_rc=$?
	expect_eq "np $np: status without preload" "$want_rc" 0
	dir="$T/mnt/np$np"
	got=$(cp_run_preload 60 "$np" "$dir" "$T/test_fault_app" rows \
		$steps 2>"$T/err")
	got_rc=$?
	expect_eq "np $np: status" "$got_rc" "$want_rc"
	expect_eq "np $np: stdout" "$got" "$want"
	n=$(cp_lines "$T/err")
	[ "$n" -le "$np" ] ||
		fail "np $np: $n commprof lines, at most $np: $(cat "$T/err")"
	expect_eq "np $np: other stderr" "$(other_err "$T/err")" \
		"$(other_err "$T/base.err")"
	note "np $np: $n commprof line(s)"
	grep '^commprof:' "$T/err" | sed 's/^/#   /'
	[ "$n" -ge 1 ] ||
		fail "np $np: the tmpfs did not fill up: the test proves nothing"
	# A reader needs room for the -shm index beside a WAL database,
	# which the full tmpfs has not: check copies of the files
	# (database and WAL, as they are) on the scratch disk.
	for db in "$(cp_run_of "$dir")"/rank-*.db; do
		[ -e "$db" ] || continue
		c="$T/copy/np$np"
		mkdir -p "$c" || fail "mkdir"
		cp "$db" "$c/" || fail "cp $db"
		[ ! -e "$db-wal" ] || cp "$db-wal" "$c/" || fail "cp $db-wal"
		expect_eq "$db: integrity" "$(integrity "$c/${db##*/}")" ok
		# a row per Sendrecv half, an Allreduce every 8th step, 2
		# Reduce: "rows" "stored" "lost"
		got=$(rows_of "$c/${db##*/}")
		note "np $np ${db##*/}: rows, stored, lost: $got"
		set -- $got
		if [ "$3" = none ] && [ "$np" -gt 1 ] &&
			grep -q "write $db: disk full" "$T/err"; then
			# ranks share the tmpfs: the room a rank freed for its
			# last counts can go to the other rank first
			note "np $np ${db##*/}: final counts lost to the other rank"
		else
			expect_eq "$db: rows stored + lost" $(($2 + $3)) \
				$((2 * steps + steps / 8 + 2))
		fi
		[ "$1" = "$2" ] || fail "$db: rows are not seq 0..$(($2 - 1))"
		stored=$((stored + $2))
		files=$((files + 1))
	done
	[ "$stored" -gt 0 ] || fail "np $np: no row stored before the cut"
	rm -rf "$dir"	# room for the next run
done
[ "$files" -ge 1 ] || fail "no rank file on the tmpfs at all"
note "$files rank files, all pass integrity_check"
