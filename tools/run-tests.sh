#!/bin/sh
# Shoal's second command: run the whole test suite (unit tests, launcher tests,
# multi-PE tests over both transports, man page and generated-file checks).
# Needs tools/setup.sh to have run once (it configures build/).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if [ ! -f build/Makefile ]; then
    [ -x configure ] || ./autogen.sh || exit 1
    mkdir -p build && (cd build && ../configure --prefix="$top/_inst") || exit 1
fi
make -C build -j"$(nproc)" >/dev/null || exit 1
make -C build check -j1 VERBOSE=1 > build/check.out 2>&1
rc=$?
grep -E '^(FAIL|ERROR|XPASS):' build/check.out
pass=$(grep -c '^PASS:' build/check.out)
fail=$(grep -cE '^(FAIL|ERROR|XPASS):' build/check.out)
skip=$(grep -c '^SKIP:' build/check.out)
if [ $rc -ne 0 ]; then
    echo "--- make check failed; the failing logs:"
    for f in $(grep -lE '^(FAIL|ERROR)' $(find build/tests -name '*.log') 2>/dev/null); do
        echo "----- $f"; tail -n 40 "$f"
    done
    [ "$fail" -gt 0 ] || fail=1
fi
echo "tests: $pass passed, $fail failed, $skip skipped"
[ $rc -eq 0 ] && [ "$fail" -eq 0 ]
