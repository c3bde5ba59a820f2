#!/bin/sh
# pe_active_set at 8 PEs (oversubscribed on small machines), through both transports.
PE_COUNTS=8 exec "${srcdir:-.}/run-pe.sh" ./pe_active_set
