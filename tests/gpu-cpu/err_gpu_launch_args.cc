/* tests/gpu/err_gpu_launch_args.cu on the CPU engine: the same source, built by
 * g++, linked as each err_gpu_launch_* program (the name picks the case). */
#include "err_gpu_launch_args.cu"
