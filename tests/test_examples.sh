#!/bin/sh
# test_examples.sh - the example applications print the same and exit
# the same with and without the preload, and the preloaded run leaves one
# database per rank.
. "$(dirname "$0")/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
np=2
ran=0
for ex in ring ring_f; do
	app="$top_builddir/examples/$ex"
	if [ ! -x "$app" ]; then
		[ "$ex" = ring ] || { note "$ex not built: skipped"; continue; }
		fail "no $app"
	fi
	want=$(cp_mpirun 60 "$np" "$app")
	want_rc=$?
	expect_eq "$ex: status without preload" "$want_rc" 0
	[ -n "$want" ] || fail "$ex: no output without preload"
	got=$(cp_run_preload 60 "$np" "$T/$ex" "$app")
	got_rc=$?
	expect_eq "$ex: status" "$got_rc" "$want_rc"
	expect_eq "$ex: stdout" "$got" "$want"
	run=$(cp_run_of "$T/$ex")
	for r in 00000 00001; do
		[ -s "$run/rank-$r.db" ] || fail "$ex: no rank-$r.db"
	done
	[ ! -e "$run/rank-00002.db" ] || fail "$ex: a third rank file"
	ran=$((ran + 1))
done
note "$ran examples identical with and without the preload"
