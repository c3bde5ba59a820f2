#!/bin/sh
# check-layers.sh - the layer rules of docs/design.md section 1: every include
# keeps to the ```layers block (tools/check-layers.py: a header of a part its own
# may not include, or a system header such as ucp.h, pmix.h or CUDA's outside the
# parts allowed it); and, by grep, the core and the API reach a transport only
# through its component table (shoal_shm_component, shoal_ucx_component, named
# only by shoal_core.h's roles shoal_core_local and shoal_core_net), never by one
# of its functions, with no include path into a transport; and the API reads
# the core's state only through its accessors. Exit 0 pass,
# 1 fail (one line per breach), 77 (skip) without python3, 99 without the tree.
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
python=${PYTHON3:-python3}
if [ ! -f "$top/docs/design.md" ] || [ ! -f "$top/tools/check-layers.py" ]; then
    echo "check-layers: $top is not Shoal's source tree" >&2
    exit 99
fi
bad=0
breach() {
    echo "check-layers: $*"
    bad=1
}
if command -v "$python" >/dev/null 2>&1; then
    "$python" "$top/tools/check-layers.py" "$top" || bad=1
else
    echo "check-layers: python3 not found, the include rules are not checked"
fi
cd "$top" || exit 99
hits=$(grep -rnoE '\bshoal_(shm|ucx)_[a-z_]+' shmem/api shmem/core | grep -vE ':shoal_(shm|ucx)_component$')
[ -z "$hits" ] || breach "a transport's function named above it (use its component):
$hits"
hits=$(grep -rnoE 'shoal_(shm|ucx)_component' shmem/api shmem/core | grep -v '^shmem/core/engine/shoal_core.h:')
[ -z "$hits" ] || breach "a component named outside shoal_core.h's roles (use shoal_core_local, shoal_core_net):
$hits"
hits=$(grep -rn 'shoal_core_state' shmem/api)
[ -z "$hits" ] || breach "the API reads the core's state through its accessors (shoal_core_my_pe, ...), never the struct:
$hits"
hits=$(grep -nE 'transport/(shm|ucx)' shmem/api/Makefile.am shmem/core/Makefile.am)
[ -z "$hits" ] || breach "an include path into a transport:
$hits"
exit $bad
