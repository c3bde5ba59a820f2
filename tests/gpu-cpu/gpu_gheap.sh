#!/bin/sh
# gpu_gheap at 2 and 4 PEs, both transports: under auto every peer's GPU heap is
# mapped (CUDA IPC), under ucx none is and the host proxy carries the kernels'
# operations on them.
PE_COUNTS="2 4" PE_TRANSPORTS="auto ucx" exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_gheap
