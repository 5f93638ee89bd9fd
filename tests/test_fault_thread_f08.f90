! test_fault_thread_f08.f90 - a Fortran program (`use mpi_f08`) that starts
! with MPI_Init_thread, run by tests/test_fault_fork.sh: 24 MPI_Allreduce
! calls, then rank 0 prints their total and whether the thread level was
! granted.
program test_fault_thread_f08
  use mpi_f08
  implicit none
  integer :: ierr, rank, provided, i
  integer(kind=8) :: x, s, tot

  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  tot = 0
  do i = 1, 24
    x = rank * 100 + i
    call MPI_Allreduce(x, s, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    tot = tot + s
  end do
  if (rank == 0) then
    print '(a, i0)', 'fortran init_thread total ', tot
    if (provided >= MPI_THREAD_FUNNELED) print '(a)', 'thread level ok'
  end if
  call MPI_Finalize(ierr)
end program test_fault_thread_f08
