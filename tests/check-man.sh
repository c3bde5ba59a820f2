#!/bin/sh
# check-man.sh - every routine libshoal exports (shmem_, shmemx_ and the deprecated
# names) has a man page, and so does every nvshmem_/nvshmemx_ host routine of the GPU library where it was built; every real
# page (man/man3, and the hand-written GPU pages in man/gpu) lints clean, and every
# link page points at a page that exists.
# Usage: check-man.sh [path/to/libshoal.so] (else $top_builddir/shmem/.libs/libshoal.so;
# $top_srcdir and $MANDOC are honoured). Exit 0 pass, 1 fail, 77 skip
# (no mandoc or groff), 99 when the library has not been built.

find_root() {
    for d in "$@"; do
        if [ -n "$d" ] && [ -d "$d/man/man3" ] && [ -f "$d/tools/gen/shoal_gen.py" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

here=$(dirname "$0")
root=$(find_root "${top_srcdir:-}" "${srcdir:-}" "${srcdir:-.}/.." "${srcdir:-.}/../.." "$here/.." ".") || {
    echo "check-man: cannot find the source tree (man/man3)" >&2
    exit 99
}
man3=$root/man/man3

mandoc=${MANDOC:-mandoc}
if command -v "$mandoc" >/dev/null 2>&1; then
    lint() { (cd "$root/man" && "$mandoc" -T lint -W warning "$@" 2>&1); }
elif command -v groff >/dev/null 2>&1; then
    lint() { for p in "$@"; do (cd "$root/man" && groff -man -ww -z -t "$p" 2>&1); done; }
else
    echo "check-man: neither mandoc nor groff is installed, skipping"
    exit 77
fi

lib=$1
if [ -z "$lib" ]; then
    for d in "${top_builddir:-}" . .. ../..; do
        [ -n "$d" ] || continue
        if [ -f "$d/shmem/.libs/libshoal.so" ]; then
            lib=$d/shmem/.libs/libshoal.so
            break
        fi
    done
fi
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
    echo "check-man: libshoal.so not found (${lib:-looked for shmem/.libs/libshoal.so}); build the library first or pass its path" >&2
    exit 99
fi
if ! command -v nm >/dev/null 2>&1; then
    echo "check-man: nm not found" >&2
    exit 99
fi

fail=0

# 1. a page, real or link, for every exported OpenSHMEM routine
syms=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TWi]$/ { sub(/@.*/, "", $3); print $3 }' |
       grep -E '^(shmemx?_[a-z0-9_]+|_my_pe|_num_pes|start_pes|shmalloc|shfree|shrealloc|shmemalign)$' |
       sort -u)
if [ -z "$syms" ]; then
    echo "check-man: $lib exports no shmem_* routine" >&2
    exit 1
fi
nsyms=0
for s in $syms; do
    nsyms=$((nsyms + 1))
    if [ ! -f "$man3/$s.3" ]; then
        echo "check-man: no man page for exported $s (man/man3/$s.3)"
        fail=1
    fi
done

# 1b. the GPU library's host routines (its device routines are documented on the
# same pages as their host twins, which step 1 and the generator keep honest)
gpulib=$(dirname "$lib")/../../gpu/libshoal_gpu.a
if [ -f "$gpulib" ]; then
    for s in $(nm --defined-only "$gpulib" 2>/dev/null | awk '$2 == "T" { print $3 }' |
               grep -E '^nvshmemx?_[a-z0-9_]+$' | sort -u); do
        nsyms=$((nsyms + 1))
        if [ ! -f "$man3/$s.3" ] && [ ! -f "$root/man/gpu/$s.3" ]; then
            echo "check-man: no man page for $s of libshoal_gpu (man/man3 or man/gpu)"
            fail=1
        fi
    done
fi

# 2. real pages lint clean; 3. link pages point at an existing page (installed
# pages all land in man3: a GPU page's man3/X.3 is man/man3/X.3 or man/gpu/X.3).
# A link page is one .so line. mandoc lints all real pages in one run (its lines
# name the page), groff one page at a time.
pages=$(cd "$root/man" && for f in man3/*.3 gpu/*.3; do [ -f "$f" ] && echo "$f"; done)
# shellcheck disable=SC2086 # lists of page names, without blanks
real=$(cd "$root/man" && grep -L '^\.so' $pages)
# shellcheck disable=SC2086
links=$(cd "$root/man" && grep -H '^\.so' $pages | sed 's/:\.so[ 	]*/ /')
nreal=$(echo "$real" | grep -c .)
nlink=0
while read -r page target; do
    [ -n "$page" ] || continue
    nlink=$((nlink + 1))
    if [ ! -f "$root/man/$target" ] && [ ! -f "$root/man/gpu/${target#man3/}" ]; then
        echo "check-man: $page links to missing $target"
        fail=1
    fi
done <<EOF_LINKS
$links
EOF_LINKS
# shellcheck disable=SC2086
out=$(lint $real)
if [ -n "$out" ]; then
    echo "$out"
    fail=1
fi

echo "check-man: $nsyms exported routines, $nreal pages, $nlink link pages"
exit $fail
