#!/bin/sh
# No other user may reach a running job's symmetric memory, not even one in the job
# owner's group: under both transports, 2 PEs wait in hold_forever while seg_probe,
# run as uid 65534 with the job's group, tries every shared mapping of the PEs
# (SysV segments by id, files by name, /proc/PID/map_files and fd). Before the fix,
# under SHOAL_TRANSPORT=ucx, UCX's SysV segments (the heap among them) were mode
# 0660. Needs root (to read the PEs' maps and to change uid) and setpriv; else 77.
: "${OSHRUN:=../../tools/oshrun/oshrun}"
prog=hold_forever
[ "$(id -u)" -eq 0 ] || { echo "not root: skipped"; exit 77; }
command -v setpriv >/dev/null || { echo "no setpriv: skipped"; exit 77; }
out=seg-private.$$.out
# The probe and the list go where the other user can reach them.
tmp=$(mktemp -d) || exit 99
chmod 755 "$tmp"
cp ./seg_probe "$tmp/" || exit 99
maps=$tmp/maps
trap 'rm -rf "$out" "$tmp"; [ -n "${job:-}" ] && kill -TERM $job 2>/dev/null' EXIT
status=0
for transport in auto ucx; do
    SHOAL_TRANSPORT=$transport "$OSHRUN" --timeout 60 -np 2 ./$prog > "$out" 2>&1 &
    job=$!
    tries=0
    while [ "$(grep -c "$prog: PE .* up" "$out")" -lt 2 ] && [ $tries -lt 300 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    pids=$(sed -n "s/^$prog: PE .* up (pid \([0-9]*\))$/\1/p" "$out")
    : > "$maps"
    for pid in $pids; do
        sed "s/^/$pid /" "/proc/$pid/maps" >> "$maps"
    done
    chmod 644 "$maps"
    echo "== SHOAL_TRANSPORT=$transport: PEs $(echo $pids)"
    setpriv --reuid=65534 --regid="$(id -g)" --clear-groups "$tmp/seg_probe" "$maps"
    rc=$?
    [ $rc -eq 0 ] || { echo "== FAILED (SHOAL_TRANSPORT=$transport): status $rc"; status=1; }
    kill -TERM $job
    wait $job 2>/dev/null
    job=
done
exit $status
