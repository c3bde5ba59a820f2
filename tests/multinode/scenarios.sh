# Multi-node scenarios beyond the test programs, sourced by run.sh (which gives
# mn_run, record, $out, $prefix, $build).

# The AMO path rule: UCX over TCP does its AMOs as CPU atomics on the target, so
# the PEs of a node keep CPU atomics (shm) on each other and send only other
# nodes' AMOs through UCX. SHMEM_DEBUG's "connected to PE q: ..., AMOs through X"
# lines must say shm for every same-node peer and ucx for every other one; with
# 4 PEs mapped by node on 2 nodes, PE p's node is p % 2.
echo "== scenario: AMO paths, 4 PEs on 2 nodes"
start=$(date +%s)
saved_set=$MN_ENV_SET saved_names=$MN_ENV_NAMES
MN_ENV_SET="SHMEM_DEBUG=1 SHMEM_INFO=1" MN_ENV_NAMES="SHMEM_DEBUG SHMEM_INFO"
mn_run 2 4 node mpirun ./pe_amo >/dev/null
rc=$?
MN_ENV_SET=$saved_set MN_ENV_NAMES=$saved_names
if [ $rc -eq 0 ]; then
    awk '
    /connected to PE [0-9]+: .*AMOs through/ {
        split($1, id, ":"); pe = id[3] + 0; sub(/\]/, "", pe)
        q = $5; sub(/:/, "", q); path = $NF
        want = (pe % 2 == q % 2) ? "shm" : "ucx"
        n++
        if (path != want) { print "PE " pe " to PE " q ": AMOs through " path ", expected " want; bad++ }
    }
    /^Atomics:/ { info = $0 }
    END {
        if (info !~ /CPU atomics within a node/) { print "SHMEM_INFO: " info; bad++ }
        print "AMO paths: " n " connections checked, " bad + 0 " wrong"
        exit (n >= 8 && bad == 0) ? 0 : 1
    }' "$out"
    rc=$?
fi
record "scenario:amo-paths" $rc $(( $(date +%s) - start ))

# Kernels across nodes (the CPU engine, tests/gpu-cpu: kernels are threads of the
# PE): with 4 PEs mapped by node on 2 nodes every neighbour's heap is on the other
# node, so the host proxy carries each remote put, get, atomic and barrier arrival
# through UCX (gpu_stream: also those its stream kernels make). Skipped (77)
# where make check has not built them. MN_GPU_TESTS picks some of them.
# Fewer rounds than in make check: here each is a TCP round trip among PEs and
# proxy threads that share 2 CPUs, slow and noisy when the machine is loaded.
saved_set=$MN_ENV_SET saved_names=$MN_ENV_NAMES
MN_ENV_SET="$MN_ENV_SET GPU_PROXY_ITERS=20 GPU_PROXY_ROUNDS=50 GPU_BARRIER_ITERS=20"
MN_ENV_NAMES="$MN_ENV_NAMES GPU_PROXY_ITERS GPU_PROXY_ROUNDS GPU_BARRIER_ITERS"
for t in ${MN_GPU_TESTS:-gpu_proxy gpu_barrier gpu_stream dev_routines}; do
    echo "== scenario: $t on the CPU engine, 4 PEs on 2 nodes"
    start=$(date +%s)
    if [ -x "$build/tests/gpu-cpu/$t" ]; then
        mn_run 2 4 node mpirun "../gpu-cpu/$t"
        rc=$?
    else
        echo "multinode: $build/tests/gpu-cpu/$t not built (make check builds it): skipped"
        rc=77
    fi
    record "scenario:$t" $rc $(( $(date +%s) - start ))
done
MN_ENV_SET=$saved_set MN_ENV_NAMES=$saved_names
