#!/bin/sh
# shmem_global_exit(status) ends the job with that status, 0 included, at 2 and 4
# PEs, under oshrun and (when installed) Open MPI's mpirun. An exit status has 8 bits:
# a status beyond them ends the job with its low 8 bits, or with 1 when those are 0
# (256 must not read as success), and the PE's line says so.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
: "${MPIRUN:=$(command -v mpirun)}"
status=0
err=$(mktemp) || exit 99
trap 'rm -f "$err"' EXIT
run() { # expected-status launcher words...
    want=$1; shift
    timeout 120 "$@" > /dev/null 2>"$err"
    rc=$?
    echo "== $* -> $rc"
    [ $rc -eq "$want" ] || { echo "== FAILED: expected status $want, got $rc"; status=1; }
}
for np in 2 4; do
    for s in 0 3 99; do
        run $s "$OSHRUN" --timeout 60 -np $np ./pe_global_exit $s
        if grep -q "the job exits with" "$err"; then
            echo "== FAILED: status $s is the job's own, yet a line says otherwise"
            sed 's/^/   | /' "$err"
            status=1
        fi
    done
done
# status:expected job status:what the PE's line says of it
for case in "300:44:the job exits with 44, its low 8 bits" \
    "-1:255:the job exits with 255, its low 8 bits" \
    "256:1:the job exits with 1: its low 8 bits, 0, would read as success"; do
    s=${case%%:*} rest=${case#*:}
    want=${rest%%:*} says=${rest#*:}
    run "$want" "$OSHRUN" --timeout 60 -np 2 ./pe_global_exit "$s"
    # the PE's line, after its [host:pid:pe] prefix; and oshrun's, with the job's status
    if ! grep -qF "] shmem_global_exit: status $s ($says)" "$err" ||
        ! grep -Eq "^oshrun: PE 1 \(pid [0-9]+\) ended the job \(status $want\)$" "$err"; then
        echo "== FAILED: expected 'shmem_global_exit: status $s ($says)' and oshrun's line"
        echo "   'PE 1 (pid N) ended the job (status $want)' in:"
        sed 's/^/   | /' "$err"
        status=1
    fi
done
if [ -n "$MPIRUN" ] && "$MPIRUN" --version 2>/dev/null | grep -q "Open MPI"; then
    for case in 0:0 99:99 300:44 256:1; do
        s=${case%:*} want=${case#*:}
        run "$want" "$MPIRUN" --allow-run-as-root --oversubscribe -np 2 ./pe_global_exit "$s"
        says="] shmem_global_exit: status $s (the job exits with $want"
        if [ "$s" != "$want" ] && ! grep -qF "$says" "$err"; then
            echo "== FAILED: the PE's line does not say the job exits with $want:"
            sed 's/^/   | /' "$err"
            status=1
        fi
    done
fi
exit $status
