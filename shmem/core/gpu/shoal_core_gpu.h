/* The core's side of the GPU seam (shoal_gpu_hook.h): the hooks a program that
 * links libshoal_gpu registers, and the calls start-up, barriers and shut-down
 * make into them. Without the GPU library each is a test of a NULL pointer. */
#ifndef SHOAL_CORE_GPU_H
#define SHOAL_CORE_GPU_H

#include <stddef.h>

#include "shoal_gpu_hook.h"

/* gpu_hook.c: the GPU library's hooks, when a program links it (else NULL). */
extern const shoal_gpu_hooks_t *shoal_gpu_hooks;

static inline int shoal_core_gpu_linked(void)
{
    return shoal_gpu_hooks != NULL;
}

/* At the end of shoal_core_init: hands the GPU library what it needs of this PE
 * (shoal_gpu_env_t) and writes its one-line summary for SHMEM_INFO. */
void shoal_core_gpu_init(char *summary, size_t len);
void shoal_core_gpu_finalize(void);

/* Ends the job with the error line when a kernel recorded a device error.
 * Cost without the GPU library: one load and compare. */
static inline void shoal_core_gpu_check(void)
{
    const shoal_gpu_hooks_t *h = shoal_gpu_hooks;

    if (h != NULL)
        h->check();
}

#endif
