#!/bin/sh
# dev_routines at 4 PEs (each kernel writes to its right-hand neighbour's heap)
# through both transports.
PE_COUNTS=4 exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./dev_routines
