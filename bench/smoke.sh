#!/bin/sh
# Smoke test for bench/: every benchmark runs one tiny repetition at 2 PEs under oshrun and
# ends with its BENCH_END line, and compare parses. No timing is checked, ever.
: "${OSHRUN:=../tools/oshrun/oshrun}"
: "${srcdir:=.}"
tiny="-m -r 1 -n 2 -w 0"
status=0

run() {
    name=$1; shift
    out=$("$@" 2>&1)
    rc=$?
    if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q '^BENCH_END$'; then
        printf '%s\n' "$out"
        echo "FAIL: $name (status $rc, or no BENCH_END line)"
        status=1
    else
        echo "ok: $name ($(printf '%s\n' "$out" | grep -c '^BENCH ') rows)"
    fi
}

for prog in latency bandwidth amo pingpong coll lock; do
    run "$prog" "$OSHRUN" --timeout 60 -np 2 "./$prog" $tiny -s 8
done
run coll-F "$OSHRUN" --timeout 60 -np 2 ./coll $tiny -s 8 -F
run coll-C "$OSHRUN" --timeout 60 -np 2 ./coll $tiny -s 8 -C
run raw ./raw $tiny -s 4K
if "$OSHRUN" --timeout 60 -np 2 ./startup; then
    echo "ok: startup"
else
    echo "FAIL: startup"
    status=1
fi
if [ -n "$PYTHON3" ]; then
    if "$PYTHON3" -c 'import ast, sys; ast.parse(open(sys.argv[1]).read())' "$srcdir/compare"; then
        echo "ok: compare parses"
    else
        echo "FAIL: compare does not parse"
        status=1
    fi
fi
exit $status
