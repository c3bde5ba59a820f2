/* The GPU library's host-side logic, on the CPU (no GPU, no launcher): the device
 * address check (shoal_dev_translate, the same code the kernels run) and the
 * line the host prints for each device error record. */
#include "shoal_gpu.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n");                                                         \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

/* The heap of this PE at 0x10000 (64 KiB), PE 1 mapped elsewhere, PE 2 not mapped. */
#define HEAP 0x10000ul
#define HEAP_SIZE 0x10000ul
#define GHEAP 0x40000ul

static void test_translate(void)
{
    static char *const peers[3] = {(char *)HEAP, (char *)0x7f0000000000ul, NULL};
    shoal_dev_state_t s;
    int err;

    memset(&s, 0, sizeof(s));
    s.my_pe = 0;
    s.n_pes = 3;
    s.heap_base = HEAP;
    s.heap_size = HEAP_SIZE;
    s.peer_heap = peers;

    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + 8), 8, 0, SHOAL_DEV_ERR_DEST, &err) ==
              (char *)HEAP + 8,
          "own heap");
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + 8), 8, 1, SHOAL_DEV_ERR_DEST, &err) ==
              (char *)0x7f0000000008ul,
          "peer heap: base + offset");
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + HEAP_SIZE - 4), 4, 1, SHOAL_DEV_ERR_DEST,
                              &err) != NULL,
          "the last 4 bytes");
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + HEAP_SIZE - 4), 8, 1, SHOAL_DEV_ERR_SOURCE,
                              &err) == NULL &&
              err == SHOAL_DEV_ERR_SOURCE,
          "runs past the end: err %d", err);
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(HEAP - 1), 1, 1, SHOAL_DEV_ERR_IVARS, &err) == NULL &&
              err == SHOAL_DEV_ERR_IVARS,
          "below the heap: err %d", err);
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + 8), 8, 2, SHOAL_DEV_ERR_DEST, &err) == NULL &&
              err == SHOAL_DEV_ERR_PE_UNREACHABLE,
          "PE 2 is not mapped: err %d", err);
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + 8), 8, 3, SHOAL_DEV_ERR_DEST, &err) == NULL &&
              err == SHOAL_DEV_ERR_PE_RANGE,
          "PE 3 is out of range: err %d", err);
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + 8), 8, -1, SHOAL_DEV_ERR_DEST, &err) == NULL &&
              err == SHOAL_DEV_ERR_PE_RANGE,
          "PE -1 is out of range: err %d", err);
    /* The GPU heap at 0x40000 (64 KiB): PE 1's mapped elsewhere, PE 2's not. */
    static char *const gpeers[3] = {(char *)GHEAP, (char *)0x7e0000000000ul, NULL};
    s.gheap_base = GHEAP;
    s.gheap_size = HEAP_SIZE;
    s.peer_gheap = gpeers;
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(GHEAP + 16), 8, 1, SHOAL_DEV_ERR_DEST, &err) ==
              (char *)0x7e0000000010ul,
          "peer GPU heap: base + offset");
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + 8), 8, 1, SHOAL_DEV_ERR_DEST, &err) ==
              (char *)0x7f0000000008ul,
          "the host heap as before, with a GPU heap");
    CHECK(shoal_dev_in_gheap(&s, (void *)(GHEAP + HEAP_SIZE - 1)) &&
              !shoal_dev_in_gheap(&s, (void *)(HEAP + 8)),
          "in the GPU heap");
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(GHEAP + 8), 8, 2, SHOAL_DEV_ERR_DEST, &err) == NULL &&
              err == SHOAL_DEV_ERR_GHEAP_UNREACHABLE,
          "PE 2's GPU heap is not mapped: err %d", err);
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(GHEAP + HEAP_SIZE - 4), 8, 0, SHOAL_DEV_ERR_SOURCE,
                              &err) == NULL &&
              err == SHOAL_DEV_ERR_SOURCE,
          "runs past the end of the GPU heap: err %d", err);
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + HEAP_SIZE), 8, 0, SHOAL_DEV_ERR_DEST, &err) ==
              NULL && err == SHOAL_DEV_ERR_DEST,
          "between the heaps: err %d", err);
    s.n_pes = 0; /* a GPU shmem_init did not set up */
    err = 0;
    CHECK(shoal_dev_translate(&s, (void *)(HEAP + 8), 8, 0, SHOAL_DEV_ERR_DEST, &err) == NULL &&
              err == SHOAL_DEV_ERR_PE_RANGE,
          "not set up: err %d", err);
}

/* The line for (code, value) from routine must match the extended regex. */
static void expect_line(const char *routine, int code, long long value, const char *pattern)
{
    shoal_dev_status_t st;
    char line[512];
    regex_t re;

    memset(&st, 0, sizeof(st));
    /* as the device copies it: a name that fills the record has no NUL */
    memcpy(st.routine, routine, strlen(routine) < sizeof(st.routine) ? strlen(routine)
                                                                      : sizeof(st.routine));
    st.code = code;
    st.pe = 1;
    st.value = value;
    shoal_gpu_status_format(&st, HEAP, HEAP_SIZE, 4, line, sizeof(line));
    if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0) {
        CHECK(0, "bad pattern %s", pattern);
        return;
    }
    CHECK(regexec(&re, line, 0, NULL, 0) == 0, "code %d: the line\n  %s\ndoes not match\n  %s",
          code, line, pattern);
    regfree(&re);
}

#define HEX "0x[0-9a-f]+"

static void test_lines(void)
{
    expect_line("nvshmem_int_p", SHOAL_DEV_ERR_PE_UNREACHABLE, 5,
                "^nvshmem_int_p \\(device\\): argument pe is 5, which this GPU cannot reach "
                "\\(its heap is not mapped on this node, and SHOAL_GPU_PROXY=none turned off "
                "the host proxy that reaches such PEs\\)$");
    expect_line("nvshmem_int_p", SHOAL_DEV_ERR_PE_RANGE, 7,
                "^nvshmem_int_p \\(device\\): argument pe is 7, valid range 0\\.\\.3$");
    expect_line("nvshmem_int_put", SHOAL_DEV_ERR_DEST, 0x100,
                "^nvshmem_int_put \\(device\\): argument dest is 0x100, which is not in the "
                "symmetric heap \\(0x10000\\.\\.0x20000\\) nor in the GPU symmetric heap, the "
                "only symmetric memory kernels can reach; allocate it with nvshmem_malloc or "
                "shmem_malloc$");
    expect_line("nvshmem_int_p", SHOAL_DEV_ERR_GHEAP_UNREACHABLE, 3,
                "^nvshmem_int_p \\(device\\): argument pe is 3, whose GPU symmetric heap this "
                "GPU cannot reach \\(not mapped here: another node, or a GPU without peer "
                "access; and SHOAL_GPU_PROXY=none turned off the host proxy that reaches "
                "it\\)$");
    expect_line("nvshmem_int_get", SHOAL_DEV_ERR_SOURCE, HEAP + HEAP_SIZE - 4,
                "^nvshmem_int_get \\(device\\): argument source is 0x1fffc, and the access runs "
                "past the end of the symmetric heap \\(0x10000\\.\\.0x20000\\)$");
    expect_line("nvshmem_long_wait_until", SHOAL_DEV_ERR_IVAR, 8,
                "^nvshmem_long_wait_until \\(device\\): argument ivar is 0x8, which is not in");
    expect_line("nvshmem_long_wait_until_all", SHOAL_DEV_ERR_IVARS, 8,
                "^nvshmem_long_wait_until_all \\(device\\): argument ivars is 0x8, which is not");
    expect_line("nvshmem_signal_wait_until", SHOAL_DEV_ERR_SIG_ADDR, 8,
                "^nvshmem_signal_wait_until \\(device\\): argument sig_addr is 0x8, which is not");
    expect_line("nvshmem_long_atomic_add", SHOAL_DEV_ERR_ALIGN_DEST, HEAP + 4,
                "^nvshmem_long_atomic_add \\(device\\): argument dest is 0x10004, not aligned "
                "to the size of its type$");
    expect_line("nvshmem_int_wait_until", SHOAL_DEV_ERR_ALIGN_IVAR, HEAP + 2,
                "^nvshmem_int_wait_until \\(device\\): argument ivar is 0x10002, not aligned");
    expect_line("nvshmem_int_wait_until_any", SHOAL_DEV_ERR_ALIGN_IVARS, HEAP + 2,
                "^nvshmem_int_wait_until_any \\(device\\): argument ivars is 0x10002, not");
    expect_line("nvshmem_signal_fetch", SHOAL_DEV_ERR_ALIGN_SIG_ADDR, HEAP + 4,
                "^nvshmem_signal_fetch \\(device\\): argument sig_addr is 0x10004, not aligned");
    expect_line("nvshmem_int_wait_until", SHOAL_DEV_ERR_CMP, 99,
                "^nvshmem_int_wait_until \\(device\\): argument cmp is 99, expected one of "
                "NVSHMEM_CMP_EQ, NVSHMEM_CMP_NE, NVSHMEM_CMP_GT, NVSHMEM_CMP_LE, "
                "NVSHMEM_CMP_LT, NVSHMEM_CMP_GE$");
    expect_line("nvshmem_int_wait_until_some", SHOAL_DEV_ERR_INDICES, 4,
                "^nvshmem_int_wait_until_some \\(device\\): argument indices is NULL, expected "
                "an array of nelems \\(4\\) size_t$");
    expect_line("nvshmem_int_wait_until_all_vector", SHOAL_DEV_ERR_CMP_VALUES, 4,
                "^nvshmem_int_wait_until_all_vector \\(device\\): argument cmp_values is NULL, "
                "expected nelems \\(4\\) values$");
    expect_line("nvshmem_int_test_all", SHOAL_DEV_ERR_NELEMS, 1LL << 62,
                "^nvshmem_int_test_all \\(device\\): argument nelems is 4611686018427387904, "
                "too large");
    expect_line("nvshmem_int_p", SHOAL_DEV_ERR_SIZE, 3, "element size 3 has no case");
    expect_line("nvshmem_int_atomic_add", SHOAL_DEV_ERR_OP, 42, "atomic operation 42 has no case");
    expect_line("nvshmem_putmem_signal", SHOAL_DEV_ERR_SIG_OP, 7,
                "^nvshmem_putmem_signal \\(device\\): argument sig_op is 7, expected "
                "NVSHMEM_SIGNAL_SET or NVSHMEM_SIGNAL_ADD$");
    expect_line("nvshmem_barrier_all", SHOAL_DEV_ERR_PE_UNMAPPED, 0,
                "^nvshmem_barrier_all \\(device\\): PE 0 is out of this GPU's reach \\(its "
                "heap is not mapped on this node, and SHOAL_GPU_PROXY=none turned off the host "
                "proxy\\), and the routine involves every PE$");
    expect_line("nvshmem_team_my_pe", SHOAL_DEV_ERR_TEAM, 5,
                "^nvshmem_team_my_pe \\(device\\): argument team is 5, which names no team "
                "here \\(expected a predefined team, or one that nvshmem_team_split_strided or "
                "nvshmem_team_split_2d made on this PE and nvshmem_team_destroy has not "
                "ended\\)$");
    expect_line("nvshmem_barrier", SHOAL_DEV_ERR_TEAM_IRREGULAR, 1,
                "^nvshmem_barrier \\(device\\): argument team is 1, whose PEs are not evenly "
                "spaced in NVSHMEM_TEAM_WORLD; the device collectives and translation need a "
                "team that a split made$");
    expect_line("nvshmem_int_broadcast", SHOAL_DEV_ERR_ROOT, (4LL << 32) | 7,
                "^nvshmem_int_broadcast \\(device\\): argument PE_root is 7, valid range "
                "0\\.\\.3$");
    expect_line("nvshmem_int_broadcast", SHOAL_DEV_ERR_ROOT, (4LL << 32) | 0xffffffffLL,
                "^nvshmem_int_broadcast \\(device\\): argument PE_root is -1, valid range "
                "0\\.\\.3$");
    expect_line("nvshmem_int_sum_reduce", SHOAL_DEV_ERR_NREDUCE, 1LL << 62,
                "^nvshmem_int_sum_reduce \\(device\\): argument nreduce is "
                "4611686018427387904, too large");
    expect_line("nvshmem_int_sum_reduce", SHOAL_DEV_ERR_RED_OP, 9, "reduction 9 has no case");
    expect_line("nvshmem_int_p", 999, 1, "^nvshmem_int_p \\(device\\): unknown device error 999");
    /* A routine name that fills the record is cut, never read past. */
    expect_line("nvshmem_a_routine_name_of_sixty_four_characters_or_more_xxxxxxxxxxxxxxxx",
                SHOAL_DEV_ERR_PE_RANGE, 9, "^nvshmem_a_routine_name_of_sixty_four_[a-z_]* "
                                           "\\(device\\): argument pe is 9");
}

int main(void)
{
    test_translate();
    test_lines();
    if (failures == 0)
        printf("gpu_status: every check passed\n");
    return failures == 0 ? 0 : 99;
}
