#!/bin/sh
# Runs fuzz_args for seeds FUZZ_FIRST..FUZZ_LAST (or the list FUZZ_SEEDS) under oshrun,
# at 2 PEs and every FUZZ_NP3_EVERY-th seed at 3, and judges each run: passed when it
# exits 0, or exits non-zero with the library's one-line error ("[host:pid:pe]
# routine: ..."; oshrun's own lines about the job's end may follow); failed on a
# signal, a hang (oshrun --timeout), a non-zero exit without that line, a
# sanitizer report, or a call the fuzzer knows to be invalid that returned
# ("MISSED": the library let it through). Builds nothing. Exit: 0 none failed, 77 no oshrun, 1 otherwise.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
: "${FUZZ_PROG:=./fuzz_args}"
: "${FUZZ_FIRST:=1}"
: "${FUZZ_LAST:=800}"
: "${FUZZ_NP3_EVERY:=8}"
: "${FUZZ_TIMEOUT:=20}"

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
: >"$tmp/routines"
: >"$tmp/failed"
runs=0 ok=0 erred=0 failed=0 np3=0
error_line='^\[[^]]*:[0-9]*:[0-9-]*\] [A-Za-z_][A-Za-z0-9_]*: '
start=$(date +%s)

for seed in $seeds; do
    np=2
    if [ "$FUZZ_NP3_EVERY" -gt 0 ] && [ $((seed % FUZZ_NP3_EVERY)) -eq 0 ]; then
        np=3 np3=$((np3 + 1))
    fi
    runs=$((runs + 1))
    timeout $((FUZZ_TIMEOUT + 15)) "$OSHRUN" --timeout "$FUZZ_TIMEOUT" -np $np \
        "$FUZZ_PROG" "$seed" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    sed -n 's/^fuzz: PE [0-9-]*: call [^:]*: \([A-Za-z0-9_]*\)(.*/\1/p' "$tmp/out" >>"$tmp/routines"
    why=
    if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
        why="a sanitizer report"
    elif grep -q '^fuzz: PE [0-9-]*: call [^:]*: MISSED' "$tmp/out"; then
        why="a call that should have ended the job returned"
    elif [ $rc -eq 0 ]; then
        ok=$((ok + 1))
        continue
    elif [ $rc -eq 124 ] || [ $rc -eq 137 ] || grep -q '^oshrun: job timed out' "$tmp/err"; then
        why="a hang: no end in $FUZZ_TIMEOUT s"
    elif [ $rc -gt 128 ] || grep -q '^oshrun: .*signal' "$tmp/err"; then
        why="a signal (status $rc)"
    elif ! grep -q "$error_line" "$tmp/err"; then
        why="status $rc without the one-line error"
    else
        erred=$((erred + 1))
        continue
    fi
    failed=$((failed + 1))
    {
        echo "== seed $seed at $np PEs: $why"
        echo "   reproduce: FUZZ_SEEDS=$seed FUZZ_NP3_EVERY=$([ $np -eq 3 ] && echo 1 || echo 0) $0"
        grep '^fuzz: ' "$tmp/out" | sed 's/^fuzz: PE [0-9-]*: /fuzz: /' | awk '!seen[$0]++' |
            sed 's/^/   /'
        tail -n 8 "$tmp/err" | sed 's/^/   stderr: /'
    } >>"$tmp/failed"
done

elapsed=$(($(date +%s) - start))
routines=$(sort -u "$tmp/routines" | wc -l)
cat "$tmp/failed"
echo "run-fuzz: $runs seeds ($np3 at 3 PEs) in ${elapsed}s: $ok passed by success, $erred passed by the one-line error, $failed failed; $routines distinct routines called"
[ $failed -eq 0 ]
