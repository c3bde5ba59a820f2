/* Teams for the team and collective tests. Each pe_team_t records, next to the
 * library's handle, the world PE of every member as computed here from how the team
 * was made, so that every check compares the library against an independent model.
 * Include after pe_test.h. */
#ifndef PE_TEAMS_H
#define PE_TEAMS_H

#include "pe_test.h"

#define PE_TEAM_MAXPE 256 /* programs skip at more PEs */

typedef struct pe_team {
    char name[96];
    shmem_team_t team;        /* SHMEM_TEAM_INVALID where this PE is not a member */
    int size;                 /* members (as the model says, on every PE) */
    int me;                   /* this PE's index in the team, -1 outside */
    int owned;                /* made by a split: destroy it */
    int world[PE_TEAM_MAXPE]; /* world PE of each member */
} pe_team_t;

/* The index of world PE pe in t, or -1. */
static inline int pe_team_index(const pe_team_t *t, int pe)
{
    int i;

    for (i = 0; i < t->size; i++)
        if (t->world[i] == pe)
            return i;
    return -1;
}

/* The library's view of t agrees with the model: my_pe, n_pes, and translate_pe both
 * ways for every member and every world PE. Members only. */
static inline void pe_team_check(const pe_team_t *t)
{
    int i, pe, npes = shmem_n_pes();

    if (t->me < 0) {
        PE_CHECK(t->team == SHMEM_TEAM_INVALID, "%s: not a member, but the handle is %p", t->name,
                 (void *)t->team);
        PE_CHECK_EQ(t->name, -1, shmem_team_my_pe(t->team));
        PE_CHECK_EQ(t->name, -1, shmem_team_n_pes(t->team));
        return;
    }
    PE_CHECK(t->team != SHMEM_TEAM_INVALID, "%s: member %d, but the handle is invalid", t->name,
             t->me);
    PE_CHECK(shmem_team_my_pe(t->team) == t->me, "%s: team_my_pe: expected %d, found %d", t->name,
             t->me, shmem_team_my_pe(t->team));
    PE_CHECK(shmem_team_n_pes(t->team) == t->size, "%s: team_n_pes: expected %d, found %d", t->name,
             t->size, shmem_team_n_pes(t->team));
    for (i = 0; i < t->size; i++) {
        int w = shmem_team_translate_pe(t->team, i, SHMEM_TEAM_WORLD);

        PE_CHECK(w == t->world[i], "%s: translate_pe(team, %d, WORLD): expected %d, found %d",
                 t->name, i, t->world[i], w);
    }
    for (pe = 0; pe < npes; pe++) {
        int want = pe_team_index(t, pe),
            got = shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, t->team);

        PE_CHECK(got == want, "%s: translate_pe(WORLD, %d, team): expected %d, found %d", t->name,
                 pe, want, got);
    }
}

static inline void pe_team_world(pe_team_t *t)
{
    int i;

    snprintf(t->name, sizeof(t->name), "WORLD");
    t->team = SHMEM_TEAM_WORLD;
    t->size = shmem_n_pes();
    t->me = shmem_my_pe();
    t->owned = 0;
    for (i = 0; i < t->size; i++)
        t->world[i] = i;
}

/* The model of split_strided(parent, start, stride, size). */
static inline void pe_team_model_strided(pe_team_t *out, const pe_team_t *parent, int start,
                                         int stride, int size)
{
    int i, me = shmem_my_pe();

    snprintf(out->name, sizeof(out->name), "%.40s/strided(%d,%d,%d)", parent->name, start, stride,
             size);
    out->size = size;
    out->me = -1;
    out->owned = 1;
    out->team = SHMEM_TEAM_INVALID;
    for (i = 0; i < size; i++) {
        out->world[i] = parent->world[start + i * stride];
        if (out->world[i] == me)
            out->me = i;
    }
}

/* shmem_team_split_strided over parent's members, checked against the model (the
 * handle, the return value, then pe_team_check). Non-members of parent do nothing. */
static inline void pe_team_split(pe_team_t *out, const pe_team_t *parent, int start, int stride,
                                 int size)
{
    int rc;

    pe_team_model_strided(out, parent, start, stride, size);
    if (parent->me < 0)
        return;
    out->team = (shmem_team_t)&out->team; /* any non-INVALID value: must be overwritten */
    rc = shmem_team_split_strided(parent->team, start, stride, size, NULL, 0, &out->team);
    PE_CHECK(rc == 0, "%s: split_strided returned %d, expected 0", out->name, rc);
    if (out->me < 0)
        PE_CHECK(out->team == SHMEM_TEAM_INVALID,
                 "%s: split_strided gave %p to a PE outside the team, expected "
                 "SHMEM_TEAM_INVALID",
                 out->name, (void *)out->team);
    if (rc != 0) {
        out->me = -1;
        out->team = SHMEM_TEAM_INVALID;
        return;
    }
    pe_team_check(out);
}

/* shmem_team_split_2d(parent, xrange) and its model: x holds the PEs of this PE's
 * row (same y), numbered by x; y those of its column, numbered by y. */
static inline void pe_team_split_2d(pe_team_t *x, pe_team_t *y, const pe_team_t *parent, int xrange)
{
    int n = parent->size, i, rc, xr = xrange < n ? xrange : n, px, py;

    snprintf(x->name, sizeof(x->name), "%.40s/2d(%d).x", parent->name, xrange);
    snprintf(y->name, sizeof(y->name), "%.40s/2d(%d).y", parent->name, xrange);
    x->owned = y->owned = 1;
    x->team = y->team = SHMEM_TEAM_INVALID;
    x->me = y->me = -1;
    x->size = y->size = 0;
    if (parent->me < 0)
        return;
    px = parent->me % xrange;
    py = parent->me / xrange;
    for (i = 0; i < xr && py * xrange + i < n; i++)
        x->world[x->size++] = parent->world[py * xrange + i];
    for (i = 0; i * xrange + px < n; i++)
        y->world[y->size++] = parent->world[i * xrange + px];
    x->me = px;
    y->me = py;
    x->team = y->team = (shmem_team_t)&x->team;
    rc = shmem_team_split_2d(parent->team, xrange, NULL, 0, &x->team, NULL, 0, &y->team);
    PE_CHECK(rc == 0, "%s: split_2d returned %d, expected 0", x->name, rc);
    if (rc != 0) {
        x->me = y->me = -1;
        x->team = y->team = SHMEM_TEAM_INVALID;
        return;
    }
    pe_team_check(x);
    pe_team_check(y);
}

static inline void pe_team_free(pe_team_t *t)
{
    if (t->owned && t->team != SHMEM_TEAM_INVALID)
        shmem_team_destroy(t->team);
    t->team = SHMEM_TEAM_INVALID;
    t->me = -1;
}

/* The model of SHMEM_TEAM_SHARED: the PEs of this node (by host name) in world
 * order when same-node peers are mapped; only this PE under SHOAL_TRANSPORT=ucx,
 * where none is. The first call is collective (pe_test_same_node). */
static inline void pe_team_shared(pe_team_t *t)
{
    int n = shmem_n_pes(), me = shmem_my_pe(), pe;

    snprintf(t->name, sizeof(t->name), "SHARED");
    t->team = SHMEM_TEAM_SHARED;
    t->owned = 0;
    t->size = 0;
    t->me = -1;
    for (pe = 0; pe < n; pe++) {
        if (!pe_test_same_node(pe) || (pe != me && !pe_test_transport_auto()))
            continue;
        if (pe == me)
            t->me = t->size;
        t->world[t->size++] = pe;
    }
}

/* Layouts for the collective tests: every PE is in exactly one team of the layout
 * and gets that one, so every PE runs each test at once, each on its own team. */
enum {
    PE_LAYOUT_WORLD,
    PE_LAYOUT_SHARED,
    PE_LAYOUT_HALVES,
    PE_LAYOUT_ROWS,
    PE_LAYOUT_COLS,
    PE_LAYOUT_REVERSED,
    PE_LAYOUT_COUNT
};

static inline void pe_team_layout(int layout, pe_team_t *mine)
{
    static pe_team_t world, other;
    int n = shmem_n_pes();

    pe_team_world(&world);
    switch (layout) {
    case PE_LAYOUT_WORLD:
        *mine = world;
        break;
    case PE_LAYOUT_SHARED:
        pe_team_shared(mine);
        pe_team_check(mine);
        break;
    case PE_LAYOUT_HALVES: /* even PEs, odd PEs */
        pe_team_split(mine, &world, 0, 2, (n + 1) / 2);
        other.team = SHMEM_TEAM_INVALID;
        other.me = -1;
        if (n > 1)
            pe_team_split(&other, &world, 1, 2, n / 2);
        if (mine->me < 0) {
            pe_team_t t = *mine;

            *mine = other;
            other = t;
        }
        pe_team_free(&other);
        break;
    case PE_LAYOUT_ROWS: /* 3 wide; a short last row, and single PEs at 4 */
    case PE_LAYOUT_COLS:
        if (layout == PE_LAYOUT_ROWS) {
            pe_team_split_2d(mine, &other, &world, 3);
        } else {
            pe_team_split_2d(&other, mine, &world, 3);
        }
        pe_team_free(&other);
        break;
    default: /* the world in reverse order */
        pe_team_split(mine, &world, n - 1, -1, n);
        break;
    }
}

#endif
