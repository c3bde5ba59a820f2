#!/bin/sh
# A Slurm cluster on the simulated nodes of nodes.sh, from Debian 12's own packages
# (slurmctld, slurmd, slurm-client, munge): one munged for all nodes (they share the
# kernel and the filesystem) on a socket of its own, slurmctld in node 1's
# namespaces and one slurmd per node, MpiDefault=pmix. Usage:
#   slurm.sh up PREFIX COUNT     (after nodes.sh up PREFIX COUNT; prints SLURM_CONF)
#   slurm.sh down PREFIX
#   slurm.sh check               (exit 1 with the reason where it cannot run)
# What it takes to run here: ip netns exec remounts /sys, so slurmd needs cgroup v1
# without automount, proctrack/linuxproc and task/none; the PMIx plugin makes
# $TmpFS/spmix_appdir_<uid>_<job>.<step>, so each node has its own TmpFS (%n), and
# its own SlurmdSpoolDir; MailProg=/bin/true silences a log error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
state_root=/run/shoal-nodes
net=10.231.0

die() { echo "slurm.sh: $*" >&2; exit 1; }

check() {
    for tool in munged mungekey slurmctld slurmd srun sinfo scontrol; do
        command -v $tool >/dev/null 2>&1 || {
            echo "$tool not found (packages slurmctld, slurmd, slurm-client, munge)"; return 1; }
    done
    plugins=$(dirname "$(dpkg -L slurm-wlm-basic-plugins 2>/dev/null | grep '/mpi_pmix.so$' | head -n 1)")
    [ -n "$plugins" ] && [ -e "$plugins/mpi_pmix.so" ] || { echo "Slurm's mpi/pmix plugin not found"; return 1; }
    return 0
}

# agent NODE CMD: CMD in NODE's namespaces (network and host name)
agent() { "$here/agent.sh" "$@"; }

up() {
    prefix=$1 count=$2
    dir=$state_root/$prefix
    [ -d "$dir" ] || die "no simulated nodes $prefix (nodes.sh up $prefix $count first)"
    sd=$dir/slurm
    rm -rf "$sd"
    mkdir -p "$sd/state" "$sd/log" "$sd/munge" || die "cannot make $sd"
    chmod 700 "$sd/munge"
    # munged checks that its key and directories are not writable by others.
    dd if=/dev/urandom of="$sd/munge/key" bs=1024 count=1 2>/dev/null
    chmod 400 "$sd/munge/key"
    munged --force --socket="$sd/munge/sock" --key-file="$sd/munge/key" \
        --pid-file="$sd/munge/pid" --seed-file="$sd/munge/seed" \
        --log-file="$sd/log/munged.log" 2>"$sd/log/munged.err" ||
        die "munged did not start: $(cat "$sd/log/munged.err")"
    cpus=$(nproc)
    cat > "$sd/slurm.conf" <<CONF
ClusterName=shoal$prefix
SlurmctldHost=${prefix}1($net.1)
AuthType=auth/munge
AuthInfo=socket=$sd/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$sd/state
SlurmdSpoolDir=$sd/spool/%n
SlurmctldPidFile=$sd/slurmctld.pid
SlurmdPidFile=$sd/slurmd-%n.pid
SlurmctldLogFile=$sd/log/slurmctld.log
SlurmdLogFile=$sd/log/slurmd-%n.log
TmpFS=$sd/tmp/%n
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=pmix
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/linear
SlurmdParameters=config_overrides
InactiveLimit=0
KillWait=5
MinJobAge=30
NodeName=${prefix}[1-$count] CPUs=16 State=UNKNOWN
PartitionName=shoal Nodes=${prefix}[1-$count] Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
    printf 'CgroupPlugin=cgroup/v1\nCgroupAutomount=no\n' > "$sd/cgroup.conf"
    agent ${prefix}1 "SLURM_CONF='$sd/slurm.conf' slurmctld -f '$sd/slurm.conf'" ||
        die "slurmctld did not start: $(tail -n 5 "$sd/log/slurmctld.log" 2>/dev/null)"
    i=1
    while [ $i -le "$count" ]; do
        mkdir -p "$sd/spool/${prefix}$i" "$sd/tmp/${prefix}$i"
        agent ${prefix}$i "SLURM_CONF='$sd/slurm.conf' slurmd -f '$sd/slurm.conf' -N ${prefix}$i" ||
            die "slurmd of ${prefix}$i did not start: $(tail -n 5 "$sd/log/slurmd-${prefix}$i.log" 2>/dev/null)"
        i=$((i + 1))
    done
    # Ready when every node is idle.
    t=0
    while [ $t -lt 100 ]; do
        idle=$(agent ${prefix}1 "SLURM_CONF='$sd/slurm.conf' sinfo -h -N -t idle -o %N" 2>/dev/null | sort -u | wc -l)
        [ "$idle" -eq "$count" ] && { echo "$sd/slurm.conf"; return 0; }
        sleep 0.1
        t=$((t + 1))
    done
    die "the nodes did not become idle: $(agent ${prefix}1 "SLURM_CONF='$sd/slurm.conf' sinfo -N" 2>&1 | tr '\n' ' ')"
}

# Ends the daemons (munged last) and removes their state.
down() {
    prefix=$1
    sd=$state_root/$prefix/slurm
    for f in "$sd"/slurmd-*.pid "$sd/slurmctld.pid"; do
        [ -e "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
    done
    [ -e "$sd/munge/pid" ] && kill -TERM "$(cat "$sd/munge/pid")" 2>/dev/null
    sleep 0.2
    for f in "$sd"/slurmd-*.pid "$sd/slurmctld.pid" "$sd/munge/pid"; do
        [ -e "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
    done
    rm -rf "$sd"
}

case "${1:-}" in
up) [ $# -eq 3 ] || die "usage: slurm.sh up PREFIX COUNT"; up "$2" "$3" ;;
down) [ $# -eq 2 ] || die "usage: slurm.sh down PREFIX"; down "$2" ;;
check) check ;;
*) die "usage: slurm.sh up PREFIX COUNT | down PREFIX | check" ;;
esac
