#!/bin/sh
# check-dev-names.sh - every nvshmem_ routine the CPU engine defines is one that
# a test checks: in the generated lists (gen/dev_routines.h: dev_routines checks
# the nvshmem_ ones, gpu_group the _block and _warp forms) or named in
# dev_routines.cc (the hand-written ones), or the device barrier's test
# (tests/gpu/gpu_barrier.cu, run by gpu_barrier.sh), group copies' test
# (tests/gpu/gpu_group.cu), the teams' (tests/gpu/gpu_team.cu) or the
# collectives' (tests/gpu/gpu_coll.cu, which calls every one of
# gen/dev_routines.h's SHOAL_DEV_COLL_ROUTINES). Fails on a device routine added
# without a check. Exit 0 pass, 1 fail, 77 without nm.
: "${srcdir:=.}"
lib=.libs/libshoal_devcpu.a
command -v nm >/dev/null 2>&1 || { echo "check-dev-names: no nm, skipped"; exit 77; }
[ -f "$lib" ] || { echo "check-dev-names: $lib is not built"; exit 1; }
defined=$(nm -g --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^nvshmem/ { print $3 }' | sort -u)
checked=$(grep -oh 'nvshmemx\{0,1\}_[a-z0-9_]*' "$srcdir/gen/dev_routines.h" \
    "$srcdir/dev_routines.cc" \
    "${top_srcdir:-$srcdir/../..}/tests/gpu/gpu_barrier.cu" \
    "${top_srcdir:-$srcdir/../..}/tests/gpu/gpu_group.cu" \
    "${top_srcdir:-$srcdir/../..}/tests/gpu/gpu_team.cu" \
    "${top_srcdir:-$srcdir/../..}/tests/gpu/gpu_coll.cu" |
    sort -u)
missing=$(printf '%s\n' "$defined" | grep -vxF "$checked")
n=$(printf '%s\n' "$defined" | grep -c .)
if [ -n "$missing" ]; then
    echo "check-dev-names: the CPU engine defines routines that no test checks:"
    printf '  %s\n' $missing
    exit 1
fi
echo "check-dev-names: all $n nvshmem_ routines the engine defines are checked by a test"
