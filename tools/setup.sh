#!/bin/sh
# Shoal's first command: install what is missing (Debian 12), build, install into
# a prefix, and run a 4-PE job. Usage: tools/setup.sh [PREFIX] (default ./_inst).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$top/_inst}
pkgs="build-essential autoconf automake libtool pkg-config libucx-dev libpmix-dev check mandoc python3 openmpi-bin"

missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing:$missing"
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
fi

cd "$top"
[ -x configure ] || ./autogen.sh
mkdir -p build
cd build
[ -f Makefile ] || ../configure --prefix="$prefix"
make -j"$(nproc)"
make install

echo "setup: built and installed into $prefix; running examples/ring.c on 4 PEs"
"$prefix/bin/oshcc" -o ring "$top/examples/ring.c"
"$prefix/bin/oshrun" -np 4 ./ring
