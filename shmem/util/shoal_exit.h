/* The exit status a job ends with when a PE asks for status (shmem_global_exit, an exit
 * before shmem_finalize, PMIx_Abort). One rule for the library, which hands the launcher
 * this status, and for oshrun, which applies it to any PMIx client's abort. Header only. */
#ifndef SHOAL_EXIT_H
#define SHOAL_EXIT_H

/* A process's exit status has 8 bits: keep the low 8, as exit(3) does (300 -> 44, -1 -> 255),
 * except that a nonzero status whose low 8 bits are 0 (256, 512) ends with 1, for 0 would
 * read as success. */
static inline int shoal_exit_status(int status)
{
    int low = (int)((unsigned)status & 0xffu);

    return low == 0 && status != 0 ? 1 : low;
}

#endif
