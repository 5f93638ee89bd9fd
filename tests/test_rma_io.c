/*
 * test_rma_io.c - one-sided, file and MPI_Pcontrol calls for
 * tests/test_rma_io.sh, on 2 ranks: each rank targets the other.  Every
 * data call moves its own number of bytes, so that a row given another
 * call's bytes fails.  argv[1]: the file to write and read (removed at
 * the end).  Rank 0 prints one line when every check passed; any failed
 * check exits 1 with a line naming it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#define WIN_BYTES 4096

static int rank;

static void check(int ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "test_rma_io: rank %d: %s\n", rank, what);
	exit(1);
}

/* Fence epoch: Put 3 ints, Get 5 doubles, Accumulate 7 ints. */
static void fence_epoch(MPI_Win w, int peer, char *base)
{
	int put[3] = { 1, 2, 3 }, acc[7] = { 1, 1, 1, 1, 1, 1, 1 };
	double got[5];

	memset(base, 0, WIN_BYTES);
	MPI_Win_fence(0, w);
	MPI_Put(put, 3, MPI_INT, peer, 0, 3, MPI_INT, w);
	MPI_Get(got, 5, MPI_DOUBLE, peer, 64, 5, MPI_DOUBLE, w);
	MPI_Accumulate(acc, 7, MPI_INT, peer, 128, 7, MPI_INT, MPI_SUM, w);
	MPI_Win_fence(0, w);
	check(((int *)base)[2] == 3, "put value");
	check(((int *)(base + 128))[6] == 1, "accumulate value");
}

/* Lock epoch on the peer: the read-modify-write calls, flushes and the
 * request-based calls. */
static void lock_epoch(MPI_Win w, int peer)
{
	int in[9] = { 0 }, out[9], one = 1, cmp = 0, res = 0;
	long add = 2, prev = 0;
	char put[11] = "rput bytes", get[13];
	MPI_Request rq;

	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, w);
	MPI_Get_accumulate(in, 9, MPI_INT, out, 9, MPI_INT, peer, 256, 9,
			   MPI_INT, MPI_SUM, w);
	MPI_Fetch_and_op(&add, &prev, MPI_LONG, peer, 512, MPI_SUM, w);
	MPI_Compare_and_swap(&one, &cmp, &res, MPI_INT, peer, 768, w);
	MPI_Win_flush(peer, w);
	MPI_Rput(put, 11, MPI_CHAR, peer, 1024, 11, MPI_CHAR, w, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Rget(get, 13, MPI_CHAR, peer, 2048, 13, MPI_CHAR, w, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Win_flush_local(peer, w);
	MPI_Win_unlock(peer, w);

	MPI_Win_lock_all(0, w);
	MPI_Win_flush_all(w);
	MPI_Win_flush_local_all(w);
	MPI_Win_unlock_all(w);
}

/* Post/start/complete/wait between the two ranks: Put 2 shorts. */
static void pscw_epoch(MPI_Win w, int peer)
{
	MPI_Group world, other;
	short s[2] = { 7, 8 };

	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &peer, &other);
	MPI_Win_post(other, 0, w);
	MPI_Win_start(other, 0, w);
	MPI_Put(s, 2, MPI_SHORT, peer, 3072, 2, MPI_SHORT, w);
	MPI_Win_complete(w);
	MPI_Win_wait(w);
	MPI_Group_free(&other);
	MPI_Group_free(&world);
}

/* The other ways to make a window: made and freed. */
static void windows(void)
{
	MPI_Win w;
	void *p;

	MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w);
	MPI_Win_free(&w);
	MPI_Win_allocate_shared(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w);
	MPI_Win_free(&w);
	MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
	MPI_Win_free(&w);
}

static void rma(void)
{
	static char base[WIN_BYTES];
	int peer = 1 - rank;
	MPI_Win w;

	MPI_Win_create(base, WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
	fence_epoch(w, peer, base);
	MPI_Barrier(MPI_COMM_WORLD);
	lock_epoch(w, peer);
	MPI_Barrier(MPI_COMM_WORLD);
	pscw_epoch(w, peer);
	MPI_Win_free(&w);
	windows();
}

/*
 * Each rank writes 17 ints at offset rank * 1000, then reads 50 ints
 * back from there: rank 0 reads 200 bytes (the file goes on to rank 1's
 * data), rank 1 the 68 bytes before the end of the file.  The other
 * calls move 1 to 15 chars each, after offset 2000.
 */
static void io_calls(MPI_File f)
{
	int wr[17], rd[50];
	char c[16] = "0123456789abcde";
	MPI_Offset at = 2000 + 100 * rank;
	MPI_Status st;
	MPI_Request rq;
	int n = 0;

	for (int i = 0; i < 17; i++)
		wr[i] = 100 * rank + i;
	MPI_File_write_at(f, 1000 * rank, wr, 17, MPI_INT, MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_File_read_at_all(f, 1000 * rank, rd, 50, MPI_INT, &st);
	MPI_Get_count(&st, MPI_BYTE, &n);
	check(n == (rank ? 68 : 200), "read_at_all count");
	check(rd[16] == 100 * rank + 16, "read_at_all value");
	/* a collective read does not end together: without this barrier
	 * rank 0's writes at 2000 B below lengthened the file under rank
	 * 1's part of the read, which then read 200 B (1 run in 100 to 200
	 * with the library preloaded, timings moved) */
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_File_seek(f, at, MPI_SEEK_SET);
	MPI_File_iwrite(f, c, 3, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_write(f, c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_write_all(f, c, 2, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_write_at_all(f, at + 10, c, 4, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_iwrite_at(f, at + 20, c, 5, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_iwrite_all(f, c, 6, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_iwrite_at_all(f, at + 30, c, 7, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_seek(f, at, MPI_SEEK_SET);
	MPI_File_read(f, c, 1, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_read_all(f, c, 2, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_read_at(f, at, c, 8, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_iread(f, c, 9, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_iread_at(f, at, c, 10, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_iread_all(f, c, 11, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_iread_at_all(f, at, c, 12, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_File_seek_shared(f, 3000, MPI_SEEK_SET);
	MPI_File_write_shared(f, c, 13, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_iwrite_shared(f, c, 14, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_write_ordered(f, c, 15, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_seek_shared(f, 3000, MPI_SEEK_SET);
	MPI_File_read_shared(f, c, 13, MPI_CHAR, MPI_STATUS_IGNORE);
	MPI_File_iread_shared(f, c, 14, MPI_CHAR, &rq);
	MPI_Wait(&rq, MPI_STATUS_IGNORE);
	MPI_File_read_ordered(f, c, 15, MPI_CHAR, MPI_STATUS_IGNORE);
}

/* Rows of the 4 Allreduce calls between Pcontrol(0) and Pcontrol(1)
 * are not kept; the aggregates count them. */
static void paused_phase(void)
{
	int x = 1, sum = 0;

	MPI_Pcontrol(0);
	for (int i = 0; i < 4; i++)
		MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Pcontrol(1);
	check(sum == 2, "allreduce sum");
}

int main(int argc, char **argv)
{
	MPI_File f;
	int size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	check(size == 2 && argc == 2, "usage: 2 ranks, FILE");
	rma();
	check(MPI_File_open(MPI_COMM_WORLD, argv[1],
			    MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
			    &f) == MPI_SUCCESS, "file open");
	io_calls(f);
	MPI_File_close(&f);
	paused_phase();
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		MPI_File_delete(argv[1], MPI_INFO_NULL);
		printf("test_rma_io: %d ranks done\n", size);
	}
	MPI_Finalize();
	return 0;
}
