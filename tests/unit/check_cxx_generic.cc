// The C++ overloads of the type-generic names, checked without a job (built as
// C++11 and C++17, -pedantic -Werror: check_cxx_generic11, check_cxx_generic17).
// tests/gen/shoal_cxx_generic.h, generated from the API table, defines a stub for
// every routine an overload calls and checks each set against the table; this
// file adds the hand-written overloads of shmem.h and shmemx.h (shmem_sync and
// the signal names, whose C11 forms pick by the number of arguments).
// Exit 0 pass, 1 fail.
#include "shoal_cxx_generic.h"

// The functions the hand-written overloads reach, and the C functions of the
// same names.
extern "C" {
int shmem_team_sync(shmem_team_t)
{
    shoal_cxx_hit("shmem_team_sync", typeid(shmem_team_t));
    return 7;
}
void shmem_sync(int, int, int, long *)
{
    shoal_cxx_hit("shmem_sync", typeid(long));
}
void shmem_signal_add(uint64_t *, uint64_t, int)
{
    shoal_cxx_hit("shmem_signal_add", typeid(uint64_t));
}
void shmem_ctx_signal_add(shmem_ctx_t, uint64_t *, uint64_t, int)
{
    shoal_cxx_hit("shmem_ctx_signal_add", typeid(uint64_t));
}
void shmem_signal_set(uint64_t *, uint64_t, int)
{
    shoal_cxx_hit("shmem_signal_set", typeid(uint64_t));
}
void shmem_ctx_signal_set(shmem_ctx_t, uint64_t *, uint64_t, int)
{
    shoal_cxx_hit("shmem_ctx_signal_set", typeid(uint64_t));
}
void shmemx_signal_add(uint64_t *, uint64_t, int)
{
    shoal_cxx_hit("shmemx_signal_add", typeid(uint64_t));
}
void shmemx_ctx_signal_add(shmem_ctx_t, uint64_t *, uint64_t, int)
{
    shoal_cxx_hit("shmemx_ctx_signal_add", typeid(uint64_t));
}
void shmemx_signal_set(uint64_t *, uint64_t, int)
{
    shoal_cxx_hit("shmemx_signal_set", typeid(uint64_t));
}
void shmemx_ctx_signal_set(shmem_ctx_t, uint64_t *, uint64_t, int)
{
    shoal_cxx_hit("shmemx_ctx_signal_set", typeid(uint64_t));
}
}

static void hand_written(void)
{
    static long psync[SHMEM_BARRIER_SYNC_SIZE];
    uint64_t sig = 0;
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;

    // shmem_sync(team) returns what shmem_team_sync returns.
    static_assert(std::is_same<decltype(shmem_sync(SHMEM_TEAM_INVALID)), int>::value,
                  "shmem_sync(team) returns int");
    if (shmem_sync(SHMEM_TEAM_INVALID) != 7) {
        std::fprintf(stderr, "FAIL: shmem_sync(team) did not return shmem_team_sync's value\n");
        shoal_cxx_failures++;
    }
    shoal_cxx_reached("shmem_sync", "shmem_team_t", typeid(shmem_team_t), {"shmem_team_sync"});
    shmem_sync(0, 0, 1, psync);
    shoal_cxx_reached("shmem_sync", "long * (active set)", typeid(long), {"shmem_sync"});

    shmem_signal_add(&sig, 1, 0);
    shoal_cxx_reached("shmem_signal_add", "uint64_t *", typeid(uint64_t), {"shmem_signal_add"});
    shmem_signal_add(ctx, &sig, 1, 0);
    shoal_cxx_reached("shmem_signal_add with a context", "uint64_t *", typeid(uint64_t),
                      {"shmem_ctx_signal_add"});
    shmem_signal_set(&sig, 1, 0);
    shoal_cxx_reached("shmem_signal_set", "uint64_t *", typeid(uint64_t), {"shmem_signal_set"});
    shmem_signal_set(ctx, &sig, 1, 0);
    shoal_cxx_reached("shmem_signal_set with a context", "uint64_t *", typeid(uint64_t),
                      {"shmem_ctx_signal_set"});
    shmemx_signal_add(&sig, 1, 0);
    shoal_cxx_reached("shmemx_signal_add", "uint64_t *", typeid(uint64_t), {"shmemx_signal_add"});
    shmemx_signal_add(ctx, &sig, 1, 0);
    shoal_cxx_reached("shmemx_signal_add with a context", "uint64_t *", typeid(uint64_t),
                      {"shmemx_ctx_signal_add"});
    shmemx_signal_set(&sig, 1, 0);
    shoal_cxx_reached("shmemx_signal_set", "uint64_t *", typeid(uint64_t), {"shmemx_signal_set"});
    shmemx_signal_set(ctx, &sig, 1, 0);
    shoal_cxx_reached("shmemx_signal_set with a context", "uint64_t *", typeid(uint64_t),
                      {"shmemx_ctx_signal_set"});
}

int main()
{
    shoal_cxx_generic_check();
    hand_written();
    int failures = shoal_cxx_failures;
    std::printf("check_cxx_generic (C++%ld): %s\n", (long)(__cplusplus / 100 % 100),
                failures == 0 ? "passed" : "FAILED");
    return failures == 0 ? 0 : 1;
}
