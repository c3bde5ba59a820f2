#!/bin/sh
# soak.sh: runs bench/soak, which moves data every way OpenSHMEM can and checks every byte,
# for minutes: on this node under the build's oshrun, or across simulated nodes
# (tests/multinode/nodes.sh, root) started by Open MPI's mpirun. Never part of make check.
# Usage:
#   bench/soak.sh [--minutes M | --seconds S] [--np N] [--nodes K]
#                 [--transport auto|ucx|tcp] [BUILD_DIR]
# Defaults: 1 minute, 4 PEs, this node, auto; BUILD_DIR ./build (soak is made there first).
# tcp is SHOAL_TRANSPORT=ucx with UCX_TLS=tcp,self. With --nodes K (2 or more) the PEs are
# mapped by node (neighbours on different nodes) and UCX between nodes runs over their TCP
# link whatever --transport says (tests/multinode/env.sh); --transport sets SHOAL_TRANSPORT.
# SOAK_SEED (environment) picks other data; SHMEM_SYMMETRIC_SIZE is passed on.
# Exit: the job's status (0: every byte right; 1: a wrong byte or value, named on one line by
# the PE that saw it; 124: the time ran out), 77 where --nodes cannot be made here, 2 on a
# usage error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
seconds=60 np=4 nodes=1 transport=auto build=$top/build

usage() {
    echo "usage: $0 [--minutes M | --seconds S] [--np N] [--nodes K] [--transport auto|ucx|tcp] [BUILD_DIR]" >&2
    exit 2
}
number() { # number VALUE: a non-negative number, or the usage
    case $1 in '' | *[!0-9.]* | *.*.*) usage ;; esac
}
while [ $# -gt 0 ]; do
    case $1 in
    --minutes) [ $# -ge 2 ] || usage; number "$2"; seconds=$(awk "BEGIN { print int($2 * 60 + 0.5) }"); shift 2 ;;
    --seconds) [ $# -ge 2 ] || usage; number "$2"; seconds=$(awk "BEGIN { print int($2 + 0.5) }"); shift 2 ;;
    --np) [ $# -ge 2 ] || usage; np=$2; shift 2 ;;
    --nodes) [ $# -ge 2 ] || usage; nodes=$2; shift 2 ;;
    --transport) [ $# -ge 2 ] || usage; transport=$2; shift 2 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) usage ;;
    *) build=$1; shift ;;
    esac
done
case $np in '' | *[!0-9]* | 0) usage ;; esac
case $nodes in '' | *[!0-9]* | 0) usage ;; esac
case $transport in
auto | ucx) shoal_transport=$transport ;;
tcp) shoal_transport=ucx; UCX_TLS=tcp,self; export UCX_TLS ;;
*) usage ;;
esac
build=$(cd "$build" 2>/dev/null && pwd) || { echo "soak.sh: no build directory $build" >&2; exit 2; }
[ -f "$build/bench/Makefile" ] || { echo "soak.sh: $build is not a configured build tree" >&2; exit 2; }
make -s -C "$build/bench" soak >/dev/null || { echo "soak.sh: cannot build $build/bench/soak" >&2; exit 1; }

# The soak's own time, then a minute to start and finish, and a tenth more for a busy machine.
limit=$((seconds + 60 + seconds / 10))
# At N PEs soak asks about 4.4N + 8 MiB of symmetric heap (heap_need in soak.c).
if [ -z "${SHMEM_SYMMETRIC_SIZE:-}" ] && [ $((np * 5 + 32)) -gt 256 ]; then
    SHMEM_SYMMETRIC_SIZE=$((np * 5 + 32))M
    export SHMEM_SYMMETRIC_SIZE
fi
SHOAL_TRANSPORT=$shoal_transport
export SHOAL_TRANSPORT
out=$(mktemp) rcfile=$(mktemp)
prefix=shsk
mn=$top/tests/multinode
cleanup() {
    rm -f "$out" "$rcfile"
    if [ "$nodes" -gt 1 ]; then
        "$mn/nodes.sh" down $prefix
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$nodes" -eq 1 ]; then
    echo "soak.sh: $np PEs on this node, $transport, ${seconds} s (oshrun --timeout $limit)"
    { "$build/tools/oshrun/oshrun" --timeout $limit -np "$np" "$build/bench/soak" "$seconds" 2>&1
        echo $? > "$rcfile"; } | tee "$out"
else
    reason=$("$mn/nodes.sh" check) || { echo "soak.sh: --nodes: skipped: $reason"; exit 77; }
    mpirun=$(command -v mpirun)
    if [ -z "$mpirun" ] || ! "$mpirun" --version 2>/dev/null | grep -q "Open MPI"; then
        echo "soak.sh: --nodes: skipped: Open MPI's mpirun not found (package openmpi-bin)"
        exit 77
    fi
    "$mn/nodes.sh" down $prefix
    "$mn/nodes.sh" up $prefix "$nodes" >/dev/null || exit 1
    hf=/run/shoal-nodes/$prefix/hostfile-soak
    : > "$hf"
    i=1
    while [ $i -le "$nodes" ]; do
        echo "$prefix$i slots=$(( (np + nodes - 1) / nodes ))" >> "$hf"
        i=$((i + 1))
    done
    here=$mn # env.sh names its agent.sh through $here
    . "$mn/env.sh"
    xs="-x SHOAL_TRANSPORT"
    for v in SOAK_SEED SHMEM_SYMMETRIC_SIZE; do
        eval "[ -n \"\${$v:-}\" ]" && xs="$xs -x $v"
    done
    echo "soak.sh: $np PEs on $nodes simulated nodes (by node, mpirun; UCX over TCP between" \
        "nodes), SHOAL_TRANSPORT=$shoal_transport, ${seconds} s (timeout $limit)"
    { "$mn/agent.sh" ${prefix}1 "cd '$build/bench' && $mn_exports; \
        timeout -k 5 $limit '$mpirun' --allow-run-as-root --oversubscribe --hostfile '$hf' \
        --map-by node -np $np -x UCX_TLS -x UCX_NET_DEVICES $xs ./soak $seconds" 2>&1
        echo $? > "$rcfile"; } | tee "$out"
fi
rc=$(cat "$rcfile")
if [ "$rc" -eq 0 ] && grep -q '\] UCX: ' "$out"; then
    echo "soak.sh: UCX reported an error (above)"
    rc=1
fi
if [ "$rc" -eq 0 ] && ! grep -q '^SOAK .*status=ok' "$out"; then
    echo "soak.sh: the job ended well but printed no summary"
    rc=1
fi
if [ "$rc" -eq 0 ]; then
    echo "soak.sh: passed"
else
    echo "soak.sh: FAILED with status $rc"
fi
exit "$rc"
