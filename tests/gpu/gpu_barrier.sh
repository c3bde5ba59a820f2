#!/bin/sh
# gpu_barrier at 2 and 4 PEs, with every peer's heap mapped (SHOAL_TRANSPORT=auto):
# the device barrier needs them all; err_gpu_barrier checks the error under ucx.
PE_COUNTS="2 4" PE_TRANSPORTS=auto exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_barrier
