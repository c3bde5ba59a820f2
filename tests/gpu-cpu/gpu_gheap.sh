#!/bin/sh
# gpu_gheap at 2 and 4 PEs with every peer's GPU heap mapped (SHOAL_TRANSPORT=auto:
# under ucx no peer's is, which err_gpu_gheap_unreachable checks).
PE_COUNTS="2 4" PE_TRANSPORTS=auto exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_gheap
