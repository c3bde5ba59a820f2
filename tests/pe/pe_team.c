/* Teams: the predefined teams, split_strided (positive, negative and zero strides,
 * odd sizes, size 1, PEs left out), split_2d (xrange 1, 2, 3 and beyond the parent),
 * translate_pe both ways and with SHMEM_TEAM_INVALID, get_config, team_sync,
 * team_ptr, nested splits, the failure paths that must return non-zero, and more
 * create/destroy cycles than the library has team slots. Every team is compared
 * with a model of its members computed here (pe_teams.h). */
#include "pe_teams.h"

#define CYCLES 80 /* create/destroy rounds: more than any fixed pool of team slots */

static int me, npes;
static long *marks; /* symmetric: [epoch % 64][member], written by each member */
static long *cell;  /* symmetric: one value per PE, read through team_ptr */

static void check_predefined(void)
{
    shmem_team_config_t cfg;
    pe_team_t shared;
    int n = shmem_team_n_pes(SHMEM_TEAM_SHARED), m = shmem_team_my_pe(SHMEM_TEAM_SHARED), i;

    PE_CHECK_EQ("team_my_pe(WORLD)", me, shmem_team_my_pe(SHMEM_TEAM_WORLD));
    PE_CHECK_EQ("team_n_pes(WORLD)", npes, shmem_team_n_pes(SHMEM_TEAM_WORLD));
    PE_CHECK_EQ("team_my_pe(INVALID)", -1, shmem_team_my_pe(SHMEM_TEAM_INVALID));
    PE_CHECK_EQ("team_n_pes(INVALID)", -1, shmem_team_n_pes(SHMEM_TEAM_INVALID));
    PE_CHECK(SHMEM_TEAM_WORLD != SHMEM_TEAM_INVALID && SHMEM_TEAM_SHARED != SHMEM_TEAM_INVALID,
             "predefined handles %p %p", (void *)SHMEM_TEAM_WORLD, (void *)SHMEM_TEAM_SHARED);

    /* SHARED: the PEs this PE reaches by load/store, its node's (pe_team_shared). */
    pe_team_shared(&shared);
    pe_team_check(&shared);
    PE_CHECK(n >= 1 && n <= npes && m >= 0 && m < n, "SHARED: n_pes %d, my_pe %d", n, m);
    for (i = 0; i < n && n <= npes; i++) {
        int w = shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD);

        PE_CHECK(w >= 0 && w < npes, "translate_pe(SHARED, %d, WORLD) is %d", i, w);
        PE_CHECK(shmem_team_ptr(SHMEM_TEAM_SHARED, cell, i) != NULL,
                 "team_ptr(SHARED, heap, %d) is NULL: a SHARED member must be load/store "
                 "reachable",
                 i);
        PE_CHECK(w < 0 || w >= npes || shmem_ptr(cell, w) != NULL,
                 "shmem_ptr(heap, %d) is NULL but world PE %d is in SHARED", w, w);
    }

    /* translate_pe with SHMEM_TEAM_INVALID or a PE outside the team gives -1. */
    PE_CHECK_EQ("translate_pe(INVALID, 0, WORLD)", -1,
                shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD));
    PE_CHECK_EQ("translate_pe(WORLD, 0, INVALID)", -1,
                shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID));
    PE_CHECK_EQ("translate_pe(WORLD, -1, WORLD)", -1,
                shmem_team_translate_pe(SHMEM_TEAM_WORLD, -1, SHMEM_TEAM_WORLD));
    PE_CHECK_EQ("translate_pe(WORLD, n_pes, WORLD)", -1,
                shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes, SHMEM_TEAM_WORLD));
    for (i = 0; i < npes; i++)
        PE_CHECK_EQ("translate_pe(WORLD, i, WORLD)", i,
                    shmem_team_translate_pe(SHMEM_TEAM_WORLD, i, SHMEM_TEAM_WORLD));

    cfg.num_contexts = -7;
    PE_CHECK_EQ("get_config(WORLD) return", 0,
                shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg));
    PE_CHECK(cfg.num_contexts >= 0, "get_config(WORLD): num_contexts %d", cfg.num_contexts);
    PE_CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0,
             "get_config(INVALID) returned 0, expected non-zero%s", "");
    PE_CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, cell, 0) == NULL,
             "team_ptr(INVALID) is %p, expected NULL", shmem_team_ptr(SHMEM_TEAM_INVALID, cell, 0));
    PE_CHECK_EQ("team_sync(WORLD)", 0, shmem_team_sync(SHMEM_TEAM_WORLD));
}

/* Each member stores a value new to this call into marks[epoch][its index] on every
 * member, completes it with quiet and syncs the team: afterwards all its members'
 * values must be there. Twice: shmem_team_sync, then the C11 shmem_sync(team). Every
 * PE counts the calls, members or not, so the epochs agree. */
static void check_sync(const pe_team_t *t)
{
    static long epoch;
    int r, i;

    for (r = 0; r < 2; r++) {
        long e = ++epoch, *row = marks + (size_t)(e % 64) * PE_TEAM_MAXPE;

        if (t->me < 0)
            continue;
        for (i = 0; i < t->size; i++)
            shmem_long_p(&row[t->me], 1000L * e + t->me, t->world[i]);
        shmem_quiet();
        if (r == 0)
            PE_CHECK_EQ("team_sync return", 0, shmem_team_sync(t->team));
        else
            PE_CHECK_EQ("shmem_sync(team) return", 0, shmem_sync(t->team));
        for (i = 0; i < t->size; i++)
            PE_CHECK(row[i] == 1000L * e + i,
                     "%s: sync %ld: mark of member %d is %ld, expected %ld", t->name, e, i, row[i],
                     1000L * e + i);
    }
}

/* team_ptr to every member: the same address shmem_ptr gives for its world PE, real
 * for every member on this node under the auto transport, NULL for one on another
 * node; under ucx, real where UCX maps the member's heap, else NULL; and what it
 * reads is what that member stored. */
static void check_ptr(const pe_team_t *t)
{
    int i;

    if (t->me < 0)
        return;
    for (i = 0; i < t->size; i++) {
        long *p = shmem_team_ptr(t->team, cell, i), *q = shmem_ptr(cell, t->world[i]);

        PE_CHECK(p == q, "%s: team_ptr(team, cell, %d) is %p, shmem_ptr(cell, %d) is %p", t->name,
                 i, (void *)p, t->world[i], (void *)q);
        if (i == t->me)
            PE_CHECK(p == cell, "%s: team_ptr to itself is %p, expected %p", t->name, (void *)p,
                     (void *)cell);
        else if (!pe_test_same_node(t->world[i]))
            PE_CHECK(p == NULL, "%s: team_ptr(team, cell, %d) is %p, on another node", t->name,
                     i, (void *)p);
        else if (pe_test_transport_auto())
            PE_CHECK(p != NULL, "%s: team_ptr(team, cell, %d) is NULL on this node", t->name, i);
        if (p != NULL)
            PE_CHECK(*p == 5000 + t->world[i], "%s: read through team_ptr(%d): %ld, expected %d",
                     t->name, i, *p, 5000 + t->world[i]);
    }
}

/* One strided split of WORLD, everything about it checked, then destroyed. */
static void check_strided(int start, int stride, int size)
{
    pe_team_t world, t;

    pe_team_world(&world);
    pe_team_split(&t, &world, start, stride, size);
    check_sync(&t);
    check_ptr(&t);
    /* A member's INVALID handle: translate and destroy are no-ops on it. */
    if (t.me < 0) {
        PE_CHECK_EQ("translate_pe(INVALID handle of a non-member)", -1,
                    shmem_team_translate_pe(t.team, 0, SHMEM_TEAM_WORLD));
        shmem_team_destroy(t.team);
    }
    pe_team_free(&t);
    shmem_barrier_all();
}

static void check_splits(void)
{
    check_strided(0, 1, npes);           /* a copy of WORLD */
    check_strided(0, 2, (npes + 1) / 2); /* even PEs */
    if (npes > 1)
        check_strided(1, 2, npes / 2); /* odd PEs */
    check_strided(npes - 1, -1, npes); /* reversed */
    check_strided(npes - 1, 0, 1);     /* stride 0, size 1 */
    check_strided(npes / 2, 1, 1);     /* size 1 */
    if (npes > 2)
        check_strided(1, 3, (npes + 1) / 3); /* odd stride */
    if (npes > 3)
        check_strided(npes - 2, -2, (npes - 1) / 2); /* negative, gaps */
    if (npes > 2)
        check_strided(1, 1, npes - 2); /* inner range, odd size at 5... */
}

/* Configurations: num_contexts given through the mask comes back from get_config;
 * without the mask the team is bounded only as WORLD is (SHOAL_CTX_MAX), and
 * get_config says so (1.6: the values in force). pe_team_config checks them. */
static void check_config(void)
{
    shmem_team_config_t cfg = {.num_contexts = 3}, got, world = {.num_contexts = -1};
    shmem_team_t t = SHMEM_TEAM_INVALID, u = SHMEM_TEAM_INVALID;
    int rc;

    PE_CHECK_EQ("get_config(WORLD)", 0,
                shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &world));
    PE_CHECK(world.num_contexts > 0, "get_config(WORLD): num_contexts %d", world.num_contexts);
    rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t);
    PE_CHECK_EQ("split_strided with a config", 0, rc);
    got.num_contexts = -1;
    PE_CHECK_EQ("get_config return", 0, shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got));
    PE_CHECK_EQ("get_config num_contexts", 3, got.num_contexts);
    cfg.num_contexts = 9; /* ignored: not in the mask */
    rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &cfg, 0, &u);
    PE_CHECK_EQ("split_strided with mask 0", 0, rc);
    got.num_contexts = -1;
    PE_CHECK_EQ("get_config return", 0, shmem_team_get_config(u, SHMEM_TEAM_NUM_CONTEXTS, &got));
    PE_CHECK_EQ("get_config num_contexts, no mask", world.num_contexts, got.num_contexts);
    shmem_team_destroy(u);
    shmem_team_destroy(t);

    /* split_2d: a configuration for the x teams only */
    cfg.num_contexts = 4;
    t = u = SHMEM_TEAM_INVALID;
    rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t, &cfg, 0, &u);
    PE_CHECK_EQ("split_2d with an x config", 0, rc);
    got.num_contexts = -1;
    PE_CHECK_EQ("get_config(x) return", 0, shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got));
    PE_CHECK_EQ("get_config(x) num_contexts", 4, got.num_contexts);
    got.num_contexts = -1;
    PE_CHECK_EQ("get_config(y) return", 0, shmem_team_get_config(u, SHMEM_TEAM_NUM_CONTEXTS, &got));
    PE_CHECK_EQ("get_config(y) num_contexts, no mask", world.num_contexts, got.num_contexts);
    shmem_team_destroy(u);
    shmem_team_destroy(t);
}

/* Failures that the specification says return non-zero and SHMEM_TEAM_INVALID on
 * every PE (and that Shoal must not turn into the end of the job): an invalid
 * parent, empty or invalid triplets, a triplet that runs past the parent, and a
 * 2D split with xrange 0 or below. */
static void check_failures(void)
{
    /* start, stride, size */
    const int bad[][3] = {{0, 1, 0},  {0, 1, -1}, {-1, 1, 1}, {npes, 1, 1}, {0, 1, npes + 1},
                          {1, -1, 3}, {0, 0, 2},  {npes - 1, 1, 2}};
    shmem_team_t t = SHMEM_TEAM_WORLD, x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    int rc, i, xr;

    rc = shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t);
    PE_CHECK(rc != 0, "split_strided(INVALID parent) returned %d, expected non-zero", rc);
    PE_CHECK(t == SHMEM_TEAM_INVALID, "split_strided(INVALID parent) gave %p", (void *)t);
    rc = shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y);
    PE_CHECK(rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID,
             "split_2d(INVALID parent) gave %p %p (returned %d)", (void *)x, (void *)y, rc);
    for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
        t = SHMEM_TEAM_WORLD;
        rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, bad[i][0], bad[i][1], bad[i][2], NULL, 0,
                                      &t);
        PE_CHECK(rc != 0 && t == SHMEM_TEAM_INVALID,
                 "split_strided(%d, %d, %d) returned %d and %p, expected non-zero and INVALID",
                 bad[i][0], bad[i][1], bad[i][2], rc, (void *)t);
    }
    for (xr = 0; xr >= -3; xr -= 3) {
        x = y = SHMEM_TEAM_WORLD;
        rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, NULL, 0, &x, NULL, 0, &y);
        PE_CHECK(rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID,
                 "split_2d(xrange %d) gave %p %p (returned %d)", xr, (void *)x, (void *)y, rc);
    }
    shmem_team_destroy(SHMEM_TEAM_INVALID); /* no operation */
    shmem_barrier_all();
}

static void check_2d(int xrange)
{
    pe_team_t world, x, y;

    pe_team_world(&world);
    pe_team_split_2d(&x, &y, &world, xrange);
    check_sync(&x);
    check_sync(&y);
    shmem_barrier_all(); /* marks rows are shared by the two */
    check_ptr(&x);
    check_ptr(&y);
    pe_team_free(&x);
    pe_team_free(&y);
    shmem_barrier_all();
}

/* translate_pe between two split teams (not through WORLD), for this PE's pair. */
static void check_cross(const pe_team_t *a, const pe_team_t *b)
{
    int i;

    if (a->me < 0 || b->me < 0)
        return;
    for (i = -1; i <= a->size; i++) {
        int want = i < 0 || i == a->size ? -1 : pe_team_index(b, a->world[i]);
        int got = shmem_team_translate_pe(a->team, i, b->team);

        PE_CHECK(got == want, "translate_pe(%s, %d, %s): expected %d, found %d", a->name, i,
                 b->name, want, got);
    }
}

/* Splits of splits: even PEs, then their inner ones reversed, then a 2-D split of
 * those; every model composes the parent's. */
static void check_nested(void)
{
    pe_team_t world, even, inner, x, y;

    pe_team_world(&world);
    pe_team_split(&even, &world, 0, 2, (npes + 1) / 2);
    if (even.size > 1)
        pe_team_split(&inner, &even, even.size - 1, -1, even.size - 1);
    else
        pe_team_split(&inner, &even, 0, 1, 1);
    pe_team_split_2d(&x, &y, &inner, 2);
    check_cross(&inner, &even);
    check_cross(&even, &inner);
    check_cross(&x, &inner);
    check_cross(&y, &x);
    check_cross(&x, &y);
    check_sync(&inner);
    shmem_barrier_all();
    check_sync(&x);
    check_sync(&y);
    shmem_barrier_all();
    check_ptr(&y);
    pe_team_free(&x);
    pe_team_free(&y);
    pe_team_free(&inner);
    pe_team_free(&even);
    shmem_barrier_all();
}

/* SHMEM_TEAM_SHARED as a parent: a reversed split and a 2-D split of it. */
static void check_shared_parent(void)
{
    pe_team_t shared, r, x, y;

    pe_team_layout(PE_LAYOUT_SHARED, &shared);
    pe_team_split(&r, &shared, shared.size - 1, -1, shared.size);
    pe_team_split_2d(&x, &y, &shared, 2);
    check_sync(&r);
    check_sync(&x);
    check_sync(&y);
    check_ptr(&r);
    pe_team_free(&y);
    pe_team_free(&x);
    pe_team_free(&r);
    shmem_barrier_all();
}

/* Many more teams made and destroyed than exist at once: slots must be recycled.
 * Every few rounds two teams are alive, destroyed in the other order. */
static void check_cycles(void)
{
    pe_team_t world, a, b;
    int c;

    pe_team_world(&world);
    for (c = 0; c < CYCLES; c++) {
        int size = 1 + c % npes;

        pe_team_split(&a, &world, npes - size, 1, size);
        if (c % 5 == 0) {
            pe_team_split(&b, &world, 0, 1, npes);
            if (b.me >= 0)
                PE_CHECK_EQ("team_sync of a second live team", 0, shmem_team_sync(b.team));
            pe_team_free(&a);
            pe_team_free(&b);
        } else {
            if (a.me >= 0)
                PE_CHECK_EQ("team_sync in a cycle", 0, shmem_team_sync(a.team));
            pe_team_free(&a);
        }
    }
    shmem_barrier_all();
}

/* Team slots run out: with the halves holding different numbers of sub-teams (so
 * each PE has other slots in use), WORLD splits until one fails. The failure must
 * come at the same split on every PE (non-zero, SHMEM_TEAM_INVALID), the last team
 * made must work (a sync and a reduction), and after destroying everything a split
 * works again. */
#define MAX_SPLITS 200
static void check_exhaustion(void)
{
    static shmem_team_t made[MAX_SPLITS];
    static int counts[PE_TEAM_MAXPE];
    static long one, sum;
    pe_team_t half, sub[5];
    int n, rc = 0, i, nsub;

    pe_team_layout(PE_LAYOUT_HALVES, &half);
    nsub = me % 2 ? 2 : 5;
    for (i = 0; i < nsub; i++)
        pe_team_split(&sub[i], &half, 0, 1, half.size);
    for (n = 0; n < MAX_SPLITS; n++) {
        made[n] = SHMEM_TEAM_WORLD;
        rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &made[n]);
        if (rc != 0)
            break;
        PE_CHECK(made[n] != SHMEM_TEAM_INVALID && made[n] != SHMEM_TEAM_WORLD,
                 "split %d returned 0 and %p", n, (void *)made[n]);
    }
    if (rc != 0)
        PE_CHECK(made[n] == SHMEM_TEAM_INVALID, "split %d failed (%d) but gave %p", n, rc,
                 (void *)made[n]);
    PE_CHECK(n > 0, "not one split of WORLD beside %d sub-teams", nsub);
    shmem_int_p(&counts[me], n, 0);
    shmem_barrier_all();
    for (i = 0; me == 0 && i < npes; i++)
        PE_CHECK(counts[i] == n, "PE %d made %d teams before a split failed, PE 0 %d", i, counts[i],
                 n);
    if (n > 0) {
        one = me + 1;
        PE_CHECK_EQ("team_sync on the last team made", 0, shmem_team_sync(made[n - 1]));
        PE_CHECK_EQ("sum_reduce on the last team made", 0,
                    shmem_long_sum_reduce(made[n - 1], &sum, &one, 1));
        PE_CHECK_EQ("sum on the last team made", (long)npes * (npes + 1) / 2, sum);
    }
    if (me == 0)
        printf("note: %d WORLD splits%s beside the sub-teams\n", n,
               n < MAX_SPLITS ? " before one failed" : "");
    for (i = n - 1; i >= 0; i--)
        shmem_team_destroy(made[i]);
    for (i = nsub - 1; i >= 0; i--)
        pe_team_free(&sub[i]);
    pe_team_free(&half);
    check_strided(0, 1, npes); /* splits work again */
}

int main(void)
{
    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pe_test_upto("pe_team", PE_TEAM_MAXPE);
    marks = shmem_calloc((size_t)64 * PE_TEAM_MAXPE, sizeof(long));
    cell = shmem_malloc(sizeof(long));
    PE_CHECK(marks != NULL && cell != NULL, "allocations %p %p", (void *)marks, (void *)cell);
    if (marks == NULL || cell == NULL)
        return pe_test_finish("pe_team");
    *cell = 5000 + me;
    shmem_barrier_all();

    check_predefined();
    shmem_barrier_all();
    check_splits();
    check_config();
    check_failures();
    check_2d(1);
    check_2d(2);
    check_2d(3);
    check_2d(npes + 1);
    check_nested();
    check_shared_parent();
    check_cycles();
    check_exhaustion();

    shmem_free(cell);
    shmem_free(marks);
    return pe_test_finish("pe_team");
}
