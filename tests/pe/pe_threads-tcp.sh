#!/bin/sh
# pe_threads through UCX over TCP: there get_nbi requests stay outstanding long
# enough for the quiets of several threads to overlap; each must complete only
# requests that no other quiet has freed (two quiets once freed the same ones:
# a UCX assertion, an abort or a hang).
PE_COUNTS="2 4" PE_TRANSPORTS=tcp exec "${srcdir:-.}/run-pe.sh" ./pe_threads
