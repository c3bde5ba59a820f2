#!/bin/sh
# gpu_gheap_coll at 2 and 4 PEs, with every peer's GPU heap mapped
# (SHOAL_TRANSPORT=auto) and with none (ucx: the owners' proxies carry).
PE_COUNTS="2 4" PE_TRANSPORTS="auto ucx" exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_gheap_coll
