#!/bin/sh
# Simulated nodes on one machine, for multi-node tests: each node is a network
# namespace (its own eth0 and address) with a UTS namespace (its own host name),
# all joined by a bridge in a namespace of their own. Nothing touches the host's
# network: every address lives inside namespaces made here, and `down` removes
# them (ending their processes by PID first).
#
#   nodes.sh up PREFIX COUNT    make PREFIX1..PREFIXCOUNT; prints the state dir
#   nodes.sh down PREFIX        end their processes and remove everything
#   nodes.sh check              exit 0 when this machine can make them, else say why
#
# Node i is host PREFIXi at 10.231.0.i, reached by `agent.sh PREFIXi CMD...`.
# State (the UTS namespace files, the hostfile) is in /run/shoal-nodes/PREFIX.
set -u
state_root=/run/shoal-nodes
net=10.231.0

die() { echo "nodes.sh: $*" >&2; exit 1; }

check() {
    [ "$(id -u)" -eq 0 ] || { echo "not root: cannot make network namespaces"; return 1; }
    for tool in ip nsenter unshare; do
        command -v $tool >/dev/null 2>&1 || { echo "$tool not found (packages iproute2, util-linux)"; return 1; }
    done
    probe=shoalprobe$$
    if ! ip netns add $probe 2>/dev/null; then
        echo "ip netns add failed: this machine does not allow network namespaces"
        return 1
    fi
    ip netns del $probe
    return 0
}

up() {
    prefix=$1 count=$2
    dir=$state_root/$prefix
    mkdir -p "$dir" || die "cannot make $dir"
    : > "$dir/hostfile"
    : > "$dir/hosts"
    ip netns add ${prefix}sw || die "cannot make namespace ${prefix}sw"
    ip -n ${prefix}sw link add br0 type bridge || die "cannot make the bridge"
    ip -n ${prefix}sw link set br0 up
    ip -n ${prefix}sw link set lo up
    i=1
    while [ $i -le "$count" ]; do
        echo "$net.$i ${prefix}$i" >> "$dir/hosts"
        i=$((i + 1))
    done
    i=1
    while [ $i -le "$count" ]; do
        node=${prefix}$i
        ip netns add $node || die "cannot make namespace $node"
        ip link add ${prefix}v$i type veth peer name eth0 netns $node || die "cannot make a veth pair"
        ip link set ${prefix}v$i netns ${prefix}sw
        ip -n ${prefix}sw link set ${prefix}v$i master br0 up
        ip -n $node addr add $net.$i/24 dev eth0
        ip -n $node link set eth0 up
        ip -n $node link set lo up
        # ip netns exec binds /etc/netns/NODE/hosts over /etc/hosts: names resolve.
        mkdir -p /etc/netns/$node
        { echo "127.0.0.1 localhost"; cat "$dir/hosts"; } > /etc/netns/$node/hosts
        touch "$dir/uts-$i"
        unshare --uts="$dir/uts-$i" hostname $node || die "cannot make the UTS namespace of $node"
        echo "$node" >> "$dir/hostfile"
        i=$((i + 1))
    done
    echo "$dir"
}

down() {
    prefix=$1
    dir=$state_root/$prefix
    for ns in $(ip netns list | awk '{print $1}' | grep "^${prefix}"); do
        pids=$(ip netns pids $ns 2>/dev/null)
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
        ip netns del $ns 2>/dev/null
        rm -rf /etc/netns/$ns
    done
    for f in "$dir"/uts-*; do
        [ -e "$f" ] || continue
        umount "$f" 2>/dev/null
        rm -f "$f"
    done
    rm -rf "$dir"
}

case "${1:-}" in
up) [ $# -eq 3 ] || die "usage: nodes.sh up PREFIX COUNT"; up "$2" "$3" ;;
down) [ $# -eq 2 ] || die "usage: nodes.sh down PREFIX"; down "$2" ;;
check) check ;;
*) die "usage: nodes.sh up PREFIX COUNT | down PREFIX | check" ;;
esac
