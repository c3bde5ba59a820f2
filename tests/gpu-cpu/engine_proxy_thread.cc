/* gpu/host/proxy_thread.cu, the host proxy's thread, built by g++ for the CPU engine. */
#include "proxy_thread.cu"
