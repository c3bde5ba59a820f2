/* shmem_team_get_config as OpenSHMEM 1.6 words it: a config_mask of 0 does
 * nothing and returns 0 even with a NULL config; SHMEM_TEAM_INVALID returns
 * non-zero; num_contexts is the limit in force now, which this test measures by
 * creating contexts until the library refuses one. SHOAL_CTX_MAX is set small
 * (unless the caller set it) so that the measurement stays cheap. */
#include "pe_test.h"

/* How many contexts of team this PE can hold at once, counted by making them
 * (at most limit + 1), then destroyed again. */
static int contexts_possible(shmem_team_t team, int limit)
{
    shmem_ctx_t ctx[64];
    int n = 0, i;

    while (n <= limit && n < (int)(sizeof(ctx) / sizeof(ctx[0])) &&
           shmem_team_create_ctx(team, 0, &ctx[n]) == 0)
        n++;
    for (i = 0; i < n; i++)
        shmem_ctx_destroy(ctx[i]);
    return n;
}

static void check_team(const char *what, shmem_team_t team, int expected)
{
    shmem_team_config_t got = {.num_contexts = -1};

    PE_CHECK_EQ(what, 0, shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &got));
    PE_CHECK(got.num_contexts == expected, "%s: num_contexts %d, expected %d", what,
             got.num_contexts, expected);
    /* the value must be the one that holds: that many contexts, and no more */
    PE_CHECK(contexts_possible(team, got.num_contexts) == got.num_contexts,
             "%s: get_config says %d contexts, but %d could be made", what, got.num_contexts,
             contexts_possible(team, got.num_contexts));
}

int main(void)
{
    shmem_team_config_t cfg = {.num_contexts = -5}, want;
    shmem_team_t two = SHMEM_TEAM_INVALID, many = SHMEM_TEAM_INVALID, plain = SHMEM_TEAM_INVALID;
    const char *env;
    int max, npes;

    setenv("SHOAL_CTX_MAX", "5", 0);
    env = getenv("SHOAL_CTX_MAX");
    shmem_init();
    pe_test_watchdog();
    npes = shmem_n_pes();
    max = atoi(env);
    if (max < 3 || max > 60) {
        if (shmem_my_pe() == 0)
            printf("pe_team_config: SHOAL_CTX_MAX is %s; this test needs 3..60\n", env);
        shmem_finalize();
        return 77;
    }

    /* config_mask 0: no action, config may be NULL, 0 for a valid team */
    PE_CHECK_EQ("get_config(WORLD, 0, NULL)", 0, shmem_team_get_config(SHMEM_TEAM_WORLD, 0, NULL));
    PE_CHECK_EQ("get_config(SHARED, 0, NULL)", 0,
                shmem_team_get_config(SHMEM_TEAM_SHARED, 0, NULL));
    PE_CHECK_EQ("get_config(WORLD, 0, &cfg)", 0, shmem_team_get_config(SHMEM_TEAM_WORLD, 0, &cfg));
    PE_CHECK(cfg.num_contexts == -5, "get_config with mask 0 wrote num_contexts %d",
             cfg.num_contexts);
    PE_CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, 0, NULL) != 0,
             "get_config(INVALID, 0, NULL) returned 0, expected non-zero%s", "");
    PE_CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0 &&
                 cfg.num_contexts == -5,
             "get_config(INVALID) returned 0 or wrote num_contexts (%d)", cfg.num_contexts);

    /* the values in force: the predefined teams and a team made without the
     * mask bit are bounded by SHOAL_CTX_MAX only; a team's own limit counts
     * where it is lower */
    check_team("WORLD", SHMEM_TEAM_WORLD, max);
    check_team("SHARED", SHMEM_TEAM_SHARED, max);
    want.num_contexts = 2;
    PE_CHECK_EQ("split with num_contexts 2", 0,
                shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &want,
                                         SHMEM_TEAM_NUM_CONTEXTS, &two));
    check_team("team with num_contexts 2", two, 2);
    want.num_contexts = max + 4;
    PE_CHECK_EQ("split with num_contexts above SHOAL_CTX_MAX", 0,
                shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &want,
                                         SHMEM_TEAM_NUM_CONTEXTS, &many));
    check_team("team with num_contexts above SHOAL_CTX_MAX", many, max);
    PE_CHECK_EQ("split with mask 0", 0,
                shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &want, 0, &plain));
    check_team("team made with mask 0", plain, max);

    shmem_team_destroy(plain);
    shmem_team_destroy(many);
    shmem_team_destroy(two);
    shmem_finalize();
    return pe_test_failures ? 99 : 0;
}
