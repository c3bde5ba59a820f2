#!/bin/sh
# gpu_stream at 4 PEs (each puts to its right-hand neighbour on a stream, and the
# stream barrier has two rounds) through both transports.
PE_COUNTS=4 exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_stream
