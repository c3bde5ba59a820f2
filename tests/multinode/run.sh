#!/bin/sh
# The multi-PE tests across simulated nodes (nodes.sh), started by Open MPI's
# mpirun through UCX over TCP between the nodes. Usage:
#   tests/multinode/run.sh [BUILD_DIR [TEST...]]
# BUILD_DIR is a configured and built tree (default ./build); the tests default to
# every pe_* program of tests/pe. Each layout runs each test:
#   2 nodes, 4 PEs, mapped by node (0,2 | 1,3: every neighbour on the other node),
#     started by mpirun
#   3 nodes, 5 PEs, mapped by slot (0,1 | 2,3 | 4: uneven), started by
#     oshrun --hostfile, which hands the job to mpirun
#   2 nodes, 4 PEs, srun --mpi=pmix -m block, and 3 nodes, 5 PEs, -m cyclic, on
#     a Slurm cluster of the simulated nodes (slurm.sh: munged, slurmctld,
#     slurmd, Slurm's stock PMIx fence); skipped, with the reason, where Slurm
#     is not installed
# The collectives' programs (MN_COLL_TESTS) run besides at 2 PEs on 2 nodes and
# 6 on 2 (MN_COLL_LAYOUTS): the small collectives across nodes go through
# regions sized by the team (shoal_coll_regions_fit), one PE a node and three
# (a node's head takes two arrivals). Not 8: 8 PEs on 2 cores of a busy machine
# took over the watchdog's 120 s in CI (10x their time on an idle one).
# then every err_* test at 4 PEs on 2 nodes (run-err.sh's checks: one error line
# from the erring PE, a prompt non-zero exit), then the scenarios of scenarios.sh
# (the AMO path rule; kernels of the CPU engine through the host proxy). A job
# fails on a non-zero status and on any "UCX: ..." line of Shoal's or ERROR or
# WARN line of UCX's own (but a GPU scenario that ends in the open UCX stall
# runs once more, and the end says so: scenarios.sh). To run only part:
# MN_LAYOUTS (" ": none), MN_COLL_LAYOUTS (" ": none), MN_ERR_TESTS=no,
# MN_SCENARIOS=no, MN_GPU_TESTS (names).
# Exit 0 when all passed, 77 (skip, with the reason) where this machine cannot
# make namespaces or has no Open MPI mpirun, 1 when anything failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$top/build}" && pwd) || exit 1
[ $# -gt 0 ] && shift
# pe_global_exit, pe_exit_flush and pe_sleep are driven by their scripts
# (global-exit.sh, exit-flush.sh, pe_sleep-agree.sh; the first two end the job
# with status 3 on purpose), with arguments and settings of their own; the
# scenarios run the first two across nodes.
tests=${*:-$(cd "$top/tests/pe" && ls pe_*.c | sed 's/\.c$//' |
    grep -vx 'pe_global_exit\|pe_exit_flush\|pe_sleep') pe_rma_nopie}
: "${MN_TIMEOUT:=180}"
: "${MN_LAYOUTS:=2:4:node:mpirun 3:5:slot:oshrun 2:4:block:srun 3:5:cyclic:srun}"
: "${MN_COLL_LAYOUTS:=2:2:node:mpirun 2:6:node:mpirun}"
: "${MN_COLL_TESTS:=pe_coll pe_reduce pe_team pe_active_set pe_coll_burst}"
: "${MN_SCENARIOS:=yes}"
# Contention and ring tests: fewer rounds, each one a TCP round trip here
# (pe_signal's 10,000 messages took 12-14 s a layout); pe_reduce's largest
# reductions for one type of each size and kind (as pe_reduce-algos.sh).
: "${MN_TEST_ENV:=AMO_ITERS=4000 MIXED_ITERS=5000 LOCK_ITERS=500 SIGNAL_MSGS=2000 \
PE_REDUCE_LARGE_SAMPLE=1}"
prefix=shmn
. "$here/env.sh"

reason=$("$here/nodes.sh" check) || { echo "multinode: skipped: $reason"; exit 77; }
mpirun=$(command -v mpirun)
if [ -z "$mpirun" ] || ! "$mpirun" --version 2>/dev/null | grep -q "Open MPI"; then
    echo "multinode: skipped: Open MPI's mpirun not found (package openmpi-bin)"
    exit 77
fi

"$here/slurm.sh" down $prefix
"$here/nodes.sh" down $prefix
trap '"$here/slurm.sh" down $prefix; "$here/nodes.sh" down $prefix; rm -f "$out" "$summary"' EXIT
trap 'exit 130' INT TERM
# What a slow job's time is to be read against: the machine, and how busy it is.
echo "multinode: $(nproc) CPUs of $(getconf _NPROCESSORS_ONLN) online, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
out=$(mktemp)
summary=$(mktemp) # each failed job's last lines, printed again at the end
"$here/nodes.sh" up $prefix 3 >/dev/null || exit 1
dir=/run/shoal-nodes/$prefix
# A Slurm cluster on the same nodes, for the srun layouts and scenarios.
slurm_conf=""
if no_slurm=$("$here/slurm.sh" check); then
    slurm_conf=$("$here/slurm.sh" up $prefix 3) || exit 1
else
    echo "multinode: no Slurm: the srun layouts and scenarios are skipped ($no_slurm)"
fi

# Ends whatever a failed or timed-out job left on the nodes (Slurm's daemons stay).
sweep() {
    for ns in ${prefix}1 ${prefix}2 ${prefix}3; do
        pids=$(ip netns pids $ns 2>/dev/null | while read -r pid; do
            case $(cat /proc/$pid/comm 2>/dev/null) in
            slurmctld | slurmd) ;;
            *) echo $pid ;;
            esac
        done)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
    done
}

# hostfile NODES NP: NP slots spread over NODES nodes, the first ones fuller.
hostfile() {
    f=$dir/hostfile-$1-$2
    : > "$f"
    i=1
    while [ $i -le "$1" ]; do
        echo "${prefix}$i slots=$(( ($2 + $1 - i) / $1 ))" >> "$f"
        i=$((i + 1))
    done
    echo "$f"
}

# mn_run NODES NP MAP LAUNCHER CMD...: CMD started from node 1 by mpirun, by
# oshrun --hostfile (which runs mpirun: it maps by slot), or by srun --mpi=pmix
# with MAP as its -m (block, cyclic); output in $out (and shown). The variables in
# MN_ENV_SET are set; mpirun is given -x for each name in MN_ENV_NAMES, oshrun
# forwards them itself (SHMEM_*, SHOAL_*, UCX_* and -x), srun passes everything.
mn_run() {
    hf=$(hostfile "$1" "$2")
    nnodes=$1 np=$2 map=$3 launcher=$4
    shift 4
    xs=""
    for v in $MN_ENV_NAMES; do xs="$xs -x $v"; done
    if [ "$launcher" = srun ]; then
        start_cmd="SLURM_CONF='$slurm_conf' timeout -k 5 $MN_TIMEOUT srun --mpi=pmix \
            -N $nnodes -n $np -m $map"
    elif [ "$launcher" = oshrun ]; then
        start_cmd="'$build/tools/oshrun/oshrun' --verbose --timeout $MN_TIMEOUT \
            --hostfile '$hf' -np $np $xs"
    else
        start_cmd="timeout -k 5 $MN_TIMEOUT '$mpirun' --allow-run-as-root --oversubscribe \
            --hostfile '$hf' --map-by $map -np $np -x UCX_TLS -x UCX_NET_DEVICES $xs"
    fi
    "$here/agent.sh" ${prefix}1 "cd '$build/tests/pe' && $mn_exports $MN_ENV_SET; \
        $start_cmd $*" > "$out" 2>&1
    rc=$?
    cat "$out"
    if [ $rc -eq 0 ] && grep -q '\] UCX: \|UCX  *ERROR\|UCX  *WARN' "$out"; then
        echo "== UCX reported an error (above)"
        rc=1
    fi
    return $rc
}

MN_ENV_SET=$MN_TEST_ENV
MN_ENV_NAMES=$(for kv in $MN_TEST_ENV; do printf '%s ' "${kv%%=*}"; done)
pass=0 fail=0 failed="" stalls=""
record() { # record NAME STATUS SECONDS
    if [ "$2" -eq 0 ] || [ "$2" -eq 77 ]; then
        echo "== ok ($2) in ${3}s"
        pass=$((pass + 1))
    else
        echo "== FAILED: $1, status $2 after ${3}s"
        { # without UCX's backtrace frames
            echo "---- $1, status $2 after ${3}s (load average then: $(cut -d' ' -f1-3 /proc/loadavg)):"
            grep -v '^ *[0-9][0-9]*  *[/[]\|^=====* *backtrace\|^=====*$' "$out" | tail -n 30
        } >> "$summary"
        fail=$((fail + 1))
        failed="$failed $1"
        sweep
    fi
}

# stall NAME: the job ended with the open UCX stall (scenarios.sh); its lines
# about it go to the summary, and NAME is listed at the end, pass or fail.
stall() {
    {
        echo "---- $1 stalled, run again (load average then: $(cut -d' ' -f1-3 /proc/loadavg)):"
        grep 'has not answered\|UCX' "$out" | head -n 10
    } >> "$summary"
    stalls="$stalls $1"
    sweep
}

# run_layouts "LAYOUTS" "TESTS": each test at each layout
run_layouts() {
    for layout in $1; do
        IFS=: read -r nodes np map launcher <<EOF
$layout
EOF
        if [ "$launcher" = srun ] && [ -z "$slurm_conf" ]; then
            echo "== layout $layout skipped: no Slurm"
            continue
        fi
        for t in $2; do
            [ -x "$build/tests/pe/$t" ] || { echo "multinode: $build/tests/pe/$t not built"; exit 1; }
            echo "== $t: $np PEs on $nodes nodes (by $map, $launcher)"
            start=$(date +%s)
            mn_run "$nodes" "$np" "$map" "$launcher" "./$t"
            record "$t@$nodes:$np" $? $(( $(date +%s) - start ))
        done
    done
}
run_layouts "$MN_LAYOUTS" "$tests"
run_layouts "$MN_COLL_LAYOUTS" "$MN_COLL_TESTS"

# The error tests: the wrong call must end the job across nodes too, with the one
# line from the PE that made it (run-err.sh checks), at 4 PEs on 2 nodes through
# oshrun --hostfile (PEs 0,1 | 2,3: the erring PE is on the second node).
if [ "${MN_ERR_TESTS:-yes}" = yes ]; then
    hf=$(hostfile 2 4)
    # err_coll_absent is left out: at 4 PEs every PE waiting in the barrier reports
    # after the timeout, and those later in the dissemination name a PE that is
    # itself waiting (the misleading report of issue 13); its expected output is
    # defined for 2 PEs.
    for t in $(cd "$build/tests/pe" && ls err_*.err | grep -v '^err_coll_absent'); do
        echo "== $t: 4 PEs on 2 nodes (oshrun --hostfile)"
        start=$(date +%s)
        "$here/agent.sh" ${prefix}1 "cd '$build/tests/pe' && $mn_exports; \
            ERR_PES=4 ERR_TIMEOUT=60 \
            ERR_LAUNCH='$build/tools/oshrun/oshrun --timeout 60 --hostfile $hf -N 2 -np 4' \
            sh '$top/tests/pe/run-err.sh' ./$t" > "$out" 2>&1
        rc=$?
        cat "$out"
        record "$t@2:4" $rc $(( $(date +%s) - start ))
    done
fi

if [ "$MN_SCENARIOS" = yes ]; then
    . "$here/scenarios.sh"
fi

if [ $fail -gt 0 ] || [ -n "$stalls" ]; then
    echo "== the failed jobs' last lines (a scenario's: its last job's output)"
    cat "$summary"
fi
echo "multinode: $pass passed, $fail failed"
[ -n "$stalls" ] && echo "multinode: stalled once (the open UCX stall) and run again:$stalls"
[ -n "$failed" ] && echo "multinode: failed:$failed"
[ $fail -eq 0 ]
