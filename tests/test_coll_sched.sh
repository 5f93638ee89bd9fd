#!/bin/sh
# test_coll_sched.sh - the collective schedules of analysis/cp_coll_sched.c
# against what Open MPI really sends.  tests/test_coll_mon.c makes every
# collective at eight sizes under Open MPI's pml/monitoring, which prints
# at MPI_Finalize, per pair of ranks, the messages and bytes the
# collectives sent and a histogram of their sizes; rank 0 prints the
# same lines from the schedules of the algorithms cp_coll_decide picks.
# They must agree line by line: with Open MPI's own decision (2, 3 and 4
# ranks), and with every algorithm forced through
# coll_tuned_use_dynamic_rules and coll_tuned_<op>_algorithm (3 and 4
# ranks; 2 for the two-process ones).  Open MPI's linear alltoall sends
# through persistent requests, which pml/monitoring does not count: those
# calls are left out.
. "$(dirname "$0")/lib.sh"
[ "$CP_MPI" = openmpi ] || skip "Open MPI's schedules, not $CP_MPI_TITLE's"

ompi_info --param pml monitoring --level 9 2>/dev/null |
	grep -q pml_monitoring_enable || skip "no pml/monitoring component"
# pml/monitoring sits in front of ob1: let the pml framework pick it
unset OMPI_MCA_pml
"$MPICC" -O1 -I"$top_srcdir" -o "$T/mon" \
	"$top_srcdir/tests/test_coll_mon.c" \
	"$top_srcdir/analysis/cp_coll_rules.c" \
	"$top_srcdir/analysis/cp_coll_sched.c" ||
	fail "cannot build test_coll_mon"

OPS="barrier bcast reduce allreduce allgather alltoall gather scatter
reduce_scatter_block scan exscan allgatherv reduce_scatter"
# algorithms per operation (ompi_info --param coll tuned --level 9)
nalg() {
	case $1 in
	barrier|allreduce|allgather) echo 6 ;;
	bcast) echo 9 ;;
	reduce) echo 7 ;;
	alltoall|allgatherv) echo 5 ;;
	gather|scatter) echo 3 ;;
	reduce_scatter_block|reduce_scatter) echo 4 ;;
	scan|exscan) echo 2 ;;
	esac
}

# check NP ARGS...: one run, the two sets of lines compared
nruns=0
check() {
	np=$1; shift
	mca=""
	for a in "$@"; do
		case $a in
		*=*) mca="$mca --mca coll_tuned_${a%%=*}_algorithm ${a#*=}" ;;
		esac
	done
	[ -n "$mca" ] && mca="--mca coll_tuned_use_dynamic_rules 1 $mca"
	rm -rf "$T/o"
	# one file per rank: the ranks' monitoring lines must not mix
	cp_mpirun 120 "$np" --output-filename "$T/o" \
		--mca pml_monitoring_enable 2 \
		--mca pml_monitoring_enable_output 1 $mca "$T/mon" "$@" \
		>/dev/null 2>"$T/err" ||
		fail "np $np $*: mpirun failed: $(head -3 "$T/err")"
	cat "$T"/o/1/rank.*/stdout > "$T/out"
	grep '^W' "$T/out" | sed 's/^W/I/' | sort > "$T/want"
	# internal messages of every rank, to other ranks
	grep '^I' "$T/out" | awk -F'\t' '$2 != $3' | sed 's/\t$//' |
		sort > "$T/got"
	[ -s "$T/got" ] || [ ! -s "$T/want" ] ||
		fail "np $np $*: no pml/monitoring lines"
	if ! diff "$T/want" "$T/got" > "$T/diff"; then
		sed -n 1,8p "$T/diff" >&2
		fail "np $np $*: schedules differ from Open MPI's messages"
	fi
	grep '^skip' "$T/out" | sort -u | sed "s/^/np $np: /" >> "$T/skips"
	nruns=$((nruns + 1))
}

: > "$T/skips"
for np in 2 3 4; do
	check "$np" $OPS
done
if [ -s "$T/skips" ]; then
	cat "$T/skips" >&2
	fail "a default decision is not modelled"
fi
for np in 3 4 2; do
	for k in 1 2 3 4 5 6 7 8 9; do
		args=""
		for op in $OPS; do
			[ "$(nalg "$op")" -ge "$k" ] && args="$args $op=$k"
		done
		[ -n "$args" ] && check "$np" $args
		# the two-process algorithms need 2 ranks; enough there
		[ "$np" = 2 ] && [ "$k" = 6 ] && break
	done
done
# what is not modelled, and only that, is left out
sort -u "$T/skips" | sed 's/^np [0-9]: //' | sort -u > "$T/skipped"
printf '%s\n' "skip allgather two_proc" "skip allgatherv two_proc" \
	"skip alltoall two_proc" \
	"skip barrier two_proc" \
	"skip bcast scatter_allgather" "skip bcast scatter_allgather_ring" \
	"skip bcast split_binary_tree" "skip reduce rabenseifner" \
	"skip exscan recursive_doubling" "skip scan recursive_doubling" |
	sort > "$T/want_skipped"
diff "$T/want_skipped" "$T/skipped" >&2 ||
	fail "the calls left out are not the unmodelled ones"
note "$nruns runs: every pair's messages, bytes and size histogram as" \
	"Open MPI sent them; left out: $(sed 's/^skip //' "$T/skipped" |
	tr '\n' ';')"
