#!/bin/sh
# The profiling names libshoal.so exports (shmem_profiling(3)): every routine under a
# shmem_, shmemx_ or deprecated name (_my_pe, shmalloc, ...) is a weak symbol at the
# address of a strong twin named with a p in front (pshmem_putmem, p_my_pe, pshmalloc):
# one code, two names, no call between them. Every p name has its routine; variables
# (SHMEM_TEAM_WORLD, ...) have none. Usage: pe_profile-names.sh [path/to/libshoal.so].
# Exit 0 pass, 1 fail, 77 skip (no nm), 99 no library.
lib=${1:-../../shmem/.libs/libshoal.so}
if ! command -v nm >/dev/null 2>&1; then
    echo "nm not found: skipped"
    exit 77
fi
if [ ! -f "$lib" ]; then
    echo "$lib not found: build the library first" >&2
    exit 99
fi
nm -D --defined-only "$lib" | awk '
    { sub(/@.*/, "", $3); addr[$3] = $1; kind[$3] = $2 }
    END {
        routine = "^(shmemx?_[a-z0-9_]+|_my_pe|_num_pes|start_pes|shmalloc|shfree|shrealloc|shmemalign)$"
        for (s in kind) {
            if (s ~ routine) {
                n++
                p = "p" s
                if (kind[s] != "W")
                    bad = bad "\n" s " is not weak (nm type " kind[s] ")"
                if (!(p in kind))
                    bad = bad "\n" s " has no profiling name " p
                else if (kind[p] != "T")
                    bad = bad "\n" p " is not a strong routine (nm type " kind[p] ")"
                else if (addr[p] != addr[s])
                    bad = bad "\n" s " is at " addr[s] ", " p " at " addr[p] ": two codes"
            } else if (s ~ /^p/) {
                np++
                if (!(substr(s, 2) in kind) || substr(s, 2) !~ routine)
                    bad = bad "\n" s " is exported, but no routine " substr(s, 2)
            }
        }
        printf "%d routines, %d profiling names\n", n, np
        if (bad != "") {
            print "FAILED:" bad
            exit 1
        }
    }'
