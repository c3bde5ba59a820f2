/* ring: each PE puts a block of numbers into its right neighbour's symmetric
 * array, reads its left neighbour's with a get, and checks both after a barrier.
 * Build: oshcc -o ring ring.c   Run: oshrun -np 4 ./ring */
#include <shmem.h>
#include <stdio.h>

#define N 1024

static long inbox[N]; /* a global: symmetric without any allocation */

int main(void)
{
    long *outbox, fetched[N];
    int me, npes, right, left, i, bad = 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;

    outbox = shmem_malloc(N * sizeof(long));
    for (i = 0; i < N; i++)
        outbox[i] = (long)me * 1000000 + i;
    shmem_barrier_all();

    shmem_long_put(inbox, outbox, N, right);   /* push mine to the right */
    shmem_long_get(fetched, outbox, N, left);  /* pull the left one's outbox */
    shmem_barrier_all();

    for (i = 0; i < N; i++) {
        long want = (long)left * 1000000 + i;

        bad += inbox[i] != want || fetched[i] != want;
    }
    printf("PE %d of %d: put %d longs to PE %d, got %d from PE %d: %s\n", me, npes, N, right, N,
           left, bad ? "MISMATCH" : "all values checked");
    shmem_free(outbox);
    shmem_finalize();
    return bad ? 1 : 0;
}
