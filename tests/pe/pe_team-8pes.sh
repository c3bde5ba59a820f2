#!/bin/sh
# pe_team at 8 PEs (oversubscribed on small machines), through both transports.
PE_COUNTS=8 exec "${srcdir:-.}/run-pe.sh" ./pe_team
