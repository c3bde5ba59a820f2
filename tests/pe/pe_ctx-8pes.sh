#!/bin/sh
# pe_ctx at 8 PEs (oversubscribed on small machines), through both transports,
# with SHOAL_CTX_MAX=64: its test_many makes contexts up to the limit, and under
# UCX each is a worker with its own interfaces (listening sockets, shared-memory
# queues); 8 PEs of 256 workers each took some 40 s of system time, and the
# limit works alike at any value (the runs at 1 to 4 PEs reach the default 256).
SHOAL_CTX_MAX=64 PE_COUNTS=8 exec "${srcdir:-.}/run-pe.sh" ./pe_ctx
