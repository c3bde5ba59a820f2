#!/bin/sh
# The layer rules of docs/design.md section 1 that grep can check: above the
# transports, only transport/shoal_transport.h is included (no transport's own
# header, no ucp.h), and the core reaches a transport only through its
# component table (shoal_shm_component, shoal_ucx_component), never by a
# transport's function; the transports include no core header; only
# transport/ucx includes UCX's headers. Exit 0 or 1, one line per breach.
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 99
bad=0
breach() {
    echo "check-layers: $*"
    bad=1
}

above="shmem/api shmem/core shmem/runtime shmem/util tools gpu"
hits=$(grep -rnE '#include *["<](shoal_shm\.h|shoal_ucx\.h|ucx_impl\.h|ucp/|uct/|ucs/)' $above 2>/dev/null)
[ -z "$hits" ] || breach "a transport's header above the transports:
$hits"
hits=$(grep -rnoE '\bshoal_(shm|ucx)_[a-z_]+' shmem/api shmem/core | grep -vE ':shoal_(shm|ucx)_component$')
[ -z "$hits" ] || breach "a transport's function named above it (use its component):
$hits"
hits=$(grep -nE 'transport/(shm|ucx)' shmem/api/Makefile.am shmem/core/Makefile.am)
[ -z "$hits" ] || breach "an include path into a transport:
$hits"
core_headers=$(cd shmem/core && ls *.h | tr '\n' '|' | sed 's/|$//; s/\./\\./g')
hits=$(grep -rnE "#include *\"($core_headers)\"" transport)
[ -z "$hits" ] || breach "a core header in a transport:
$hits"
hits=$(grep -rnE '#include *["<](shoal_ucx\.h|ucx_impl\.h|ucp/|uct/)' transport/shm transport/shoal_transport.h)
[ -z "$hits" ] || breach "UCX outside transport/ucx:
$hits"
exit $bad
