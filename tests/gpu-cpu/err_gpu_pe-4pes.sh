#!/bin/sh
# err_gpu_pe at 4 PEs: the last PE's kernel errs while three PEs wait in a barrier.
ERR_PES=4 exec "${top_srcdir:-../..}/tests/gpu/run-gpu-err.sh" ./err_gpu_pe.err
