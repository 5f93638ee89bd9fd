# tests/fault.mk - fault tests (see Makefile.am): real mpirun runs with
# and without the library that check what survives a full disk, nonsense
# settings, damaged parameter files, threads, fork, and real applications
# from Debian (hpcc, LAMMPS).  Each compiles its own small MPI program
# with $(MPICC); tests/fault_lib.sh holds their shared helpers.

FAULT_TESTS = \
	tests/test_fault_env.sh \
	tests/test_fault_params.sh \
	tests/test_fault_threads.sh \
	tests/test_fault_fork.sh \
	tests/test_fault_disk.sh \
	tests/test_fault_hpcc.sh \
	tests/test_fault_lammps.sh
TESTS += $(FAULT_TESTS)
dist_check_SCRIPTS += $(FAULT_TESTS)
EXTRA_DIST += \
	tests/fault_lib.sh \
	tests/test_fault_app.c \
	tests/test_fault_threads.c \
	tests/test_fault_thread_f.f90 \
	tests/test_fault_thread_f08.f90
