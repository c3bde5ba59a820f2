# Shell settings for jobs across simulated nodes, sourced by run.sh and bench.sh
# (which set $here): UCX between the nodes over their TCP link only (the nodes
# share one kernel and /dev/shm, where UCX would otherwise use shared memory),
# Open MPI's daemons started through agent.sh from node 1, and no binding: the
# simulated nodes are one machine, where each would bind its first PE to the
# same core and every message would wait for a time slice.
mn_exports="export UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 \
OMPI_MCA_plm_rsh_agent='$here/agent.sh' OMPI_MCA_plm_rsh_no_tree_spawn=1 \
OMPI_MCA_oob_tcp_if_include=eth0 OMPI_MCA_hwloc_base_binding_policy=none"
