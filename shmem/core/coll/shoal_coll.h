/* Teams, PE sets and the collectives that run on them, in bytes. A PE set is
 * the PEs a collective spans (a team, or a deprecated active set) plus the
 * symmetric counters it synchronises on: a team's slot, or the user's pSync.
 * The collectives stand on the engine; the engine never calls them. */
#ifndef SHOAL_COLL_H
#define SHOAL_COLL_H

#include <stddef.h>
#include <stdint.h>
#include "shoal_handle.h"
#include "shoal_red.h"
#include "shoal_status.h"

/* Counters: 32 for barriers, 32 for the algorithms' own hand-offs, then scratch. */
#define SHOAL_SYNC_FLAGS 64
#define SHOAL_SYNC_ALGO 32
#define SHOAL_SYNC_SCRATCH 8
/* Tree and recursive-doubling rounds each have a counter (shoal_coll_impl.h): 27 rounds. */
#define SHOAL_COLL_MAX_PES (1 << 27)
/* A team slot also holds, after the scratch, a staging area for small broadcasts
 * on one node and one "staged" counter per possible root (see coll_bcast.c). */
#define SHOAL_STAGE_ROOTS 32
#define SHOAL_STAGE_BYTES 4096
/* A broadcast of up to SHOAL_STAGE_SLOT_MAX bytes stages in a slot of the area:
 * its size rounded up to a power of two, at least SHOAL_STAGE_SLOT_MIN, so that
 * the area holds SHOAL_STAGE_BYTES / that many slots, used in turn: the root may
 * run up to that many calls ahead of its slowest reader (coll_bcast.c). */
#define SHOAL_STAGE_SLOT_MIN 16
#define SHOAL_STAGE_SLOT_MAX 512
#define SHOAL_STAGE_SLOTS_MAX (SHOAL_STAGE_BYTES / SHOAL_STAGE_SLOT_MIN)
/* The staging area's size: a team on one node stages up to SHOAL_STAGE_BYTES at
 * its start; a team that spans nodes divides all of it into regions (coll_bcast.c),
 * 4 KiB a member at 4 PEs, each two slots used in turn, so that 1 KiB and its
 * trailer fit a slot. */
#define SHOAL_STAGE_AREA 16384
/* Then an exchange area, where members that all push to each other (a small
 * reduction across nodes) each own two slots, used in turn (coll_xchg.c). */
#define SHOAL_XCHG_BYTES 16384

/* A team that spans nodes, grouped by node (coll_hier.c): the members on this
 * PE's node, the first of them its leader, and one leader per node. The small
 * barrier, broadcast and reduction combine a node's members by load/store, and
 * only leaders go between nodes. Made on a team's first collective. */
typedef struct shoal_hier {
    int known;    /* the fields below are set; used is whether they apply */
    int used;     /* the team spans two nodes or more, and one has two members */
    int nlocal;   /* members on this node, this PE included */
    int nleaders; /* nodes */
    int rank;     /* this node's place among the leaders */
    int *local;   /* [nlocal] their set indices, ascending: local[0] leads */
    int *leaders; /* [nleaders] each node's leader, ascending */
} shoal_hier_t;

typedef struct shoal_pset {
    int size;
    int me;    /* the calling PE's index, -1 when it is not a member */
    int start; /* world PE of index i: start + i * stride ... */
    int stride;
    const int *pes; /* ... or pes[i] when not NULL */
    int sync_seg;   /* where the counters are, and the bytes between two */
    size_t sync_off;
    size_t sync_stride;
    /* Teams only (0 and NULL for an active set): where the staged counters and
     * the staging area start (see coll_bcast.c). */
    size_t stage_off;
    /* Teams only: this PE's staged broadcasts as root (stage_sent[0]), the slot
     * size of the last one (stage_sent[1], 0: none yet) and how many of them
     * every reader is known to have finished (stage_sent[2]); and how many it
     * took from each root (stage_got) */
    unsigned *stage_sent, *stage_got;
    unsigned *exchanges; /* teams only: exchanges this PE has made (coll_xchg.c) */
    /* teams only: region pushes to each member, and taken from each (coll_bcast.c) */
    unsigned *region_sent, *region_got;
    shoal_hier_t *hier; /* teams only (NULL for an active set) */
    const char *name;   /* the predefined teams' names in hang reports, else NULL */
} shoal_pset_t;

static inline int shoal_pset_pe(const shoal_pset_t *ps, int i)
{
    return ps->pes != NULL ? ps->pes[i] : ps->start + i * ps->stride;
}

static inline size_t shoal_pset_flag(const shoal_pset_t *ps, int i)
{
    return ps->sync_off + (size_t)i * ps->sync_stride;
}

/* Scratch word i: a PE writes only its own; others read it between barriers. */
static inline size_t shoal_pset_scratch(const shoal_pset_t *ps, int i)
{
    return ps->sync_off + (size_t)SHOAL_SYNC_FLAGS * ps->sync_stride + (size_t)i * 8;
}

typedef struct shoal_team {
    shoal_pset_t pset;
    int slot;         /* its counters in the internal symmetric area */
    int *pes;         /* owned copy of pset.pes, or NULL when strided */
    int *index_of;    /* world PE -> team index, -1 outside; NULL when strided */
    int num_contexts; /* contexts it may have at once, from its configuration;
                       * SHOAL_TEAM_CTX_ANY when none was asked (no mask bit) */
    int predefined;
    unsigned stage_sent[3], stage_got[SHOAL_STAGE_ROOTS]; /* pset.stage_* point here */
    unsigned exchanges;                                   /* pset.exchanges points here */
    unsigned region_sent[SHOAL_STAGE_ROOTS], region_got[SHOAL_STAGE_ROOTS]; /* and these */
    shoal_hier_t hier; /* pset.hier points here */
    uintptr_t handle;  /* what the program holds: see shoal_handle.h */
} shoal_team_t;

/* num_contexts of a team made without SHMEM_TEAM_NUM_CONTEXTS in its mask, and
 * of the predefined teams: only SHOAL_CTX_MAX limits their contexts. */
#define SHOAL_TEAM_CTX_ANY (-1)

extern shoal_team_t shoal_team_world, shoal_team_shared;

/* The team index of world PE pe, or -1. */
static inline int shoal_team_index(const shoal_team_t *t, int pe)
{
    const shoal_pset_t *ps = &t->pset;
    int d;

    if (t->index_of != NULL)
        return t->index_of[pe];
    d = pe - ps->start;
    if (d < 0 || d % ps->stride != 0 || d / ps->stride >= ps->size)
        return -1;
    return d / ps->stride;
}

/* team.c */
shoal_status_t shoal_team_setup(int local_size);
void shoal_team_cleanup(void);
/* Makes the teams of a split: want[k] lists parent indices of new team k (this
 * PE's), n[k] their count (0: none for this PE). All parent members call it with
 * the same count of teams; returns SHOAL_OK and fills out[k] (NULL where this PE
 * is in none), or SHOAL_ERR_NO_RESOURCE when no slot was free (out[] all NULL, on
 * every member). */
shoal_status_t shoal_team_split(shoal_team_t *parent, int nteams, int *const *want, const int *n,
                                const int *num_contexts, shoal_team_t **out, const char *routine);
void shoal_team_destroy(shoal_team_t *team);
/* The team a program's handle names, or NULL and why. */
shoal_team_t *shoal_team_find(uintptr_t handle, shoal_handle_state_t *state_out);
/* The AND of value over every member of team (a collective over it). */
uint64_t shoal_team_and(shoal_team_t *team, uint64_t value, const char *routine);
/* Bytes of a team slot: counters, scratch, staged counters, staging area. */
size_t shoal_team_slot_bytes(void);

/* coll_*.c: every PE of ps calls these with the same arguments (sizes in bytes;
 * seg/off name symmetric buffers). */
void shoal_coll_barrier(const shoal_pset_t *ps, int complete_puts, const char *routine);
/* The same, for a barrier the program called (shmem_barrier_all, shmem_sync_all,
 * shmem_team_sync, shmem_barrier, shmem_sync): see coll_barrier.c. */
void shoal_coll_barrier_program(const shoal_pset_t *ps, int complete_puts, const char *routine);
/* This PE leaves (by shmem_finalize, by exit without it, or failing with its
 * error line printed): its peers' waits in collectives that need it then end
 * the job instead of hanging, or, for a failed PE, wait for the launcher to end
 * it without a second line. After a quiet. */
typedef enum {
    SHOAL_LEFT_FINALIZE = 1,
    SHOAL_LEFT_EXIT = 2,
    SHOAL_LEFT_FAILED = 3
} shoal_coll_left_t;
void shoal_coll_mark_left(shoal_coll_left_t why);
void shoal_coll_broadcast(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                          size_t bytes, int root, int root_too, const char *routine);
void shoal_coll_collect(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                        size_t bytes, int fixed, const char *routine);
void shoal_coll_alltoalls(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem_size,
                          const char *routine);
/* Waits until every reader of this PE's last staged broadcast on ps is done, so
 * that its counters and staging area may be reused (a team being destroyed). */
void shoal_coll_stage_drain(const shoal_pset_t *ps, const char *routine);
/* The same for the regions (a team that spans nodes): waits until every member
 * has acknowledged every push of this PE, so that no acknowledgement lands in the
 * slot after the team's end. */
void shoal_coll_region_drain(const shoal_pset_t *ps, const char *routine);
/* Zeroes this PE's staging and exchange areas of a team's slot (coll_xchg.c),
 * at the team's end: the next team in the slot numbers its pushes from 1 again. */
void shoal_coll_slots_clear(const shoal_pset_t *ps);
void shoal_coll_reduce(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                       size_t count, shoal_red_op_t op, shoal_dt_t dt, size_t elem_size,
                       const char *routine);

/* Frees the calling thread's reduction buffers (other threads' go at their end). */
void shoal_coll_scratch_cleanup(void);
/* Prefix sums in index order: dest of index i gets the sum of the sources of
 * indices 0..i (0..i-1 with exclusive; zero on index 0). */
void shoal_coll_scan(const shoal_pset_t *ps, int dseg, size_t doff, int sseg, size_t soff,
                     size_t count, int exclusive, shoal_dt_t dt, size_t elem_size,
                     const char *routine);

/* SHOAL_CHECK_COLL: ends the job with one line when this PE's routine or one
 * of its n (at most SHOAL_CHECK_VALS) named values differs from index 0's. Bit
 * i of objects says that value i is a symmetric object (shoal_coll_check_object),
 * which every member must pass the same, and which the line names as a segment
 * and an offset. */
#define SHOAL_CHECK_VALS 5
void shoal_coll_check(const shoal_pset_t *ps, const char *routine, const uint64_t *vals,
                      const char *const *names, int n, unsigned objects);

/* A symmetric object as shoal_coll_check compares it: its segment above bit
 * SHOAL_CHECK_SEG_SHIFT, its offset below (the segments are far smaller). */
#define SHOAL_CHECK_SEG_SHIFT 56
static inline uint64_t shoal_coll_check_object(int seg, size_t off)
{
    return (uint64_t)seg << SHOAL_CHECK_SEG_SHIFT | (uint64_t)off;
}

/* reduce.c: inout[i] = inout[i] op in[i] for count elements. Returns SHOAL_OK, or
 * SHOAL_ERR_INVALID_ARG when op does not apply to dt/elem_size. */
shoal_status_t shoal_reduce_combine(void *inout, const void *in, size_t count, shoal_red_op_t op,
                                    shoal_dt_t dt, size_t elem_size);

#endif
