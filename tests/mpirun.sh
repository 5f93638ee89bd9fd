#!/bin/bash
# tests/mpirun.sh - the tests' one launcher for every MPI.  Tests write
# their mpirun lines once, in Open MPI's words (-np N, -x VAR, -x VAR=VAL);
# this turns them into the configured MPI's launcher ($CP_MPI_LAUNCHER)
# and execs it, so that timeout's signals and the exit status are the
# launcher's own.
#   openmpi: passed on as they are (root and oversubscription are allowed
#            by OMPI_* variables that tests/lib.sh exports)
#   mpich:   hydra starts each process with mpiexec's environment, so
#            "-x VAR" needs nothing; "-x VAR=VAL" becomes "-genv VAR VAL"
#            (the value for the processes only: never LD_PRELOAD into
#            mpiexec itself)
# Only the words before the program are translated.
set -u
: "${CP_MPI:=openmpi}"
: "${CP_MPI_LAUNCHER:?tests/lib.sh sets the launcher}"

[ "$CP_MPI" = openmpi ] && exec "$CP_MPI_LAUNCHER" "$@"
[ "$CP_MPI" = mpich ] || { echo "mpirun.sh: unknown MPI $CP_MPI" >&2
	exit 2; }

args=()
while [ $# -gt 0 ]; do
	case $1 in
	-np|-n)
		args+=(-n "$2"); shift 2 ;;
	-x)
		case $2 in
		*=*) args+=(-genv "${2%%=*}" "${2#*=}") ;;
		esac
		shift 2 ;;
	-*)
		echo "mpirun.sh: no MPICH translation for $1" >&2
		exit 2 ;;
	*)
		break ;;
	esac
done
exec "$CP_MPI_LAUNCHER" "${args[@]}" "$@"
