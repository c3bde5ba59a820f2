#!/bin/sh
# check-pkgconfig.sh - builds examples/ring.c from the installed prefix with nothing
# but pkg-config's flags for shoal, runs it on 2 PEs; where the prefix also holds
# libshoal.a (configure --enable-static), links it statically with
# `pkg-config --static` (Libs.private: UCX and PMIx) and runs that too; and checks
# that shoal-gpu.pc is installed when the GPU library is. Exit 77 (skip) when the
# configured prefix holds no installation of this build (tools/setup.sh installs).
set -u
top_builddir=${top_builddir:-..}
top_srcdir=${top_srcdir:-..}
prefix=$(sed -n 's/^prefix=//p' "$top_builddir/shoal.pc")
pcdir=$prefix/lib/pkgconfig
oshrun=$top_builddir/tools/oshrun/oshrun
if ! cmp -s "$top_builddir/shoal.pc" "$pcdir/shoal.pc"; then
    echo "check-pkgconfig: skipped: $pcdir/shoal.pc is not this build's (run make install)"
    exit 77
fi
command -v pkg-config >/dev/null 2>&1 || { echo "check-pkgconfig: skipped: no pkg-config"; exit 77; }
PKG_CONFIG_PATH=$pcdir
export PKG_CONFIG_PATH
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
rc=0

run2() {
    out=$(timeout 120 "$oshrun" -np 2 "$1" 2>&1)
    if [ $? -ne 0 ] || ! printf '%s\n' "$out" | grep -q 'all values checked'; then
        echo "check-pkgconfig: $2: the program failed:"
        printf '%s\n' "$out"
        return 1
    fi
    echo "check-pkgconfig: $2: ok"
}

# shellcheck disable=SC2046
$cc -o "$tmp/ring" "$top_srcdir/examples/ring.c" $(pkg-config --cflags --libs shoal) \
    -Wl,-rpath,"$prefix/lib" || { echo "check-pkgconfig: cannot link with pkg-config --libs shoal"; exit 1; }
run2 "$tmp/ring" "shared link" || rc=1

if [ -f "$prefix/lib/libshoal.a" ]; then
    # libshoal.a named by path: -lshoal would pick the shared library.
    # shellcheck disable=SC2046
    $cc -o "$tmp/ring-static" "$top_srcdir/examples/ring.c" $(pkg-config --cflags shoal) \
        "$prefix/lib/libshoal.a" $(pkg-config --static --libs shoal | sed 's/-lshoal\b//') ||
        { echo "check-pkgconfig: cannot link libshoal.a with pkg-config --static --libs shoal"; rc=1; }
    [ $rc -ne 0 ] || run2 "$tmp/ring-static" "static link" || rc=1
else
    echo "check-pkgconfig: static link not tried: no libshoal.a (configure --enable-static builds it)"
fi

if [ -f "$prefix/lib/libshoal_gpu.a" ]; then
    pkg-config --exists shoal-gpu || { echo "check-pkgconfig: libshoal_gpu.a without shoal-gpu.pc"; rc=1; }
    pkg-config --libs shoal-gpu | grep -q -- -lshoal_gpu ||
        { echo "check-pkgconfig: shoal-gpu.pc does not link -lshoal_gpu"; rc=1; }
fi
exit $rc
