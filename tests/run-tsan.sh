#!/bin/sh
# CI's ThreadSanitizer job: configure a second build tree with --enable-tsan
# (library, oshrun and tests instrumented) and run the multi-threaded PE tests
# in it at 1, 2 and 4 PEs over both transports and UCX over TCP (where requests
# stay outstanding and quiets of several threads overlap). Fails on any test failure and on
# any TSan report. Never touches build/, the normal tree. Configured
# --without-cuda: no test here uses the GPU library, and building it with nvcc took 23 s.
# Usage: tests/run-tsan.sh [BUILDDIR] (default ./build-tsan); TSAN_TESTS picks
# the programs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:-$top/build-tsan}
tests=${TSAN_TESTS:-pe_threads pe_ctx}
start=$(date +%s)

cd "$top" || exit 1
[ -x configure ] || ./autogen.sh || exit 1
mkdir -p "$builddir" && cd "$builddir" || exit 1

# GCC 12's TSan cannot place its shadow memory on kernels that randomise mmap
# with more than 28 bits (vm.mmap_rnd_bits = 32: "FATAL: ThreadSanitizer:
# unexpected memory mapping"). There, run everything with ASLR off for this
# process tree (oshrun and its PEs inherit the personality).
cc=${CC:-cc}
printf 'int main(void) { return 0; }\n' > tsan-probe.c
if ! "$cc" -fsanitize=thread -o tsan-probe tsan-probe.c; then
    echo "run-tsan: $cc cannot build with -fsanitize=thread (On Debian: apt-get install libtsan2)"
    exit 1
fi
norand=""
if ! ./tsan-probe > tsan-probe.log 2>&1; then
    if setarch "$(uname -m)" -R ./tsan-probe > /dev/null 2>&1; then
        norand="setarch $(uname -m) -R"
        echo "run-tsan: TSan needs ASLR off on this kernel; running under '$norand'"
    else
        cat tsan-probe.log
        echo "run-tsan: a TSan program does not start here, with or without ASLR"
        exit 1
    fi
fi

if [ ! -f Makefile ]; then
    "$top/configure" --enable-tsan --without-cuda > configure.out 2>&1 || {
        tail -n 30 configure.out
        echo "run-tsan: configure --enable-tsan failed"
        exit 1
    }
fi
make -j"$(nproc)" > make.out 2>&1 || {
    tail -n 40 make.out
    echo "run-tsan: the TSan build failed"
    exit 1
}
built=$(date +%s)

# UCX's memory hooks (libucm) patch madvise and mmap; glibc calls madvise as a
# thread exits, after TSan has torn down that thread's state, and the hook's
# rwlock call then crashes inside TSan. Shoal needs none of UCX's memory events.
UCX_MEM_MMAP_HOOK_MODE=none
UCX_MEM_MALLOC_HOOKS=no
# exitcode: a PE with a report exits 66, which oshrun and run-pe.sh pass on.
# history_size: the longest history, so that the earlier access of a race keeps
# its stack ("failed to restore the stack" cannot match a suppression).
TSAN_OPTIONS="suppressions=$top/tests/tsan.supp exitcode=66 history_size=7 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export UCX_MEM_MMAP_HOOK_MODE UCX_MEM_MALLOC_HOOKS TSAN_OPTIONS

# Build only the programs it runs: the rest of check_PROGRAMS is the main suite's.
PE_TRANSPORTS=${TSAN_TRANSPORTS:-auto ucx tcp} $norand make -C tests/pe check TESTS="$tests" \
    check_PROGRAMS="$tests" > check.out 2>&1
rc=$?
# A report from a process that ended through _exit keeps its own status: look
# for reports in the logs too.
reports=0
for t in $tests; do
    log=tests/pe/$t.log
    if [ ! -f "$log" ]; then
        tail -n 30 check.out
        echo "run-tsan: $t did not run"
        rc=1
        continue
    fi
    n=$(grep -c 'WARNING: ThreadSanitizer' "$log")
    # The harness ends each log with "PASS t (exit status: 0)" or the like.
    if [ "$n" -gt 0 ] || ! tail -n 1 "$log" | grep -qE '^(PASS|SKIP) '; then
        echo "----- $log"
        cat "$log"
    fi
    reports=$((reports + n))
done
[ "$reports" -eq 0 ] || rc=1
grep -E '^(PASS|FAIL|SKIP|ERROR|XPASS):' check.out
end=$(date +%s)
echo "run-tsan: $reports TSan reports; build $((built - start))s, tests $((end - built))s"
[ $rc -eq 0 ] && echo "run-tsan: passed" || echo "run-tsan: FAILED"
exit $rc
