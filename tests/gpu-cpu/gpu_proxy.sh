#!/bin/sh
# gpu_proxy at 2 and 4 PEs with no peer mapped (SHOAL_TRANSPORT=ucx: the host proxy
# carries every remote operation); at 2 PEs with every peer mapped and
# SHOAL_GPU_PROXY=all (it carries every operation, the kernel's own PE's too); and
# at 2 PEs as on a GPU without native host atomics (DEVCPU_NO_HOST_ATOMICS=1,
# which only the CPU engine reads: puts and gets by load/store, every atomic and
# signal through the proxy).
top=${top_srcdir:-../..}
PE_COUNTS="2 4" PE_TRANSPORTS=ucx "$top/tests/pe/run-pe.sh" ./gpu_proxy || exit $?
SHOAL_GPU_PROXY=all PE_COUNTS=2 PE_TRANSPORTS=auto "$top/tests/pe/run-pe.sh" ./gpu_proxy ||
    exit $?
DEVCPU_NO_HOST_ATOMICS=1 PE_COUNTS=2 PE_TRANSPORTS=auto exec "$top/tests/pe/run-pe.sh" \
    ./gpu_proxy
