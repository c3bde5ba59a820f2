#!/bin/sh
# check-generated.sh - fails when the committed outputs of tools/gen/shoal_gen.py
# (typed header, wrappers, test lists, man pages) differ from what the API table
# makes now. Usage: check-generated.sh [SRCDIR]. Exit 0 fresh, 1 stale, 77 skip.

find_root() {
    for d in "$@"; do
        if [ -n "$d" ] && [ -f "$d/tools/gen/shoal_gen.py" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

here=$(dirname "$0")
root=$(find_root "$1" "${top_srcdir:-}" "${srcdir:-}" "${srcdir:-.}/.." "${srcdir:-.}/../.." "$here/.." ".") || {
    echo "check-generated: cannot find tools/gen/shoal_gen.py (pass the source dir)" >&2
    exit 99
}

python=${PYTHON3:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
    echo "check-generated: python3 not found, skipping"
    exit 77
fi

"$python" "$root/tools/gen/shoal_gen.py" --check
rc=$?
if [ "$rc" -ne 0 ]; then
    echo "check-generated: regenerate with: python3 tools/gen/shoal_gen.py (or make regen)" >&2
    exit 1
fi
exit 0
