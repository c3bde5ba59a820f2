#!/bin/sh
# Hang reports. Each hang_* program deadlocks on purpose under oshrun --timeout:
# a wait_until on a heap int nobody sets (hang_wait; "vector": the _all_vector form
# with a status mask), a barrier that half of the PEs never join (hang_barrier), a
# broadcast whose root never calls it (hang_bcast; "team": on a team of world PEs
# 1..n-1), a lock whose holder never clears it (hang_lock). With
# SHOAL_HANG_REPORT=2 every waiting PE must print its line, as the report after
# 2 s (well before --timeout 6): the routine, the heap offset the program printed,
# the value, or the PEs the collective lacks, or the lock's holder. Without the
# setting, oshrun's SIGUSR2 at the timeout (6 s: 4 PEs on UCX took over 3 s to
# reach their hang under the parallel suite) must bring the lines before the
# kill. Every job
# must end with oshrun's timeout status, 124. Runs at HANG_PES PEs through
# HANG_TRANSPORTS (SHOAL_TRANSPORT values), the PE counts of a transport at the
# same time, each in its own files. Exit 0 pass, 1 fail.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
# A small heap: these jobs need a few words, and UCX zero-fills a heap it
# allocates (SHOAL_TRANSPORT=ucx), which at 256 MiB per PE made a job under the
# parallel suite miss its 2 s report before the 6 s timeout.
SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-16M}
export SHMEM_SYMMETRIC_SIZE
: "${HANG_PES:=2 4}"
: "${HANG_TRANSPORTS:=auto ucx}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
status=0 failed=0

fail() {
    echo "== FAILED ($case): $*"
    failed=1
    status=1
}

# run TIMEOUT PROGRAM [ARG]: the job, its output in $out; it must end with 124.
run() {
    t=$1
    shift
    case="$* at $np PEs, SHOAL_TRANSPORT=$transport, ${mode}"
    failed=0
    SHOAL_TRANSPORT=$transport "$OSHRUN" --bind-to none --timeout "$t" -np "$np" "./$1" $2 \
        > "$out" 2>&1
    rc=$?
    [ $rc -eq 124 ] || fail "status $rc, expected 124 (oshrun's timeout)"
}

# expect PE TEXT: a line from PE ("[host:pid:PE] " then TEXT, a basic regular
# expression of the whole rest of the line).
expect() {
    grep -q "^\[[^]:]*:[0-9]*:$1\] $2\$" "$out" || fail "no line from PE $1 matching: $2"
}

# The heap offset PE $1 printed after "$2" (a line of the program's own).
offset() {
    sed -n "s/^$2: PE $1 [^+]*heap+\(0x[0-9a-f]*\).*/\1/p" "$out" | head -n 1
}

# wait_until lines of the PEs $2.. of program $1 (on the heap int it printed).
expect_waits() {
    prog=$1
    shift
    for pe in "$@"; do
        expect "$pe" "shmem_int_wait_until(heap+$(offset "$pe" "$prog"), SHMEM_CMP_NE, 0): value still 0 $after"
    done
}

check_hang_wait() {
    run "$1" hang_wait
    expect_waits hang_wait $(seq 0 $last)
}

check_hang_wait_vector() {
    run "$1" hang_wait vector
    for pe in $(seq 0 $last); do
        at=$(offset "$pe" hang_wait)
        at1=$(sed -n "s/^hang_wait: PE $pe .*entry 1 at heap+\(0x[0-9a-f]*\)$/\1/p" "$out")
        expect "$pe" "shmem_int_wait_until_all_vector(heap+$at, 4 ivars, SHMEM_CMP_EQ, cmp_values): ivars\[1\] (heap+$at1) still 0, cmp_values\[1\] is 2, $after; 1 of 3 unsatisfied, 1 excluded by status"
    done
}

check_hang_barrier() {
    run "$1" hang_barrier
    half=$((np / 2))
    absent=$(seq -s ', ' $half $last)
    s=s
    have=have
    [ $half -eq $last ] && s= && have=has
    for pe in $(seq 0 $((half - 1))); do
        expect "$pe" "shmem_barrier_all: $waited; PE$s $absent of SHMEM_TEAM_WORLD (world PE$s $absent) $have not arrived"
    done
    for pe in $(seq $half $last); do
        expect "$pe" "shmem_int_wait_until(data+0x[0-9a-f]*, SHMEM_CMP_NE, 0): value still 0 $after"
    done
}

check_hang_bcast() {
    run "$1" hang_bcast
    expect_waits hang_bcast 0
    for pe in $(seq 1 $last); do
        expect "$pe" "shmem_int_broadcast: $waited; PE 0 of SHMEM_TEAM_WORLD (world PE 0) has not arrived"
    done
}

# On a team of world PEs 1..n-1 (at 4 PEs or more): its index 0 is world PE 1;
# world PE 0 waits outside it.
check_hang_bcast_team() {
    run "$1" hang_bcast team
    expect_waits hang_bcast 0 1
    for pe in $(seq 2 $last); do
        expect "$pe" "shmem_int_broadcast: $waited; PE 0 of a team of $last PEs (world PE 1) has not arrived"
    done
}

check_hang_lock() {
    run "$1" hang_lock
    expect_waits hang_lock $last
    for pe in $(seq 0 $((last - 1))); do
        expect "$pe" "shmem_set_lock(heap+$(offset "$pe" hang_lock)): $waited; held by PE $last\(, and PE [0-9]* is ahead of this one in the queue\)\{0,1\}"
    done
}

# One pair (transport, np): every case in turn, its lines in $tmp/$transport-$np.log.
check_pair() {
    last=$((np - 1))
    out=$tmp/$transport-$np.out
    # The reports of SHOAL_HANG_REPORT=2, at 2 s of a wait (and 4 s, and when
    # oshrun asks at 6 s).
    mode="SHOAL_HANG_REPORT=2"
    after="after 2 s"
    waited="waited 2 s"
    export SHOAL_HANG_REPORT=2
    for check in hang_wait hang_wait_vector hang_barrier hang_bcast hang_bcast_team \
        hang_lock; do
        [ $check = hang_bcast_team ] && [ "$np" -lt 4 ] && continue
        check_$check 6
        [ $failed -eq 0 ] && echo "== ok ($case)" || cat "$out"
    done
    # Only oshrun's request at the timeout: each line comes after oshrun says
    # the job timed out, and before it ends the job.
    mode="SHOAL_HANG_REPORT unset"
    after="when SIGUSR2 came"
    waited="waiting when SIGUSR2 came"
    unset SHOAL_HANG_REPORT
    for check in hang_barrier hang_lock; do
        check_$check 6
        first=$(grep -n "SIGUSR2 came" "$out" | head -n 1 | cut -d: -f1)
        timed=$(grep -n "^oshrun: job timed out" "$out" | cut -d: -f1)
        if [ -n "$first" ] && [ -n "$timed" ] && [ "$first" -lt "$timed" ]; then
            fail "a report came before the timeout"
        fi
        [ $failed -eq 0 ] && echo "== ok ($case)" || cat "$out"
    done
    return $status
}

# The PE counts of a transport at once; the transports one after the other (the
# hung PEs spin, and a report a second late fails the check).
pairs=
for transport in $HANG_TRANSPORTS; do
    for np in $HANG_PES; do
        pairs="$pairs $transport-$np"
        (check_pair > "$tmp/$transport-$np.log" 2>&1; echo $? > "$tmp/$transport-$np.rc") &
    done
    wait
done
for pair in $pairs; do
    cat "$tmp/$pair.log"
    [ "$(cat "$tmp/$pair.rc" 2>/dev/null)" = 0 ] || status=1
done
exit $status
