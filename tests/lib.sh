# tests/lib.sh - shared helpers for the shell tests; source it.
# Environment (from Makefile.am): top_srcdir, top_builddir, CP_MPI (the
# MPI of the build: openmpi or mpich), MPIRUN, MPICC, MPIFC, PYTHON3.  Each test gets its own scratch directory $T, removed at
# exit.  A test exits 0 (pass), 77 (skip) or anything else (fail).

set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${CP_MPI:=openmpi}"
: "${MPIRUN:=mpirun.$CP_MPI}"
: "${MPICC:=mpicc.$CP_MPI}"
: "${MPIFC:=mpifort.$CP_MPI}"
: "${PYTHON3:=python3}"

# How MPI_Get_library_version of that MPI begins.
case $CP_MPI in
openmpi) CP_MPI_TITLE="Open MPI" ;;
mpich) CP_MPI_TITLE="MPICH" ;;
*) CP_MPI_TITLE=$CP_MPI ;;
esac

# Tests write "$MPIRUN -np N -x VAR=VAL PROG" in Open MPI's words whatever
# the MPI: tests/mpirun.sh turns them into the configured launcher's.
export CP_MPI CP_MPI_LAUNCHER="$MPIRUN"
MPIRUN="$top_srcdir/tests/mpirun.sh"

LIBCP="$top_builddir/.libs/libcommprof.so"
COMMPROF="$top_builddir/commprof"
# What a test puts in LD_PRELOAD: the library, after CP_PRELOAD_EXTRA
# when set (scripts/sanitize: the ASan runtime, which must be loaded
# before anything else in a program not built with it).
CP_PRELOAD="${CP_PRELOAD_EXTRA:+$CP_PRELOAD_EXTRA:}$LIBCP"
T=$(mktemp -d "${TMPDIR:-/tmp}/cptest.XXXXXX")
trap 'rm -rf "$T"' EXIT

# Open MPI refuses root and more ranks than cores unless told (MPICH's
# hydra needs no such flag and ignores these).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# keep the tests on shared memory, no network probing
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1

# cp_openmpi_only WHAT: skip under another MPI; WHAT (Debian's hpcc, say)
# is built against Open MPI.
cp_openmpi_only() {
	[ "$CP_MPI" = openmpi ] || skip "$1 is built against Open MPI, not $CP_MPI"
}

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
note() { echo "# $*"; }

# cp_busy_start / cp_busy_stop NP: while a timed step runs, sample once a
# second how many processes are runnable (procs_running of /proc/stat,
# the sampler's own reading among them).  cp_busy_stop prints
# "CROWDED TOTAL": of TOTAL samples, CROWDED saw more runnable processes
# than the NP ranks and the sampler.  The 1-min load lags a minute
# behind and counts the test's own spinning ranks; this sees another job
# take the processors while the test times.  The sampler ends with the
# test's shell if cp_busy_stop is never reached.
cp_busy_start() {
	(while kill -0 $$ 2>/dev/null; do
		awk '/^procs_running/ { print $2 }' /proc/stat
		sleep 1
	done) >"$T/busy.samples" 2>/dev/null &
	cp_busy_pid=$!
}
cp_busy_stop() {
	kill "$cp_busy_pid" 2>/dev/null
	wait "$cp_busy_pid" 2>/dev/null
	awk -v lim="$(( $1 + 1 ))" '$1 > lim { c++ } END { print c + 0, NR }' \
		"$T/busy.samples"
}

# cp_mpirun SECONDS NP PROG ARGS... : bounded mpirun, no preload
cp_mpirun() {
	local secs=$1 np=$2; shift 2
	timeout -k 5 "$secs" "$MPIRUN" -np "$np" "$@"
}

# cp_run_preload SECONDS NP DIR PROG ARGS... : bounded mpirun with the
# library preloaded and its output directory set to DIR
cp_run_preload() {
	local secs=$1 np=$2 dir=$3; shift 3
	timeout -k 5 "$secs" "$MPIRUN" -np "$np" \
		-x LD_PRELOAD="$CP_PRELOAD" -x COMMPROF_DIR="$dir" "$@"
}

# cp_models: the models of CP_MODEL_MAP (src/common/cp_row.h), one a
# line, in column order: tests build model columns from it, so that a
# model added to the map changes no test
cp_models() {
	sed -n '/define CP_MODEL_MAP/,/^$/{
		s/.*X([A-Z0-9_]*, *\([a-z0-9_]*\)).*/\1/p
	}' "$top_srcdir/src/common/cp_row.h"
}

# cp_model_list SED: the models through SED, comma separated
cp_model_list() {
	cp_models | sed "$1" | paste -sd, -
}

# cp_wait_gone PATTERN: wait up to 20 s until no process's command line
# matches PATTERN (a launcher may return while a signalled rank still
# flushes); fails the test if one remains
cp_wait_gone() {
	local i=0
	while pgrep -f "$1" >/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! pgrep -f "$1" >/dev/null || fail "still running: $1"
}

# cp_bed_or_skip: skip unless this process may build the namespace test
# bed (tests/cluster/bed): root, network namespaces, TAPs, no bed in use.
# A bed whose delay line is gone was left by a test that was killed (its
# EXIT trap never ran): it is taken down, with a note, rather than making
# every later run skip.
cp_bed_or_skip() {
	[ "$(id -u)" = 0 ] ||
		skip "not root: the test bed needs network namespaces"
	ip netns add "cpbed-probe$$" 2>/dev/null ||
		skip "ip netns add failed: no network namespaces here"
	ip netns del "cpbed-probe$$"
	[ -c /dev/net/tun ] || skip "no /dev/net/tun: the delay line needs TAPs"
	ip link show cpbed-br >/dev/null 2>&1 || return 0
	! pgrep -x delayline >/dev/null 2>&1 ||
		skip "a test bed is up already (tests/cluster/bed down frees it)"
	"$top_srcdir/tests/cluster/bed" down >/dev/null 2>&1
	! ip link show cpbed-br >/dev/null 2>&1 ||
		skip "a test bed left up without its delay line stays up"
	note "a test bed left up without its delay line (a killed test's) was taken down"
}

# cp_fault_us: what a minor page fault costs this kernel, in us (the
# least of 3 times over 4096 fresh pages, touched from python3: about
# 0.1 us of it is python's)
cp_fault_us() {
	"$PYTHON3" -c '
import mmap, time
n, best = 4096 * 4096, 1e9
for k in range(3):
    m = mmap.mmap(-1, n)
    t = time.perf_counter()
    for i in range(0, n, 4096):
        m[i] = 1
    best = min(best, (time.perf_counter() - t) / 4096 * 1e6)
    m.close()
print("%.2f" % best)'
}

# cp_run_of DIR: the directory of the latest run in output directory DIR
# (each run writes its rank files into a run-* directory of its own)
cp_run_of() {
	local d
	d=$(ls -d "$1"/run-* 2>/dev/null | tail -n 1)
	echo "${d:-$1}"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# cp_params_show NAME FILE [ARGS]: "$TP show FILE ARGS" (TP: the test's
# tests/test_params) into NAME.out and NAME.err, its status in rc
cp_params_show() {
	local name=$1
	shift
	rc=0
	timeout 30 "$TP" show "$@" >"$name.out" 2>"$name.err" || rc=$?
}

# cp_params_bad NAME SED WHAT: good.params damaged by SED must be refused
# with status 1, the one line "commprof: NAME.params:WHAT" and nothing on
# stdout
cp_params_bad() {
	sed "$2" good.params >"$1.params"
	cp_params_show "$1" "$1.params"
	expect_eq "$1 status" "$rc" 1
	expect_eq "$1 message" "$(cat "$1.err")" "commprof: $1.params:$3"
	[ -s "$1.out" ] && fail "$1 printed on stdout"
	return 0
}
