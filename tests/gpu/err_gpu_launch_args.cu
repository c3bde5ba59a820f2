/* Must fail, the way the program's name says: the last PE calls
 * nvshmemx_collective_launch, or its query, with one argument wrong:
 *   err_gpu_launch_func      a NULL kernel
 *   err_gpu_launch_block     blocks of 0 threads
 *   err_gpu_launch_params    NULL args for a kernel that takes a parameter (the
 *                            typed launch counts them; under nvcc the launch is
 *                            CUDA's, which cannot: 77)
 *   err_gpu_launch_gridsize  the query, with nowhere to write its answer
 *   err_gpu_launch_coop      on a GPU without cooperative launches (the CPU
 *                            engine's, with SHOAL_DEV_CPU_COOP=0; 77 on a GPU that
 *                            makes them)
 * and the host refuses it with one line naming the routine and the argument. 77
 * without a GPU (tests/gpu-cpu runs these on the CPU engine). */
#include "gpu_test.h"

#include <string.h>

__global__ void k_one(int *x)
{
    (void)x;
}

static void skip(void)
{
    shmem_finalize();
    exit(77);
}

int main(int argc, char **argv)
{
    const char *name = argc > 0 ? argv[0] : "";
    void (*none)(int *) = NULL;
    int *x = NULL, most = 0, dev = 0, coop = 1;
    void *args[1] = {&x};
    int last;

    shmem_init();
    gpu_test_start("err_gpu_launch_args", 0);
    last = shmem_my_pe() == shmem_n_pes() - 1;
#ifndef SHOAL_DEV_ON_CPU
    if (strstr(name, "launch_params") != NULL)
        skip();
#endif
    if (strstr(name, "launch_coop") != NULL) {
        GPU_CUDA(cudaGetDevice(&dev));
        GPU_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
        if (coop)
            skip();
    }
    if (last) {
        if (strstr(name, "launch_func") != NULL)
            nvshmemx_collective_launch(none, dim3(1), dim3(64), args, 0, NULL);
        else if (strstr(name, "launch_block") != NULL)
            nvshmemx_collective_launch(k_one, dim3(1), dim3(0), args, 0, NULL);
        else if (strstr(name, "launch_params") != NULL)
            nvshmemx_collective_launch(k_one, dim3(1), dim3(64), NULL, 0, NULL);
        else if (strstr(name, "launch_gridsize") != NULL)
            nvshmemx_collective_launch_query_gridsize((const void *)k_one, dim3(64), args, 0, NULL);
        else if (strstr(name, "launch_coop") != NULL)
            nvshmemx_collective_launch_query_gridsize((const void *)k_one, dim3(64), args, 0,
                                                      &most);
        else
            return 99; /* a name this program does not know */
    }
    GPU_CUDA(cudaDeviceSynchronize());
    shmem_barrier_all();
    shmem_finalize();
    return 0; /* reaching here is the failure run-gpu-err.sh reports */
}
