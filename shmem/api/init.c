/* Library setup, exit and query routines. */
#include "shmem.h"
#include "shoal_check.h"
#include "shoal_exit.h"
#include "shoal_rt.h"
#include "shoal_profile.h"

#include <stdio.h>
#include <string.h>

shmem_ctx_t SHMEM_CTX_DEFAULT = (shmem_ctx_t)SHOAL_CTX_DEFAULT_HANDLE;

void pshmem_init(void)
{
    shoal_core_init(SHMEM_THREAD_SINGLE, "shmem_init");
}
SHOAL_PROFILED(shmem_init);

int pshmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        shoal_log_fatal("shmem_init_thread: argument requested is %d, expected one of "
                        "SHMEM_THREAD_SINGLE (%d), _FUNNELED, _SERIALIZED, _MULTIPLE (%d)",
                        requested, SHMEM_THREAD_SINGLE, SHMEM_THREAD_MULTIPLE);
    shoal_core_init(requested, "shmem_init_thread");
    if (provided != NULL)
        *provided = shoal_core_thread_level();
    return 0;
}
SHOAL_PROFILED(shmem_init_thread);

void pshmem_query_thread(int *provided)
{
    shoal_check_init("shmem_query_thread");
    *provided = shoal_core_thread_level();
}
SHOAL_PROFILED(shmem_query_thread);

/* At any time, from any thread: before shmem_init and after shmem_finalize too. */
void pshmem_query_initialized(int *initialized)
{
    if (initialized == NULL)
        shoal_log_fatal("shmem_query_initialized: argument initialized is NULL; pass the address "
                        "of an int");
    *initialized = shoal_core_initialized();
}
SHOAL_PROFILED(shmem_query_initialized);

void pshmem_finalize(void)
{
    shoal_core_finalize();
}
SHOAL_PROFILED(shmem_finalize);

void pshmem_global_exit(int status)
{
    int job_status = shoal_exit_status(status);
    char message[96];

    fflush(stdout);
    fflush(stderr);
    if (job_status != status) {
        /* The PE's own line, so that it shows under any launcher (mpirun prints no abort
         * message); the empty message tells oshrun that it is printed. */
        shoal_log_error("shmem_global_exit: status %d (the job exits with %d%s)", status,
                        job_status,
                        (status & 0xff) == 0 ? ": its low 8 bits, 0, would read as success"
                                             : ", its low 8 bits");
        shoal_rt_abort(status, "");
    }
    snprintf(message, sizeof(message), "PE %d called shmem_global_exit(%d)", shoal_core_my_pe(),
             status);
    shoal_rt_abort(status, message);
}
SHOAL_PROFILED(shmem_global_exit);

int pshmem_my_pe(void)
{
    shoal_check_init("shmem_my_pe");
    return shoal_core_my_pe();
}
SHOAL_PROFILED(shmem_my_pe);

int pshmem_n_pes(void)
{
    shoal_check_init("shmem_n_pes");
    return shoal_core_n_pes();
}
SHOAL_PROFILED(shmem_n_pes);

int pshmem_pe_accessible(int pe)
{
    shoal_check_init("shmem_pe_accessible");
    return pe >= 0 && pe < shoal_core_n_pes();
}
SHOAL_PROFILED(shmem_pe_accessible);

int pshmem_addr_accessible(const void *addr, int pe)
{
    size_t off;

    shoal_check_init("shmem_addr_accessible");
    return pe >= 0 && pe < shoal_core_n_pes() && shoal_segment_find(addr, &off) >= 0;
}
SHOAL_PROFILED(shmem_addr_accessible);

void *pshmem_ptr(const void *dest, int pe)
{
    size_t off;
    int seg;

    shoal_check_init("shmem_ptr");
    if (pe < 0 || pe >= shoal_core_n_pes()) { /* the spec's answer for what cannot be reached */
        shoal_log_debug("shmem_ptr: argument pe is %d, valid range 0..%d; returning NULL", pe,
                        shoal_core_n_pes() - 1);
        return NULL;
    }
    seg = shoal_segment_find(dest, &off);
    if (seg < 0)
        return NULL;
    return shoal_core_ptr(pe, seg, off);
}
SHOAL_PROFILED(shmem_ptr);

void pshmem_info_get_version(int *major, int *minor)
{
    if (major == NULL || minor == NULL)
        shoal_log_fatal("shmem_info_get_version: argument %s is NULL, expected the address of an "
                        "int to receive the %s version",
                        major == NULL ? "major" : "minor", major == NULL ? "major" : "minor");
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}
SHOAL_PROFILED(shmem_info_get_version);

void pshmem_info_get_name(char *name)
{
    if (name == NULL)
        shoal_log_fatal("shmem_info_get_name: argument name is NULL, expected a buffer of "
                        "SHMEM_MAX_NAME_LEN (%d) characters",
                        SHMEM_MAX_NAME_LEN);
    strncpy(name, SHMEM_VENDOR_STRING, SHMEM_MAX_NAME_LEN - 1);
    name[SHMEM_MAX_NAME_LEN - 1] = '\0';
}
SHOAL_PROFILED(shmem_info_get_name);

void pstart_pes(int npes)
{
    (void)npes; /* the launcher decides the PE count; the spec ignores this argument */
    shoal_core_init(SHMEM_THREAD_SINGLE, "start_pes");
}
SHOAL_PROFILED(start_pes);

int p_my_pe(void)
{
    shoal_check_init("_my_pe");
    return shoal_core_my_pe();
}
SHOAL_PROFILED(_my_pe);

int p_num_pes(void)
{
    shoal_check_init("_num_pes");
    return shoal_core_n_pes();
}
SHOAL_PROFILED(_num_pes);
