#!/bin/sh
# check-spec-routines.sh - libshoal exports every routine of the OpenSHMEM 1.6 list
# (tests/spec-1.6-routines.txt, made from the specification's synopses by
# tools/spec-routines.py), and no typed reduction or scan that the specification's
# reduction type table leaves out (shmem_int_and_reduce, say).
# Usage: check-spec-routines.sh [path/to/libshoal.so] (else
# $top_builddir/shmem/.libs/libshoal.so; $top_srcdir is honoured).
# Exit 0 pass, 1 fail, 99 when the library or the list cannot be found.

here=$(dirname "$0")
list=
for d in "${top_srcdir:-}" "${srcdir:-}/.." "$here/.." .; do
    if [ -n "$d" ] && [ -f "$d/tests/spec-1.6-routines.txt" ]; then
        list=$d/tests/spec-1.6-routines.txt
        break
    fi
done
if [ -z "$list" ]; then
    echo "check-spec-routines: tests/spec-1.6-routines.txt not found" >&2
    exit 99
fi

lib=$1
if [ -z "$lib" ]; then
    for d in "${top_builddir:-}" . .. ../..; do
        if [ -n "$d" ] && [ -f "$d/shmem/.libs/libshoal.so" ]; then
            lib=$d/shmem/.libs/libshoal.so
            break
        fi
    done
fi
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
    echo "check-spec-routines: libshoal.so not found; build the library first or pass its path" >&2
    exit 99
fi
if ! command -v nm >/dev/null 2>&1; then
    echo "check-spec-routines: nm not found" >&2
    exit 99
fi

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TWi]$/ { sub(/@.*/, "", $3); print $3 }' |
    sort -u >"$tmp/exported"
grep -v '^#' "$list" | grep -v '^[[:space:]]*$' | sort -u >"$tmp/spec"
if [ ! -s "$tmp/spec" ]; then
    echo "check-spec-routines: $list names no routine" >&2
    exit 99
fi

fail=0
# 1. every routine of the list is exported
comm -23 "$tmp/spec" "$tmp/exported" >"$tmp/missing"
while read -r name; do
    echo "check-spec-routines: OpenSHMEM 1.6 routine $name is not exported by $lib"
    fail=1
done <"$tmp/missing"

# 2. no typed team reduction, active-set reduction or scan beyond the table's pairs
grep -E '^shmem_[a-z0-9]+_(and|or|xor|max|min|sum|prod)_(reduce|to_all)$|^shmem_[a-z0-9]+_sum_(inscan|exscan)$' \
    "$tmp/exported" >"$tmp/reductions"
comm -23 "$tmp/reductions" "$tmp/spec" >"$tmp/extra"
while read -r name; do
    echo "check-spec-routines: $lib exports $name, a type and operation the OpenSHMEM 1.6 reduction table does not list"
    fail=1
done <"$tmp/extra"

echo "check-spec-routines: $(wc -l <"$tmp/spec") routines listed, $(wc -l <"$tmp/missing") missing;" \
    "$(wc -l <"$tmp/reductions") typed reductions and scans exported, $(wc -l <"$tmp/extra") not in the table"
exit $fail
