#!/bin/sh
# gpu_group at 4 PEs (each PE's blocks write to its right-hand neighbour's heap)
# through both transports.
PE_COUNTS=4 exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_group
