#!/bin/sh
# pe_profile linked against the static libshoal.a (configure --enable-static): there
# the library's shmem_ names are weak definitions that the program's own replace at
# link time, with no duplicate symbol. Exit 77 when only the shared library was
# built: libtool then links pe_profile_static against libshoal.so, as pe_profile.
if ! nm ./pe_profile_static 2>/dev/null | grep -q ' T pshmem_putmem$'; then
    echo "pe_profile_static holds no libshoal.a (configure --enable-static builds it): skipped"
    exit 77
fi
# Same-node transport only: with libshoal linked into the program, SHOAL_TRANSPORT=ucx
# ends in shmem_init (moving the data segment to UCX moves the program's GOT with it),
# whatever the program; that is no part of what this test checks.
PE_COUNTS="2 4" PE_TRANSPORTS=auto exec "${srcdir:-.}/run-pe.sh" ./pe_profile_static
