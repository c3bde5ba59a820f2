#!/bin/sh
# pe_reduce with each reduction algorithm forced (SHOAL_REDUCE_ALGO), at 3 PEs (a
# fold into a power of two) and 5 through both transports, and at 8 directly:
# auto picks only some of them for a given size and placement. The large
# reductions (nreduce 100,000) run for one type of each size and kind: an
# algorithm moves and combines bytes alike for every type of one size (the
# combine functions of every type run at every size in pe_reduce's own runs,
# and here at the small ones), and the large ones of all 30 types took most of
# the 57 s of CPU this script used.
PE_REDUCE_LARGE_SAMPLE=1
export PE_REDUCE_LARGE_SAMPLE
status=0
for algo in flat doubling ring direct; do
    export SHOAL_REDUCE_ALGO=$algo
    echo "== SHOAL_REDUCE_ALGO=$algo"
    PE_COUNTS="3 5" "${srcdir:-.}/run-pe.sh" ./pe_reduce || status=1
    PE_COUNTS=8 PE_TRANSPORTS=auto "${srcdir:-.}/run-pe.sh" ./pe_reduce || status=1
done
exit $status
