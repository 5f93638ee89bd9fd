! test_large_f08.f90 - MPI-4 large-count bindings through use mpi_f08,
! for tests/test_large.sh on 2 ranks: counts of kind MPI_COUNT_KIND
! select them (MPICH 4's mpi_x_f08ts_large_).  Rank 0 sends 6 doubles to
! rank 1, both ranks allreduce 3 integers.  Rank 0 prints one line when
! the results were right; a wrong one stops with 1.  Each call is on one
! line: the test finds its rows by their line.
program test_large_f08
  use mpi_f08
  implicit none
  integer :: rank
  integer(kind=MPI_COUNT_KIND) :: n6, n3
  double precision :: a(6)
  integer :: x(3), y(3)
  type(MPI_Comm) :: w
  call MPI_Init()
  w = MPI_COMM_WORLD
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  n6 = 6
  n3 = 3
  a = 2.5d0
  if (rank == 0) then
    call MPI_Send(a, n6, MPI_DOUBLE_PRECISION, 1, 5, MPI_COMM_WORLD)
  else
    a = 0
    call MPI_Recv(a, n6, MPI_DOUBLE_PRECISION, 0, 5, w, MPI_STATUS_IGNORE)
    if (any(a /= 2.5d0)) stop 1
  end if
  x = rank + 1
  call MPI_Allreduce(x, y, n3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (any(y /= 3)) stop 1
  if (rank == 0) print '(a)', 'test_large_f08: done'
  call MPI_Finalize()
end program test_large_f08
