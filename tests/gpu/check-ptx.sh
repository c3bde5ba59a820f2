#!/bin/sh
# check-ptx.sh - the device engine's polling loop (shoal_dev_sync) must load with
# system-scope acquire semantics (ld.acquire.sys, or volatile loads with a
# fence.sc.sys / membar.sys) and back off with nanosleep, and its atomics
# (shoal_dev_amo, shoal_dev_amo_at, shoal_dev_put_signal) must all be
# system-scope (atom.sys): CPUs
# and other PEs update the same words; a put-with-signal fences before its signal.
# The host proxy's producers poll the ring the same way and fence before they
# post. Compiles gpu/device/device.cu and proxy.cu to PTX for sm_90 and reads the
# functions' bodies.
# Needs $NVCC and $NVCC_CPPFLAGS (the Makefile passes them). Exit 0 pass, 1 fail.
: "${srcdir:=.}"
: "${top_srcdir:=$srcdir/../..}"
: "${NVCC:=nvcc}"
ptx=$(mktemp) || exit 99
trap 'rm -f "$ptx"' EXIT

# shellcheck disable=SC2086 # NVCC_CPPFLAGS is a list of words
if ! $NVCC $NVCC_CPPFLAGS -rdc=true -arch=sm_90 -ptx -o "$ptx" "$top_srcdir/gpu/device/device.cu"; then
    echo "check-ptx: $NVCC cannot compile gpu/device/device.cu to PTX"
    exit 1
fi

# The body of a (mangled) function, up to its closing brace.
body_of() {
    awk -v f="$1" '/^\.visible \.func/ && index($0, f) { on = 1 } on { print } on && /^}/ { exit }' "$ptx"
}
body=$(body_of shoal_dev_sync)
if [ -z "$body" ]; then
    echo "check-ptx: no shoal_dev_sync function in the PTX"
    exit 1
fi
fail=0
if echo "$body" | grep -q 'ld\.acquire\.sys'; then
    loads="ld.acquire.sys"
elif echo "$body" | grep -q 'ld\.volatile' && echo "$body" | grep -qE 'fence\.sc\.sys|membar\.sys'; then
    loads="volatile loads with a system fence"
else
    echo "check-ptx: shoal_dev_sync polls without ld.acquire.sys (or volatile loads and a system fence)"
    fail=1
fi
if echo "$body" | grep -q 'nanosleep'; then
    sleeps=$(echo "$body" | grep -c 'nanosleep')
else
    echo "check-ptx: shoal_dev_sync has no nanosleep back-off"
    fail=1
fi
amo=$(body_of shoal_dev_amo)
natoms=$(echo "$amo" | grep -c '^[[:space:]]*atom\.')
nsys=$(echo "$amo" | grep -c '^[[:space:]]*atom\.sys\.')
if [ "$natoms" -eq 0 ] || [ "$natoms" -ne "$nsys" ]; then
    echo "check-ptx: shoal_dev_amo has $natoms atomics, $nsys of them system-scope (atom.sys); all must be"
    fail=1
fi
# The host's atomics on the GPU heap (gheap_ops.cu's one-thread kernel, a
# remote PE's request applied by its owner) are the engine's too: system-scope,
# so they are atomic with the kernels' on the same word, and the fetch an
# acquire load.
amo_at=$(body_of shoal_dev_amo_at)
at_atoms=$(echo "$amo_at" | grep -c '^[[:space:]]*atom\.')
at_sys=$(echo "$amo_at" | grep -c '^[[:space:]]*atom\.sys\.')
if [ -z "$amo_at" ] || [ "$at_atoms" -eq 0 ] || [ "$at_atoms" -ne "$at_sys" ]; then
    echo "check-ptx: shoal_dev_amo_at has $at_atoms atomics, $at_sys of them system-scope (atom.sys); all must be"
    fail=1
fi
if ! echo "$amo_at" | grep -q 'ld\.acquire\.sys'; then
    echo "check-ptx: shoal_dev_amo_at fetches without ld.acquire.sys"
    fail=1
fi
# Put with signal: the data visible system-wide (a system fence) before the
# signal's atomic, which is system-scope too.
sig=$(body_of shoal_dev_put_signal)
if ! echo "$sig" | grep -qE 'fence\.sc\.sys|membar\.sys'; then
    echo "check-ptx: shoal_dev_put_signal has no system fence between the data and the signal"
    fail=1
fi
sig_atoms=$(echo "$sig" | grep -c '^[[:space:]]*atom\.')
sig_sys=$(echo "$sig" | grep -c '^[[:space:]]*atom\.sys\.')
if [ "$sig_atoms" -eq 0 ] || [ "$sig_atoms" -ne "$sig_sys" ]; then
    echo "check-ptx: shoal_dev_put_signal has $sig_atoms atomics, $sig_sys of them system-scope (atom.sys); all must be"
    fail=1
fi
# The device barrier (gpu/device/team.cu, every team's and so the _all forms'):
# it arrives through shoal_dev_amo, whose atomics are atom.sys (above), and
# polls with ld.acquire.sys.
tptx=$(mktemp) || exit 99
trap 'rm -f "$ptx" "$tptx"' EXIT
if ! $NVCC $NVCC_CPPFLAGS -rdc=true -arch=sm_90 -ptx -o "$tptx" "$top_srcdir/gpu/device/team.cu"; then
    echo "check-ptx: $NVCC cannot compile gpu/device/team.cu to PTX"
    exit 1
fi
b=$(ptx=$tptx body_of "shoal_dev_barrier")
if [ -z "$b" ]; then
    echo "check-ptx: no shoal_dev_barrier function in gpu/device/team.cu's PTX"
    fail=1
elif ! echo "$b" | grep -q 'shoal_dev_amo'; then
    echo "check-ptx: shoal_dev_barrier arrives without shoal_dev_amo (system-scope atomics)"
    fail=1
elif ! echo "$b" | grep -q 'ld\.acquire\.sys'; then
    echo "check-ptx: shoal_dev_barrier polls without ld.acquire.sys"
    fail=1
fi
# The host proxy's producers (gpu/device/proxy.cu): each waits for its slot and
# for the host's reply with ld.acquire.sys and nanosleep, and makes the request
# visible system-wide (a system fence) before the word the host polls, a
# volatile store.
pptx=$(mktemp) || exit 99
trap 'rm -f "$ptx" "$tptx" "$pptx"' EXIT
# shellcheck disable=SC2086
if ! $NVCC $NVCC_CPPFLAGS -rdc=true -arch=sm_90 -ptx -o "$pptx" "$top_srcdir/gpu/device/proxy.cu"; then
    echo "check-ptx: $NVCC cannot compile gpu/device/proxy.cu to PTX"
    exit 1
fi
for f in shoal_dev_proxy_put shoal_dev_proxy_get shoal_dev_proxy_amo shoal_dev_proxy_quiet; do
    b=$(ptx=$pptx body_of "$f")
    if [ -z "$b" ]; then
        echo "check-ptx: no $f function in gpu/device/proxy.cu's PTX"
        fail=1
        continue
    fi
    echo "$b" | grep -q 'ld\.acquire\.sys' || { echo "check-ptx: $f polls without ld.acquire.sys"; fail=1; }
    echo "$b" | grep -q 'nanosleep' || { echo "check-ptx: $f polls without nanosleep"; fail=1; }
    if ! echo "$b" | awk '/membar\.sys|fence\.sc\.sys/ { f = 1 } f && /st\.volatile/ { ok = 1 } END { exit !ok }'; then
        echo "check-ptx: $f posts without a system fence before its volatile store"
        fail=1
    fi
done
[ $fail -eq 0 ] && echo "check-ptx: the proxy's producers poll with ld.acquire.sys and nanosleep and fence before they post"
[ $fail -eq 0 ] && echo "check-ptx: shoal_dev_sync polls with $loads and backs off with nanosleep ($sleeps sites); shoal_dev_amo's $natoms atomics and shoal_dev_amo_at's $at_atoms are atom.sys; shoal_dev_put_signal fences, then its $sig_atoms atomics are atom.sys; the device barriers arrive with atom.sys and poll with ld.acquire.sys"
exit $fail
