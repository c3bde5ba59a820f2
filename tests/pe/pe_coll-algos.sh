#!/bin/sh
# pe_coll with each broadcast algorithm forced (SHOAL_BCAST_ALGO) at 3 and 5 PEs
# (flat needs every PE on one node, as here) through both transports, and pe_sync
# with collective checking on, which turns the one-node barrier from a shared count
# into a gather at index 0. Then pe_coll and pe_active_set with every copy of
# collect, fcollect and alltoall made by streaming stores (SHOAL_COLL_STREAM=1:
# past the byte count where auto would pick them, from 256 bytes on).
status=0
for algo in flat direct binomial; do
    echo "== SHOAL_BCAST_ALGO=$algo"
    SHOAL_BCAST_ALGO=$algo PE_COUNTS="3 5" "${srcdir:-.}/run-pe.sh" ./pe_coll || status=1
done
echo "== SHOAL_CHECK_COLL=1"
SHOAL_CHECK_COLL=1 PE_COUNTS="3 8" PE_TRANSPORTS=auto "${srcdir:-.}/run-pe.sh" ./pe_sync || status=1
echo "== SHOAL_COLL_STREAM=1"
for t in pe_coll pe_active_set; do
    SHOAL_COLL_STREAM=1 PE_COUNTS="2 3 4" PE_TRANSPORTS=auto "${srcdir:-.}/run-pe.sh" ./$t ||
        status=1
done
exit $status
