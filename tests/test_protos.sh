#!/bin/sh
# The wrapper table must match the MPI library's header exactly: every
# prototype of pmpi/mpi_calls.def, normalised, appears in `mpicc -E` of
# mpi.h.  A typo in a type or a missing const fails here, not in a user's
# build.  Parameter names are left out of the comparison (Open MPI and
# MPICH name them differently) and "T x[]" is "T*", as C has it.
. "$top_srcdir/tests/lib.sh"

norm() {	# one prototype per line, single spaces, no attributes
	tr '\n' ' ' | sed 's/;/;\n/g' |
	sed -e 's/__attribute__ *((.*))//' -e 's/  */ /g' \
	    -e 's/ *\([(),]\) */\1/g' -e 's/\* */*/g' -e 's/ \*/*/g' |
	grep -o 'int MPI_[A-Za-z_]*([^)]*)' | types | sort -u
}
types() {	# parameter names out: "const int dims[]" -> "const int*"
	"$PYTHON3" -c '
import re, sys
for line in sys.stdin:
    head, args = line.rstrip("\n").rstrip(")").split("(", 1)
    out = []
    for a in args.split(","):
        a = a.strip()
        star = a.endswith("[]")
        a = re.sub(r"\[\]$", "", a)
        m = re.match(r"^(.*?[ *])[A-Za-z_][A-Za-z0-9_]*$", a)
        a = (m.group(1) if m else a).strip() + ("*" if star else "")
        out.append(a)
    print("%s(%s)" % (head, ",".join(out)))'
}
# calls wrapped under @if(HAVE_DECL_X) that configure did not find are
# left out; Open MPI's MPIX_ calls are declared in mpi-ext.h
cfg="$top_builddir/config.h"
{
	echo '#include <mpi.h>'
	! grep -q '^#define HAVE_MPI_EXT_H 1' "$cfg" || echo '#include <mpi-ext.h>'
} > "$T/h.c"
"$MPICC" -E "$T/h.c" | norm > "$T/header" || fail "mpicc -E failed"
"$PYTHON3" "$top_srcdir/pmpi/gen_wrappers.py" \
	"$top_srcdir/pmpi/mpi_calls.def" protos "$T/table.raw" ||
	fail "generator failed"
absent=$(sed -n 's/^#define HAVE_DECL_\([A-Z0-9_]*\) 0$/\1/p' "$cfg")
for a in $absent; do
	grep -v -i "^int $a(" "$T/table.raw" > "$T/table.tmp"
	mv "$T/table.tmp" "$T/table.raw"
done
norm < "$T/table.raw" > "$T/table"
n=$(wc -l < "$T/table")
[ "$n" -ge 90 ] || fail "only $n prototypes in the table"
missing=$(comm -23 "$T/table" "$T/header")
[ -z "$missing" ] || fail "not in mpi.h as written: $missing"
note "$n prototypes match mpi.h"
