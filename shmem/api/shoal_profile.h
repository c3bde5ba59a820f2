/* The profiling interface's two names: every routine libshoal exports is defined
 * as pshmem_X (p_my_pe, pshmalloc: "p" before the name), and SHOAL_PROFILED(X)
 * after the definition makes X a weak alias of it, so that a tool may define X,
 * count, and call pshmem_X (shmem_profiling(3)). Inside libshoal, call the pshmem_
 * name: a tool must see only the program's calls. Never alias a variable. */
#ifndef SHOAL_PROFILE_H
#define SHOAL_PROFILE_H

#include "pshmem.h"

/* X, weak, at the address of pX, which this file defines and pshmem.h declares.
 * An alias is the same code at a second symbol: it costs no call, the fast path
 * stays what it was. */
#define SHOAL_PROFILED(name) extern __typeof__(p##name) name __attribute__((weak, alias("p" #name)))

/* A second name of routine name (Shoal's shmemx_ name of an OpenSHMEM 1.6
 * routine): x, weak, and px, strong, both at the address of pname, so that a
 * program, or a tool, that uses the old name calls the same code. */
#define SHOAL_PROFILED_ALIAS(x, name)                                                              \
    extern __typeof__(p##name) p##x __attribute__((alias("p" #name)));                             \
    extern __typeof__(p##name) x __attribute__((weak, alias("p" #name)))

#endif
