/* Must fail: shmem_ctx_create with an option bit that is none of
 * SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE. */
#include "pe_test.h"

int main(void)
{
    shmem_ctx_t ctx;

    shmem_init();
    pe_test_watchdog();
    shmem_ctx_create(SHMEM_CTX_PRIVATE | 0x100, &ctx);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
