#!/bin/sh
# Automake LOG_COMPILER for the multi-PE tests: runs one test program under oshrun
# at each PE count in PE_COUNTS and through each path in PE_TRANSPORTS, with a
# watchdog. A transport is a SHOAL_TRANSPORT value, or tcp: SHOAL_TRANSPORT=ucx with
# UCX_TLS=tcp,self (UCX emulates RMA and AMOs in software: every peer must progress).
# The PEs run unbound (--bind-to none): oshrun's default samples the CPUs for 50 ms
# before each job to pick idle ones, and under make -j what it sees is the other
# tests; binding itself is tests/launcher's.
# Under SHOAL_TRANSPORT=ucx, UCX allocates the heap and writes zeros over all of
# it (its posix memory domain checks that /dev/shm can hold the segment): about
# 0.15 s of system time per PE at the default 256 MiB. Those jobs get a heap of
# PE_UCX_HEAP (32M) unless SHMEM_SYMMETRIC_SIZE is set; the scripted tests
# (pe_ctx-tcp.sh, mpirun-rma.sh, ...) keep the default size under UCX.
# Each job's wall time follows it in the log, and the CPU time (user and system)
# of the job's processes, oshrun's and the PEs' (== took N ms, CPU M ms): the
# suite is short of CPU, not of wall time, so the second says what a job costs.
# Exit: 0 all passed, 77 when the program skips, else the failing status.
prog="$1"; shift
: "${OSHRUN:=../../tools/oshrun/oshrun}"
: "${PE_COUNTS:=1 2 4}"
: "${PE_TRANSPORTS:=auto ucx}"
: "${PE_TIMEOUT:=120}"
: "${PE_UCX_HEAP:=32M}"
ucx_heap=${SHMEM_SYMMETRIC_SIZE:-$PE_UCX_HEAP}
status=0
# cpu_now sets cpu to the user and system time of this shell's waited-for
# children so far, in ms: the second line of times, which runs in this shell
# (in a pipe or a command substitution it would be a subshell's, all zeros).
times_file=$(mktemp) || exit 1
trap 'rm -f "$times_file"' EXIT
cpu_now() {
    times > "$times_file"
    cpu=$(awk 'NR == 2 {
        t = 0
        for (i = 1; i <= 2; i++) { split($i, p, "m"); sub("s", "", p[2]); t += p[1] * 60 + p[2] }
        printf "%d\n", t * 1000
    }' "$times_file")
}
for transport in $PE_TRANSPORTS; do
    for np in $PE_COUNTS; do
        echo "== $prog at $np PEs, SHOAL_TRANSPORT=$transport"
        t0=$(date +%s%N)
        cpu_now
        c0=$cpu
        if [ "$transport" = tcp ]; then
            SHOAL_TRANSPORT=ucx UCX_TLS=tcp,self SHMEM_SYMMETRIC_SIZE=$ucx_heap \
                "$OSHRUN" --bind-to none --timeout "$PE_TIMEOUT" -np "$np" "$prog" "$@"
        elif [ "$transport" = ucx ]; then
            SHOAL_TRANSPORT=ucx SHMEM_SYMMETRIC_SIZE=$ucx_heap "$OSHRUN" --bind-to none \
                --timeout "$PE_TIMEOUT" -np "$np" "$prog" "$@"
        else
            SHOAL_TRANSPORT=$transport "$OSHRUN" --bind-to none --timeout "$PE_TIMEOUT" -np "$np" \
                "$prog" "$@"
        fi
        rc=$?
        cpu_now
        echo "== took $((($(date +%s%N) - t0) / 1000000)) ms, CPU $((cpu - c0)) ms"
        if [ $rc -eq 77 ]; then
            echo "== skipped"
            return 77 2>/dev/null || exit 77
        fi
        if [ $rc -ne 0 ]; then
            echo "== FAILED with status $rc ($prog, $np PEs, $transport)"
            status=$rc
        fi
    done
done
exit $status
