#!/bin/sh
# Shoal against Open MPI's OSHMEM across two simulated nodes (nodes.sh), UCX over
# TCP between them, in one run: bench/compare with --hostfile (point-to-point at
# 2 PEs, one a node; collectives at 2 and 4 PEs, one and two a node, also as
# multiples of the same batch's p + wait_until half round trip), then ucx_perftest
# (package ucx-utils) over the same link as the floor for put, get and fetch-add,
# then start-up as Slurm users see it: init, a barrier and finalize (bench/startup)
# at 2 x 8, 4 x 8 and 4 x 16 PEs under srun --mpi=pmix on a Slurm cluster of the
# nodes (slurm.sh), beside Shoal and Open MPI's OSHMEM under mpirun on the same
# nodes (OSHMEM's own PMIx client crashes under Debian's srun), with Shoal's
# SHMEM_INFO breakdown. BENCH_SECTIONS picks: compare, floor, startup.
# Usage: tests/multinode/bench.sh [BUILD_DIR [compare options...]]
# Root only; exit 77 where namespaces cannot be made. Timing, never a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd) || exit 1
[ $# -gt 0 ] && shift
prefix=shmb
reason=$("$here/nodes.sh" check) || { echo "bench: skipped: $reason"; exit 77; }
: "${BENCH_SECTIONS:=compare floor startup}"
"$here/slurm.sh" down $prefix
"$here/nodes.sh" down $prefix
trap '"$here/slurm.sh" down $prefix; "$here/nodes.sh" down $prefix' EXIT
trap 'exit 130' INT TERM
"$here/nodes.sh" up $prefix 4 >/dev/null || exit 1
hf=/run/shoal-nodes/$prefix/hostfile-bench
printf '%s1 slots=8\n%s2 slots=8\n' $prefix $prefix > "$hf"
. "$here/env.sh"
env=$mn_exports

case " $BENCH_SECTIONS " in *" compare "*)
echo "== bench/compare across 2 nodes (UCX over TCP)"
"$here/agent.sh" ${prefix}1 "$env; cd '$build' && '$top/bench/compare' --shoal '$build' \
    --hostfile '$hf' --pes 2 --coll-pes 2,4 --startup-pes 4 --instr none --no-dram \
    --peer-args '--allow-run-as-root --mca osc ^rdma' $*"
;; esac

case " $BENCH_SECTIONS " in *" floor "*)
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
    echo "== ucx_perftest ucp_put_bw of 1 MiB over the same link: the floor of the"
    echo "   bandwidth-bound collectives of 1 MiB at 2 PEs (bench/coll above, in us per call)"
    "$here/agent.sh" ${prefix}2 "$env; exec timeout 60 ucx_perftest -p 13337 -t ucp_put_bw -s 1048576 -n 200" \
        > /dev/null 2>&1 &
    sleep 1
    "$here/agent.sh" ${prefix}1 "$env; timeout 60 ucx_perftest $(echo 10.231.0.2) -p 13337 \
        -t ucp_put_bw -s 1048576 -n 200" 2>&1 |
        awk '/Final:/ { printf "ucp_put_bw 1 MiB: %s MB/s overall, %.0f us per MiB\n", $7, 1000000 / $7 }'
    wait
else
    echo "== ucx_perftest not found (package ucx-utils): no floor"
fi
;; esac

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }
# wall NODE CMD: seconds CMD takes, from node NODE; "fail" when it fails
wall() {
    node=$1
    shift
    t0=$(date +%s.%N)
    "$here/agent.sh" "$node" "$*" > /dev/null 2>&1 || { echo fail; return; }
    echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f\n", $1 - $2 }'
}
case " $BENCH_SECTIONS " in *" startup "*)
if ! no_slurm=$("$here/slurm.sh" check); then
    echo "== start-up under srun: skipped ($no_slurm)"
elif ! conf=$("$here/slurm.sh" up $prefix 4); then
    echo "== start-up under srun: the Slurm cluster did not start"
else
    make -s -C "$build/bench" startup || exit 1
    peer=""
    if command -v oshcc >/dev/null 2>&1; then
        peer=$(mktemp -d)
        oshcc -o "$peer/startup" "$top/bench/startup.c" 2>/dev/null || peer=""
    fi
    reps=${BENCH_STARTUP_REPS:-3}
    echo "== start-up: init, barrier, finalize; median wall seconds of $reps launches"
    printf '%-8s %-12s %-14s %-16s %s\n' PEs "Shoal srun" "Shoal mpirun" "OSHMEM mpirun" \
        "Shoal's breakdown under srun (SHMEM_INFO, ms)"
    for layout in 2:8 4:8 4:16; do
        nodes=${layout%%:*} per=${layout#*:}
        np=$((nodes * per))
        lhf=/run/shoal-nodes/$prefix/hostfile-$nodes-$per
        : > "$lhf"
        i=1
        while [ $i -le $nodes ]; do echo "$prefix$i slots=$per" >> "$lhf"; i=$((i + 1)); done
        srun_cmd="$env SLURM_CONF='$conf'; timeout 120 srun --mpi=pmix -N $nodes -n $np"
        mpirun_cmd="$env; timeout 120 mpirun --allow-run-as-root --hostfile '$lhf' -np $np"
        a="" b="" c=""
        r=0
        while [ $r -lt $reps ]; do
            a="$a $(wall ${prefix}1 "$srun_cmd '$build/bench/startup'")"
            b="$b $(wall ${prefix}1 "$mpirun_cmd '$build/bench/startup'")"
            [ -n "$peer" ] && c="$c $(wall ${prefix}1 "$mpirun_cmd --mca osc ^rdma '$peer/startup'")"
            r=$((r + 1))
        done
        info=$("$here/agent.sh" ${prefix}1 "$srun_cmd env SHMEM_INFO=1 '$build/bench/startup'" 2>&1 |
            sed -n 's/^Start-up (ms): //p' | head -n 1)
        printf '%-8s %-12s %-14s %-16s %s\n' "$nodes x $per" \
            "$(echo $a | tr ' ' '\n' | grep -v fail | median)" \
            "$(echo $b | tr ' ' '\n' | grep -v fail | median)" \
            "$(echo $c | tr ' ' '\n' | grep -v fail | median)" "$info"
    done
    [ -n "$peer" ] && rm -rf "$peer"
fi
;; esac
