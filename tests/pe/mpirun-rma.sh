#!/bin/sh
# pe_rma at 4 PEs under Open MPI's mpirun, a PMIx server that is not oshrun, through
# both transports. Exit 77 when Open MPI's mpirun is not installed.
: "${MPIRUN:=$(command -v mpirun)}"
if [ -z "$MPIRUN" ] || ! "$MPIRUN" --version 2>/dev/null | grep -q "Open MPI"; then
    echo "Open MPI's mpirun not found: skipped"
    exit 77
fi
status=0
for transport in auto ucx; do
    echo "== mpirun -np 4 ./pe_rma, SHOAL_TRANSPORT=$transport"
    SHOAL_TRANSPORT=$transport timeout 300 "$MPIRUN" --allow-run-as-root --oversubscribe \
        -np 4 -x SHOAL_TRANSPORT ./pe_rma
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "== FAILED with status $rc (SHOAL_TRANSPORT=$transport)"
        status=1
    fi
done
exit $status
