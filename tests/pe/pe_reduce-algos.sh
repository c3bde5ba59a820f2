#!/bin/sh
# pe_reduce with each reduction algorithm forced (SHOAL_REDUCE_ALGO), at 3 PEs (a
# fold into a power of two) and 5 through both transports, and at 8 directly:
# auto picks only some of them for a given size and placement.
status=0
for algo in flat doubling ring direct; do
    export SHOAL_REDUCE_ALGO=$algo
    echo "== SHOAL_REDUCE_ALGO=$algo"
    PE_COUNTS="3 5" "${srcdir:-.}/run-pe.sh" ./pe_reduce || status=1
    PE_COUNTS=8 PE_TRANSPORTS=auto "${srcdir:-.}/run-pe.sh" ./pe_reduce || status=1
done
exit $status
