#!/bin/sh
# check-shoal-info.sh - shoal_info(1) answers without a job: its summary, --all listing
# every row of SHOAL_ENV_TABLE (the names and defaults are read from the header, so a
# row the tool misses fails here), --param with default, range and the environment's
# value, a misspelt --param (exit 2, the right name suggested), rejected values
# reported rather than fatal, --parsable keys, and a man page naming every option.
# Usage: check-shoal-info.sh ($top_srcdir, $top_builddir, $SHOAL_INFO and $MANDOC are
# honoured). Exit 0 pass, 1 fail, 99 when shoal_info has not been built.

here=$(dirname "$0")
root=${top_srcdir:-$here/..}
build=${top_builddir:-..}
info=${SHOAL_INFO:-$build/tools/shoal_info/shoal_info}
header=$root/shmem/util/shoal_env.h
page=$root/man/man1/shoal_info.1

if [ ! -x "$info" ]; then
    echo "check-shoal-info: $info not found; build tools/ first or set SHOAL_INFO" >&2
    exit 99
fi
if [ ! -f "$header" ] || [ ! -f "$page" ]; then
    echo "check-shoal-info: cannot find $header or $page (set top_srcdir)" >&2
    exit 99
fi

fail=0
bad() {
    echo "check-shoal-info: FAIL: $*"
    fail=1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/shoal-info.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

# Run shoal_info without the caller's Shoal variables (make check may run under
# SHOAL_TRANSPORT=ucx and the like): run VAR=VALUE... -- args. Output in $tmp/out and
# $tmp/err, exit status in $rc.
run() {
    unset_args=$(env | grep -E -o '^(SHMEM|SHOAL|SMA)_[A-Za-z0-9_]*=' | sed 's/^/-u /; s/=$//')
    set_args=
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        set_args="$set_args $1"
        shift
    done
    [ "$1" = -- ] && shift
    # shellcheck disable=SC2086  # word splitting of the variable lists is meant
    env $unset_args $set_args "$info" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# The table's rows: "NAME DEFAULT", from the first line of each X(...) row.
rows=$(sed -n 's/^[[:space:]]*X(\([A-Z0-9_]*\), *[a-z_]*, *[a-z_]*, *"\([^"]*\)".*/\1 \2/p' "$header")
nrows=$(echo "$rows" | grep -c .)
nx=$(grep -c '^[[:space:]]*X(' "$header")
if [ "$nrows" -lt 10 ] || [ "$nrows" -ne "$nx" ]; then
    bad "read $nrows rows with a default out of $nx X( lines of $header: has its layout changed?"
fi

# 1. the summary: exit 0, a version line; --version
run --
[ "$rc" -eq 0 ] || bad "shoal_info exits $rc: $(cat "$tmp/err")"
grep -q '^Shoal [0-9][0-9.]* (OpenSHMEM 1\.6)$' "$tmp/out" || bad "no version line in: $(head -3 "$tmp/out")"
grep -q '^  prefix: ' "$tmp/out" || bad "no prefix line"
grep -q '^  UCX: .*loaded' "$tmp/out" || bad "no UCX version line"
grep -q '^  PMIx: .*loaded' "$tmp/out" || bad "no PMIx version line"
grep -q '^  CUDA: ' "$tmp/out" || bad "no CUDA line"
grep -q '^  same node: ' "$tmp/out" || bad "no same-node transport line"
run -- --version
grep -q '^shoal_info (Shoal) [0-9]' "$tmp/out" && [ "$rc" -eq 0 ] || bad "--version: $rc $(cat "$tmp/out")"

# 2. --all lists every row of the table, and --parsable gives each its default
run -- --all
[ "$rc" -eq 0 ] || bad "--all exits $rc"
cp "$tmp/out" "$tmp/all"
run -- --parsable
[ "$rc" -eq 0 ] || bad "--parsable exits $rc"
cp "$tmp/out" "$tmp/parsable"
echo "$rows" | while read -r name dflt; do
    grep -q "^  $name  *= " "$tmp/all" || echo "--all does not list $name"
    grep -qx "setting:$name:default:$dflt" "$tmp/parsable" ||
        echo "--parsable lacks setting:$name:default:$dflt"
done >"$tmp/missing"
[ -s "$tmp/missing" ] && bad "$(cat "$tmp/missing")"
nlisted=$(grep -c '^setting:[A-Z0-9_]*:default:' "$tmp/parsable")
[ "$nlisted" -eq "$nrows" ] || bad "--parsable lists $nlisted settings, the table has $nrows"

# 3. --parsable: every line a key, the version and a setting's default as documented
nonkey=$(grep -cv '^[a-z_]\{1,\}:' "$tmp/parsable")
[ "$nonkey" -eq 0 ] || bad "$nonkey --parsable lines without a key: $(grep -v '^[a-z_]\{1,\}:' "$tmp/parsable" | head -3)"
grep -q '^version:[0-9][0-9.]*$' "$tmp/parsable" || bad "no version: key"
grep -qx 'setting:SHMEM_SYMMETRIC_SIZE:default:256M' "$tmp/parsable" || bad "no setting:SHMEM_SYMMETRIC_SIZE:default:256M"
grep -q '^ucx:loaded_version:.' "$tmp/parsable" || bad "no ucx:loaded_version"
grep -q '^pmix:loaded_version:.' "$tmp/parsable" || bad "no pmix:loaded_version"
grep -E -q '^cuda:gpu_library:(yes|no)$' "$tmp/parsable" || bad "no cuda:gpu_library"
grep -q '^transport:ucx:' "$tmp/parsable" || bad "no transport:ucx"

# 4. --param: default, range, help; the environment's value
run -- --param SHOAL_TEAMS_MAX
[ "$rc" -eq 0 ] || bad "--param SHOAL_TEAMS_MAX exits $rc"
grep -q '^  default: *64$' "$tmp/out" || bad "--param SHOAL_TEAMS_MAX: no default 64 in: $(cat "$tmp/out")"
grep -q '^  range: *from 2 to 64$' "$tmp/out" || bad "--param SHOAL_TEAMS_MAX: no range 2..64"
grep -q '^  value: *64 (the default' "$tmp/out" || bad "--param SHOAL_TEAMS_MAX: value is not the default"
grep -q '^  help: *Teams' "$tmp/out" || bad "--param SHOAL_TEAMS_MAX: no help"
run SHOAL_TEAMS_MAX=8 -- --param SHOAL_TEAMS_MAX
grep -q '^  value: *8 (from the environment' "$tmp/out" || bad "SHOAL_TEAMS_MAX=8: $(cat "$tmp/out")"
run SHOAL_TEAMS_MAX=8 -- --parsable --param shoal_teams_max
grep -qx 'setting:SHOAL_TEAMS_MAX:value:8' "$tmp/out" && grep -qx 'setting:SHOAL_TEAMS_MAX:source:SHOAL_TEAMS_MAX' "$tmp/out" ||
    bad "SHOAL_TEAMS_MAX=8 --parsable: $(cat "$tmp/out")"
run SMA_SYMMETRIC_SIZE=1G -- --param SHMEM_SYMMETRIC_SIZE
grep -q '^  value: *1G = 1073741824 bytes (from the environment: SMA_SYMMETRIC_SIZE=1G)' "$tmp/out" ||
    bad "SMA_SYMMETRIC_SIZE=1G is not read for SHMEM_SYMMETRIC_SIZE: $(cat "$tmp/out")"

# 5. a misspelt --param: one line naming the setting meant, exit 2
run -- --param SHMEM_SYMETRIC_SIZE
[ "$rc" -eq 2 ] || bad "--param SHMEM_SYMETRIC_SIZE exits $rc, not 2"
[ "$(grep -c . "$tmp/err")" -eq 1 ] && grep -q 'SHMEM_SYMMETRIC_SIZE' "$tmp/err" ||
    bad "--param SHMEM_SYMETRIC_SIZE: no one-line suggestion: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && bad "--param SHMEM_SYMETRIC_SIZE printed to stdout: $(cat "$tmp/out")"
run -- --no-such-option
[ "$rc" -eq 2 ] || bad "--no-such-option exits $rc, not 2"

# 6. values the library rejects are reported, not fatal; so is a misspelt variable
run SHOAL_TEAMS_MAX=99 SHOAL_CTX_MAX=abc SHMEM_SYMETRIC_SIZE=1G --
[ "$rc" -eq 0 ] || bad "rejected values: exit $rc: $(cat "$tmp/err")"
grep -q 'SHOAL_TEAMS_MAX is 99; expected a whole number from 2 to 64' "$tmp/out" ||
    bad "SHOAL_TEAMS_MAX=99 not reported: $(cat "$tmp/out")"
grep -q "SHOAL_CTX_MAX is 'abc'" "$tmp/out" || bad "SHOAL_CTX_MAX=abc not reported (only the first?)"
grep -q 'SHMEM_SYMETRIC_SIZE.*SHMEM_SYMMETRIC_SIZE' "$tmp/out" || bad "SHMEM_SYMETRIC_SIZE not reported as unknown"
run SHOAL_TEAMS_MAX=99 -- --param SHOAL_TEAMS_MAX --parsable
[ "$rc" -eq 0 ] && grep -q '^setting:SHOAL_TEAMS_MAX:error:.*from 2 to 64' "$tmp/out" ||
    bad "SHOAL_TEAMS_MAX=99 --parsable: $rc $(cat "$tmp/out")"

# 7. UCX that cannot start is an answer, not a failure
run UCX_TLS=no_such_transport -- --parsable
[ "$rc" -eq 0 ] && grep -q '^transport:ucx:error:' "$tmp/out" ||
    bad "UCX_TLS=no_such_transport: exit $rc, $(grep '^transport' "$tmp/out")"

# 8. it never starts a job: no shmem_init, no libshoal
if command -v nm >/dev/null 2>&1; then
    nm "$info" 2>/dev/null | grep -q 'shmem_init' && bad "shoal_info refers to shmem_init"
fi

# 9. the man page documents every long option of --help, and lints clean
run -- --help
[ "$rc" -eq 0 ] || bad "--help exits $rc"
for opt in $(grep -o -- '--[a-z][a-z-]*' "$tmp/out" | sort -u); do
    # ".Fl \-all" is how the page writes --all
    sed 's/\\-/-/g' "$page" | grep -E -q -- "Fl ${opt#-}( |\$)" || bad "man page lacks $opt"
done
mandoc=${MANDOC:-mandoc}
if command -v "$mandoc" >/dev/null 2>&1; then
    out=$("$mandoc" -T lint -W warning "$page" 2>&1) || bad "mandoc: $out"
fi

[ "$fail" -eq 0 ] && echo "check-shoal-info: $nrows settings, all checks passed"
exit $fail
