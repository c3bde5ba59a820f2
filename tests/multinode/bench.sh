#!/bin/sh
# Shoal against Open MPI's OSHMEM across two simulated nodes (nodes.sh), UCX over
# TCP between them, in one run: bench/compare with --hostfile (point-to-point at
# 2 PEs, one a node; collectives at 4 PEs, two a node), then ucx_perftest
# (package ucx-utils) over the same link as the floor for put, get and fetch-add.
# Usage: tests/multinode/bench.sh [BUILD_DIR [compare options...]]
# Root only; exit 77 where namespaces cannot be made. Timing, never a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd) || exit 1
[ $# -gt 0 ] && shift
prefix=shmb
reason=$("$here/nodes.sh" check) || { echo "bench: skipped: $reason"; exit 77; }
"$here/nodes.sh" down $prefix
trap '"$here/nodes.sh" down $prefix' EXIT
trap 'exit 130' INT TERM
"$here/nodes.sh" up $prefix 2 >/dev/null || exit 1
hf=/run/shoal-nodes/$prefix/hostfile-bench
printf '%s1 slots=8\n%s2 slots=8\n' $prefix $prefix > "$hf"
. "$here/env.sh"
env=$mn_exports

echo "== bench/compare across 2 nodes (UCX over TCP)"
"$here/agent.sh" ${prefix}1 "$env; cd '$build' && '$top/bench/compare' --shoal '$build' \
    --hostfile '$hf' --pes 2 --coll-pes 4 --startup-pes 4 --instr none --no-dram \
    --peer-args '--allow-run-as-root --mca osc ^rdma' $*"

if command -v ucx_perftest >/dev/null 2>&1; then
    echo "== ucx_perftest over the same link: put_lat is half a round trip of puts that"
    echo "   the other side polls for; get and fadd are whole round trips, but get waits"
    echo "   for the server's progress, which perftest leaves to UCX's own thread"
    for t in ucp_put_lat ucp_get ucp_fadd; do
        "$here/agent.sh" ${prefix}2 "$env; exec timeout 60 ucx_perftest -p 13337 -t $t -s 8 -n 20000" \
            > /dev/null 2>&1 &
        sleep 1
        "$here/agent.sh" ${prefix}1 "$env; timeout 60 ucx_perftest $(echo 10.231.0.2) -p 13337 \
            -t $t -s 8 -n 20000" 2>&1 | awk -v t=$t '/Final:/ { print t ": median " $3 " us, average " $4 " us" }'
        wait
    done
else
    echo "== ucx_perftest not found (package ucx-utils): no floor"
fi
