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
# through UCX (gpu_stream: also those its stream kernels make; gpu_gheap: on the
# GPU heaps, whose owners' proxies apply them; gpu_gheap_host, on request: the
# host routines on the other node's GPU heaps, the same way; gpu_launch: the
# collective launch, whose blocks wait for arrivals from the other node;
# gpu_gheap_coll: shmem_ collectives on GPU-heap buffers). Skipped (77)
# where make check has not built them. MN_GPU_TESTS picks some of them.
# Fewer rounds than in make check: here each is a TCP round trip among PEs and
# proxy threads that share 2 CPUs, slow and noisy when the machine is loaded.
saved_set=$MN_ENV_SET saved_names=$MN_ENV_NAMES
MN_ENV_SET="$MN_ENV_SET GPU_PROXY_ITERS=20 GPU_PROXY_ROUNDS=50 GPU_BARRIER_ITERS=20 GPU_TEAM_ITERS=10"
MN_ENV_NAMES="$MN_ENV_NAMES GPU_PROXY_ITERS GPU_PROXY_ROUNDS GPU_BARRIER_ITERS GPU_TEAM_ITERS"
# An open bug: now and then, on a loaded machine, a PE stops answering the
# other node over UCX's TCP transport (UCX 1.13; one run of gpu_gheap_host in
# eight; gpu_proxy once in CI, 0 of 40 runs here): every PE of one node leaves the
# other's requests unanswered, though its progress thread runs, until
# SHOAL_PEER_TIMEOUT ends the job (UCX's "Endpoint timeout" lines that may
# follow come from the PE that gave up and left). Only gpu_coll, not in the
# list, meets it in most runs (docs/design.md, section 11). gpu_gheap_host is
# left out of the default list for it
# (MN_GPU_TESTS=gpu_gheap_host runs it); a GPU scenario that ends with that
# timeout runs once more, the stall counted and shown in the summary, so that
# the bug stays in sight without failing the run.
for t in ${MN_GPU_TESTS:-gpu_proxy gpu_barrier gpu_team gpu_stream dev_routines gpu_gheap gpu_launch gpu_gheap_coll}; do
    echo "== scenario: $t on the CPU engine, 4 PEs on 2 nodes"
    start=$(date +%s)
    if [ -x "$build/tests/gpu-cpu/$t" ]; then
        mn_run 2 4 node mpirun "../gpu-cpu/$t"
        rc=$?
        if [ $rc -ne 0 ] && grep -q 'has not answered .* in [0-9]* s' "$out"; then
            echo "== $t: a PE stopped answering the other node (the open UCX stall): once more"
            stall "scenario:$t"
            mn_run 2 4 node mpirun "../gpu-cpu/$t"
            rc=$?
        fi
    else
        echo "multinode: $build/tests/gpu-cpu/$t not built (make check builds it): skipped"
        rc=77
    fi
    record "scenario:$t" $rc $(( $(date +%s) - start ))
done
MN_ENV_SET=$saved_set MN_ENV_NAMES=$saved_names

# A PE that ends the job across nodes loses nothing it printed (exit-flush.sh
# on one node): the last PE, on the other node, prints a line, then exit(3) or
# shmem_global_exit(3); the job must end with status 3 and the line be in its
# output, under mpirun and under oshrun.
for how in exit global; do
    for launcher in mpirun oshrun; do
        echo "== scenario: exit flush ($how, $launcher), 4 PEs on 2 nodes"
        start=$(date +%s)
        mn_run 2 4 node $launcher ./pe_exit_flush 3 $how
        rc=$?
        if [ $rc -ne 3 ]; then
            echo "== the job ended with status $rc, expected 3"
            rc=1
        elif ! grep -q "^pe_exit_flush: PE 3 printed this before" "$out"; then
            echo "== PE 3's line is not in the job's output"
            rc=1
        else
            rc=0
        fi
        record "scenario:exit-flush-$how-$launcher" $rc $(( $(date +%s) - start ))
    done
done

# A node that drops off the network (issue 24). 4 PEs on 2 nodes run barriers
# (barrier_loop); node 2's link goes down. Every PE must be gone within a bound
# (SHOAL_PEER_TIMEOUT=10 here, and 20 s to spare), and a PE must have said which
# PE and node do not answer; before, every PE waited for ever, silently, and node
# 2's PEs outlived mpirun. mpirun itself may stay, waiting for its daemon on the
# cut-off node (Open MPI's part): it is ended here. Then a 10 s flap under the
# default SHOAL_PEER_TIMEOUT (30 s) must not be noticed: the job ends well.
# pe_up N: waits up to 60 s until N PEs of barrier_loop said they are up in $out.
pe_up() {
    t=0
    while [ "$(grep -c 'barrier_loop: PE .* up' "$out" 2>/dev/null)" -lt "$1" ] && [ $t -lt 600 ]; do
        sleep 0.1
        t=$((t + 1))
    done
    [ $t -lt 600 ]
}
pes_left() { # the barrier_loop processes left on the simulated nodes
    for ns in ${prefix}1 ${prefix}2; do
        ip netns pids $ns 2>/dev/null | xargs -r ps -o comm= -p 2>/dev/null
    done | grep -c barrier_loop
}
# loop_start VAR=VALUE...: barrier_loop at 4 PEs on 2 nodes in the background
# ($job), with these settings only, its output in $out.
loop_start() {
    MN_ENV_SET="$*"
    MN_ENV_NAMES=$(for kv in "$@"; do printf '%s ' "${kv%%=*}"; done)
    : > "$out"
    mn_run 2 4 node mpirun ./barrier_loop > /dev/null 2>&1 &
    job=$!
}
saved_set=$MN_ENV_SET saved_names=$MN_ENV_NAMES
echo "== scenario: node 2 cut off, 4 PEs on 2 nodes"
start=$(date +%s)
loop_start BARRIER_SECONDS=600 SHOAL_PEER_TIMEOUT=10
rc=1
if pe_up 4; then
    sleep 1
    ip -n ${prefix}2 link set eth0 down
    cut=$(date +%s)
    t=0
    while [ "$(pes_left)" -gt 0 ] && [ $t -lt 30 ]; do
        sleep 1
        t=$((t + 1))
    done
    gone=$(( $(date +%s) - cut ))
    if [ "$(pes_left)" -gt 0 ]; then
        echo "node cut: $(pes_left) PEs still run ${gone} s after the cut"
    elif ! grep -q "PE [0-9]* on node ${prefix}2 has not answered .* in 10 s.*(SHOAL_PEER_TIMEOUT=10)" "$out"; then
        echo "node cut: every PE ended ${gone} s after the cut, but no line names a PE of ${prefix}2"
    else
        grep "has not answered" "$out"
        echo "node cut: every PE ended ${gone} s after the cut"
        rc=0
    fi
else
    echo "node cut: the PEs did not start"
fi
kill -TERM $job 2>/dev/null
sweep
wait $job 2>/dev/null
ip -n ${prefix}2 link set eth0 up
record "scenario:node-cut" $rc $(( $(date +%s) - start ))

echo "== scenario: node 2 off the network for 10 s, 4 PEs on 2 nodes"
start=$(date +%s)
loop_start BARRIER_SECONDS=25
if pe_up 4; then
    sleep 4
    ip -n ${prefix}2 link set eth0 down
    sleep 10
    ip -n ${prefix}2 link set eth0 up
fi
wait $job
rc=$?
cat "$out"
if [ $rc -eq 0 ] && [ "$(grep -c 'rounds checked' "$out")" -ne 4 ]; then
    echo "node flap: exit 0, but not every PE checked its rounds"
    rc=1
fi
record "scenario:node-flap" $rc $(( $(date +%s) - start ))
MN_ENV_SET=$saved_set MN_ENV_NAMES=$saved_names

# Slurm (slurm.sh's cluster; the layouts ran every program under srun with
# Slurm's stock PMIx fence): its ring fence; oshrun -H and -N inside salloc,
# which hand the job to srun; an sbatch --wait job script; and endings under
# srun: a wrong call (one line from the PE that made it), shmem_global_exit, an
# exit before shmem_finalize, a PE killed by a signal. Slurm's exit status must
# say the job failed, within the bound. Skipped where Slurm is not installed.
slurm_do() { # CMD...: from node 1, in tests/pe, against the cluster
    "$here/agent.sh" ${prefix}1 "cd '$build/tests/pe' && $mn_exports SLURM_CONF='$slurm_conf'; $*"
}
no_ucx_error() { # the job's output in $out: 0 when no UCX or Shoal error line
    if grep -q '\] UCX: \|UCX  *ERROR\|UCX  *WARN' "$out"; then
        echo "== UCX reported an error (above)"
        return 1
    fi
}
if [ -n "$slurm_conf" ]; then
    echo "== scenario: srun with Slurm's ring fence (SLURM_PMIX_FENCE=ring), 4 PEs on 2 nodes"
    start=$(date +%s)
    saved_set=$MN_ENV_SET
    MN_ENV_SET="$MN_ENV_SET SLURM_PMIX_FENCE=ring"
    mn_run 2 4 block srun ./pe_rma && no_ucx_error
    rc=$?
    MN_ENV_SET=$saved_set
    record "scenario:srun-ring-fence" $rc $(( $(date +%s) - start ))

    # -w: the allocation must hold the nodes that -H names (Slurm may grant
    # any two of the cluster's nodes otherwise).
    for how in "-H ${prefix}1:2,${prefix}2:2" "-N 2"; do
        echo "== scenario: salloc -N2 -n4 oshrun $how -np 4 pe_rma"
        start=$(date +%s)
        slurm_do "timeout -k 5 $MN_TIMEOUT salloc -N2 -n4 -w ${prefix}1,${prefix}2 '$build/tools/oshrun/oshrun' \
            --verbose --timeout $MN_TIMEOUT $how -np 4 ./pe_rma" > "$out" 2>&1
        rc=$?
        cat "$out"
        [ $rc -eq 0 ] && { grep -q "srun" "$out" || { echo "== oshrun did not hand the job to srun"; rc=1; }; }
        [ $rc -eq 0 ] && { no_ucx_error; rc=$?; }
        record "scenario:salloc-oshrun$(echo "$how" | cut -c1-3)" $rc $(( $(date +%s) - start ))
    done

    echo "== scenario: sbatch --wait, a job script of srun --mpi=pmix pe_rma, 4 PEs on 2 nodes"
    start=$(date +%s)
    printf '#!/bin/sh\nsrun --mpi=pmix ./pe_rma\n' > "$dir/job.sh"
    rm -f "$dir/job.out"
    slurm_do "timeout -k 5 $MN_TIMEOUT sbatch --wait -N2 -n4 -o '$dir/job.out' '$dir/job.sh'" > "$out" 2>&1
    rc=$?
    cat "$out" "$dir/job.out" 2>/dev/null
    cat "$dir/job.out" >> "$out" 2>/dev/null
    [ $rc -eq 0 ] && { no_ucx_error; rc=$?; }
    record "scenario:sbatch" $rc $(( $(date +%s) - start ))

    # Endings: run-err.sh's own checks (one line from the erring PE, non-zero, in time).
    for t in err_pe.err err_exit_status.err err_exit_zero.err err_finalize_early.err; do
        echo "== scenario: $t under srun, 4 PEs on 2 nodes"
        start=$(date +%s)
        slurm_do "ERR_PES=4 ERR_TIMEOUT=60 ERR_LAUNCH='srun --mpi=pmix -N2 -n4' \
            sh '$top/tests/pe/run-err.sh' ./$t"
        record "scenario:srun-$t" $? $(( $(date +%s) - start ))
    done
    # srun_ends NAME WANT CMD: the job must fail within 60 s, with status WANT
    # (any but 0 where WANT is "fail")
    srun_ends() {
        name=$1 want=$2
        shift 2
        echo "== scenario: $name under srun, 4 PEs on 2 nodes"
        start=$(date +%s)
        slurm_do "timeout -k 5 60 $*" > "$out" 2>&1
        rc=$?
        cat "$out"
        took=$(( $(date +%s) - start ))
        if [ $took -ge 60 ] || [ $rc -eq 0 ] || { [ "$want" != fail ] && [ $rc -ne "$want" ]; }; then
            echo "== srun ended with $rc after $took s; expected $want, in time"
            rc=1
        else
            rc=0
        fi
        record "scenario:srun-$name" $rc $took
    }
    srun_ends global-exit 3 srun --mpi=pmix -N2 -n4 ./pe_global_exit 3
    srun_ends pe-killed fail env BARRIER_SECONDS=600 BARRIER_DIE_PE=3 srun --mpi=pmix -N2 -n4 \
        ./barrier_loop
fi
