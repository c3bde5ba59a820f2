#!/bin/sh
# gpu-bundle.sh - packs what tests/gpu/run-device.sh needs on a GPU machine that
# has the CUDA driver but none of Debian's packages: Shoal's library, oshrun,
# shoal_info and the GPU test programs (built here, for the build's CUDA_ARCH),
# with the shared libraries they load that such a machine lacks (UCX, PMIx and
# their dependencies, from Debian's packages through apt-get download and
# dpkg -x, and the CUDA runtime they were linked with).
#
# Usage: tools/gpu-bundle.sh [BUILD_DIR [BUNDLE_DIR]]
#   BUILD_DIR   a build configured with CUDA (default build/; for an H100 or H200,
#               configure with CUDA_ARCH=sm_90)
#   BUNDLE_DIR  where the bundle goes (default gpu-bundle/, which git ignores):
#               lib/ (with ucx/ and pmix/ for the plugins), bin/, tests/gpu/.
# Then: tests/gpu/run-device.sh [BUNDLE_DIR], there (the device tool carries
# gpu-bundle), or here: run-device.sh --hide-system checks that nothing outside
# the bundle is loaded.
# Needs apt-get (Debian 12) and the network for the packages. Exit 0 when the
# bundle is complete and under BUNDLE_MAX_MB (60), 1 otherwise.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
out=${2:-$top/gpu-bundle}
: "${BUNDLE_MAX_MB:=60}"
die() {
    echo "gpu-bundle: $*" >&2
    exit 1
}

arch=$(sed -n 's/^CUDA_ARCH_FLAGS = //p' "$build/Makefile")
[ -n "$arch" ] || die "$build was configured without CUDA (no CUDA_ARCH_FLAGS in its Makefile)"
echo "gpu-bundle: building in $build ($arch)"
make -C "$build" -j"$(nproc)" >/dev/null
make -C "$build/tests/gpu" -j"$(nproc)" check TESTS= >/dev/null # the programs, no run

rm -rf "$out"
mkdir -p "$out/lib" "$out/bin" "$out/tests/gpu" "$out/deb"
out=$(cd "$out" && pwd)

# Shoal: the shared library, the tools, every GPU test program (the scripts
# come from the source tree, which travels with the bundle).
cp -L "$build/shmem/.libs/libshoal.so.0" "$out/lib/"
cp "$build/tools/oshrun/oshrun" "$build/tools/shoal_info/shoal_info" "$out/bin/"
for f in "$build"/tests/gpu/*; do
    [ -f "$f" ] && [ -x "$f" ] && head -c 4 "$f" | grep -q ELF && cp "$f" "$out/tests/gpu/"
done
strip --strip-debug "$out"/bin/* "$out"/tests/gpu/* "$out"/lib/libshoal.so.0

# The CUDA runtime the programs were linked with.
cudart=$(ldd "$out/tests/gpu/gpu_wait" | awk '/libcudart/ { print $3 }')
[ -n "$cudart" ] && cp -L "$cudart" "$out/lib/"

# Debian's UCX and PMIx and what they load that a CUDA machine may lack. UCX's
# InfiniBand and RDMA-CM modules stay out (they would need libibverbs).
pkgs="libucx0 libpmix2 libevent-core-2.1-7 libevent-pthreads-2.1-7 libhwloc15 libmunge2 libnuma1"
chmod 777 "$out/deb" # apt's _apt user writes the files
(cd "$out/deb" && apt-get download $pkgs >/dev/null) || die "apt-get download $pkgs failed"
for d in "$out"/deb/*.deb; do
    dpkg -x "$d" "$out/deb/root"
done
multi=$out/deb/root/usr/lib/x86_64-linux-gnu
cp -a "$multi"/lib*.so.* "$out/lib/"
rm -f "$out"/lib/libpmix.so.* # links into pmix2/lib, copied next
mkdir -p "$out/lib/ucx"
cp -a "$multi"/ucx/libuct_cma.so* "$out/lib/ucx/"
cp -a "$multi"/pmix2/lib/libpmix.so.* "$out/lib/"
cp -a "$multi"/pmix2/lib/pmix "$out/lib/pmix"
[ -d "$out/deb/root/usr/share/pmix" ] && cp -a "$out/deb/root/usr/share/pmix" "$out/lib/pmix-share"
rm -rf "$out/deb"

# Every program must find every library it needs in the bundle, but the C
# runtime, the CUDA driver and the compression and device libraries that every
# Linux has.
bad=0
for f in "$out"/bin/* "$out"/tests/gpu/* "$out"/lib/*.so.* "$out"/lib/ucx/*.so.*; do
    [ -L "$f" ] && continue
    missing=$(LD_LIBRARY_PATH=$out/lib ldd "$f" 2>/dev/null | grep "not found" || true)
    outside=$(LD_LIBRARY_PATH=$out/lib ldd "$f" 2>/dev/null | awk '$3 ~ /^\// { print $3 }' |
        grep -v "^$out/" |
        grep -Ev '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|libz|libudev|libcuda)\.so' ||
        true)
    [ -z "$missing$outside" ] && continue
    echo "gpu-bundle: $f loads from outside the bundle: $missing $outside" >&2
    bad=1
done
size=$(du -sm "$out" | cut -f1)
echo "gpu-bundle: $out: $size MiB, $(ls "$out/tests/gpu" | wc -l) test programs"
[ "$size" -le "$BUNDLE_MAX_MB" ] || die "$size MiB is over $BUNDLE_MAX_MB MiB (the device tool carries 64)"
exit $bad
