#!/bin/sh
# spec-examples.sh - build the OpenSHMEM specification's example programs with Shoal's
# oshcc and run each under oshrun at several PE counts. The examples are not Shoal's
# (fetch example_code/ from openshmem-org/specification yourself); this script is not
# part of make check.
#
# Usage: tests/spec-examples.sh DIR [PE_COUNT...]   (PE counts default to 1 2 4)
#   OSHCC, OSHRUN    the wrapper and the launcher (default: the ones of the build tree
#                    this script sits beside, else those on PATH)
#   EXAMPLE_TIMEOUT  seconds a run may take (default 60), passed to oshrun --timeout
#   CFLAGS_EXTRA     more compiler flags
#
#   SPEC_EXAMPLES_KEEP=1  keep the programs and their output (the folder is named)
#
# A run passes when it exits 0, writes nothing to standard error and prints no line
# with ERROR or FAIL (what the examples that check themselves print); most examples
# print and check nothing, so that is all that can be asked of them. An example is
# skipped, with the reason, when it needs MPI (it includes mpi.h), when it is Fortran
# (.f90: the Fortran API left the specification in 1.5), or at a PE count below the
# one its source requires (a test of n_pes against a number), that it names when it
# stops ("Not enough PEs ..."), or that it addresses by number (Shoal's "argument pe
# is 2, valid range 0..1" at 2 PEs: the example names PE 2). A fragment with no main
# is compiled (-c) when it includes shmem.h or pshmem.h, else skipped. Examples that
# use OpenMP (#pragma omp, omp.h) get -fopenmp. Runs start in a folder holding an
# empty input.txt, the file the shmem_global_exit example stops without.
# Exit: 0 when nothing failed, 1 otherwise, 2 on a usage error.

dir=$1
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "usage: $0 DIR [PE_COUNT...]" >&2
    exit 2
fi
shift
counts=${*:-"1 2 4"}
here=$(cd "$(dirname "$0")" && pwd)
for b in "${top_builddir:-}" "$here/../build" "$here/.."; do
    if [ -z "${OSHCC:-}" ] && [ -n "$b" ] && [ -x "$b/tools/oshcc" ]; then
        OSHCC=$b/tools/oshcc
    fi
    if [ -z "${OSHRUN:-}" ] && [ -n "$b" ] && [ -x "$b/tools/oshrun/oshrun" ]; then
        OSHRUN=$b/tools/oshrun/oshrun
    fi
done
: "${OSHCC:=oshcc}" "${OSHRUN:=oshrun}" "${EXAMPLE_TIMEOUT:=60}"
# Runs start in another folder: a relative path to a tool must not depend on it.
for v in OSHCC OSHRUN; do
    eval "t=\$$v"
    case $t in
    /*) ;;
    */*) eval "$v=\$(cd \"\$(dirname \"\$t\")\" && pwd)/\$(basename \"\$t\")" ;;
    esac
done
for t in "$OSHCC" "$OSHRUN"; do
    if ! command -v "$t" >/dev/null 2>&1; then
        echo "spec-examples: $t not found; set OSHCC and OSHRUN" >&2
        exit 2
    fi
done

work=$(mktemp -d) || exit 2
if [ -n "${SPEC_EXAMPLES_KEEP:-}" ]; then
    echo "spec-examples: programs and output kept in $work"
else
    trap 'rm -rf "$work"' EXIT
fi
: >"$work/input.txt"
npass=0 nfail=0 nskip=0

result() { # example, what, reason
    printf '%-44s %-10s %s\n' "$1" "$2" "$3"
    case $2 in
    PASS*) npass=$((npass + 1)) ;;
    FAIL*) nfail=$((nfail + 1)) ;;
    SKIP*) nskip=$((nskip + 1)) ;;
    esac
}

# The least PE count the source asks for: "if (npes < 4) ... exit/abort/return",
# "if (shmem_n_pes() != 2)", "npes % 2" (an even count), or 0 when it asks none.
min_pes() {
    sed -n 's/.*\(n_\{0,1\}pes\|num_pes\|npes\|size\)\(()\)\{0,1\} *\(<=\|<\|!=\) *\([0-9][0-9]*\).*/\3 \4/p' "$1" |
        awk '{ n = $2 + ($1 == "<=" ? 1 : 0); if (n > m) m = n } END { print m + 0 }'
}

for f in "$dir"/*.f90; do
    [ -f "$f" ] || continue
    result "$(basename "$f")" SKIP "Fortran (the Fortran API was removed in OpenSHMEM 1.5)"
done
for f in "$dir"/*.c; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .c)
    if grep -q '#include *[<"]mpi\.h[>"]' "$f"; then
        result "$name" SKIP "needs MPI (includes mpi.h)"
        continue
    fi
    omp=
    if grep -qE '#pragma +omp|#include *[<"]omp\.h[>"]' "$f"; then
        omp=-fopenmp
    fi
    # shellcheck disable=SC2086
    if ! grep -q '\<main *(' "$f"; then
        if ! grep -qE '#include *[<"]p?shmem\.h[>"]' "$f"; then
            result "$name" SKIP "a fragment with no main that includes no shmem.h (the spec shows it inside a text)"
        elif "$OSHCC" -Wall -Wextra -pedantic $omp ${CFLAGS_EXTRA:-} -c -o "$work/$name.o" \
            "$f" >"$work/$name.cc" 2>&1; then
            result "$name" "PASS(cc)" "a fragment with no main: compiled (-c), not run"
            [ -s "$work/$name.cc" ] && sed 's/^/    /' "$work/$name.cc"
        else
            result "$name" "FAIL(cc)" "a fragment with no main; it does not compile (-c):"
            sed 's/^/    /' "$work/$name.cc"
        fi
        continue
    fi
    # shellcheck disable=SC2086
    if ! "$OSHCC" -Wall -Wextra -pedantic $omp ${CFLAGS_EXTRA:-} -o "$work/$name" "$f" \
        >"$work/$name.cc" 2>&1; then
        result "$name" FAIL "does not compile:"
        sed 's/^/    /' "$work/$name.cc"
        continue
    fi
    if [ -s "$work/$name.cc" ]; then
        printf '%-44s %-10s %s\n' "$name" "(build)" "compiler warnings:"
        sed 's/^/    /' "$work/$name.cc"
    fi
    need=$(min_pes "$f")
    for np in $counts; do
        if [ "$np" -lt "$need" ]; then
            result "$name" "SKIP@$np" "its source asks for $need PEs or more"
            continue
        fi
        (cd "$work" && "$OSHRUN" --timeout "$EXAMPLE_TIMEOUT" -np "$np" "./$name" \
            >"$work/$name.out" 2>"$work/$name.err" </dev/null)
        rc=$?
        said=$(grep -ihE 'not enough (PEs|processes)|(requires|needs) at least [0-9]+ (PEs|processes)' \
            "$work/$name.out" "$work/$name.err" | head -1)
        # Shoal's fatal error for a PE number at or past n_pes: the example addresses
        # a PE this job does not have.
        named=$(sed -n 's/.*: argument pe is \([0-9][0-9]*\), valid range 0\.\.[0-9][0-9]*$/\1/p' \
            "$work/$name.err" | sort -n | tail -1)
        bad=$(grep -wE 'ERROR|FAIL' "$work/$name.out" | head -3)
        if [ $rc -eq 0 ] && [ ! -s "$work/$name.err" ] && [ -z "$bad" ]; then
            result "$name" "PASS@$np" "$(wc -l <"$work/$name.out") lines of output"
        elif [ $rc -eq 0 ] && [ ! -s "$work/$name.err" ]; then
            result "$name" "FAIL@$np" "it printed:"
            printf '%s\n' "$bad" | sed 's/^/    /'
        elif [ $rc -ne 0 ] && [ -n "$said" ]; then
            result "$name" "SKIP@$np" "it says it needs more PEs: $said"
        elif [ $rc -ne 0 ] && [ -n "$named" ] && [ "$named" -ge "$np" ]; then
            result "$name" "SKIP@$np" "it addresses PE $named, so needs $((named + 1)) PEs or more"
        else
            result "$name" "FAIL@$np" "exit status $rc; standard error:"
            sed 's/^/    /' "$work/$name.err" | head -20
        fi
    done
done
echo "spec-examples: $npass passed, $nfail failed, $nskip skipped (runs at PE counts: $counts)"
[ $nfail -eq 0 ]
