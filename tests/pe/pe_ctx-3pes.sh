#!/bin/sh
# pe_ctx at 3 PEs, an odd count, through both transports.
PE_COUNTS=3 exec "${srcdir:-.}/run-pe.sh" ./pe_ctx
