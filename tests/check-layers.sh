#!/bin/sh
# check-layers.sh - every include keeps to the layer rules of docs/design.md
# (section 1, the ```layers block), through tools/check-layers.py. Exit 0 pass,
# 1 fail, 77 (skip) without python3, 99 when the source tree cannot be found.
top=${top_srcdir:-$(dirname "$0")/..}
python=${PYTHON3:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
    echo "check-layers: python3 not found, skipping"
    exit 77
fi
if [ ! -f "$top/docs/design.md" ] || [ ! -f "$top/tools/check-layers.py" ]; then
    echo "check-layers: $top is not Shoal's source tree" >&2
    exit 99
fi
exec "$python" "$top/tools/check-layers.py" "$top"
