#!/bin/sh
# dev_routines and gpu_group with SHOAL_GPU_PROXY=all: every generated and
# hand-written device routine once more, the _block and _warp forms included,
# each carried out by the host proxy, at 2 PEs, with the peer mapped (auto:
# checked on the neighbour's heap) and not (ucx: on its own). Then dev_routines
# as on a GPU without native host atomics (DEVCPU_NO_HOST_ATOMICS=1: only the
# atomics and signals through the proxy).
run="${top_srcdir:-../..}/tests/pe/run-pe.sh"
SHOAL_GPU_PROXY=all PE_COUNTS=2 "$run" ./dev_routines || exit $?
SHOAL_GPU_PROXY=all PE_COUNTS=2 "$run" ./gpu_group || exit $?
DEVCPU_NO_HOST_ATOMICS=1 PE_COUNTS=2 PE_TRANSPORTS=auto exec "$run" ./dev_routines
