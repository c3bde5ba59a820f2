/* DESIGN: a PE that computes without calling the library must not stall its
 * peers. Each PE puts 1 MiB and then a flag to its right neighbour, and waits
 * for its own flag with plain loads only: no library call until it has come. */
#include "pe_test.h"

#define BYTES (1 << 20)
#define ROUNDS 5
#define WAIT_SECONDS 10

int main(void)
{
    unsigned char *buf, *src;
    long *flag;
    int me, npes, left, right, round;
    size_t i;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    buf = shmem_malloc(BYTES);
    flag = shmem_calloc(1, sizeof(long));
    src = malloc(BYTES);
    PE_CHECK(buf != NULL && flag != NULL && src != NULL, "buffers %p %p %p", (void *)buf,
             (void *)flag, (void *)src);
    if (buf == NULL || flag == NULL || src == NULL)
        return pe_test_finish("pe_progress");
    for (round = 1; round <= ROUNDS; round++) {
        for (i = 0; i < BYTES; i++)
            src[i] = (unsigned char)(me * 7 + round + i % 241);
        shmem_putmem(buf, src, BYTES, right);
        shmem_fence();
        shmem_long_p(flag, round, right);
        if (!pe_test_wait_long_ge_for(flag, round, WAIT_SECONDS)) {
            PE_CHECK(0, "round %d: the flag from PE %d did not come in %d s while this PE "
                     "made no library call (it is %ld)", round, left, WAIT_SECONDS, *flag);
            shmem_global_exit(99); /* the other PEs may be stuck the same way */
        }
        for (i = 0; i < BYTES; i++) {
            if (buf[i] != (unsigned char)(left * 7 + round + i % 241)) {
                PE_CHECK(0, "round %d: byte %zu from PE %d is %u, expected %u", round, i, left,
                         buf[i], (unsigned char)(left * 7 + round + i % 241));
                break;
            }
        }
        shmem_barrier_all();
    }
    free(src);
    return pe_test_finish("pe_progress");
}
