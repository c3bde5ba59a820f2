#!/bin/sh
# pe_active_set at 3 PEs, an odd count, through both transports.
PE_COUNTS=3 exec "${srcdir:-.}/run-pe.sh" ./pe_active_set
