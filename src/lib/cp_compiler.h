/*
 * cp_compiler.h - the few compiler attributes the library uses, named
 * once (GCC and clang): what the preloaded library exports, cold paths
 * kept out of line, and branch hints for the hot path.
 */
#ifndef CP_COMPILER_H
#define CP_COMPILER_H

/* Exported from libcommprof.so: MPI entry points and their Fortran
 * names only; everything else is hidden (-fvisibility=hidden). */
#define CP_API __attribute__((visibility("default")))
/* A slow path, kept out of the caller and its cache lines. */
#define CP_COLD __attribute__((noinline, cold))
#define cp_likely(x) __builtin_expect(!!(x), 1)
#define cp_unlikely(x) __builtin_expect(!!(x), 0)

#endif
