#!/bin/sh
# tests/gpu/gpu_gheap.sh on the CPU engine: the same runs as on a GPU.
exec sh "${top_srcdir:-../..}/tests/gpu/gpu_gheap.sh"
