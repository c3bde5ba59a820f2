/* The argument fuzzer's shared state: one random stream that every PE draws alike,
 * the objects arguments point at, and the draws that pick each argument from its
 * valid and invalid ranges. Every draw must be made on every PE, in the same order,
 * whatever the PE then does: the PEs agree on each call only through the stream. */
#ifndef FUZZ_H
#define FUZZ_H

#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of each target object: remote ranges, collectives' arrays, ivars, locks. */
#define FZ_OBJ 1024
/* Bytes of each local buffer: more than any range a valid remote range implies
 * (FZ_OBJ times the largest valid local stride, 4), so a local overrun, which no
 * library can see, never happens. */
#define FZ_LOCAL (16 * 1024)
#define FZ_MAX_STRIDE 4

/* The roles a symmetric argument plays; each has its own object on the heap and in
 * global data, so that no call disturbs what another relies on (a wait's ivars are
 * never a put's target, or it could wait forever). */
enum {
    FZ_RMA,   /* put/get targets */
    FZ_AMO,   /* atomic targets */
    FZ_IVARS, /* wait/test ivars: written by this PE only */
    FZ_SIG,   /* put-with-signal sig_addr */
    FZ_SIGW,  /* signal_fetch/signal_wait_until: written by this PE only */
    FZ_LOCK,  /* lock words */
    FZ_CSRC,  /* collective sources */
    FZ_CDST,  /* collective destinations */
    FZ_PSYNC, /* pSync arrays of the active-set collectives, one per call */
    FZ_NROLES
};

/* A drawn symmetric address: where it points, how many bytes from there belong to
 * its object (0 when it is no object of ours), and whether a range that runs past
 * those bytes is diagnosable (a heap block under SHOAL_CHECK=1); when it is not,
 * the size draws never make one (see fz_draw_count). */
typedef struct {
    void *p;
    size_t room;
    int pastable;
    int writable;   /* this PE may store into room bytes at p (to set up ivars) */
    int bad;        /* not symmetric (or freed, drawn only under SHOAL_CHECK=1) */
    int misaligned; /* not a multiple of its elem size */
} fz_addr_t;

extern int fz_me, fz_npes, fz_erring, fz_call_index;
extern int fz_check, fz_check_coll, fz_handles, fz_local_null;
extern int fz_bias; /* this run draws mostly valid arguments */

/* The stream: splitmix64 from the seed. */
void fz_seed(uint64_t seed);
uint64_t fz_rand(void);
unsigned fz_below(unsigned n);
int fz_chance(unsigned percent);

/* The line that describes the call being drawn; printed before it is made. */
void fz_desc_reset(const char *routine);
void fz_desc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *fz_desc_routine(void);
void fz_desc_print(const char *who);

/* The oracle: a call made with an argument the library must reject (always, not
 * only on some path) is expected to end the job. fz_expect records the first
 * reason; fz_desc_print shows it; fz_returned, after the call, reports a call that
 * returned anyway ("MISSED", exit 98). Handles under FUZZ_HANDLES set none (the
 * library may diagnose them or fail the call: either is fine). */
void fz_expect(int cond, const char *why);
void fz_returned(void);
/* For routines that report a failure instead (a return code, NULL): when cond,
 * the call must have failed. */
void fz_must_fail(int cond, int failed, const char *why);

/* Draws. Each appends "name=value" to the description. fz_draw_count sets
 * fz_count_bad when it drew a count past the object (diagnosable) or huge. */
extern int fz_count_bad;
fz_addr_t fz_draw_sym(const char *name, int role, size_t elem, int amo);
void *fz_draw_local(const char *name, int aligned);
size_t fz_draw_count(const char *name, size_t max_fit, int pastable);
ptrdiff_t fz_draw_stride(const char *name, int remote);
int fz_draw_pe(const char *name, int n);
int fz_draw_cmp(const char *name);
shmem_team_t fz_draw_team(const char *name);
shmem_ctx_t fz_draw_ctx(const char *name, int *n_out);
int fz_pick_int(const char *name, const int *vals, unsigned n);

/* The largest count of elem-byte elements, stride apart, that fits in room. */
size_t fz_fit(size_t room, size_t elem, ptrdiff_t stride, size_t mult);

/* The typed routines of the API table (fuzz_typed.c). */
int fz_typed_families(void);
size_t fz_typed_family_rows(int family);
void fz_typed_call(int family);

/* The objects (fuzz_draw.c): fz_objects_init is collective. */
extern void *fz_heap_obj[FZ_NROLES];
extern void *fz_freed_block;
extern char *fz_stack_buf;
void fz_objects_init(char *stack_buf);

/* The last drawn team: its PE count, and whether this PE is outside it (and so,
 * calling as the spec wants, makes no call on it). */
extern int fz_team_n, fz_team_skip;
/* Whether the last drawn team or context is a destroyed or garbage handle. */
extern int fz_handle_gated;
void fz_team_forget_drawn(void);
void fz_ctx_forget(shmem_ctx_t ctx);

/* Whether this PE makes a one-sided call (the erring PE alone, or every PE); who
 * says which, for the description. */
extern char fz_who[64];
int fz_draw_callers(void);

/* An active set: valid ones (this PE may be outside: *skip) or invalid ones (1). */
int fz_draw_aset(int *start, int *log_stride, int *size, int *n, int *skip);

/* Hand-written families (fuzz_args.c). */
int fz_hand_families(void);
void fz_hand_call(int family);

#endif
