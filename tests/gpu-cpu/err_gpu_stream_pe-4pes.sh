#!/bin/sh
# err_gpu_stream_pe at 4 PEs: the last PE's stream put names PE 4 while three PEs
# wait in a barrier.
ERR_PES=4 exec "${top_srcdir:-../..}/tests/gpu/run-gpu-err.sh" ./err_gpu_stream_pe.err
