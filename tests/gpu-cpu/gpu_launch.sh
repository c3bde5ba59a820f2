#!/bin/sh
# gpu_launch at 2 and 4 PEs, with every peer's heap mapped (SHOAL_TRANSPORT=auto)
# and with none (ucx: the host proxy carries the arrivals on other PEs).
PE_COUNTS="2 4" PE_TRANSPORTS="auto ucx" exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_launch
