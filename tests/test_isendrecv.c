/*
 * test_isendrecv.c - MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace
 * (and their large-count bindings) for tests/test_isendrecv.sh, on 2
 * ranks.  Each exchange is made three times with the same arguments:
 * blocking (MPI_Sendrecv, MPI_Sendrecv_replace), nonblocking completed
 * by MPI_Wait, then by an MPI_Test loop, so that the rows can be
 * compared; then the large-count bindings, completed by MPI_Waitall;
 * then one whose receive takes MPI_ANY_SOURCE and MPI_ANY_TAG (and 8
 * ints, of which 2 arrive).  Rank 0
 * prints one line when every result was right; a wrong one exits 1
 * with a line naming it.  Built against an MPI without MPI_Isendrecv
 * (Open MPI 4.1), it prints "test_isendrecv: no MPI_Isendrecv" and
 * makes no call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <mpi.h>

static int rank;

static void check(int ok, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "test_isendrecv: rank %d: %s\n", rank, what);
	exit(1);
}

#if MPI_VERSION >= 4

static void fill(int *a, int n, int v)
{
	for (int i = 0; i < n; i++)
		a[i] = v + i;
}

static int got(const int *a, int n, int v)
{
	for (int i = 0; i < n; i++)
		if (a[i] != v + i)
			return 0;
	return 1;
}

/* MPI_Test until q completes, resting between tries: a loop at full
 * speed makes millions of calls a second, more than the library keeps
 * (it counts the rest as dropped) */
static void test_until_done(MPI_Request *q, MPI_Status *st)
{
	struct timespec rest = { 0, 100000 };
	int done = 0;

	for (;;) {
		MPI_Test(q, &done, st);
		if (done)
			return;
		nanosleep(&rest, NULL);
	}
}

int main(int argc, char **argv)
{
	MPI_Comm w = MPI_COMM_WORLD;
	MPI_Request q[2];
	MPI_Status st, sts[2];
	int size, peer, a[8], b[8];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(w, &rank);
	MPI_Comm_size(w, &size);
	check(size == 2, "wants 2 ranks");
	peer = 1 - rank;
	for (int form = 0; form < 3; form++) {
		/* rank r sends 3 + r ints, receives 3 + peer */
		fill(a, 8, 100 * rank);
		if (form == 0)
			MPI_Sendrecv(a, 3 + rank, MPI_INT, peer, 7, b, 3 + peer,
				     MPI_INT, peer, 7, w, &st);
		else {
			MPI_Isendrecv(a, 3 + rank, MPI_INT, peer, 7, b,
				      3 + peer, MPI_INT, peer, 7, w, &q[0]);
			if (form == 1)
				MPI_Wait(&q[0], &st);
			else
				test_until_done(&q[0], &st);
		}
		check(got(b, 3 + peer, 100 * peer), "Sendrecv");
		/* MPICH 4.0 completes an Isendrecv with an empty status */
		check(form > 0 || (st.MPI_SOURCE == peer && st.MPI_TAG == 7),
		      "Sendrecv's status");
		fill(a, 8, 100 * rank);
		if (form == 0)
			MPI_Sendrecv_replace(a, 5, MPI_INT, peer, 8, peer, 8, w,
					     &st);
		else {
			MPI_Isendrecv_replace(a, 5, MPI_INT, peer, 8, peer, 8,
					      w, &q[0]);
			if (form == 1)
				MPI_Wait(&q[0], &st);
			else
				test_until_done(&q[0], &st);
		}
		check(got(a, 5, 100 * peer), "Sendrecv_replace");
	}
	fill(a, 8, 100 * rank);
	MPI_Isendrecv_c(a, 3 + rank, MPI_INT, peer, 9, b, 3 + peer, MPI_INT,
			peer, 9, w, &q[0]);
	MPI_Isendrecv_replace_c(a + 4, 4, MPI_INT, peer, 10, peer, 10, w,
				&q[1]);
	MPI_Waitall(2, q, sts);
	check(got(b, 3 + peer, 100 * peer) && got(a + 4, 4, 100 * peer + 4),
	      "the large-count bindings");
	fill(a, 8, 100 * rank);
	MPI_Isendrecv(a, 2, MPI_INT, peer, 11, b, 8, MPI_INT, MPI_ANY_SOURCE,
		      MPI_ANY_TAG, w, &q[0]);
	MPI_Wait(&q[0], &st);
	check(got(b, 2, 100 * peer), "MPI_ANY_SOURCE, MPI_ANY_TAG");
	if (rank == 0)
		printf("test_isendrecv: done\n");
	MPI_Finalize();
	return 0;
}

#else

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0)
		printf("test_isendrecv: no MPI_Isendrecv\n");
	MPI_Finalize();
	return 0;
}

#endif
