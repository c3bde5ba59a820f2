#!/bin/sh
# A PE must not outlive its launcher: the launcher is killed (SIGKILL) while its
# 2 PEs wait forever in shmem_long_wait_until, and within 10 s no PE may be left.
# Under oshrun, and under Open MPI's mpirun (where the PEs learn it from PMIx's
# lost-connection event; they spun at 100% CPU forever before). Exit 0 pass, 1 a
# PE lived on, 77 only when neither launcher is there.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
: "${MPIRUN:=$(command -v mpirun)}"
prog=hold_forever
status=0 ran=0
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT

# The PEs of this job only (their pids, from their "up" lines), not those of another
# test's hold_forever running at the same time: those still running it.
pes() { sed -n "s/^$prog: PE .* up (pid \([0-9]*\))$/\1/p" "$out"; }
alive() {
    for pid in $(pes); do
        grep -qs "$prog" "/proc/$pid/cmdline" && echo "$pid"
    done
}

check() { # check NAME COMMAND...
    name=$1
    shift
    "$@" > "$out" 2>&1 &
    launcher=$!
    tries=0
    while [ "$(pes | wc -l)" -lt 2 ] && [ $tries -lt 200 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    kill -KILL $launcher
    wait $launcher 2>/dev/null
    if [ "$(pes | wc -l)" -lt 2 ]; then
        echo "== FAILED ($name): the PEs did not come up"
        cat "$out"
        status=1
    fi
    tries=0
    while [ -n "$(alive)" ] && [ $tries -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    left=$(alive)
    if [ -n "$left" ]; then
        echo "== FAILED ($name): PEs left after their launcher died: $(echo $left)"
        kill -KILL $left 2>/dev/null
        status=1
    else
        echo "== ok ($name): no PE outlived the launcher ($((tries / 10)) s)"
    fi
    ran=1
}

[ -x "$OSHRUN" ] && check oshrun "$OSHRUN" -np 2 ./$prog
if [ -n "$MPIRUN" ] && "$MPIRUN" --version 2>/dev/null | grep -q "Open MPI"; then
    check mpirun "$MPIRUN" --allow-run-as-root --oversubscribe -np 2 ./$prog
fi
[ $ran -eq 1 ] || { echo "no launcher: skipped"; exit 77; }
exit $status
