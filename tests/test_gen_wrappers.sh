#!/bin/sh
# test_gen_wrappers.sh - pmpi/gen_wrappers.py refuses a table it cannot
# read as written: a misspelled role (@sned) used to leave the four
# blocking-send wrappers recording nothing, with exit status 0.  Each bad
# table below is the real one with one entry spoiled; the generator must
# exit non-zero, print exactly "FILE:LINE: why" and write no output.
. "$top_srcdir/tests/lib.sh"

GEN="$top_srcdir/pmpi/gen_wrappers.py"
DEF="$top_srcdir/pmpi/mpi_calls.def"

for what in calls c fortran protos; do
	"$PYTHON3" "$GEN" "$DEF" "$what" "$T/ok.$what" ||
		fail "the real table fails for $what"
	[ -s "$T/ok.$what" ] || fail "no $what output from the real table"
done

# bad NAME CALL OLD NEW WANT: in the real table, replace OLD by NEW in the
# entry of CALL (basic regular expression, sed replacement), generate the
# C wrappers, expect the message WANT for that entry
bad() {
	local name=$1 call=$2 old=$3 new=$4 want=$5 line got
	sed "/^int $call(/,/^[^	 ]/s/$old/$new/" "$DEF" > "$T/$name.def"
	cmp -s "$DEF" "$T/$name.def" && fail "$name: sed changed nothing"
	line=$(grep -n "^int $call(" "$DEF" | cut -d: -f1)
	got=$("$PYTHON3" "$GEN" "$T/$name.def" c "$T/$name.c" 2>&1) &&
		fail "$name: exit status 0 for a bad table"
	expect_eq "$name" "$got" "$T/$name.def:$line: $want"
	[ ! -e "$T/$name.c" ] || fail "$name: wrote $T/$name.c"
	nbad=$((nbad + 1))
}
nbad=0

# the roles the table's header documents are the ones it may use
known=$(sed '/^int /q' "$DEF" | grep '^#' | grep -o '@[a-z0-9]*' | sort -u |
	tr '\n' ' ')
known=${known% }
bad sned MPI_Send '@send(' '@sned(' "unknown role @sned (known: $known)"
bad arity MPI_Send '@send(count, datatype)' '@send(count)' \
	"@send takes 2 arguments, got 1"
bad empty MPI_Send '@peer(dest)' '@peer()' "@peer(): empty argument"
bad param MPI_Send '@peer(dest)' '@peer(dst)' \
	"@peer names 'dst', not a parameter of MPI_Send"
bad junk MPI_Send '@tag(tag)' 'tag(tag)' "not a role: 'tag(tag)'"
bad space MPI_Send '@tag(tag)' '@tag (tag)' "not a role: '(tag)'"
bad needs MPI_Send ' @tag(tag)' '' "@send needs @tag"
bad class MPI_Recv '@p2p @recv' '@recv' "@recv needs @p2p"
bad class2 MPI_Probe '@status(status)' '& @nowrap' \
	"MPI_Probe: want exactly one of @p2p @coll @probe @complete @start @reqfree @cancel @typecommit @typefree @commnew @commfree @opfree @rma @io @winnew @winfree @nowrap, got @probe @nowrap"
bad win MPI_Win_fence '@rma @win(win)' '@rma' "@rma needs @win"
bad target MPI_Put '@target(target_rank) ' '@peer(target_rank) ' \
	"@peer needs @send"
bad if MPI_Allreduce_init '@if(HAVE_DECL_MPI_ALLREDUCE_INIT)' \
	'@if(mpi4)' "@if(mpi4): want one HAVE_* macro of config.h"
bad block MPI_Bcast '@block(bytes,' '@block(byte,' \
	"@block kind 'byte' is none of allgatherv, alltoallv, alltoallw, bytes, nbrv, nbrw, none, redscat, reduce, scatter, scatterv, send, sendv"
bad blockn MPI_Bcast '@block(bytes, count, datatype)' \
	'@block(bytes, count)' \
	"@block takes 2 arguments, got 1"
bad done MPI_Wait '@complete(one)' '@complete(once)' \
	"@complete(once): want one of one, all, any, some, test, testall, testany, testsome"
bad as MPI_Send_c '@as(MPI_Send)' '@as(MPI_Sned)' \
	"@as(MPI_Sned): not a call of the table without @as"
bad asdiff MPI_Isend_c '@req(request) ' '' \
	"@as(MPI_Isend): the roles differ from MPI_Isend's"
bad asif MPI_Send_c '@if(HAVE_DECL_MPI_SEND_C) ' '' "@as needs @if"
bad proto MPI_Send '^int MPI_Send(' 'int MPI_Send[' \
	"bad prototype 'int MPI_Send[const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)'"

# the vocabulary the generator accepts is what src/lib declares
"$PYTHON3" - "$GEN" "$top_srcdir"/src/lib/*.h <<'EOF' || fail "kinds differ"
import importlib.util, re, sys
spec = importlib.util.spec_from_file_location("gen", sys.argv[1])
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
text = "".join(open(h).read() for h in sys.argv[2:])
blk = {m.group(1): m.group(2).count(",") for m in
       re.finditer(r"void cp_blk_(\w+)\(([^)]*)\)", text)}
done = {m.lower() for m in re.findall(r"\bCP_DONE_([A-Z]+)\b", text)}
done.discard("none")
if blk != gen.BLOCK_KINDS:
    sys.exit("cp_blk_*: header %s, generator %s" % (blk, gen.BLOCK_KINDS))
if done != set(gen.COMPLETE_KINDS):
    sys.exit("CP_DONE_*: header %s, generator %s" % (
        sorted(done), sorted(gen.COMPLETE_KINDS)))
EOF
note "the real table passes; $nbad spoiled tables fail with their line"
