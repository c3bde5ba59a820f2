#!/bin/sh
# shellcheck disable=SC2016 # single-quoted $VARs below are for the PEs' shells
# Checks oshrun against a PMIx client: wire-up data exchange, exit status and failure
# handling, timeouts, option errors, and that no PE outlives its job. Builds nothing.
# Usage: run-launcher-tests.sh [OSHRUN [PMIX_CLIENT]]  (or env OSHRUN=..., PMIX_CLIENT=...)
# Exit: 0 all passed, 1 something failed, 77 the programs are missing.

OSHRUN=${1:-${OSHRUN:-../../tools/oshrun/oshrun}}
CLIENT=${2:-${PMIX_CLIENT:-./pmix_client}}
for p in "$OSHRUN" "$CLIENT"; do
    if [ ! -x "$p" ]; then
        echo "SKIP: $p is not an executable"
        exit 77
    fi
done
case $CLIENT in /*) ;; *) CLIENT=$(pwd)/$CLIENT ;; esac
CLIENT_NAME=$(basename "$CLIENT")
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
failed=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; sed 's/^/    /' "$TMP/err" 2>/dev/null | head -20; }

# run NAME EXPECTED_STATUS STDERR_REGEX MAX_SECONDS -- oshrun arguments...
run() {
    name=$1 want=$2 regex=$3 max=$4
    shift 5
    start=$(date +%s)
    "$OSHRUN" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    got=$?
    took=$(( $(date +%s) - start ))
    if [ "$got" != "$want" ]; then
        fail "$name" "exit status $got, expected $want"
    elif [ -n "$regex" ] && ! grep -Eq "$regex" "$TMP/err"; then
        fail "$name" "stderr does not match '$regex'"
    elif [ -n "$regex" ] && [ "$(grep -c '^oshrun:' "$TMP/err")" != 1 ]; then
        fail "$name" "expected exactly one oshrun line on stderr"
    elif [ "$took" -gt "$max" ]; then
        fail "$name" "took ${took}s, limit ${max}s"
    elif pgrep -x "$CLIENT_NAME" >/dev/null 2>&1; then
        sleep 1
        if pgrep -x "$CLIENT_NAME" >/dev/null 2>&1; then
            fail "$name" "PEs left behind: $(pgrep -x "$CLIENT_NAME" | tr '\n' ' ')"
            pkill -KILL -x "$CLIENT_NAME"
        else
            pass "$name"
        fi
    else
        pass "$name"
    fi
}

if pgrep -x "$CLIENT_NAME" >/dev/null 2>&1; then
    echo "note: $CLIENT_NAME already running elsewhere; the orphan checks may misfire"
fi

# data exchange: job info, put/commit/collecting fence/get every peer, barrier, finalize
for n in 1 2 4 8; do
    run "exchange-np$n" 0 "" 20 -- --timeout 20 -np $n "$CLIENT"
    if ! grep -q "^pmix_client: $n PEs" "$TMP/out"; then
        fail "exchange-np$n-output" "rank 0 did not report $n PEs"
    fi
done
run "exchange-4KiB-np4" 0 "" 20 -- --timeout 20 -n 4 "$CLIENT" --bytes 4096
run "exchange-nocollect-np4" 0 "" 20 -- --timeout 20 -np 4 "$CLIENT" --nocollect
run "non-pmix-program" 0 "" 10 -- --timeout 10 -np 2 true
run "env-x" 0 "" 10 -- --timeout 10 -x SHOAL_T1=yes -x HOME -np 2 sh -c 'test "$SHOAL_T1" = yes'
run "stdin-rank1-devnull" 0 "" 10 -- --timeout 10 -np 2 sh -c \
    'test "$PMIX_RANK" = 0 || test "$(wc -c)" = 0'

# failures end the job with one line naming the PE and its status
run "exit-status" 3 "^oshrun: PE 2 \(pid [0-9]+\) exited with status 3; ending the job$" 10 \
    -- --timeout 20 -np 4 "$CLIENT" --exit 2:3
# a PE that exits with a status after finalizing does not cut the others' exit short
run "exit-after-finalize" 3 "^oshrun: PE 0 \(pid [0-9]+\) exited with status 3; ending the job$" 10 \
    -- --timeout 20 -np 2 "$CLIENT" --exit-after-finalize 0:3 --linger-after-finalize 1:300
grep -q "rank 1 lingered 300 ms" "$TMP/out" || fail "exit-after-finalize" "PE 1 was ended before it exited"
run "signal-death" 139 "^oshrun: PE 1 \(pid [0-9]+\) killed by signal 11 .*ending the job$" 10 \
    -- --timeout 20 -np 4 "$CLIENT" --segv 1
run "abort" 5 "^oshrun: PE 3 \(pid [0-9]+\) called abort \(status 5\): test abort$" 10 \
    -- --timeout 20 -np 4 "$CLIENT" --abort 3:5
run "abort-status-0" 1 "called abort \(status 0\)" 10 -- --timeout 20 -np 2 "$CLIENT" --abort 0:0
run "no-finalize" 1 "^oshrun: PE 1 \(pid [0-9]+\) exited without finalizing" 10 \
    -- --timeout 20 -np 2 "$CLIENT" --nofinalize 1
run "timeout" 124 "^oshrun: job timed out after 1 s; ending the job$" 10 \
    -- --timeout 1 -np 4 "$CLIENT" --hang 2
run "timeout-ignores-sigterm" 124 "timed out" 10 \
    -- --timeout 1 -np 2 sh -c 'trap "" TERM; while :; do sleep 1; done'

# SIGTERM to oshrun is passed on and the job ends
"$OSHRUN" -np 3 --timeout 30 "$CLIENT" --hang all >/dev/null 2>"$TMP/err" </dev/null &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
got=$?
if [ $got != 143 ] || ! grep -q "received signal 15" "$TMP/err"; then
    fail "sigterm-forwarded" "exit status $got, expected 143"
elif pgrep -x "$CLIENT_NAME" >/dev/null 2>&1; then
    fail "sigterm-forwarded" "PEs left behind"
    pkill -KILL -x "$CLIENT_NAME"
else
    pass "sigterm-forwarded"
fi

# cannot start the program
run "exec-not-found" 127 "^oshrun: cannot run 'no-such-program-x': No such file or directory$" 5 \
    -- -np 2 no-such-program-x
run "exec-not-executable" 127 "^oshrun: cannot run '/dev/null': Permission denied$" 5 \
    -- -np 2 /dev/null

# usage errors: one line, exit 2
for bad in 0 -1 x 2x "" 99999999999; do
    run "bad-np-'$bad'" 2 "^oshrun: the number of PEs must be a positive integer" 5 -- -np "$bad" true
done
run "bad-timeout" 2 "timeout must be a positive number" 5 -- --timeout abc true
run "unknown-option" 2 "^oshrun: unknown option '--frobnicate'" 5 -- --frobnicate true

# binding: each PE on one CPU of its own when they fit (the default), none on request,
# an error when --bind-to core cannot give each PE a CPU
one_cpu='grep -Eq "^Cpus_allowed_list:[[:space:]]*[0-9]+$" /proc/self/status'
cpus=$(nproc)
run "bind-default" 0 "" 10 -- --timeout 10 -np "$cpus" sh -c "$one_cpu"
run "bind-core" 0 "" 10 -- --timeout 10 --bind-to core -np 1 sh -c "$one_cpu"
if [ "$cpus" -gt 1 ]; then
    run "bind-none" 0 "" 10 -- --timeout 10 --bind-to none -np 2 sh -c "! $one_cpu"
    run "bind-oversubscribed" 0 "" 10 -- --timeout 10 -np $((cpus + 1)) sh -c "! $one_cpu"
fi
run "bind-core-too-many" 2 "^oshrun: --bind-to core: $((cpus + 1)) PEs but only $cpus CPUs" 5 \
    -- --bind-to core -np $((cpus + 1)) true
run "bad-bind" 2 "^oshrun: --bind-to takes core or none, got 'socket'" 5 -- --bind-to socket true
run "missing-value" 2 "needs a value" 5 -- -np
run "no-program" 2 "no program to run" 5 -- -np 2
run "multi-node" 2 "srun --mpi=pmix.*prterun.*mpirun" 5 -- --hostfile hosts -np 2 true
run "help" 0 "" 5 -- --help
run "version" 0 "" 5 -- --version

exit $failed
