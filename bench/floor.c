/*
 * floor.c - libcpfloor.so, the cheapest PMPI interposition worth the
 * name, as the yardstick of bench/overhead: each wrapper reads the time
 * stamp counter before and after the real call and stores a 32-byte
 * record into a preallocated ring.  Nothing is decided and nothing is
 * written out during the run: what any profiler must pay at least to
 * know a call happened and how long it took.  It wraps exactly the calls
 * the benchmark times and counts; not part of commprof.
 *
 * The ring is read once, at MPI_Finalize, into a checksum printed on
 * stderr: a ring nobody reads is a store the compiler may delete (it did,
 * and the floor then measured two TSC reads and nothing else).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define FLOOR_API __attribute__((visibility("default")))
#define FLOOR_SLOTS 65536		/* ring entries; a power of two */

struct floor_rec {
	uint64_t t0_tsc;	/* TSC before the real call */
	uint64_t t1_tsc;	/* TSC after it */
	int32_t count;		/* element count as passed, 0 for a wait */
	int32_t peer;		/* rank as passed, -1 when there is none */
	uint32_t call;		/* enum floor_call */
	uint32_t pad;
};

enum floor_call {
	F_SEND, F_RECV, F_ISEND, F_IRECV, F_WAIT, F_ALLREDUCE, F_ALLGATHERV
};

/* in BSS: no allocation on the call path or anywhere else */
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

	put(t0, ticks(), count, dest, F_SEND);
	return rc;
}

FLOOR_API int MPI_Recv(void *buf, int count, MPI_Datatype type, int src,
		       int tag, MPI_Comm comm, MPI_Status *status)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Recv(buf, count, type, src, tag, comm, status);

	put(t0, ticks(), count, src, F_RECV);
	return rc;
}

FLOOR_API int MPI_Isend(const void *buf, int count, MPI_Datatype type,
			int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);

	put(t0, ticks(), count, dest, F_ISEND);
	return rc;
}

FLOOR_API int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src,
			int tag, MPI_Comm comm, MPI_Request *req)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Irecv(buf, count, type, src, tag, comm, req);

	put(t0, ticks(), count, src, F_IRECV);
	return rc;
}

FLOOR_API int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Wait(req, status);

	put(t0, ticks(), 0, -1, F_WAIT);
	return rc;
}

FLOOR_API int MPI_Allreduce(const void *sbuf, void *rbuf, int count,
			    MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);

	put(t0, ticks(), count, -1, F_ALLREDUCE);
	return rc;
}

FLOOR_API int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype st,
			     void *rbuf, const int rcounts[],
			     const int displs[], MPI_Datatype rt,
			     MPI_Comm comm)
{
	uint64_t t0 = ticks();
	int rc = PMPI_Allgatherv(sbuf, scount, st, rbuf, rcounts, displs, rt,
				 comm);

	put(t0, ticks(), scount, -1, F_ALLGATHERV);
	return rc;
}

/* Read every record the run left: the stores above are then live. */
FLOOR_API int MPI_Finalize(void)
{
	uint64_t sum = 0, n = head < FLOOR_SLOTS ? head : FLOOR_SLOTS;

	for (uint64_t i = 0; i < n; i++)
		sum += ring[i].t1_tsc - ring[i].t0_tsc + (uint64_t)ring[i].count +
		       (uint64_t)ring[i].peer + ring[i].call;
	fprintf(stderr, "floor: %llu calls, checksum %llx\n",
		(unsigned long long)head, (unsigned long long)sum);
	return PMPI_Finalize();
}
