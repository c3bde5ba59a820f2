#!/bin/sh
# Sleeping waits are agreed by the whole job: 4 PEs on 2 CPUs (oversubscribed, so
# each PE would sleep) once as they are, once with PE 1 refusing (SHOAL_SLEEP=0
# set by itself). Every PE must report the same decision, and in the second run
# it must be "does not" (a PE that sleeps while its senders do not wake it waits
# out a timeout on every token). Needs taskset (util-linux) and 2 CPUs.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
command -v taskset > /dev/null 2>&1 || { echo "no taskset: skipped"; exit 77; }
[ "$(nproc --all)" -ge 2 ] || { echo "fewer than 2 CPUs: skipped"; exit 77; }
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
status=0
for off in -1 1; do
    echo "== 4 PEs on CPUs 0,1, SHOAL_SLEEP=0 on PE: $off (-1: none)"
    PE_SLEEP_OFF_RANK=$off SHMEM_DEBUG=1 SHOAL_TRANSPORT=auto \
        taskset -c 0,1 "$OSHRUN" --timeout 120 -np 4 ./pe_sleep > "$out" 2>&1
    rc=$?
    grep -E 'sleeping waits|passed|FAIL|expected' "$out"
    [ $rc -eq 0 ] || { echo "== FAILED: status $rc"; status=1; }
    lines=$(grep -c 'sleeping waits: ' "$out")
    agreed=$(grep 'sleeping waits: ' "$out" | sed 's/.*the job //' | sort -u)
    if [ "$lines" -ne 4 ] || [ "$(echo "$agreed" | wc -l)" -ne 1 ]; then
        echo "== FAILED: expected 4 PEs reporting one decision, got $lines lines: $agreed"
        status=1
    fi
    if [ "$off" = 1 ] && [ "$agreed" != "does not" ]; then
        echo "== FAILED: PE 1 refused to sleep, yet the job decided '$agreed'"
        status=1
    fi
    if [ "$off" = -1 ] && [ "$agreed" != "sleeps" ]; then
        echo "== FAILED: 4 PEs on 2 CPUs, all willing, yet the job decided '$agreed'"
        status=1
    fi
done
exit $status
