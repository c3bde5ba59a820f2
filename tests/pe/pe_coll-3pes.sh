#!/bin/sh
# pe_coll at 3 PEs, an odd count (short rows, unequal halves), through both transports.
PE_COUNTS=3 exec "${srcdir:-.}/run-pe.sh" ./pe_coll
