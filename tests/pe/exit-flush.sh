#!/bin/sh
# A PE that ends the job (exit with a nonzero status before shmem_finalize, or
# shmem_global_exit) loses nothing it printed: with stdout a file, the line the
# last PE printed just before must be there, at 2 and 4 PEs (pe_exit_flush).
: "${OSHRUN:=../../tools/oshrun/oshrun}"
status=0
out=$(mktemp) || exit 99
trap 'rm -f "$out"' EXIT
for np in 2 4; do
    for how in exit global; do
        timeout 120 "$OSHRUN" --timeout 60 -np $np ./pe_exit_flush 3 $how >"$out" 2>/dev/null
        rc=$?
        want="pe_exit_flush: PE $((np - 1)) printed this before"
        echo "== $np PEs, $how(3) -> status $rc"
        if [ $rc -ne 3 ]; then
            echo "== FAILED: expected status 3"
            status=1
        fi
        if ! grep -q "^$want" "$out"; then
            echo "== FAILED: the line '$want ...' is not in the job's output:"
            sed 's/^/   | /' "$out"
            status=1
        fi
    done
done
exit $status
