#!/bin/sh
# test_fuzz.sh - libFuzzer on what commprof reads from outside: the
# parameter file reader (tests/fuzz/fuzz_params.c, which the profiling
# library runs inside the application) and the command line with the
# files it reads (tests/fuzz/fuzz_cli.c: params show on a parameter
# file; summary, report and export on an output directory whose rank
# file is a fuzzed SQLite database, seeded with a real one that
# examples/ring writes here).  Each target runs CP_FUZZ_SECS seconds
# (default 20) under ASan and UBSan; a crash, a leak, a sanitizer report
# or a broken promise of the target fails the test, and the input is
# kept as tests/fuzz-NAME-crash-* in the build tree.  Skips without
# clang or libFuzzer.
. "$(dirname "$0")/lib.sh"

CLANG=${CLANG:-clang}
secs=${CP_FUZZ_SECS:-20}
S=$top_srcdir
[ -z "${CP_SANITIZE:-}" ] ||
	skip "sanitizer build: the fuzz targets are built by clang, not" \
		"by this build; the normal make check runs them"
command -v "$CLANG" >/dev/null 2>&1 ||
	skip "no $CLANG: libFuzzer targets not built (apt-get install clang)"
[ -n "${CP_FUZZ_CLI_SOURCES:-}" ] || fail "run me from make check"
[ -f "$top_builddir/db/cp_schema_gen.h" ] || fail "not built"
printf '#include <stddef.h>\n#include <stdint.h>\n%s\n' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }' \
	>"$T/probe.c"
"$CLANG" -fsanitize=fuzzer "$T/probe.c" -o "$T/probe" 2>"$T/probe.err" ||
	skip "$CLANG cannot link libFuzzer: $(head -n 1 "$T/probe.err")"

FLAGS="-std=gnu11 -g -O1 -fno-omit-frame-pointer
-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
-I$S -I$top_builddir $CP_FUZZ_CFLAGS"

# build NAME SOURCES...: $T/fuzz_NAME from tests/fuzz/fuzz_NAME.c and the
# .c files among SOURCES (paths in the source tree)
build() {
	name=$1; shift
	objs=
	mkdir -p "$T/o-$name"
	for s in "tests/fuzz/fuzz_$name.c" "$@"; do
		case $s in *.c) ;; *) continue ;; esac
		o="$T/o-$name/$(echo "$s" | tr / _).o"
		extra=
		[ "$s" != src/cli/commprof.c ] || extra=-Dmain=cp_cli_main
		# shellcheck disable=SC2086
		"$CLANG" $FLAGS $extra -c "$S/$s" -o "$o" ||
			fail "$name: cannot compile $s"
		objs="$objs $o"
	done
	# shellcheck disable=SC2086
	"$CLANG" $FLAGS $objs $CP_FUZZ_LIBS -o "$T/fuzz_$name" ||
		fail "$name: cannot link"
}

# run NAME: fuzz $T/fuzz_NAME from the seeds in $T/seed-NAME
run() {
	name=$1
	mkdir -p "$T/corpus-$name"
	t0=$(date +%s)
	rc=0
	(cd "$T" && ASAN_OPTIONS=detect_leaks=1 TMPDIR="$T" \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		timeout -k 10 $((secs + 120)) "./fuzz_$name" \
		-max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
		-close_fd_mask=3 -artifact_prefix="$T/$name-" \
		"$T/corpus-$name" "$T/seed-$name" >"$T/$name.log" 2>&1) ||
		rc=$?
	note "$name: $(grep -E '^(#[0-9]+[[:space:]]+DONE|Done)' \
		"$T/$name.log" | tr -s ' \t' ' ' | paste -sd ' ' -)" \
		"($(( $(date +%s) - t0 )) s)"
	if [ "$rc" != 0 ]; then
		tail -n 60 "$T/$name.log" >&2
		for a in "$T/$name-"*; do
			[ -f "$a" ] || continue
			k="$top_builddir/tests/fuzz-$name-${a##*/$name-}"
			cp "$a" "$k" && note "kept $k"
		done
		fail "$name: libFuzzer status $rc"
	fi
}

# seeds of the CLI target: "ARGS\0FILE" (see tests/fuzz/fuzz_cli.c)
seed_cli() {
	{ printf '%s\0' "$2"; cat "$3"; } >"$T/seed-cli/$1"
}

# a real output directory: examples/ring with the library
ring="$top_builddir/examples/ring"
[ -x "$ring" ] || fail "no $ring"
cp_run_preload 60 2 "$T/ring" "$ring" >"$T/ring.out" 2>&1 ||
	{ cat "$T/ring.out" >&2; fail "examples/ring with the library"; }
db="$(cp_run_of "$T/ring")/rank-00000.db"
[ -s "$db" ] || fail "no $db"

mkdir -p "$T/seed-params" "$T/seed-cli"
cp "$S"/tests/fuzz/corpus/params/* "$T/seed-params/"
p="$S/tests/fuzz/corpus/params/handwritten"
seed_cli params-text "params show @" "$p"
seed_cli params-json "params show @ --format json" "$p"
seed_cli summary "summary @ --top 3" "$db"
seed_cli runs "runs @" "$db"
seed_cli report "report @ --format json --top 2" "$db"
seed_cli report-md "report @ --format markdown -o out" "$db"
seed_cli export-csv "export @" "$db"
seed_cli export-json "export @ --format json -o out" "$db"
# inputs that once failed, kept as seeds (tests/fuzz/corpus/cli/)
cp "$S"/tests/fuzz/corpus/cli/* "$T/seed-cli/" || fail "cli corpus"

# shellcheck disable=SC2086
build params $CP_FUZZ_PARAMS_SOURCES
# shellcheck disable=SC2086
build cli $CP_FUZZ_CLI_SOURCES
run params
run cli
