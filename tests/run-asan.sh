#!/bin/sh
# CI's AddressSanitizer + UndefinedBehaviorSanitizer job: configure a second build
# tree with --enable-asan (library, oshrun and tests instrumented), then run the
# unit tests, every tests/pe program at 2 and 4 PEs over both transports, every
# error test at 2 PEs, and the argument fuzzer for ASAN_FUZZ_SEEDS seeds (200).
# Fails on any test failure and on any sanitizer report (leaks included, but for
# the suppressions in tests/asan.supp).
# Never touches build/, the normal tree. Configured --without-cuda: no test here
# uses the GPU library, and building it with nvcc took 23 s. The C++ overload checks of tests/unit
# (check_cxx_generic11, 17) are left to tools/run-tests.sh.
# Usage: tests/run-asan.sh [BUILDDIR] (default ./build-asan); ASAN_PE_TESTS and
# ASAN_ERR_TESTS pick the programs (default: all of them).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:-$top/build-asan}
start=$(date +%s)

cd "$top" || exit 1
[ -x configure ] || ./autogen.sh || exit 1
mkdir -p "$builddir" && cd "$builddir" || exit 1
if [ ! -f Makefile ]; then
    "$top/configure" --enable-asan --without-cuda > configure.out 2>&1 || {
        tail -n 30 configure.out
        echo "run-asan: configure --enable-asan failed"
        exit 1
    }
fi
make -j"$(nproc)" > make.out 2>&1 || {
    tail -n 40 make.out
    echo "run-asan: the ASan build failed"
    exit 1
}
built=$(date +%s)

pe_tests=${ASAN_PE_TESTS:-$(sed -n '/^PE_TESTS = /,/[^\\]$/p' "$top/tests/pe/Makefile.am" |
    sed 's/^PE_TESTS = //; s/\\//' | tr '\n' ' ')}
err_tests=${ASAN_ERR_TESTS:-$(cd "$top/tests/pe" && ls err_*.c | sed 's/\.c$/.err/' | tr '\n' ' ')}

# UCX's memory hooks (libucm) patch mmap and malloc, which ASan intercepts too;
# Shoal needs none of UCX's memory events.
UCX_MEM_MMAP_HOOK_MODE=none
UCX_MEM_MALLOC_HOOKS=no
# exitcode 66: a PE with an ASan report fails its test even when the program
# would have passed; UBSan findings end the process (-fno-sanitize-recover).
ASAN_OPTIONS="exitcode=66 ${ASAN_OPTIONS:-}"
LSAN_OPTIONS="suppressions=$top/tests/asan.supp print_suppressions=0 ${LSAN_OPTIONS:-}"
UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1 ${UBSAN_OPTIONS:-}"
export UCX_MEM_MMAP_HOOK_MODE UCX_MEM_MALLOC_HOOKS ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
# Fewer rounds of the longest loops (the multi-node run's counts, and 2,000 of
# pe_signal's 10,000 messages): every path still runs, and a sanitizer checks a
# path, not how often it is taken. pe_signal at 4 PEs took 18-24 s here.
: "${SIGNAL_MSGS:=2000}" "${AMO_ITERS:=4000}" "${MIXED_ITERS:=5000}" "${LOCK_ITERS:=500}"
# The same for pe_reduce's largest reductions: one type of each size and kind, as
# pe_reduce-algos.sh runs them.
: "${PE_REDUCE_LARGE_SAMPLE:=1}"
export SIGNAL_MSGS AMO_ITERS MIXED_ITERS LOCK_ITERS PE_REDUCE_LARGE_SAMPLE

rc=0
# The unit tests of Check (CHECK_TESTS), not check_cxx_generic11 and 17: those
# check which C routine each C++ overload picks, against stubs, nothing a
# sanitizer looks at, and instrumented they took 21 s each to compile.
make -C tests/unit -j"$(nproc)" check TESTS='$(CHECK_TESTS)' check_PROGRAMS='$(CHECK_TESTS)' \
    > unit.out 2>&1 || rc=1
# Two tests per CPU at once, as tools/run-tests.sh.
# shellcheck disable=SC2086 # lists of words
PE_COUNTS="2 4" PE_TRANSPORTS="auto ucx" make -C tests/pe -j$(($(nproc) * 2)) check \
    TESTS="$pe_tests $err_tests" \
    check_PROGRAMS="$pe_tests $err_tests" > check.out 2>&1 || rc=1
# The fuzzer finds what no test calls (a leak at finalize, a crash on a bad argument).
FUZZ_LAST=${ASAN_FUZZ_SEEDS:-200} make -C tests/fuzz check > fuzz.out 2>&1 || rc=1

# Reports can come from a process whose status the harness did not see (a PE
# that ended through _exit): look for them in every log.
reports=0
for log in tests/unit/*.log tests/pe/*.log tests/fuzz/*.log; do
    [ -f "$log" ] || continue
    case $log in */test-suite.log) continue ;; esac
    n=$(grep -cE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log")
    if [ "$n" -gt 0 ] || ! tail -n 1 "$log" | grep -qE '^(PASS|SKIP) '; then
        echo "----- $log"
        tail -n 80 "$log"
    fi
    reports=$((reports + n))
done
[ "$reports" -eq 0 ] || rc=1
grep -hoE '^(PASS|FAIL|SKIP|ERROR|XPASS):' unit.out check.out fuzz.out | sort | uniq -c
grep -hE '^(FAIL|ERROR|XPASS):' unit.out check.out fuzz.out
grep -h '^run-fuzz:' tests/fuzz/run-fuzz.log 2>/dev/null
end=$(date +%s)
echo "run-asan: $reports sanitizer reports; build $((built - start))s, tests $((end - built))s"
[ $rc -eq 0 ] && echo "run-asan: passed" || echo "run-asan: FAILED"
exit $rc
