#!/bin/sh
# SHOAL_STATS: runs pe_stats (a known mix of operations) at 2 and 4 PEs through
# both transports, with SHOAL_STATS=1 and 2, and checks what PE 0 prints at
# shmem_finalize: every count and byte total exactly, each on the path the
# transport implies (auto: load/store on one node; ucx: UCX), the collectives'
# calls, the heap's high-water mark (Shoal's own plus pe_stats' 1 MiB), and times
# only for their form (a non-negative number of ms or s). Unset, and at 0, nothing
# may be printed. Exit 0 pass, 1 fail, 77 skip.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
prog=./pe_stats
out=$(mktemp) || exit 99
trap 'rm -f "$out" "$out.want" "$out.got"' EXIT
status=0

fail() {
    echo "== FAILED: $*"
    status=1
}

# "puts 20 (2000 B) load/store, 0 UCX" for count n of bytes b on path (auto|ucx).
ops() {
    if [ "$4" = ucx ]; then
        echo "$1 0 load/store, $2 ($3 B) UCX"
    else
        echo "$1 $2 ($3 B) load/store, 0 UCX"
    fi
}

# The lines expected for np PEs over transport t, times replaced by T and the
# slowest PE by S (summary) as normalize() does.
expected() {
    np=$1 t=$2 level=$3
    echo "shoal stats: $np PEs, T from shmem_init to shmem_finalize; sums over the PEs"
    echo "shoal stats: $(ops puts $((20 * np)) $((2000 * np)) "$t"); $(ops gets $((4 * np)) $((200 * np)) "$t")"
    echo "shoal stats: $(ops AMOs $((5 * np)) $((40 * np)) "$t"); $(ops "puts with signal" $((2 * np)) $((128 * np)) "$t")"
    echo "shoal stats: wait_until $((2 * np)) calls, T waiting; test $((3 * np)) calls"
    echo "shoal stats: barrier $((5 * np)) calls, T (slowest PE S); broadcast $np calls, T (slowest PE S); collect $np calls, T (slowest PE S); alltoall $np calls, T (slowest PE S); reduce $np calls, T (slowest PE S)"
    echo "shoal stats: heap high-water H"
    [ "$level" = 2 ] || return 0
    pe=0
    while [ $pe -lt "$np" ]; do
        echo "shoal stats: PE $pe: $(ops puts 20 2000 "$t"); $(ops gets 4 200 "$t"); $(ops AMOs 5 40 "$t"); $(ops "puts with signal" 2 128 "$t"); wait_until 2 calls, T waiting; test 3 calls; barrier 5 calls, T; broadcast 1 call, T; collect 1 call, T; alltoall 1 call, T; reduce 1 call, T; heap high-water H"
        pe=$((pe + 1))
    done
}

# Times (a number with 3 decimals, ms or s) become T; a slowest PE in 0..np-1
# becomes S (anything else stays, and fails the comparison); the heap's figures
# become H once checked: high-water = Shoal's own + 1 MiB, on each PE's line too.
normalize() {
    np=$1
    grep '^shoal stats:' "$out" | sed -E 's/[0-9]+\.[0-9]{3} m?s/T/g' |
        awk -v np="$np" '{
            while (match($0, /slowest PE [0-9]+\)/)) {
                pe = substr($0, RSTART + 11, RLENGTH - 12) + 0
                $0 = substr($0, 1, RSTART - 1) (pe < np ? "slowest PE S)" : "slowest PE ?)") substr($0, RSTART + RLENGTH)
            }
            print
        }' |
        awk '
            /heap high-water .* of .* \(PE [0-9]+; Shoal.s own / {
                s = $0; sub(/.*heap high-water /, "", s)
                high = s; sub(/ B .*/, "", high); sub(/.* = /, "", high); sub(/ B$/, "", high)
                own = s; sub(/.*Shoal.s own /, "", own); sub(/ B\)$/, "", own); sub(/.* = /, "", own)
                if (high - own == 1048576) { sub(/heap high-water .*/, "heap high-water H"); hw = high }
                print; next
            }
            / heap high-water [^;]*$/ {
                v = $0; sub(/.* heap high-water /, "", v); sub(/.* = /, "", v); sub(/ B$/, "", v)
                if (v == hw) sub(/heap high-water .*/, "heap high-water H")
                print; next
            }
            { print }'
}

for t in auto ucx; do
    for np in 2 4; do
        for level in 1 2; do
            echo "== $np PEs, SHOAL_TRANSPORT=$t, SHOAL_STATS=$level"
            SHOAL_STATS=$level SHOAL_TRANSPORT=$t "$OSHRUN" --timeout 120 -np "$np" "$prog" \
                > "$out" 2>&1
            rc=$?
            [ $rc -eq 77 ] && { cat "$out"; exit 77; }
            grep '^shoal stats:' "$out"
            [ $rc -eq 0 ] || { cat "$out"; fail "status $rc"; continue; }
            if grep '^shoal stats:' "$out" | grep -q -- '-[0-9]'; then
                fail "a negative number"
            fi
            expected "$np" "$t" "$level" > "$out.want"
            normalize "$np" > "$out.got"
            if ! diff "$out.want" "$out.got"; then
                fail "the lines above (< expected, > printed, times as T) differ"
            fi
        done
    done
    for level in unset 0; do
        echo "== 2 PEs, SHOAL_TRANSPORT=$t, SHOAL_STATS $level: nothing printed"
        if [ $level = unset ]; then
            (unset SHOAL_STATS; SHOAL_TRANSPORT=$t "$OSHRUN" --timeout 120 -np 2 "$prog") \
                > "$out" 2>&1
        else
            SHOAL_STATS=0 SHOAL_TRANSPORT=$t "$OSHRUN" --timeout 120 -np 2 "$prog" > "$out" 2>&1
        fi
        rc=$?
        [ $rc -eq 0 ] || { cat "$out"; fail "status $rc"; }
        if grep -q 'shoal stats' "$out"; then
            cat "$out"
            fail "statistics printed with SHOAL_STATS $level"
        fi
    done
done
[ $status -eq 0 ] && echo "== pe_stats.sh: every count matched"
exit $status
