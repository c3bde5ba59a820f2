#!/bin/sh
# tests/gpu's gpu_figures on the CPU engine at 2 and 4 PEs (SHOAL_TRANSPORT=auto),
# with small counts: its checks run, its times mean nothing here.
FIGURES_ITERS=${FIGURES_ITERS:-300} FIGURES_BW_ITERS=${FIGURES_BW_ITERS:-4} \
    FIGURES_BARRIERS=${FIGURES_BARRIERS:-50} PE_COUNTS="2 4" PE_TRANSPORTS=auto \
    exec "${top_srcdir:-../..}/tests/pe/run-pe.sh" ./gpu_figures
