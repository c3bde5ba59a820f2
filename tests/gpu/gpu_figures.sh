#!/bin/sh
# gpu_figures at 2 and 4 PEs, every peer's GPU heap mapped (SHOAL_TRANSPORT=auto);
# it prints the device routines' figures on the GPU heap.
PE_COUNTS="2 4" PE_TRANSPORTS=auto exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_figures
