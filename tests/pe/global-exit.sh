#!/bin/sh
# shmem_global_exit(status) ends the job with that status, 0 included, at 2 and 4
# PEs, under oshrun and (when installed) Open MPI's mpirun.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
: "${MPIRUN:=$(command -v mpirun)}"
status=0
run() { # expected-status launcher words...
    want=$1; shift
    timeout 120 "$@" > /dev/null 2>&1
    rc=$?
    echo "== $* -> $rc"
    [ $rc -eq "$want" ] || { echo "== FAILED: expected status $want, got $rc"; status=1; }
}
for np in 2 4; do
    for s in 0 3 99; do
        run $s "$OSHRUN" --timeout 60 -np $np ./pe_global_exit $s
    done
done
if [ -n "$MPIRUN" ] && "$MPIRUN" --version 2>/dev/null | grep -q "Open MPI"; then
    for s in 0 99; do
        run $s "$MPIRUN" --allow-run-as-root --oversubscribe -np 2 ./pe_global_exit $s
    done
fi
exit $status
