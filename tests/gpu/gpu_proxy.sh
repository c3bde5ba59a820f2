#!/bin/sh
# gpu_proxy on a GPU: the same runs as on the CPU engine (tests/gpu-cpu/gpu_proxy.sh).
exec sh "${top_srcdir:-../..}/tests/gpu-cpu/gpu_proxy.sh"
