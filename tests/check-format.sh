#!/bin/sh
# check-format.sh - the library's and the tools' hand-written C sources match
# .clang-format (clang-format --dry-run reports nothing); the generated files
# are the generator's business. Skipped (77) without clang-format, or with a
# major version other than the one the tree is formatted with (14, Debian 12's):
# another version formats some constructs differently.
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cf=${CLANG_FORMAT:-clang-format}
if ! command -v "$cf" >/dev/null 2>&1; then
    echo "check-format: clang-format not found, skipping"
    exit 77
fi
major=$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$major" != 14 ]; then
    echo "check-format: clang-format $major here, the tree follows 14: skipping"
    exit 77
fi
cd "$top" || exit 99
bad=0
for f in $(find shmem transport tools/oshrun tools/shoal_info -name '*.[ch]' | sort); do
    case $f in
    shmem/api/gen/* | shmem/include/shoal_typed.h | shmem/include/shmemx_typed.h | \
        shmem/include/pshmem.h) continue ;;
    esac
    if [ -n "$("$cf" --dry-run "$f" 2>&1 | head -n 1)" ]; then
        echo "check-format: $f differs from .clang-format (run: clang-format -i $f)"
        bad=1
    fi
done
exit $bad
