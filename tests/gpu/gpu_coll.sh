#!/bin/sh
# gpu_coll at 2 and 4 PEs, with every peer's heap mapped (SHOAL_TRANSPORT=auto)
# and with none (ucx: the host proxy carries the gets and the barriers'
# arrivals). At 4 PEs through the proxy, one element count only
# (GPU_COLL_COUNTS=1): there each get and arrival is a round trip through a
# host thread, and UCX emulates it with messages the target must serve; on the
# CPU engine, on 2 CPUs, the full run takes 26 s alone (7 s with one count)
# and several times that beside other jobs. Its three areas need
# about 72 MiB of heap, more than run-pe.sh gives a ucx job (PE_UCX_HEAP).
PE_UCX_HEAP=128M
export PE_UCX_HEAP
run="${top_srcdir:-../..}/tests/pe/run-pe.sh"
PE_COUNTS="2 4" PE_TRANSPORTS=auto "$run" ./gpu_coll || exit $?
PE_COUNTS=2 PE_TRANSPORTS=ucx "$run" ./gpu_coll || exit $?
GPU_COLL_COUNTS=1 PE_COUNTS=4 PE_TRANSPORTS=ucx exec "$run" ./gpu_coll
