/* The profiling level shmem_pcontrol records (pcontrol.c), for whatever later
 * gathers statistics or traces: read it, never set it from inside the library. */
#ifndef SHOAL_PCONTROL_H
#define SHOAL_PCONTROL_H

/* The last level passed to shmem_pcontrol, 1 before any call. The spec's
 * recommended meanings: <= 0 profiling off, 1 on at the default detail, 2 on
 * and buffers flushed, > 2 implementation-defined. */
int shoal_pcontrol_level(void);

/* Whether profiling is on: the level is 1 or more. */
static inline int shoal_pcontrol_enabled(void)
{
    return shoal_pcontrol_level() > 0;
}

#endif
