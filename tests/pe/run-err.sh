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

# pattern: the message after the "[host:pid:pe] " prefix (a basic regular expression);
# who: the PE field of the prefix ("-" before shmem_init) and how many lines to expect:
# "$last 1" when only the last PE errs, "any" when every PE makes the same call.
# envs: VAR=VALUE words the job runs with (the costly checks some cases need).
envs=
case $name in
err_pe)
    pattern="shmem_int_put: argument pe is $ERR_PES, valid range 0\.\.$last"
    who="$last 1" ;;
err_pe_negative)
    pattern="shmem_int_put: argument pe is -1, valid range 0\.\.$last"
    who="$last 1" ;;
err_addr)
    pattern="shmem_int_put: argument dest is $hex, which is not symmetric memory (symmetric heap $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc or make it a global or static variable"
    who="$last 1" ;;
err_range)
    pattern="shmem_int_put: argument dest is $hex and 8 bytes long, which runs past the end of its allocation (16 bytes at $hex) by 4 bytes"
    who="$last 1" ;;
err_size)
    pattern="shmem_putmem: argument dest is $hex and 9223372036854775807 bytes long, which runs past the end of the [a-z/ ]* ([0-9]* bytes at $hex) by [0-9]* bytes"
    who="$last 1" ;;
err_before_init)
    pattern="shmem_int_p: called before shmem_init; call shmem_init first"
    who="- any" ;;
err_bad_free)
    pattern="shmem_free: argument ptr is $hex, which is not a block from shmem_malloc (or it was freed already)"
    who="any" ;;
err_heap_size)
    pattern="shmem_init: environment variable SHMEM_SYMMETRIC_SIZE is 'lots'; expected a number of bytes with an optional K, M, G or T suffix, e\.g\. 512M"
    who="- any" ;;
err_heap_huge)
    pattern="shmem_init: cannot create a symmetric heap of 1099511627776000 bytes ([^)]*); set SHMEM_SYMMETRIC_SIZE to a size this machine can map"
    who="any" ;;
err_align)
    pattern="shmem_align: argument alignment is 48, expected a power of two"
    who="any" ;;
err_wait_cmp)
    pattern="shmem_int_wait_until: argument cmp is 99, expected one of SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_LE, SHMEM_CMP_LT, SHMEM_CMP_GE"
    who="$last 1" ;;
err_amo_pe)
    pattern="shmem_int_atomic_fetch_add: argument pe is $ERR_PES, valid range 0\.\.$last"
    who="$last 1" ;;
err_wait_ivars)
    pattern="shmem_int_wait_until_all: argument ivars is $hex, which is not symmetric memory (symmetric heap $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc or make it a global or static variable"
    who="$last 1" ;;
err_signal_op)
    pattern="shmem_putmem_signal: argument sig_op is 7, expected SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD"
    who="$last 1" ;;
err_signal_addr)
    pattern="shmem_putmem_signal: argument sig_addr is $hex, which is not symmetric memory (symmetric heap $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc or make it a global or static variable"
    who="$last 1" ;;
err_signal_wait_addr)
    pattern="shmem_signal_wait_until: argument sig_addr is $hex, which is not symmetric memory (symmetric heap $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc or make it a global or static variable"
    who="any" ;;
err_amo_align)
    pattern="shmem_long_atomic_add: argument dest is $hex, not aligned to its 8-byte type"
    who="$last 1" ;;
err_lock_addr)
    pattern="shmem_set_lock: argument lock is $hex, which is not symmetric memory (symmetric heap $hex\.\.$hex, global/static data $hex\.\.$hex); allocate it with shmem_malloc or make it a global or static variable"
    who="$last 1" ;;
err_coll_nelems)
    envs="SHOAL_CHECK_COLL=1"
    pattern="shmem_int_broadcast: argument nelems is 5 on PE $last but 4 on PE 0 (index 0 of the team); every PE must pass the same value"
    who="$last 1" ;;
err_coll_root)
    envs="SHOAL_CHECK_COLL=1"
    pattern="shmem_long_broadcast: argument PE_root is 1 on PE $last but 0 on PE 0 (index 0 of the team); every PE must pass the same value"
    who="$last 1" ;;
err_coll_root_range)
    pattern="shmem_int_broadcast: argument PE_root is $ERR_PES, valid range 0\.\.$last"
    who="any" ;;
err_malloc_mismatch)
    envs="SHOAL_CHECK_COLL=1"
    pattern="shmem_malloc: argument size is 72 on PE $last but 64 on PE 0 (index 0 of the team); every PE must pass the same value"
    who="$last 1" ;;
err_team_destroy_world)
    pattern="shmem_team_destroy: argument team is SHMEM_TEAM_WORLD, a predefined team, which cannot be destroyed"
    who="any" ;;
err_ctx_invalid)
    pattern="shmem_ctx_int_p: argument ctx is SHMEM_CTX_INVALID; pass SHMEM_CTX_DEFAULT or a context that shmem_ctx_create or shmem_team_create_ctx made"
    who="$last 1" ;;
err_ctx_team_pe)
    pattern="shmem_ctx_int_p: argument pe is 1, valid range 0\.\.0 (PEs of the context's team)"
    who="$last 1" ;;
err_reduce_nreduce)
    pattern="shmem_int_sum_to_all: argument nreduce is -3, expected 0 or more"
    who="any" ;;
err_active_set)
    pattern="shmem_barrier: the active set PE_start 0, logPE_stride 0, PE_size $((ERR_PES + 1)) does not fit in PEs 0\.\.$last"
    who="any" ;;
err_coll_absent)
    envs="SHOAL_CHECK_COLL=1 SHOAL_CHECK_COLL_TIMEOUT=2"
    pattern="shmem_barrier_all: waited 2 s for PE $last (index $last of this team or active set of $ERR_PES PEs) to join; every PE of the team must call the same collectives in the same order"
    who="0 1" ;;
err_exit_status)
    pattern="exit status 3 before shmem_finalize; ending the job"
    who="$last 1" ;;
err_heap_mismatch)
    pattern="PE [01] has a symmetric heap of \(67108864\|268435456\) bytes, this PE \(67108864\|268435456\): every PE must be given the same SHMEM_SYMMETRIC_SIZE"
    who="any" ;;
err_check_coll_timeout)
    envs="SHOAL_CHECK_COLL=1 SHOAL_CHECK_COLL_TIMEOUT=0"
    pattern="shmem_init: environment variable SHOAL_CHECK_COLL_TIMEOUT is 0; expected a number of seconds from 1"
    who="any" ;;
err_clear_unheld)
    pattern="shmem_clear_lock: argument lock is $hex, which this PE does not hold; clear a lock only after shmem_set_lock, or a shmem_test_lock that returned 0, took it"
    who="$last 1" ;;
err_fcollect_nelems)
    pattern="shmem_int_fcollect: argument nelems is 2305843009213693952, too large: 4-byte elements from each of $ERR_PES PEs overflow size_t"
    who="any" ;;
err_alltoallmem_nelems)
    pattern="shmem_alltoallmem: argument nelems is 9223372036854775808, too large: 1-byte elements from each of $ERR_PES PEs overflow size_t"
    who="any" ;;
err_alltoalls_span)
    pattern="shmem_int_alltoalls: arguments nelems (2) and dst (6148914691236517206) span more than size_t bytes: 4-byte elements from each of $ERR_PES PEs"
    who="any" ;;
err_team_slots)
    pattern="shmem_int_put: argument dest is $hex, inside the symmetric heap but not inside any live allocation (it is Shoal's own: the teams' counters, carved from the heap at shmem_init)"
    who="$last 1" ;;
err_ibput_stride)
    pattern="shmem_int_ibput: argument dst is 2, expected a stride of at least 3 elements (bsize)"
    who="$last 1" ;;
err_pe_quiet)
    pattern="shmem_pe_quiet: argument target_pes\[1\] is $ERR_PES, valid range 0\.\.$last"
    who="$last 1" ;;
err_psync_barrier|err_psync_broadcast|err_psync_reduce)
    case $name in
    err_psync_barrier) fn=shmem_barrier ;;
    err_psync_broadcast) fn=shmem_broadcast32 ;;
    *) fn=shmem_int_sum_to_all ;;
    esac
    pattern="$fn: argument pSync\[0\] is 0x5a5a5a5a5a5a5a5a on entry, expected SHMEM_SYNC_VALUE (0); set every element of pSync to SHMEM_SYNC_VALUE on every PE of the active set, then synchronize (shmem_barrier_all), before its first use"
    who="any" ;;
err_psync_reuse)
    pattern="shmem_barrier: argument pSync\[[0-9]*\] is 0x5a5a5a5a5a5a5a5[0-9a-f] on PE [0-9]*, which no run of this collective leaves there; every element of pSync must be SHMEM_SYNC_VALUE before its first use, and only the collectives that use it may write it afterwards"
    who="any" ;;
err_split_mismatch)
    pattern="shmem_team_split_strided: argument size is $last on PE $last but $ERR_PES on PE 0 (index 0 of the team); every PE must pass the same value"
    who="$last 1" ;;
err_team_invalid)
    pattern="shmem_team_sync: argument team is SHMEM_TEAM_INVALID; pass a team this PE belongs to"
    who="any" ;;
err_team_destroyed)
    pattern="shmem_team_sync: argument team is $hex, a team that was destroyed (by shmem_team_destroy); a handle is valid only until it is destroyed"
    who="any" ;;
err_team_twice)
    pattern="shmem_team_destroy: argument team is $hex, a team that was destroyed (by shmem_team_destroy); a handle is valid only until it is destroyed"
    who="any" ;;
err_ctx_destroyed)
    pattern="shmem_ctx_int_p: argument ctx is $hex, a context that was destroyed (by shmem_ctx_destroy, or with its team by shmem_team_destroy); a handle is valid only until it is destroyed"
    who="$last 1" ;;
err_team_foreign)
    pattern="shmem_team_my_pe: argument team is $hex, which is not a team that this PE made; expected SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED or a team from shmem_team_split_strided or shmem_team_split_2d"
    who="$last 1" ;;
err_exit_zero)
    pattern="shmem_barrier_all: PE $last exited without calling shmem_finalize, so it cannot join this collective, which waits for it; every PE must call the same collectives before shmem_finalize"
    who="any" ;;
err_finalize_early)
    pattern="shmem_long_broadcast: PE $last called shmem_finalize, so it cannot join this collective, which waits for it; every PE must call the same collectives before shmem_finalize"
    who="any" ;;
err_team_config_null)
    pattern="shmem_team_get_config: argument config is NULL and config_mask is 0x1; pass the address of a shmem_team_config_t, or a config_mask of 0"
    who="$last 1" ;;
err_query_null)
    pattern="shmem_query_initialized: argument initialized is NULL; pass the address of an int"
    who="$last 1" ;;
err_local_null)
    pattern="shmem_int_put: argument source is NULL, but the call moves 16 bytes; expected a local buffer of that size"
    who="$last 1" ;;
err_realloc_zero)
    pattern="shmem_realloc: argument ptr is $hex, which is not a block from shmem_malloc (or it was freed already)"
    who="any" ;;
*)
    echo "run-err.sh: no expected error for $name"; exit 99 ;;
esac

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
