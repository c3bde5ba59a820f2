# Shell settings for jobs across simulated nodes, sourced by run.sh and bench.sh
# (which set $here): UCX between the nodes over their TCP link only (the nodes
# share one kernel and /dev/shm, where UCX would otherwise use shared memory),
# Open MPI's daemons started through agent.sh from node 1, and no binding: the
# simulated nodes are one machine, where each would bind its first PE to the
# same core and every message would wait for a time slice. A job that ends on
# an error: Open MPI's daemons wait odls_base_sigkill_timeout (1 s) after their
# SIGCONT and again after their SIGTERM, each daemon in turn, which made an error
# test across 2 nodes take 2.3 s instead of 0.3; Shoal's PEs end at the first
# signal, so the harness sets it to 0.
mn_exports="export UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 \
OMPI_MCA_plm_rsh_agent='$here/agent.sh' OMPI_MCA_plm_rsh_no_tree_spawn=1 \
OMPI_MCA_oob_tcp_if_include=eth0 OMPI_MCA_hwloc_base_binding_policy=none \
OMPI_MCA_odls_base_sigkill_timeout=0"
