/* kernel<<<grid, block, 0, stream>>>(args), in a form that g++ reads too: under
 * nvcc the launch itself; in the CPU engine (SHOAL_DEV_ON_CPU, tests/gpu-cpu) the
 * same launch queued on that engine's emulated stream (stream_cpu.cc). Either
 * way the arguments are evaluated now, and the call returns without waiting. */
#ifndef SHOAL_GPU_LAUNCH_H
#define SHOAL_GPU_LAUNCH_H

#include <cuda_runtime_api.h>

#ifdef SHOAL_DEV_ON_CPU
#include <functional>
/* std::bind copies the arguments, as a launch copies them into the kernel's
 * parameter space. */
#define SHOAL_GPU_LAUNCH_ON(stream, grid, block, kernel, ...)                                      \
    shoal_dev_cpu_launch_on((stream), (grid), (block), std::bind((kernel), ##__VA_ARGS__))
#else
#define SHOAL_GPU_LAUNCH_ON(stream, grid, block, kernel, ...)                                      \
    (kernel)<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__)
#endif

#endif
