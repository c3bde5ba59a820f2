#!/bin/sh
# The remote-shell agent for mpirun across simulated nodes (--mca plm_rsh_agent):
# called as `agent.sh HOST COMMAND...`, runs COMMAND inside HOST's namespaces as
# ssh would run it on HOST. HOST is a node made by nodes.sh (PREFIXi).
host=$1
shift
prefix=${host%%[0-9]*}
i=${host#"$prefix"}
uts=/run/shoal-nodes/$prefix/uts-$i
[ -e "$uts" ] || { echo "agent.sh: $host is not a simulated node (no $uts)" >&2; exit 255; }
exec nsenter --uts="$uts" ip netns exec "$host" sh -c "$*"
