/* Put-with-signal: a producer/consumer ring. PE i sends numbered messages to PE
 * i+1 through a window of WINDOW slots and waits for acknowledgements (themselves
 * put_signal with SHMEM_SIGNAL_ADD) before reusing a slot; the consumer waits with
 * shmem_signal_wait_until and checks every payload element, so a lost, reordered
 * or overwritten message fails. Signals by SHMEM_SIGNAL_SET (the sequence number,
 * one signal per slot; and one signal for all, ordered by shmem_fence) and by
 * SHMEM_SIGNAL_ADD (a count). 10000 messages (SIGNAL_MSGS) for the main runs
 * (typed, putmem, nbi), fewer for each of the other forms: every typed name and
 * the C11 generic ones, the sized forms, putmem, all blocking and _nbi; and a
 * consumer that polls shmem_signal_fetch instead of waiting. */
#include "pe_test.h"
#include "shoal_types.h"

#include <stdint.h>

#define WINDOW 8
#define DEFAULT_MSGS 10000
#define FORM_MSGS 64 /* per form in the sweeps over every name */

static int me, npes, left, right;

/* One way of sending: element size, how to fill and check elements, the routine. */
typedef void send_fn(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                     uint64_t signal, int sig_op, int pe);
typedef struct chan {
    const char *name;
    size_t size;
    void (*store)(void *arr, size_t i, long long v);
    int (*equals)(const void *arr, size_t i, long long v);
    send_fn *send;
    int nbi;
} chan_t;

#define DEFINE_CHAN_TYPE(T, NAME)                                                                  \
    static void store_##NAME(void *arr, size_t i, long long v)                                     \
    {                                                                                              \
        ((T *)arr)[i] = (T)v;                                                                      \
    }                                                                                              \
    static int equals_##NAME(const void *arr, size_t i, long long v)                               \
    {                                                                                              \
        return ((const T *)arr)[i] == (T)v;                                                        \
    }
#define DEFINE_SENDS(T, NAME)                                                                      \
    DEFINE_CHAN_TYPE(T, NAME)                                                                      \
    static void send_##NAME(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,   \
                            int pe)                                                                \
    {                                                                                              \
        shmem_##NAME##_put_signal((T *)d, (const T *)s, n, sig, v, op, pe);                        \
    }                                                                                              \
    static void send_nbi_##NAME(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,       \
                                int op, int pe)                                                    \
    {                                                                                              \
        shmem_##NAME##_put_signal_nbi((T *)d, (const T *)s, n, sig, v, op, pe);                    \
    }                                                                                              \
    static void gsend_##NAME(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,  \
                             int pe)                                                               \
    {                                                                                              \
        shmem_put_signal((T *)d, (const T *)s, n, sig, v, op, pe);                                 \
    }                                                                                              \
    static void gsend_nbi_##NAME(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,      \
                                 int op, int pe)                                                   \
    {                                                                                              \
        shmem_put_signal_nbi((T *)d, (const T *)s, n, sig, v, op, pe);                             \
    }
SHOAL_SIGNAL_TYPES(DEFINE_SENDS)

static const chan_t typed_chans[][4] = {
#define CHAN_ENTRY(T, NAME)                                                                        \
    {{"shmem_" #NAME "_put_signal", sizeof(T), store_##NAME, equals_##NAME, send_##NAME, 0},       \
     {"shmem_" #NAME "_put_signal_nbi", sizeof(T), store_##NAME, equals_##NAME, send_nbi_##NAME,   \
      1},                                                                                          \
     {"shmem_put_signal (" #NAME ")", sizeof(T), store_##NAME, equals_##NAME, gsend_##NAME, 0},    \
     {"shmem_put_signal_nbi (" #NAME ")", sizeof(T), store_##NAME, equals_##NAME,                  \
      gsend_nbi_##NAME, 1}},
    SHOAL_SIGNAL_TYPES(CHAN_ENTRY)
#undef CHAN_ENTRY
};

/* The sized forms, through an unsigned type of each width; mem is bytes. */
typedef uint8_t sized8_t;
typedef uint16_t sized16_t;
typedef uint32_t sized32_t;
typedef uint64_t sized64_t;
__extension__ typedef unsigned __int128 sized128_t;
typedef unsigned char sizedmem_t;
#define DEFINE_SIZED(SIZE, BYTES) DEFINE_CHAN_TYPE(sized##SIZE##_t, sized##SIZE)
SHOAL_RMA_SIZES(DEFINE_SIZED)
DEFINE_CHAN_TYPE(sizedmem_t, sizedmem)
static const chan_t sized_chans[][2] = {
#define SIZED_ENTRY(SIZE, BYTES)                                                                   \
    {{"shmem_put" #SIZE "_signal", BYTES, store_sized##SIZE, equals_sized##SIZE,                   \
      shmem_put##SIZE##_signal, 0},                                                                \
     {"shmem_put" #SIZE "_signal_nbi", BYTES, store_sized##SIZE, equals_sized##SIZE,               \
      shmem_put##SIZE##_signal_nbi, 1}},
    SHOAL_RMA_SIZES(SIZED_ENTRY)
#undef SIZED_ENTRY
        {{"shmem_putmem_signal", 1, store_sizedmem, equals_sizedmem, shmem_putmem_signal, 0},
         {"shmem_putmem_signal_nbi", 1, store_sizedmem, equals_sizedmem, shmem_putmem_signal_nbi,
          1}},
};

/* How the consumer learns of message seq. */
enum {
    S_SET_SLOT,  /* SET seq into the slot's own signal: exactly seq when it comes */
    S_ADD,       /* ADD 1 to one counter: between seq and seq + WINDOW - 1 */
    S_SET_FENCE, /* SET seq into one signal, shmem_fence between messages */
};
static const char *const mode_names[] = {"SET per slot", "ADD", "SET + fence"};

/* Element j of message seq from PE src: exact in every type, and different from
 * the message WINDOW earlier in the same slot. */
static long long msg_val(int src, long seq, size_t j, size_t size)
{
    return 1 + (src * 31 + seq * 7 + (long)j * 3) % 120 + (size > 1 ? seq * 256 : 0);
}

/* Sends n messages of len elements around the ring through c, signalled by mode;
 * poll: the consumer polls shmem_signal_fetch instead of waiting. */
static void run_chain(const chan_t *c, int mode, long n, size_t len, int poll)
{
    size_t slot_bytes = len * c->size;
    char *data = shmem_calloc(WINDOW, slot_bytes);
    uint64_t *sigs = shmem_calloc(WINDOW + 2, sizeof(uint64_t)); /* ..., acks, ack data */
    uint64_t *acks = &sigs[WINDOW], *ack_data = &sigs[WINDOW + 1];
    char *src = malloc(WINDOW * slot_bytes);
    static const uint64_t one = 1;
    long seq, bad = 0;
    size_t j;

    PE_CHECK(data && sigs && src, "%s: buffers %p %p %p", c->name, (void *)data, (void *)sigs,
             (void *)src);
    if (!(data && sigs && src))
        return;
    for (seq = 1; seq <= n; seq++) {
        size_t slot = (size_t)(seq - 1) % WINDOW;
        uint64_t *sig = mode == S_SET_SLOT ? &sigs[slot] : &sigs[0], got, fetched;
        char *in = data + slot * slot_bytes, *out = src + slot * slot_bytes;

        /* Producer: the slot is free once the consumer acknowledged seq - WINDOW. */
        if (seq > WINDOW) {
            if (c->nbi)
                shmem_quiet(); /* before reusing an nbi source */
            (void)shmem_signal_wait_until(acks, SHMEM_CMP_GE, (uint64_t)(seq - WINDOW));
        }
        for (j = 0; j < len; j++)
            c->store(out, j, msg_val(me, seq, j, c->size));
        if (mode == S_SET_FENCE)
            shmem_fence();
        c->send(in, out, len, sig, mode == S_ADD ? 1 : (uint64_t)seq,
                mode == S_ADD ? SHMEM_SIGNAL_ADD : SHMEM_SIGNAL_SET, right);

        /* Consumer: message seq from the left. */
        if (poll) {
            time_t end = time(NULL) + 60;

            while ((got = shmem_signal_fetch(sig)) < (uint64_t)seq && time(NULL) < end)
                sched_yield();
        } else {
            got = shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)seq);
        }
        fetched = shmem_signal_fetch(sig);
        if (mode == S_SET_SLOT
                ? got != (uint64_t)seq || fetched != (uint64_t)seq
                : got < (uint64_t)seq || got > (uint64_t)(seq + WINDOW - 1) || fetched < got) {
            if (bad++ < 3)
                PE_CHECK(0, "%s, %s: message %ld from PE %d: signal %llu, then fetched %llu",
                         c->name, mode_names[mode], seq, left, (unsigned long long)got,
                         (unsigned long long)fetched);
        }
        for (j = 0; j < len; j++)
            if (!c->equals(in, j, msg_val(left, seq, j, c->size))) {
                if (bad++ < 3)
                    PE_CHECK(0,
                             "%s, %s: message %ld from PE %d: element %zu of %zu wrong "
                             "(lost, reordered or overwritten)",
                             c->name, mode_names[mode], seq, left, j, len);
                break;
            }
        /* Acknowledge: the slot may be reused. Alternately blocking and nbi. */
        if (seq % 2)
            shmem_uint64_put_signal(ack_data, &one, 1, acks, 1, SHMEM_SIGNAL_ADD, left);
        else
            shmem_putmem_signal_nbi(ack_data, &one, sizeof(one), acks, 1, SHMEM_SIGNAL_ADD, left);
    }
    shmem_quiet();
    shmem_barrier_all();
    PE_CHECK(*acks == (uint64_t)n, "%s, %s: %llu acknowledgements, expected %ld", c->name,
             mode_names[mode], (unsigned long long)*acks, n);
    if (mode == S_SET_SLOT)
        for (j = 0; j < WINDOW && (long)j < n; j++) {
            long last = n - (long)((n - 1 - (long)j) % WINDOW);

            PE_CHECK(sigs[j] == (uint64_t)last, "%s: slot %zu's signal is %llu, expected %ld",
                     c->name, j, (unsigned long long)sigs[j], last);
        }
    else
        PE_CHECK(sigs[0] == (uint64_t)n, "%s, %s: the signal is %llu, expected %ld", c->name,
                 mode_names[mode], (unsigned long long)sigs[0], n);
    free(src);
    shmem_free(sigs);
    shmem_free(data);
}

/* shmem_signal_fetch and single updates: SET then (fenced) ADD on a heap signal,
 * a global signal beside heap data, and nelems 0 (the signal alone). */
static uint64_t global_sig;

static void fetch_basics(void)
{
    uint64_t *sig = shmem_calloc(2, sizeof(uint64_t));
    static char dest[16];
    char src[16] = "fifteen bytes..";

    PE_CHECK(sig != NULL, "shmem_calloc is %p", (void *)sig);
    if (sig == NULL)
        return;
    PE_CHECK(shmem_signal_fetch(sig) == 0, "a new signal fetches as %llu",
             (unsigned long long)shmem_signal_fetch(sig));
    shmem_putmem_signal(dest, src, sizeof(src), &sig[1], 0xFEDCBA9876543210ull, SHMEM_SIGNAL_SET,
                        right);
    shmem_fence(); /* the SET lands before the ADD */
    shmem_putmem_signal(dest, src, sizeof(src), &sig[1], 5, SHMEM_SIGNAL_ADD, right);
    shmem_putmem_signal(sig, src, 0, &global_sig, 77, SHMEM_SIGNAL_SET, right);
    shmem_barrier_all();
    PE_CHECK(shmem_signal_fetch(&sig[1]) == 0xFEDCBA9876543215ull,
             "after SET 0xfedcba9876543210, fence, ADD 5 and a barrier, fetched %#llx",
             (unsigned long long)shmem_signal_fetch(&sig[1]));
    PE_CHECK(memcmp(dest, src, sizeof(src)) == 0, "putmem_signal data: '%.16s'", dest);
    PE_CHECK(shmem_signal_fetch(&global_sig) == 77 && sig[0] == 0,
             "putmem_signal of 0 bytes: global signal %llu (expected 77), heap word %llu "
             "(expected 0)",
             (unsigned long long)shmem_signal_fetch(&global_sig), (unsigned long long)sig[0]);
    shmem_barrier_all();
    shmem_free(sig);
}

static const chan_t *find_chan(const char *name)
{
    size_t t, f;

    for (t = 0; t < sizeof(typed_chans) / sizeof(typed_chans[0]); t++)
        for (f = 0; f < 4; f++)
            if (strcmp(typed_chans[t][f].name, name) == 0)
                return &typed_chans[t][f];
    for (t = 0; t < sizeof(sized_chans) / sizeof(sized_chans[0]); t++)
        for (f = 0; f < 2; f++)
            if (strcmp(sized_chans[t][f].name, name) == 0)
                return &sized_chans[t][f];
    fprintf(stderr, "pe_signal: no %s\n", name);
    abort();
}

int main(void)
{
    const char *env = getenv("SIGNAL_MSGS");
    long msgs = env != NULL && env[0] != '\0' ? atol(env) : DEFAULT_MSGS;
    size_t t, f;

    shmem_init();
    pe_test_watchdog();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    if (msgs < 1)
        msgs = 1;

    fetch_basics();
    /* The long runs: typed long by SET per slot, putmem (odd length) by ADD, typed
     * int nbi by SET + fence, and a consumer that polls signal_fetch. */
    run_chain(find_chan("shmem_long_put_signal"), S_SET_SLOT, msgs, 16, 0);
    run_chain(find_chan("shmem_putmem_signal"), S_ADD, msgs, 101, 0);
    run_chain(find_chan("shmem_int_put_signal_nbi"), S_SET_FENCE, msgs, 16, 0);
    run_chain(find_chan("shmem_uint64_put_signal"), S_SET_SLOT, msgs / 10 + 1, 4, 1);
    /* Every name: typed and generic, blocking and nbi, each signalling mode in turn. */
    for (t = 0; t < sizeof(typed_chans) / sizeof(typed_chans[0]); t++)
        for (f = 0; f < 4; f++)
            run_chain(&typed_chans[t][f], (int)((t + f) % 3), FORM_MSGS, 5, 0);
    for (t = 0; t < sizeof(sized_chans) / sizeof(sized_chans[0]); t++)
        for (f = 0; f < 2; f++)
            run_chain(&sized_chans[t][f], (int)((t + f) % 3), FORM_MSGS, 7, 0);
    return pe_test_finish("pe_signal");
}
