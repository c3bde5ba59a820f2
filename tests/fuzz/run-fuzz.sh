#!/bin/sh
# Runs fuzz_args for seeds FUZZ_FIRST..FUZZ_LAST (or the list FUZZ_SEEDS) under oshrun,
# at 2 PEs and every FUZZ_NP3_EVERY-th seed at 3, and judges each run: passed when it
# exits 0, or exits non-zero with the library's one-line error ("[host:pid:pe]
# routine: ..."; oshrun's own lines about the job's end may follow); failed on a
# signal, a hang (oshrun --timeout), a non-zero exit without that line, a
# sanitizer report, or a call the fuzzer knows to be invalid that returned
# ("MISSED": the library let it through). FUZZ_JOBS workers (4) take every
# FUZZ_JOBS-th seed each, at the same time: a job is mostly start-up and waiting.
# The heap is SHMEM_SYMMETRIC_SIZE (32M unless set): a seed that draws
# SHOAL_TRANSPORT=ucx has UCX allocate it and write zeros over all of it, some
# 0.4 s of system time per job at the default 256 MiB; the heap sizes the
# fuzzer draws fit in either (1 MiB) or in neither (256 MiB and up).
# Builds nothing. Exit: 0 none failed, 77 no oshrun, 1 otherwise.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
: "${FUZZ_PROG:=./fuzz_args}"
: "${FUZZ_FIRST:=1}"
: "${FUZZ_LAST:=800}"
: "${FUZZ_NP3_EVERY:=8}"
: "${FUZZ_TIMEOUT:=20}"
: "${FUZZ_JOBS:=4}"
: "${SHMEM_SYMMETRIC_SIZE:=32M}"
export SHMEM_SYMMETRIC_SIZE

if [ ! -x "$OSHRUN" ]; then
    echo "run-fuzz.sh: no $OSHRUN: skipped"
    exit 77
fi
if [ ! -x "$FUZZ_PROG" ]; then
    echo "run-fuzz.sh: no $FUZZ_PROG (make check builds it)"
    exit 1
fi
seeds=${FUZZ_SEEDS:-$(seq "$FUZZ_FIRST" "$FUZZ_LAST")}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
error_line='^\[[^]]*:[0-9]*:[0-9-]*\] [A-Za-z_][A-Za-z0-9_]*: '
start=$(date +%s)

# worker W: the seeds at positions W, W + FUZZ_JOBS, ... of the list, in $tmp/W.*;
# its counts last, in $tmp/W.counts.
worker() {
    w=$1 i=0 runs=0 ok=0 erred=0 failed=0 np3=0
    out=$tmp/$w.out err=$tmp/$w.err
    : >"$tmp/$w.routines"
    : >"$tmp/$w.failed"
    for seed in $seeds; do
        i=$((i + 1))
        [ $((i % FUZZ_JOBS)) -eq "$w" ] || continue
        np=2
        if [ "$FUZZ_NP3_EVERY" -gt 0 ] && [ $((seed % FUZZ_NP3_EVERY)) -eq 0 ]; then
            np=3 np3=$((np3 + 1))
        fi
        runs=$((runs + 1))
        # unbound: no 50 ms look for idle CPUs before each job
        timeout $((FUZZ_TIMEOUT + 15)) "$OSHRUN" --bind-to none --timeout "$FUZZ_TIMEOUT" \
            -np $np "$FUZZ_PROG" "$seed" >"$out" 2>"$err" </dev/null
        rc=$?
        sed -n 's/^fuzz: PE [0-9-]*: call [^:]*: \([A-Za-z0-9_]*\)(.*/\1/p' "$out" \
            >>"$tmp/$w.routines"
        why=
        if grep -q 'Sanitizer\|runtime error' "$err"; then
            why="a sanitizer report"
        elif grep -q '^fuzz: PE [0-9-]*: call [^:]*: MISSED' "$out"; then
            why="a call that should have ended the job returned"
        elif [ $rc -eq 0 ]; then
            ok=$((ok + 1))
            continue
        elif [ $rc -eq 124 ] || [ $rc -eq 137 ] || grep -q '^oshrun: job timed out' "$err"; then
            why="a hang: no end in $FUZZ_TIMEOUT s"
        elif [ $rc -gt 128 ] || grep -q '^oshrun: .*signal' "$err"; then
            why="a signal (status $rc)"
        elif ! grep -q "$error_line" "$err"; then
            why="status $rc without the one-line error"
        else
            erred=$((erred + 1))
            continue
        fi
        failed=$((failed + 1))
        {
            echo "== seed $seed at $np PEs: $why"
            echo "   reproduce: FUZZ_SEEDS=$seed FUZZ_NP3_EVERY=$([ $np -eq 3 ] && echo 1 || echo 0) $0"
            grep '^fuzz: ' "$out" | sed 's/^fuzz: PE [0-9-]*: /fuzz: /' | awk '!seen[$0]++' |
                sed 's/^/   /'
            tail -n 8 "$err" | sed 's/^/   stderr: /'
        } >>"$tmp/$w.failed"
    done
    echo "$runs $ok $erred $failed $np3" >"$tmp/$w.counts"
}

w=0
while [ $w -lt "$FUZZ_JOBS" ]; do
    worker $w &
    w=$((w + 1))
done
wait
runs=0 ok=0 erred=0 failed=0 np3=0
w=0
while [ $w -lt "$FUZZ_JOBS" ]; do
    if [ -f "$tmp/$w.counts" ]; then
        read -r r o e f n <"$tmp/$w.counts"
        runs=$((runs + r)) ok=$((ok + o)) erred=$((erred + e)) failed=$((failed + f))
        np3=$((np3 + n))
        cat "$tmp/$w.failed"
    else
        echo "== worker $w of $FUZZ_JOBS ended without its counts"
        failed=$((failed + 1))
    fi
    w=$((w + 1))
done

elapsed=$(($(date +%s) - start))
routines=$(cat "$tmp"/*.routines | sort -u | wc -l)
echo "run-fuzz: $runs seeds ($np3 at 3 PEs) in ${elapsed}s: $ok passed by success, $erred passed by the one-line error, $failed failed; $routines distinct routines called"
[ $failed -eq 0 ]
