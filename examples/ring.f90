! ring.f90 - the Fortran (use mpi) sibling of ring.c: a token passed
! around a ring with MPI_Send/MPI_Recv, a neighbour exchange of an array
! with MPI_Sendrecv, and an MPI_IN_PLACE MPI_Allreduce of partial sums.
! Rank 0 prints integer results, identical on every run and with or
! without the profiler.
program ring
  use mpi
  implicit none
  integer, parameter :: n = 1000
  integer :: ierr, rank, nproc, left, right, step, i
  integer :: token, status(MPI_STATUS_SIZE)
  integer :: sendbuf(n), recvbuf(n)
  integer(kind=8) :: sums(3)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
  left = mod(rank + nproc - 1, nproc)
  right = mod(rank + 1, nproc)

  do step = 1, 5
    ! token ring: rank 0 starts, every rank adds its rank and the step
    if (rank == 0) then
      token = step
      call MPI_Send(token, 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
      call MPI_Recv(token, 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, &
                    status, ierr)
    else
      call MPI_Recv(token, 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
      token = token + 10 * rank + step
      call MPI_Send(token, 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
    end if

    ! neighbour exchange: my values to the right, the left's to me
    do i = 1, n
      sendbuf(i) = (rank + 1) * 100000 + step * 1000 + i
    end do
    call MPI_Sendrecv(sendbuf, n, MPI_INTEGER, right, 2, &
                      recvbuf, n, MPI_INTEGER, left, 2, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)

    ! partial sums reduced in place: the buffer is both input and result
    sums(1) = sum(int(recvbuf, kind=8))
    sums(2) = int(token, kind=8)
    sums(3) = int(rank, kind=8)
    call MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_INTEGER8, MPI_SUM, &
                       MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      print '(a,i0,a,i0,a,i0,a,i0)', 'step ', step, ' recv ', sums(1), &
            ' token ', sums(2), ' ranks ', sums(3)
    end if
  end do

  if (rank == 0) print '(a,i0,a)', 'ranks ', nproc, ' done'
  call MPI_Finalize(ierr)
end program ring
