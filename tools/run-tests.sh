#!/bin/sh
# Shoal's second command: run the whole test suite (unit tests, launcher tests,
# multi-PE tests over both transports, man page and generated-file checks), or,
# given names, only those tests (each as make check knows it: pe_rma, err_pe.err,
# hang-report.sh, run-fuzz.sh, check_heap, check-man.sh), with their logs.
# Needs tools/setup.sh to have run once (it configures build/).
# Usage: tools/run-tests.sh [NAME...]; RUN_TESTS_JOBS=N runs N tests at a time
# (default: 2 per CPU; the multi-PE jobs mostly start up and wait). The results
# are those of make check (it runs the same tests, one directory at a time).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
if [ ! -f build/Makefile ]; then
    [ -x configure ] || ./autogen.sh || exit 1
    mkdir -p build && (cd build && ../configure --prefix="$top/_inst") || exit 1
fi
jobs=${RUN_TESTS_JOBS:-$(($(nproc) * 2))}
make -C build -j"$jobs" >/dev/null || exit 1

# The tests of directory $1 (TESTS, after configure's conditionals), one a line.
tests_of() {
    printf 'run-tests-list:\n\t@echo $(TESTS)\n' |
        make -s -C "$1" -f Makefile -f - run-tests-list 2>/dev/null | tr ' ' '\n'
}

if [ $# -gt 0 ]; then
    dirs=$(find build -name Makefile -path 'build/tests*' -o -name Makefile -path 'build/bench*' |
        sed 's|/Makefile$||' | sort)
    rc=0
    for name in "$@"; do
        dir=
        for d in $dirs; do
            if tests_of "$d" | grep -qxF "$name"; then
                dir=$d
                break
            fi
        done
        if [ -z "$dir" ]; then
            echo "run-tests: no test named $name (make check's names: pe_rma, err_pe.err, hang-report.sh)"
            rc=1
            continue
        fi
        # err_pe.err's log is err_pe.log (a TEST_EXTENSIONS suffix goes), check-man.sh's
        # check-man.sh.log. An old log goes first: where the build fails, make's own
        # output is shown, not a log of the last run.
        rm -f "$dir/$name.log" "$dir/${name%.*}.log"
        # check-am: this directory only (check would recurse into SUBDIRS with TESTS)
        make -C "$dir" -j"$jobs" check-am TESTS="$name" > "$dir/run-tests.out" 2>&1
        r=$?
        log=$dir/$name.log
        [ -f "$log" ] || log=$dir/${name%.*}.log
        if [ -f "$log" ]; then cat "$log"; else tail -n 40 "$dir/run-tests.out"; fi
        [ $r -eq 0 ] || rc=1
    done
    exit $rc
fi

# make check goes through the test directories one after another, each waiting
# for its slowest test; here every directory's check-am (its programs, then its
# tests) runs under one make -j, so that all of them share the $jobs slots: the
# biggest directory first.
start=$(date +%s)
dirs=$(cd build && for d in tests/pe tests/fuzz tests/launcher tests/gpu-cpu tests/gpu \
    tests/unit tests bench; do [ -f $d/Makefile ] && echo $d; done)
{
    printf 'all:'
    for d in $dirs; do printf ' check-%s' "$d"; done
    printf '\n'
    for d in $dirs; do printf 'check-%s:\n\t$(MAKE) -C %s check-am VERBOSE=1\n' "$d" "$d"; done
} > build/run-tests.mk
make -C build -f run-tests.mk -k -j"$jobs" > build/check.out 2>&1
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
echo "tests: $pass passed, $fail failed, $skip skipped in $(($(date +%s) - start)) s ($jobs at a time)"
# Where the CPU time went (the suite is short of CPU): the multi-PE jobs' CPU
# time from run-pe.sh's lines in the logs, in all and for the five costliest tests.
find build/tests -name '*.log' ! -name test-suite.log -exec awk '
    /^== took [0-9]+ ms, CPU [0-9]+ ms$/ { c[FILENAME] += $(NF - 1) }
    END { for (f in c) print c[f], f }' {} + | sort -rn |
    awk '{ sub("^build/tests/", "", $2); sub("[.]log$", "", $2); all += $1 }
         NR <= 5 { top = top sep $2 " " int($1 / 1000 + 0.5) " s"; sep = ", " }
         END { if (NR) printf "tests: multi-PE jobs used %d s of CPU; the most: %s\n", all / 1000 + 0.5, top }'
[ $rc -eq 0 ] && [ "$fail" -eq 0 ]
