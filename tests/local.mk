# tests/local.mk - end-to-end tests of recording: the example apps, the C
# and Fortran recording programs, a failing output directory and a
# process without MPI (see Makefile.am).  Each test compiles its MPI
# program itself with $(MPICC) -g -O0 / $(MPIFC) so that callsites
# resolve to exact lines whatever CFLAGS the build uses.

REC_TESTS = \
	tests/test_examples.sh \
	tests/test_record_c.sh \
	tests/test_record_f.sh \
	tests/test_rma_io.sh \
	tests/test_pcoll.sh \
	tests/test_large.sh \
	tests/test_isendrecv.sh \
	tests/test_stack.sh \
	tests/test_flush_cpu.sh \
	tests/test_fail_dir.sh \
	tests/test_other_mpi.sh \
	tests/test_runs.sh \
	tests/test_install.sh \
	tests/test_nompi.sh
TESTS += $(REC_TESTS)
dist_check_SCRIPTS += $(REC_TESTS)
EXTRA_DIST += \
	tests/lib.sh \
	tests/mpirun.sh \
	tests/record_check.py \
	tests/record_manifest.h \
	tests/test_record_c.c \
	tests/test_record_comm.c \
	tests/test_record_reuse.c \
	tests/test_record_xthread.c \
	tests/test_rma_io.c \
	tests/test_rma_io_f.f90 \
	tests/test_pcoll.c \
	tests/test_large.c \
	tests/test_large_f08.f90 \
	tests/test_isendrecv.c \
	tests/stack/app.c \
	tests/stack/wrap.c \
	tests/flush_cpu.c \
	tests/test_record_f.f90 \
	tests/test_record_f08.f90
