/*
 * floor.c - libcpfloor.so, the cheapest PMPI interposition worth the
 * name, as the yardstick of bench/overhead: each wrapper reads the time
 * stamp counter before and after the real call and stores a small record
 * into a preallocated ring.  Nothing is ever written out, nothing is
 * decided: what any profiler must pay at least to know a call happened
 * and how long it took.  It wraps exactly the calls the benchmark times
 * (MPI_Send, MPI_Recv, MPI_Allreduce); not part of commprof.
 */
#include <mpi.h>
#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define FLOOR_API __attribute__((visibility("default")))
#define FLOOR_SLOTS 65536		/* ring entries; a power of two */

struct floor_rec {
	uint64_t t0_tsc;	/* TSC before the real call */
	uint64_t t1_tsc;	/* TSC after it */
	int32_t count;		/* element count as passed */
	int32_t peer;		/* rank as passed, -1 for collectives */
	uint32_t call;		/* 0 send, 1 recv, 2 allreduce */
};

/* static: in BSS, so no allocation on the call path or anywhere else */
static struct floor_rec ring[FLOOR_SLOTS];
static uint64_t head;

static inline uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
#endif
}

static inline void put(uint64_t t0, uint64_t t1, int count, int peer,
		       uint32_t call)
{
	struct floor_rec *r = &ring[head++ & (FLOOR_SLOTS - 1)];

	r->t0_tsc = t0;
	r->t1_tsc = t1;
	r->count = count;
	r->peer = peer;
	r->call = call;
}

FLOOR_API int MPI_Send(const void *buf, int count, MPI_Datatype type,
		       int dest, int tag, MPI_Comm comm)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Send(buf, count, type, dest, tag, comm);

	put(t0, ticks(), count, dest, 0);
	return rc;
}

FLOOR_API int MPI_Recv(void *buf, int count, MPI_Datatype type, int src,
		       int tag, MPI_Comm comm, MPI_Status *status)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Recv(buf, count, type, src, tag, comm, status);

	put(t0, ticks(), count, src, 1);
	return rc;
}

FLOOR_API int MPI_Allreduce(const void *sbuf, void *rbuf, int count,
			    MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);

	put(t0, ticks(), count, -1, 2);
	return rc;
}
