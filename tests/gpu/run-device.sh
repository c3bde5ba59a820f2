#!/bin/sh
# run-device.sh - every GPU test on a machine with a GPU, from the bundle that
# tools/gpu-bundle.sh made (Shoal, its GPU test programs, and Debian's UCX and
# PMIx with their dependencies), without installing anything: the bundle's lib/
# goes first on the library path and PMIx looks for its plugins there. The PE
# tests run at 1, 2 and 4 PEs sharing the GPU under SHOAL_TRANSPORT=auto and
# ucx, the scripted ones (gpu_barrier, gpu_proxy, gpu_gheap) as make check runs
# them, and the error lines through run-gpu-err.sh. Each test has its own
# timeout (RUN_DEVICE_TIMEOUT, 90 s), so one hang cannot eat the machine's time,
# and none starts once RUN_DEVICE_BUDGET (480 s) has passed (the device tool
# allows 600 s a call).
# Prints one line per test (status, seconds), then the figures the tests print.
#
# Usage: tests/gpu/run-device.sh [--hide-system] [BUNDLE_DIR]
#   BUNDLE_DIR     default gpu-bundle/ at the top of the tree
#   --hide-system  (root, here) run in a mount namespace where Debian's UCX,
#                  PMIx and their dependencies are hidden: what is not in the
#                  bundle fails to load, as on a machine without them.
# Exit: 0 when no test failed (skips allowed), 1 otherwise.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
hide=0
if [ "${1:-}" = --hide-system ]; then
    hide=1
    shift
fi
bundle=$(cd "${1:-$top/gpu-bundle}" 2>/dev/null && pwd) || {
    echo "run-device: no bundle at ${1:-$top/gpu-bundle}: run tools/gpu-bundle.sh first"
    exit 1
}

if [ $hide -eq 1 ]; then
    # Empty directories over the plugin folders, an empty file over each library.
    multi=/usr/lib/x86_64-linux-gnu
    script='set -e; d=$(mktemp -d); f=$(mktemp)'
    for p in "$multi/ucx" "$multi/pmix2"; do
        [ -d "$p" ] && script="$script; mount --bind \$d $p"
    done
    for l in "$multi"/libucp.so* "$multi"/libucs.so* "$multi"/libuct.so* "$multi"/libucm.so* \
        "$multi"/libhwloc.so* "$multi"/libevent_*.so* "$multi"/libmunge.so* \
        "$multi"/libnuma.so*; do
        [ -f "$l" ] && script="$script; mount --bind \$f $l"
    done
    exec unshare -m sh -c "$script; exec sh '$0' '$bundle'"
fi

: "${RUN_DEVICE_TIMEOUT:=90}"
: "${RUN_DEVICE_BUDGET:=480}"
began=$(date +%s)
LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
PMIX_MCA_mca_base_component_path=$bundle/lib/pmix
PMIX_MCA_pinstall_dirs_datadir=$bundle/lib/pmix-share
OSHRUN=$bundle/bin/oshrun
top_srcdir=$top
srcdir=$here
SHELL=${SHELL:-/bin/sh}
export LD_LIBRARY_PATH PMIX_MCA_mca_base_component_path PMIX_MCA_pinstall_dirs_datadir \
    OSHRUN top_srcdir srcdir SHELL
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

echo "== run-device: $(uname -n), bundle $bundle"
if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,compute_mode --format=csv,noheader
else
    echo "   (no nvidia-smi)"
fi
"$bundle/bin/shoal_info" 2>&1 | grep -i -E "version|gpu|cuda|ucx" | head -12

failed=0
run() { # NAME CMD...: one test under its timeout; its log in $logs/NAME
    name=$1
    shift
    start=$(date +%s)
    if [ $((start - began)) -ge "$RUN_DEVICE_BUDGET" ]; then
        printf '%-28s not run (RUN_DEVICE_BUDGET=%s s spent)\n' "$name" "$RUN_DEVICE_BUDGET"
        failed=1
        return
    fi
    (cd "$bundle/tests/gpu" && timeout -k 5 "$RUN_DEVICE_TIMEOUT" "$@") > "$logs/$name" 2>&1
    rc=$?
    case $rc in
    0) what=pass ;;
    77) what=skip ;;
    124 | 137) what="FAIL (timed out after $RUN_DEVICE_TIMEOUT s)" failed=1 ;;
    *) what="FAIL (status $rc)" failed=1 ;;
    esac
    printf '%-28s %-32s %4d s\n' "$name" "$what" $(($(date +%s) - start))
    case $what in FAIL*) tail -n 15 "$logs/$name" | sed 's/^/    | /' ;; esac
}

# The lists make check uses: GPU_PE_TESTS of Makefile.am, and every script here
# but the runners.
pe_tests=$(awk '/^GPU_PE_TESTS *=/ { f = 1 } f { l = $0; sub(/^GPU_PE_TESTS *=/, "", l)
    more = sub(/\\$/, "", l); print l; if (!more) exit }' "$here/Makefile.am")
for t in $pe_tests; do
    PE_COUNTS="1 2 4" PE_TRANSPORTS="auto ucx" run "$t" sh "$top/tests/pe/run-pe.sh" "./$t"
done
for t in "$here"/*.sh; do
    t=$(basename "$t")
    case $t in check-ptx.sh | run-*.sh) continue ;; esac
    run "$t" sh "$here/$t"
done
for t in "$bundle"/tests/gpu/*.err; do
    t=$(basename "$t")
    run "$t" sh "$here/run-gpu-err.sh" "./$t"
done
for t in "$bundle"/tests/gpu/*.cpu; do
    t=$(basename "$t")
    run "$t" "./$t"
done

echo "== figures"
cat "$logs"/* | grep -E "^gpu_[a-z_]*: .*[0-9] (us|ms|GB/s|MB/s)" | sort -u
exit $failed
