#!/bin/sh
# binding.sh: what binding the PEs to CPUs costs when other work shares the node. Runs a
# CPU-bound program (rounds of sorting integers, a barrier after each, so the slowest PE sets
# the pace) under oshrun --bind-to core, --bind-to none and oshrun's default: with no load
# of ours, beside busy loops for half the CPUs, and beside one per CPU; prints each run's
# seconds and the binding oshrun chose.
# Usage: binding.sh [-n PES] [-r RUNS] [-k ROUNDS]
#   PES: default the number of CPUs (nproc), where binding used to be the default
#   OSHCC and OSHRUN (environment): the compiler wrapper and launcher, default from PATH
# Exit: 0, 1 when a run fails, 77 when oshcc or oshrun is missing.

np=$(nproc)
runs=3
rounds=200
while getopts n:r:k: opt; do
    case $opt in
    n) np=$OPTARG ;;
    r) runs=$OPTARG ;;
    k) rounds=$OPTARG ;;
    *) echo "usage: $0 [-n PES] [-r RUNS] [-k ROUNDS]" >&2; exit 2 ;;
    esac
done
: "${OSHCC:=oshcc}" "${OSHRUN:=oshrun}"
for p in "$OSHCC" "$OSHRUN"; do
    if ! command -v "$p" >/dev/null 2>&1; then
        echo "SKIP: $p not found (make install, then put its bin/ in PATH, or set OSHCC/OSHRUN)"
        exit 77
    fi
done

TMP=$(mktemp -d) || exit 1
busy=""
stop_load() {
    # shellcheck disable=SC2086 # one pid a word
    [ -n "$busy" ] && kill $busy 2>/dev/null
    busy=""
}
trap 'stop_load; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

cat >"$TMP/sort.c" <<'PROGRAM'
/* ROUNDS times: fill N ints from a PE's own generator, sort them, barrier. PE 0 prints the
 * seconds from the first barrier to the last. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200, n = 20000;
    int *a = malloc(sizeof(int) * (size_t)n);
    unsigned s;
    double t0;

    shmem_init();
    s = 12345u + (unsigned)shmem_my_pe();
    shmem_barrier_all();
    t0 = now();
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            s = s * 1103515245u + 12345u;
            a[i] = (int)(s >> 1);
        }
        qsort(a, (size_t)n, sizeof(int), cmp);
        shmem_barrier_all();
    }
    if (shmem_my_pe() == 0) {
        printf("%.3f\n", now() - t0);
    }
    shmem_finalize();
    free(a);
    return 0;
}
PROGRAM
if ! "$OSHCC" -O2 -o "$TMP/sort" "$TMP/sort.c"; then
    echo "FAIL: $OSHCC cannot build the benchmark"
    exit 1
fi

# one_mode LOAD LABEL [oshrun options]: RUNS runs, their seconds on one line, and oshrun's
# choice when it made one
one_mode() {
    load=$1 label=$2
    shift 2
    times=""
    for _ in $(seq "$runs"); do
        if ! t=$("$OSHRUN" --timeout 120 --verbose "$@" -np "$np" "$TMP/sort" "$rounds" \
            2>"$TMP/err"); then
            cat "$TMP/err"
            echo "FAIL: $label under $load"
            exit 1
        fi
        times="$times $t"
    done
    choice=$(sed -n 's/^oshrun: binding //p' "$TMP/err")
    printf '%-8s %-16s%s   %s\n' "$load" "$label" "$times" "$choice"
}

all_modes() {
    one_mode "$1" "--bind-to core" --bind-to core
    one_mode "$1" "--bind-to none" --bind-to none
    one_mode "$1" "default"
}

# start_load N: N busy loops, left to the scheduler
start_load() {
    for _ in $(seq "$1"); do
        sh -c 'while :; do :; done' &
        busy="$busy $!"
    done
    sleep 1
}

cpus=$(nproc)
half=$(( (cpus + 1) / 2 ))
echo "binding.sh: $np PEs on $cpus CPUs, $rounds rounds of sorting 20000 ints with a" \
    "barrier after each; $runs runs each, seconds"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); load: busy loops of ours"
all_modes none
start_load "$half"
all_modes "$half/$cpus"
stop_load
start_load "$cpus"
all_modes "$cpus/$cpus"
stop_load
