! test_rma_io_f.f90 - the Fortran bindings of one-sided, file and
! MPI_Pcontrol calls for tests/test_rma_io.sh, on 2 ranks: a Put of 5
! integers to the other rank, 3 integers written at offset 100 * rank and
! 10 read back from there (rank 0 reads 40 bytes, rank 1 the 12 before
! the end of the file), and a Barrier at Pcontrol level 0.  The file is
! the first argument.
program test_rma_io_f
  use mpi
  implicit none
  integer :: ierr, rank, win, fh, st(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: sz, disp
  integer(kind=MPI_OFFSET_KIND) :: off
  integer :: buf(16), src(5)
  character(len=4096) :: path

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call get_command_argument(1, path)
  sz = 64
  disp = 0
  src = 7
  buf = 0
  call MPI_Win_create(buf, sz, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Put(src, 5, MPI_INTEGER, 1 - rank, disp, 5, MPI_INTEGER, win, &
               ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_free(win, ierr)
  call MPI_File_open(MPI_COMM_WORLD, trim(path), &
                     MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  off = rank * 100
  call MPI_File_write_at(fh, off, src, 3, MPI_INTEGER, st, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_File_read_at(fh, off, buf, 10, MPI_INTEGER, st, ierr)
  call MPI_File_close(fh, ierr)
  call MPI_Pcontrol(0)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Pcontrol(1)
  if (rank == 0) then
    call MPI_File_delete(trim(path), MPI_INFO_NULL, ierr)
    print '(a, i0)', 'test_rma_io_f: done ', buf(3)
  end if
  call MPI_Finalize(ierr)
end program test_rma_io_f
