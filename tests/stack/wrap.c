/*
 * wrap.c - a wrapper library for tests/test_stack.sh: the application
 * calls wrap_send(), which calls inner_send(), which calls MPI_Send; and
 * wrap_allreduce(), which calls MPI_Allreduce itself.
 */
#include <mpi.h>

__attribute__((noinline)) static void inner_send(const int *x, int n,
						 int peer)
{
	MPI_Send(x, n, MPI_INT, peer, 3, MPI_COMM_WORLD);	/* SEND */
	__asm__ __volatile__("" ::: "memory");	/* no tail call */
}

__attribute__((noinline)) void wrap_send(const int *x, int n, int peer)
{
	inner_send(x, n, peer);				/* INNER */
	__asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) void wrap_allreduce(int *x)
{
	int in = *x;

	MPI_Allreduce(&in, x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* ALL */
	__asm__ __volatile__("" ::: "memory");
}
