#!/bin/sh
# Automake LOG_COMPILER for the error tests (err_*.err): runs one program that must
# fail at ERR_PES PEs under oshrun (mpirun when OSHRUN is not built, ERR_LAUNCH when
# set: a command that starts ERR_PES PEs of the program it is given) and checks that
# the job ends non-zero, before the timeout, with exactly the expected error line,
# printed by the PE that erred. Exit: 0 as expected, 77 no launcher, 1 otherwise.
prog="$1"; shift
name=$(basename "$prog"); name=${name%.err}
: "${OSHRUN:=../../tools/oshrun/oshrun}"
: "${ERR_PES:=2}"
: "${ERR_TIMEOUT:=60}"
last=$((ERR_PES - 1))
hex='0x[0-9a-f]*'

# The expectation lives in the program's source ($name.c next to this script, or
# ERR_SOURCE), in its first comment, as lines a key starts and lines indented
# two more spaces continue (joined with one space):
#   err-line: the message after the "[host:pid:pe] " prefix (a basic regular
#             expression); $ERR_PES, $last (ERR_PES - 1) and $hex expand in it
#   err-from: the PE field of the prefix ("-" before shmem_init) and how many lines
#             to expect: "$last 1" when only the last PE errs, "any" when every PE
#             makes the same call
#   err-env:  VAR=VALUE words the job runs with (the costly checks some cases need)
src=${ERR_SOURCE:-$(dirname "$0")/$name.c}
if [ ! -f "$src" ]; then
    echo "run-err.sh: no $src, which holds the expected error of $name"
    exit 99
fi
# expect KEY: the value of " * err-KEY: " in $src, its continuation lines joined.
expect() {
    awk -v key=" * err-$1: " '
        found && /^ \*   / { sub(/^ \*   */, ""); v = v " " $0; next }
        found { exit }
        index($0, key) == 1 { v = substr($0, length(key) + 1); found = 1 }
        END { sub(/ *\*\/$/, "", v); print v }' "$src"
}
# As the words were written in the source: expand the variables, nothing else
# (the source holds no quotes or backquotes: refuse it if it does).
expand() {
    case $1 in *'"'* | *'`'*) echo "run-err.sh: $src: a quote in err-$2" >&2; exit 99 ;; esac
    eval "printf '%s' \"$1\""
}
pattern=$(expand "$(expect line)" line) || exit 99
who=$(expand "$(expect from)" from) || exit 99
envs=$(expand "$(expect env)" env) || exit 99
if [ -z "$pattern" ] || [ -z "$who" ]; then
    echo "run-err.sh: $src has no err-line or err-from line"
    exit 99
fi

if [ -n "${ERR_LAUNCH:-}" ]; then
    # another launch command, e.g. oshrun --hostfile across nodes (tests/multinode)
    # shellcheck disable=SC2086 # a command and its words
    set -- $ERR_LAUNCH "$prog"
elif [ -x "$OSHRUN" ]; then
    # unbound: no 50 ms look for idle CPUs before each job (run-pe.sh says why)
    set -- "$OSHRUN" --bind-to none --timeout "$ERR_TIMEOUT" -np "$ERR_PES" "$prog"
elif command -v mpirun >/dev/null 2>&1; then
    set -- mpirun --allow-run-as-root --oversubscribe -np "$ERR_PES" "$prog"
else
    echo "run-err.sh: neither $OSHRUN nor mpirun: skipped"; exit 77
fi

# shellcheck disable=SC2086 # envs is a list of words
[ -n "$envs" ] && export $envs
err=$(mktemp) || exit 99
trap 'rm -f "$err"' EXIT
echo "== ${envs:+$envs }$*"
start=$(date +%s)
timeout $((ERR_TIMEOUT + 10)) "$@" 2>"$err" >/dev/null
rc=$?
elapsed=$(($(date +%s) - start))
cat "$err"
status=0
fail() { echo "== FAILED ($name): $*"; status=1; }

if [ $rc -eq 0 ]; then
    fail "the job exited 0"
elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    fail "the job hung: no exit in $ERR_TIMEOUT s"
fi
prefix='^\[[^]]*:[0-9]*:[0-9-]*\] '
lines=$(grep -c "$prefix$pattern\$" "$err")
routine=${pattern%%:*}
others=$(grep "$prefix$routine: " "$err" | grep -cv "$prefix$pattern\$")
[ "$lines" -ge 1 ] || fail "no line matches: $pattern"
[ "$others" -eq 0 ] || fail "$others other $routine lines"
set -- $who
if [ "$1" != any ]; then
    pe_lines=$(grep -c "^\[[^]]*:[0-9]*:$1\] $pattern\$" "$err")
    [ "$pe_lines" -eq "$lines" ] || fail "the error came from a PE other than $1"
fi
if [ "${2:-any}" != any ] && [ "$lines" -ne "$2" ]; then
    fail "$lines error lines, expected $2"
fi
[ $status -eq 0 ] && echo "== ok: status $rc after ${elapsed}s, the expected error line"
exit $status
