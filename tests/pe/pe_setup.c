/* Setup and query routines: PE identity, accessibility, shmem_ptr, version and
 * name. Must never assume which transport reaches a peer beyond what
 * SHOAL_TRANSPORT says. */
#include "pe_test.h"

static int global_var = 5;  /* data segment */
static long bss_var;        /* bss */
static int ring_cell;       /* written through shmem_ptr by the left neighbour */

static void check_identity(int me, int npes)
{
    PE_CHECK(npes >= 1, "n_pes is %d", npes);
    PE_CHECK(me >= 0 && me < npes, "my_pe is %d of %d", me, npes);
    PE_CHECK_EQ("_my_pe()", me, _my_pe());
    PE_CHECK_EQ("_num_pes()", npes, _num_pes());
}

static void check_pe_accessible(int npes)
{
    int pe;

    for (pe = 0; pe < npes; pe++)
        PE_CHECK_EQ("shmem_pe_accessible(valid pe)", 1, shmem_pe_accessible(pe));
    PE_CHECK_EQ("shmem_pe_accessible(-1)", 0, shmem_pe_accessible(-1));
    PE_CHECK_EQ("shmem_pe_accessible(n_pes)", 0, shmem_pe_accessible(npes));
    PE_CHECK_EQ("shmem_pe_accessible(n_pes + 7)", 0, shmem_pe_accessible(npes + 7));
}

static void check_addr_accessible(int npes, int *heap)
{
    int stack_var = 1, pe;

    for (pe = 0; pe < npes; pe++) {
        PE_CHECK_EQ("addr_accessible(heap)", 1, shmem_addr_accessible(heap, pe));
        PE_CHECK_EQ("addr_accessible(global)", 1, shmem_addr_accessible(&global_var, pe));
        PE_CHECK_EQ("addr_accessible(bss)", 1, shmem_addr_accessible(&bss_var, pe));
        PE_CHECK_EQ("addr_accessible(static)", 1, shmem_addr_accessible(&ring_cell, pe));
        PE_CHECK_EQ("addr_accessible(stack)", 0, shmem_addr_accessible(&stack_var, pe));
    }
    PE_CHECK_EQ("addr_accessible(heap, pe -1)", 0, shmem_addr_accessible(heap, -1));
    PE_CHECK_EQ("addr_accessible(heap, pe n_pes)", 0, shmem_addr_accessible(heap, npes));
    shmem_barrier_all(); /* keep stack_var alive until no PE could look at it */
}

/* Each PE writes its number into its right neighbour's cells through shmem_ptr. */
static void check_ptr(int me, int npes, int *heap)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes, stack_var = 0;
    int *rh = shmem_ptr(heap, right), *rs = shmem_ptr(&ring_cell, right);

    PE_CHECK(shmem_ptr(heap, me) == (void *)heap, "shmem_ptr(heap, me) is %p, heap is %p",
             shmem_ptr(heap, me), (void *)heap);
    PE_CHECK(shmem_ptr(&global_var, me) == (void *)&global_var,
             "shmem_ptr(&global_var, me) is %p, expected %p", shmem_ptr(&global_var, me),
             (void *)&global_var);
    PE_CHECK(shmem_ptr(&stack_var, me) == NULL, "shmem_ptr(stack) is %p, expected NULL",
             shmem_ptr(&stack_var, me));
    /* PEs that do not exist cannot be reached: NULL, as the spec says, not an error. */
    PE_CHECK(shmem_ptr(heap, -1) == NULL && shmem_ptr(heap, npes) == NULL, "%s",
             "shmem_ptr to PE -1 or n_pes is not NULL");
    PE_CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, npes) == NULL, "%s",
             "shmem_team_ptr to PE n_pes is not NULL");
    if (!pe_test_same_node(right)) {
        /* Another node: no load or store reaches it. */
        PE_CHECK(rh == NULL && rs == NULL,
                 "PE %d is on another node, but shmem_ptr(heap) is %p and shmem_ptr(static) %p",
                 right, (void *)rh, (void *)rs);
    } else if (right != me && !pe_test_transport_auto()) {
        /* SHOAL_TRANSPORT=ucx: UCX allocates the heap and holds the static data, and
         * maps both where its shared-memory transports reach the peer (UCX_TLS may
         * say they do not): both pointers or neither. */
        PE_CHECK((rs == NULL) == (rh == NULL),
                 "SHOAL_TRANSPORT=ucx: shmem_ptr(static, %d) is %p but shmem_ptr(heap, %d) is %p",
                 right, (void *)rs, right, (void *)rh);
    } else {
        /* Same node under auto: real pointers. */
        PE_CHECK(rh != NULL, "shmem_ptr(heap, %d) is NULL", right);
        PE_CHECK(rs != NULL, "shmem_ptr(static, %d) is NULL", right);
    }
    heap[1] = -1;
    ring_cell = -1;
    shmem_barrier_all();
    if (rh != NULL)
        rh[1] = 1000 + me;
    if (rs != NULL)
        *rs = 2000 + me;
    shmem_barrier_all();
    if (shmem_ptr(heap, left) != NULL)
        PE_CHECK_EQ("heap cell written through shmem_ptr", 1000 + left, heap[1]);
    if (shmem_ptr(&ring_cell, left) != NULL)
        PE_CHECK_EQ("static cell written through shmem_ptr", 2000 + left, ring_cell);
    /* And reading through it sees what the owner stored. */
    shmem_barrier_all();
    if (rh != NULL)
        PE_CHECK_EQ("read through shmem_ptr", 1000 + me, rh[1]);
}

static void check_info(void)
{
    char name[SHMEM_MAX_NAME_LEN + 1];
    int major = -1, minor = -1, provided = -1;
    size_t len;

    shmem_info_get_version(&major, &minor);
    PE_CHECK_EQ("major version", 1, major);
    PE_CHECK_EQ("minor version", 6, minor);
    PE_CHECK_EQ("SHMEM_MAJOR_VERSION", 1, SHMEM_MAJOR_VERSION);
    PE_CHECK_EQ("SHMEM_MINOR_VERSION", 6, SHMEM_MINOR_VERSION);
    PE_CHECK_EQ("_SHMEM_MAJOR_VERSION", 1, _SHMEM_MAJOR_VERSION);
    PE_CHECK_EQ("_SHMEM_MINOR_VERSION", 6, _SHMEM_MINOR_VERSION);
    PE_CHECK_EQ("_SHMEM_MAX_NAME_LEN", SHMEM_MAX_NAME_LEN, _SHMEM_MAX_NAME_LEN);
    PE_CHECK(strcmp(SHMEM_VENDOR_STRING, _SHMEM_VENDOR_STRING) == 0, "vendor strings %s, %s",
             SHMEM_VENDOR_STRING, _SHMEM_VENDOR_STRING);
    memset(name, 'x', sizeof(name));
    shmem_info_get_name(name);
    len = memchr(name, '\0', sizeof(name)) ? strlen(name) : sizeof(name);
    PE_CHECK(len > 0 && len < SHMEM_MAX_NAME_LEN, "name length %zu", len);
    PE_CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0, "name \"%.*s\", expected \"%s\"",
             (int)len, name, SHMEM_VENDOR_STRING);
    shmem_query_thread(&provided);
    PE_CHECK(provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE,
             "query_thread after shmem_init: %d", provided);
    PE_CHECK(SHMEM_THREAD_SINGLE < SHMEM_THREAD_FUNNELED &&
                 SHMEM_THREAD_FUNNELED < SHMEM_THREAD_SERIALIZED &&
                 SHMEM_THREAD_SERIALIZED < SHMEM_THREAD_MULTIPLE,
             "thread levels %d %d %d %d are not ordered", SHMEM_THREAD_SINGLE,
             SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_MULTIPLE);
}

int main(void)
{
    int me, npes, *heap, rc, initialized = -1;

    /* shmem_query_initialized at any time: 0 before shmem_init and after
     * shmem_finalize, 1 between. */
    shmem_query_initialized(&initialized);
    if (initialized != 0) {
        fprintf(stderr, "FAIL: shmem_query_initialized before shmem_init: %d\n", initialized);
        return 99;
    }
    shmem_init();
    pe_test_watchdog();
    shmem_query_initialized(&initialized);
    PE_CHECK_EQ("shmem_query_initialized after shmem_init", 1, initialized);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    heap = shmem_malloc(4 * sizeof(int));
    PE_CHECK(heap != NULL, "shmem_malloc(16) is %p", (void *)heap);
    if (heap == NULL)
        return pe_test_finish("pe_setup");
    PE_CHECK_EQ("global initial value", 5, global_var);
    PE_CHECK_EQ("bss initial value", 0, bss_var);
    check_identity(me, npes);
    check_pe_accessible(npes);
    check_addr_accessible(npes, heap);
    check_ptr(me, npes, heap);
    check_info();
    shmem_free(heap);
    global_var = 41;
    rc = pe_test_finish("pe_setup");
    shmem_query_initialized(&initialized);
    if (initialized != 0) {
        fprintf(stderr, "FAIL PE %d: shmem_query_initialized after shmem_finalize: %d\n", me,
                initialized);
        return 99;
    }
    /* Globals outlive shmem_finalize (with SHOAL_TRANSPORT=ucx they leave UCX's
     * memory there), and stay writable. */
    if (global_var != 41 || ++global_var != 42) {
        fprintf(stderr, "FAIL PE %d: global_var is %d after shmem_finalize, expected 41\n", me,
                global_var);
        return 99;
    }
    return rc;
}
