#!/bin/sh
# Automake LOG_COMPILER for the GPU error tests (err_gpu_*.err): runs one program
# that must fail at ERR_PES PEs under oshrun and checks that the job ends
# non-zero, before the timeout, with exactly the expected line, printed by the PE
# that erred (as tests/pe/run-err.sh does for the host). A program that exits
# 77 (no GPU, or a GPU where the test needs none) skips. Exit: 0 as expected, 77
# skipped, 1 otherwise.
prog="$1"; shift
name=$(basename "$prog"); name=${name%.err}
: "${OSHRUN:=../../tools/oshrun/oshrun}"
: "${ERR_PES:=2}"
: "${ERR_TIMEOUT:=60}"
last=$((ERR_PES - 1))

# pattern: the message after the "[host:pid:pe] " prefix (a basic regular
# expression); who: the PE that must print it; envs: VAR=VALUE words for the job.
envs=
case $name in
err_gpu_unreachable)
    envs="SHOAL_TRANSPORT=ucx SHOAL_GPU_PROXY=none"
    pattern="nvshmem_int_p (device): argument pe is 0, which this GPU cannot reach (its heap is not mapped on this node, and SHOAL_GPU_PROXY=none turned off the host proxy that reaches such PEs)"
    who=$last ;;
err_gpu_put_signal)
    envs="SHOAL_TRANSPORT=ucx SHOAL_GPU_PROXY=none"
    pattern="nvshmem_putmem_signal (device): argument pe is 0, which this GPU cannot reach (its heap is not mapped on this node, and SHOAL_GPU_PROXY=none turned off the host proxy that reaches such PEs)"
    who=$last ;;
err_gpu_barrier)
    envs="SHOAL_TRANSPORT=ucx SHOAL_GPU_PROXY=none"
    pattern="nvshmem_barrier_all (device): PE 0 is out of this GPU's reach (its heap is not mapped on this node, and SHOAL_GPU_PROXY=none turned off the host proxy), and the routine involves every PE"
    who=$last ;;
err_gpu_gheap_unreachable)
    envs="SHOAL_TRANSPORT=ucx SHOAL_GPU_PROXY=none"
    pattern="nvshmem_long_p (device): argument pe is 0, whose GPU symmetric heap this GPU cannot reach (not mapped here: another node, or a GPU without peer access; and SHOAL_GPU_PROXY=none turned off the host proxy that reaches it)"
    who=$last ;;
err_gpu_gheap_range)
    envs="SHOAL_GPU_SYMMETRIC_SIZE=1M"
    pattern="shmem_putmem: argument dest is 0x[0-9a-f]* and 64 bytes long, which runs past the end of the GPU symmetric heap (1048576 bytes at 0x[0-9a-f]*) by 32 bytes"
    who=$last ;;
err_gpu_gheap_noproxy)
    envs="SHOAL_TRANSPORT=ucx SHOAL_GPU_PROXY=none"
    pattern="shmem_long_p: argument pe is 0, whose GPU symmetric heap is not mapped here (another node, or SHOAL_TRANSPORT=ucx) and is reached through the host proxy, which SHOAL_GPU_PROXY=none turned off"
    who=$last ;;
err_gpu_gheap_free)
    pattern="nvshmem_free: argument ptr is 0x[0-9a-f]*, which is not a block from nvshmem_malloc (or it was freed already)"
    who=$last ;;
err_gpu_gheap_mismatch)
    envs="SHOAL_CHECK_COLL=1"
    pattern="nvshmem_malloc: argument size is 72 on PE $last but 64 on PE 0 (index 0 of the team); every PE must pass the same value"
    who=$last ;;
err_gpu_pe)
    pattern="nvshmem_long_atomic_add (device): argument pe is $ERR_PES, valid range 0\.\.$last"
    who=$last ;;
err_gpu_stream_pe)
    pattern="nvshmemx_putmem_on_stream: argument pe is $ERR_PES, valid range 0\.\.$last"
    who=$last ;;
err_gpu_team)
    pattern="nvshmem_barrier (device): argument team is 9, which names no team here (expected a predefined team, or one that nvshmem_team_split_strided or nvshmem_team_split_2d made on this PE and nvshmem_team_destroy has not ended)"
    who=$last ;;
err_gpu_team_split)
    pattern="nvshmem_team_split_strided: argument parent_team is 9, which names no team here (expected a predefined team, or one that nvshmem_team_split_strided or nvshmem_team_split_2d made on this PE and nvshmem_team_destroy has not ended)"
    who=$last ;;
err_gpu_coll_root)
    pattern="nvshmem_int_broadcast (device): argument PE_root is $ERR_PES, valid range 0\.\.$last"
    who=$last ;;
err_gpu_coll_stream)
    pattern="nvshmemx_int_broadcast_on_stream: argument PE_root is $ERR_PES, valid range 0\.\.$last"
    who=$last ;;
err_gpu_gheap_coll_team)
    pattern="shmem_long_sum_reduce: a buffer is in the GPU symmetric heap, which a collective reaches through the team's device twin, and team 0x[0-9a-f]* has none: make it with nvshmem_team_split_strided or nvshmem_team_split_2d (SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED have theirs)"
    who=$last ;;
err_gpu_launch_grid)
    pattern="nvshmemx_collective_launch: argument gridDims is \([0-9]*\)x1x1 (\1 blocks), more than the [0-9]* blocks of 64 threads that run at once on this PE's GPU; all of them must, in a cooperative launch (nvshmemx_collective_launch_query_gridsize tells the most, and a gridDims of 0 takes it)"
    who=$last ;;
err_gpu_launch_func)
    pattern="nvshmemx_collective_launch: argument func is NULL, expected the kernel to launch"
    who=$last ;;
err_gpu_launch_block)
    pattern="nvshmemx_collective_launch: argument blockDims is 0x1x1 (0 threads), expected 1 to [0-9]* threads per block"
    who=$last ;;
err_gpu_launch_params)
    pattern="nvshmemx_collective_launch: argument args is NULL, expected the addresses of the kernel's parameters (it takes 1)"
    who=$last ;;
err_gpu_launch_gridsize)
    pattern="nvshmemx_collective_launch_query_gridsize: argument gridsize is NULL, expected where to write the number of blocks"
    who=$last ;;
err_gpu_launch_coop)
    envs="SHOAL_DEV_CPU_COOP=0"
    pattern="nvshmemx_collective_launch_query_gridsize: this PE's GPU cannot make cooperative launches (CUDA's cudaDevAttrCooperativeLaunch is 0), which the routine needs"
    who=$last ;;
err_gpu_nogpu_stream)
    pattern="nvshmemx_int_wait_until_on_stream: no GPU is set up on this PE (cudaGetDeviceCount: [^)]*)"
    who=$last ;;
*)
    echo "run-gpu-err.sh: no expected error for $name"; exit 99 ;;
esac

[ -x "$OSHRUN" ] || { echo "run-gpu-err.sh: $OSHRUN is not built: skipped"; exit 77; }
# shellcheck disable=SC2086 # envs is a list of words
[ -n "$envs" ] && export $envs
err=$(mktemp) || exit 99
trap 'rm -f "$err"' EXIT
echo "== ${envs:+$envs }$OSHRUN -np $ERR_PES $prog"
start=$(date +%s)
timeout $((ERR_TIMEOUT + 10)) "$OSHRUN" --timeout "$ERR_TIMEOUT" -np "$ERR_PES" "$prog" \
    2>"$err" >/dev/null
rc=$?
elapsed=$(($(date +%s) - start))
cat "$err"
if [ $rc -eq 77 ]; then
    echo "== skipped"
    exit 77
fi
status=0
fail() { echo "== FAILED ($name): $*"; status=1; }

if [ $rc -eq 0 ]; then
    fail "the job exited 0"
elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    fail "the job hung: no exit in $ERR_TIMEOUT s"
fi
prefix='^\[[^]]*:[0-9]*:[0-9-]*\] '
lines=$(grep -c "$prefix$pattern\$" "$err")
pe_lines=$(grep -c "^\[[^]]*:[0-9]*:$who\] $pattern\$" "$err")
routine=${pattern%%[ :]*}
others=$(grep "$prefix$routine[ :]" "$err" | grep -cv "$prefix$pattern\$")
[ "$lines" -eq 1 ] || fail "$lines lines match, expected 1: $pattern"
[ "$pe_lines" -eq "$lines" ] || fail "the error came from a PE other than $who"
[ "$others" -eq 0 ] || fail "$others other $routine lines"
[ $status -eq 0 ] && echo "== ok: status $rc after ${elapsed}s, the expected error line"
exit $status
