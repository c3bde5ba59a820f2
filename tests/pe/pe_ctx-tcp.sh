#!/bin/sh
# pe_ctx through UCX over TCP: a flush of the main worker waits on endpoints UCX
# made back to a peer's contexts, which complete only if that peer progresses its
# context workers too (it hung in shmem_barrier_all before).
PE_COUNTS="2 4" PE_TRANSPORTS=tcp exec "${srcdir:-.}/run-pe.sh" ./pe_ctx
