#!/bin/sh
# err_gpu_gheap_free at 4 PEs: the last PE's nvshmem_free names a non-block.
ERR_PES=4 exec "${top_srcdir:-../..}/tests/gpu/run-gpu-err.sh" ./err_gpu_gheap_free.err
