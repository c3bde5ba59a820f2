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

alive() { pgrep -f "/$prog\$|/lt-$prog\$|\./$prog\$" ; }

check() { # check NAME COMMAND...
    name=$1
    shift
    if alive >/dev/null; then
        echo "== $name: PEs of an earlier $prog still run; ending them first"
        pkill -KILL -f "$prog"
        sleep 1
    fi
    "$@" > launcher-death.out 2>&1 &
    launcher=$!
    tries=0
    while [ "$(grep -c "$prog: PE .* up" launcher-death.out)" -lt 2 ] && [ $tries -lt 200 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    kill -KILL $launcher
    wait $launcher 2>/dev/null
    tries=0
    while alive >/dev/null && [ $tries -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if alive >/dev/null; then
        echo "== FAILED ($name): PEs left after their launcher died: $(alive | tr '\n' ' ')"
        pkill -KILL -f "$prog"
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
rm -f launcher-death.out
[ $ran -eq 1 ] || { echo "no launcher: skipped"; exit 77; }
exit $status
