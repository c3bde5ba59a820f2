/* gpu_signal.cu: a kernel on PE 1 waits for a signal that PE 0 sets from the host
 * with shmem_int_put_signal, then reads the data that came with it. Needs a GPU
 * and at least 2 PEs on one node:
 *   oshcc --cuda -o gpu_signal gpu_signal.cu && oshrun -np 2 ./gpu_signal */
#include <nvshmem.h>
#include <shmem.h>
#include <stdio.h>

__global__ void wait_and_read(uint64_t *sig, int *data, int *out)
{
    nvshmem_signal_wait_until(sig, NVSHMEM_CMP_EQ, 1);
    *out = data[0]; /* the data PE 0 put with the signal */
}

int main(void)
{
    int *data, *out, v = 42, status = 0;
    uint64_t *sig;

    nvshmem_init();
    /* The host heap: PE 0's host code puts into it (host shmem_ routines do
     * not reach nvshmem_malloc's GPU heap). */
    sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    data = (int *)shmem_malloc(sizeof(int));
    if (cudaMallocManaged(&out, sizeof(int)) != cudaSuccess) {
        fprintf(stderr, "PE %d: no usable GPU\n", nvshmem_my_pe());
        shmem_global_exit(1);
    }
    *out = 0;
    if (nvshmem_my_pe() == 1)
        wait_and_read<<<1, 1>>>(sig, data, out);
    nvshmem_barrier_all();
    if (nvshmem_my_pe() == 0)
        shmem_int_put_signal(data, &v, 1, sig, 1, SHMEM_SIGNAL_SET, 1);
    if (nvshmem_my_pe() == 1) {
        cudaDeviceSynchronize();
        printf("PE 1's kernel read %d\n", *out);
        status = *out == v ? 0 : 1;
    }
    nvshmem_barrier_all();
    shmem_free(data);
    shmem_free(sig);
    nvshmem_finalize();
    return status;
}
