! test_record_f08.f90 - test_record_f.f90 with `use mpi_f08`, run on 2 ranks
! by tests/test_record_f.sh.  A line "! expect R: OP PEER ROOT TAG
! COMM_SIZE BYTES CONTIG BLOCK STRIDE NBLOCKS FLAGS" says that rank R
! records that row for the call on the next line (see record_check.py).
! Sentinels must reach MPI unchanged: the in-place allreduce is checked,
! MPI_STATUS(ES)_IGNORE must be passed on, never read as a status.
program test_record_f08
  use mpi_f08
  implicit none
  integer :: ierr, rank, nproc, i
  type(MPI_Request) :: req, reqs(2)
  type(MPI_Status) :: st
  integer :: ibuf(100)
  double precision :: dbuf(100)
  real :: rbuf(13)
  integer(kind=8) :: acc(7)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  ibuf = 7
  dbuf = 1.5d0
  rbuf = 0.0
  if (rank == 0) then
    ! expect 0: MPI_Send 1 - 5 2 148 1 4 4 1 fortran
    call MPI_Send(ibuf, 37, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, ierr)
    ! expect 0: MPI_Isend 1 - 6 2 328 1 8 8 1 fortran,nonblock
    call MPI_Isend(dbuf, 41, MPI_DOUBLE_PRECISION, 1, 6, MPI_COMM_WORLD, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    ! expect 0: MPI_Recv 1 - 7 2 44 1 4 4 1 fortran,recv,anysrc
    call MPI_Recv(ibuf, 100, MPI_INTEGER, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, st, ierr)
    if (st%MPI_SOURCE /= 1) stop 3
  else if (rank == 1) then
    ! expect 1: MPI_Recv 0 - 5 2 148 1 4 4 1 fortran,recv
    call MPI_Recv(ibuf, 100, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    ! expect 1: MPI_Irecv 0 - 6 2 328 1 8 8 1 fortran,recv,nonblock
    call MPI_Irecv(dbuf, 100, MPI_DOUBLE_PRECISION, 0, 6, MPI_COMM_WORLD, req, ierr)
    call MPI_Wait(req, st, ierr)
    ! expect 1: MPI_Send 0 - 7 2 44 1 4 4 1 fortran
    call MPI_Send(ibuf, 11, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, ierr)
  end if

  do i = 1, 7
    acc(i) = int(i * (rank + 1), kind=8)
  end do
  ! expect *: MPI_Allreduce - - - 2 56 1 8 8 1 fortran,inplace
  call MPI_Allreduce(MPI_IN_PLACE, acc, 7, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  do i = 1, 7
    if (acc(i) /= int(3 * i, kind=8)) stop 4
  end do
  if (rank == 1) rbuf = 2.5
  ! expect *: MPI_Bcast - 1 - 2 52 1 4 4 1 fortran
  call MPI_Bcast(rbuf, 13, MPI_REAL, 1, MPI_COMM_WORLD, ierr)
  if (rbuf(13) /= 2.5) stop 5
  if (rank == 0) print '(a,i0,a,i0)', 'allreduce ', sum(acc), ' bcast ', int(sum(rbuf))
  ! MPI_STATUSES_IGNORE reaches MPI as the sentinel, never read
  ! expect *: MPI_Isend 0/1 - 8 2 12 1 4 4 1 fortran,nonblock
  call MPI_Isend(ibuf, 3, MPI_INTEGER, 1 - rank, 8, MPI_COMM_WORLD, reqs(1), ierr)
  ! expect *: MPI_Irecv 0/1 - 8 2 12 1 4 4 1 fortran,recv,nonblock
  call MPI_Irecv(ibuf(50), 3, MPI_INTEGER, 1 - rank, 8, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_Finalize(ierr)
end program test_record_f08
