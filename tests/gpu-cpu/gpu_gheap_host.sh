#!/bin/sh
# gpu_gheap_host at 2 and 4 PEs, both transports: under auto every peer's GPU
# heap is mapped (this GPU copies), under ucx none is (the owner's host proxy
# applies each request).
PE_COUNTS="2 4" PE_TRANSPORTS="auto ucx" exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_gheap_host
