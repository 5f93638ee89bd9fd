#!/bin/sh
# libcommprof.so exports only MPI entry points and their Fortran names:
# anything else could collide with the application's own symbols.
. "$top_srcdir/tests/lib.sh"

[ -f "$LIBCP" ] || fail "no $LIBCP"
nm -D --defined-only "$LIBCP" | awk '{print $3}' > "$T/syms"
bad=$(grep -v -E '^(MPIX?_[A-Z][A-Za-z_]*|mpix?_[a-z0-9_]+|MPIX?_[A-Z_]+)$' "$T/syms" |
	grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$')
[ -z "$bad" ] || fail "unexpected exports: $bad"
for s in MPI_Send MPI_Init MPI_Finalize mpi_send mpi_send_ mpi_send__ \
	MPI_SEND mpi_send_f08_ mpi_finalize_ mpi_waitall_ mpi_allreduce_f08_ \
	mpi_send_f08ts_ mpi_allreduce_f08ts_; do
	grep -qx "$s" "$T/syms" || fail "$s not exported"
done
note "$(wc -l < "$T/syms") symbols, all MPI entry points"
