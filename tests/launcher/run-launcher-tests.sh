#!/bin/sh
# shellcheck disable=SC2016 # single-quoted $VARs below are for the PEs' shells
# Checks oshrun against a PMIx client: wire-up data exchange, exit status and failure
# handling, timeouts, option errors, that no PE outlives its job, who may connect to the PMIx
# server, oshrun's directory, binding, and the PEs' output (whole lines, tags, files).
# Builds nothing.
# Usage: run-launcher-tests.sh [OSHRUN [PMIX_CLIENT]]  (or env OSHRUN=..., PMIX_CLIENT=...)
# Exit: 0 all passed, 1 something failed, 77 the programs are missing.

OSHRUN=${1:-${OSHRUN:-../../tools/oshrun/oshrun}}
CLIENT=${2:-${PMIX_CLIENT:-./pmix_client}}
for p in "$OSHRUN" "$CLIENT"; do
    if [ ! -x "$p" ]; then
        echo "SKIP: $p is not an executable"
        exit 77
    fi
done
case $CLIENT in /*) ;; *) CLIENT=$(pwd)/$CLIENT ;; esac
CLIENT_NAME=$(basename "$CLIENT")
TMP=$(mktemp -d) || exit 1
trap 'rm -rf "$TMP"' EXIT
failed=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; sed 's/^/    /' "$TMP/err" 2>/dev/null | head -20; }

# run_cmd NAME EXPECTED_STATUS STDERR_REGEX MAX_SECONDS -- command...
# Runs the command (oshrun, perhaps under env) and checks its status, its one oshrun line
# when a regex is given, its time, and that no PE outlives it.

# The PEs of ours still alive: zombies are not (a PE whose oshrun was SIGKILLed is
# reparented to init, which in some containers never reaps it).
live_clients() {
    for p in $(pgrep -x "$CLIENT_NAME"); do
        [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" = Z ] || echo "$p"
    done
}

run_cmd() {
    name=$1 want=$2 regex=$3 max=$4
    shift 5
    start=$(date +%s)
    "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    got=$?
    took=$(( $(date +%s) - start ))
    if [ "$got" != "$want" ]; then
        fail "$name" "exit status $got, expected $want"
    elif [ -n "$regex" ] && ! grep -Eq "$regex" "$TMP/err"; then
        fail "$name" "stderr does not match '$regex'"
    elif [ -n "$regex" ] && [ "$(grep -c '^oshrun:' "$TMP/err")" != 1 ]; then
        fail "$name" "expected exactly one oshrun line on stderr"
    elif [ "$took" -gt "$max" ]; then
        fail "$name" "took ${took}s, limit ${max}s"
    elif [ -n "$(live_clients)" ]; then
        sleep 1
        if [ -n "$(live_clients)" ]; then
            fail "$name" "PEs left behind: $(live_clients | tr '\n' ' ')"
            pkill -KILL -x "$CLIENT_NAME"
        else
            pass "$name"
        fi
    else
        pass "$name"
    fi
}

# run NAME EXPECTED_STATUS STDERR_REGEX MAX_SECONDS -- oshrun arguments...
run() {
    run_name=$1 run_want=$2 run_regex=$3 run_max=$4
    shift 5
    run_cmd "$run_name" "$run_want" "$run_regex" "$run_max" -- "$OSHRUN" "$@"
}

if [ -n "$(live_clients)" ]; then
    echo "note: $CLIENT_NAME already running elsewhere; the orphan checks may misfire"
fi

# data exchange: job info, put/commit/collecting fence/get every peer, barrier, finalize
for n in 1 2 4 8; do
    run "exchange-np$n" 0 "" 20 -- --timeout 20 -np $n "$CLIENT"
    if ! grep -q "^pmix_client: $n PEs" "$TMP/out"; then
        fail "exchange-np$n-output" "rank 0 did not report $n PEs"
    fi
done
run "exchange-4KiB-np4" 0 "" 20 -- --timeout 20 -n 4 "$CLIENT" --bytes 4096
run "exchange-nocollect-np4" 0 "" 20 -- --timeout 20 -np 4 "$CLIENT" --nocollect
run "non-pmix-program" 0 "" 10 -- --timeout 10 -np 2 true
run "env-x" 0 "" 10 -- --timeout 10 -x SHOAL_T1=yes -x HOME -np 2 sh -c 'test "$SHOAL_T1" = yes'
run "stdin-rank1-devnull" 0 "" 10 -- --timeout 10 -np 2 sh -c \
    'test "$PMIX_RANK" = 0 || test "$(wc -c)" = 0'

# failures end the job with one line naming the PE and its status
run "exit-status" 3 "^oshrun: PE 2 \(pid [0-9]+\) exited with status 3; ending the job$" 10 \
    -- --timeout 20 -np 4 "$CLIENT" --exit 2:3
# a PE that exits with a status after finalizing does not cut the others' exit short
run "exit-after-finalize" 3 "^oshrun: PE 0 \(pid [0-9]+\) exited with status 3; ending the job$" 10 \
    -- --timeout 20 -np 2 "$CLIENT" --exit-after-finalize 0:3 --linger-after-finalize 1:300
grep -q "rank 1 lingered 300 ms" "$TMP/out" || fail "exit-after-finalize" "PE 1 was ended before it exited"
run "signal-death" 139 "^oshrun: PE 1 \(pid [0-9]+\) killed by signal 11 .*ending the job$" 10 \
    -- --timeout 20 -np 4 "$CLIENT" --segv 1
run "abort" 5 "^oshrun: PE 3 \(pid [0-9]+\) called abort \(status 5\): test abort$" 10 \
    -- --timeout 20 -np 4 "$CLIENT" --abort 3:5
# An abort with status 0 ends the job with 0, as shmem_global_exit(0) must (and as mpirun does).
run "abort-status-0" 0 "called abort \(status 0\)" 10 -- --timeout 20 -np 2 "$CLIENT" --abort 0:0
# An exit status has 8 bits: the job ends with the low 8 bits of an abort's status, or 1 when
# they are 0 and it is not (256 must not read as success), and the line says so.
run "abort-status-300" 44 \
    "^oshrun: PE 1 \(pid [0-9]+\) called abort \(status 300; the job exits with 44\): test abort$" \
    10 -- --timeout 20 -np 2 "$CLIENT" --abort 1:300
run "abort-status-256" 1 "called abort \(status 256; the job exits with 1\)" 10 \
    -- --timeout 20 -np 2 "$CLIENT" --abort 1:256
run "abort-status-minus-1" 255 "called abort \(status -1; the job exits with 255\)" 10 \
    -- --timeout 20 -np 2 "$CLIENT" --abort 1:-1
run "no-finalize" 1 "^oshrun: PE 1 \(pid [0-9]+\) exited without finalizing" 10 \
    -- --timeout 20 -np 2 "$CLIENT" --nofinalize 1
run "timeout" 124 "^oshrun: job timed out after 1 s; ending the job$" 10 \
    -- --timeout 1 -np 4 "$CLIENT" --hang 2
run "timeout-ignores-sigterm" 124 "timed out" 10 \
    -- --timeout 1 -np 2 sh -c 'trap "" TERM; while :; do sleep 1; done'

# A PMIx connection is taken once per PE, and only from the PE's process or one it started:
# anyone else who connects with a PE's identity (from its environment) is refused, so a
# PMIx_Abort it sends neither ends the job nor is blamed on the PE.
# ... a process the PE started, after the PE connected
run "intruder-after-connect" 0 "" 15 -- --timeout 20 -np 2 "$CLIENT" --intruder-after 1
if grep -q "called abort" "$TMP/err" ||
    ! grep -q "^oshrun: refused a second PMIx connection from PE 1 " "$TMP/err"; then
    fail "intruder-after-connect" "the intruder was not refused"
fi
# ... but a PE may connect from a process it started (a wrapper script, strace -f)
run "pmix-under-wrapper" 0 "" 10 -- --timeout 10 -np 2 sh -c '"$0" && true' "$CLIENT"
# ... an outside process, before the PE connected
rm -f "$TMP/intr.env" "$TMP/intr.go"
"$OSHRUN" --timeout 20 -np 2 "$CLIENT" --wait-before-init "1:$TMP/intr" \
    >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
for _ in $(seq 100); do
    [ -f "$TMP/intr.env" ] && break
    sleep 0.1
done
"$CLIENT" --intruder "$TMP/intr.env" >"$TMP/intr.out" 2>&1
touch "$TMP/intr.go"
wait $pid
got=$?
if [ $got != 0 ] || grep -q "called abort" "$TMP/err" ||
    ! grep -q "^oshrun: refused a PMIx connection from outside the PEs" "$TMP/err"; then
    fail "intruder-before-connect" "exit status $got, expected 0 and the intruder refused"
    sed 's/^/    /' "$TMP/intr.out"
else
    pass "intruder-before-connect"
fi
# ... and many outside connections: the first refusal is told, the others only counted, and
# their total told once at the job's end (here a failed one), so that an outsider cannot flood
# the job's log
rm -f "$TMP/intr.env" "$TMP/intr.go"
"$OSHRUN" --timeout 30 -np 2 "$CLIENT" --wait-before-init "1:$TMP/intr" --exit 1:3 \
    >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
for _ in $(seq 100); do
    [ -f "$TMP/intr.env" ] && break
    sleep 0.1
done
"$CLIENT" --flood 200 "$TMP/intr.env" >"$TMP/intr.out" 2>&1
flooded=$?
touch "$TMP/intr.go"
wait $pid
got=$?
if [ $got != 3 ] || [ $flooded != 0 ]; then
    fail "intruder-flood" "exit status $got and $flooded from the flood, expected 3 and 0"
    sed 's/^/    /' "$TMP/intr.out"
elif [ "$(grep -c "refused a PMIx connection from outside" "$TMP/err")" != 1 ] ||
    [ "$(grep -c "^oshrun: refused [0-9]* PMIx connections" "$TMP/err")" != 1 ] ||
    ! grep -q "^oshrun: refused 200 PMIx connections from outside the PEs in all$" "$TMP/err"
then
    fail "intruder-flood" "expected a refusal line and a total of 200 in $(grep -c . "$TMP/err") lines"
else
    pass "intruder-flood"
fi

# oshrun's directory (under TMPDIR) outlives an oshrun killed by SIGKILL, and the next oshrun
# removes it; a live oshrun's directory, one from another host and one without an owner stay.
# These jobs ask for PMIx's shared-memory datastore (oshrun picks the hash one unless
# PMIX_MCA_gds is set), which fills the directory with segments and a subdirectory.
tdir=$TMP/td
mkdir "$tdir" "$tdir/oshrun.noownr" "$tdir/oshrun.elsewh" || exit 1
echo "1 1 no-such-host.invalid pid:[1]" >"$tdir/oshrun.elsewh/pid"
# new_dir: the directory that appeared in $tdir since the last call (an oshrun's, once PMIx
# has put its files in it)
printf '%s\n' "$tdir"/* >"$TMP/dirs"
new_dir() {
    for _ in $(seq 100); do
        for d in "$tdir"/oshrun.*; do
            if ! grep -qxF "$d" "$TMP/dirs" &&
                [ -n "$(find "$d" -maxdepth 2 -name 'pmix*' 2>/dev/null)" ]; then
                echo "$d" >>"$TMP/dirs"
                echo "$d"
                return
            fi
        done
        sleep 0.1
    done
}
TMPDIR=$tdir PMIX_MCA_gds=ds21,ds12,hash "$OSHRUN" --timeout 30 -np 1 "$CLIENT" --hang all \
    >/dev/null 2>&1 </dev/null &
killed=$!
killed_dir=$(new_dir)
kill -KILL $killed
wait $killed 2>/dev/null
if [ -z "$killed_dir" ] || [ ! -d "$killed_dir" ]; then
    fail "tmpdir-stale" "the oshrun killed by SIGKILL left no directory in $tdir to find"
fi
TMPDIR=$tdir PMIX_MCA_gds=ds21,ds12,hash "$OSHRUN" --timeout 30 -np 1 "$CLIENT" --hang all \
    >/dev/null 2>&1 </dev/null &
live=$!
live_dir=$(new_dir)
TMPDIR=$tdir "$OSHRUN" --timeout 10 -np 1 true
if [ -z "$killed_dir" ] || [ -z "$live_dir" ]; then
    fail "tmpdir-stale" "oshrun made no directory in $tdir"
elif [ -d "$killed_dir" ]; then
    fail "tmpdir-stale" "the killed oshrun's $killed_dir is still there"
elif [ ! -d "$live_dir" ] || [ ! -d "$tdir/oshrun.noownr" ] || [ ! -d "$tdir/oshrun.elsewh" ]; then
    fail "tmpdir-stale" "a directory that is not stale was removed: $(cd "$tdir" && echo *)"
else
    pass "tmpdir-stale"
fi
kill -TERM $live
wait $live 2>/dev/null
if [ -d "$live_dir" ]; then
    fail "tmpdir-removed" "oshrun left $live_dir behind after SIGTERM"
else
    pass "tmpdir-removed"
fi

# SIGTERM to oshrun is passed on and the job ends
"$OSHRUN" -np 3 --timeout 30 "$CLIENT" --hang all >/dev/null 2>"$TMP/err" </dev/null &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
got=$?
if [ $got != 143 ] || ! grep -q "received signal 15" "$TMP/err"; then
    fail "sigterm-forwarded" "exit status $got, expected 143"
elif [ -n "$(live_clients)" ]; then
    fail "sigterm-forwarded" "PEs left behind"
    pkill -KILL -x "$CLIENT_NAME"
else
    pass "sigterm-forwarded"
fi

# cannot start the program
run "exec-not-found" 127 "^oshrun: cannot run 'no-such-program-x': No such file or directory$" 5 \
    -- -np 2 no-such-program-x
run "exec-not-executable" 127 "^oshrun: cannot run '/dev/null': Permission denied$" 5 \
    -- -np 2 /dev/null

# usage errors: one line, exit 2
for bad in 0 -1 x 2x "" 99999999999; do
    run "bad-np-'$bad'" 2 "^oshrun: the number of PEs must be a positive integer" 5 -- -np "$bad" true
done
run "bad-timeout" 2 "timeout must be a positive number" 5 -- --timeout abc true
run "unknown-option" 2 "^oshrun: unknown option '--frobnicate'" 5 -- --frobnicate true

# binding: by default each PE on an idle CPU of its own when there are enough, else none,
# and the PEs are told which (OSHRUN_BINDING); --bind-to core, hwthread and none as asked;
# an error when --bind-to cannot give each PE a core or CPU
one_cpu='grep -Eq "^Cpus_allowed_list:[[:space:]]*[0-9]+$" /proc/self/status'
cpus=$(nproc)
# the PE's binding agrees with what OSHRUN_BINDING says (the machine may be busy or not)
agrees='case $OSHRUN_BINDING in
    core:*" PEs on idle CPUs "*|hwthread:*" PEs on idle CPUs "*) '"$one_cpu"' ;;
    none:*) ! '"$one_cpu"' || test "$(nproc)" = 1 ;;
    *) false ;; esac'
run "bind-default" 0 "" 10 -- --timeout 10 -np "$cpus" sh -c "$agrees"
run "bind-default-verbose" 0 "" 10 -- --timeout 10 --verbose -np 1 true
grep -Eq "^oshrun: binding (none|core|hwthread): " "$TMP/err" ||
    fail "bind-default-verbose" "no binding line from --verbose"
# a CPU another process is bound to is not idle: with one held, -np CPUs binds none
if command -v taskset >/dev/null 2>&1; then
    taskset -c "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)" \
        sleep 30 &
    held=$!
    sleep 0.2
    run "bind-default-held" 0 "" 10 -- --timeout 10 -np "$cpus" sh -c \
        "case \$OSHRUN_BINDING in none:*) ! $one_cpu || test $cpus = 1 ;; *) false ;; esac"
    kill $held
    wait $held 2>/dev/null
fi
# every CPU busy with other work: no PE is bound, and the reason says so
busy=""
for _ in $(seq "$cpus"); do
    sh -c 'while :; do :; done' &
    busy="$busy $!"
done
sleep 0.2
run "bind-default-busy" 0 "" 10 -- --timeout 10 -np "$cpus" sh -c \
    "case \$OSHRUN_BINDING in none:*\"($cpus busy with other work\"*) ! $one_cpu || test $cpus = 1 ;;
    *) echo \"OSHRUN_BINDING=\$OSHRUN_BINDING\" >&2; false ;; esac"
# shellcheck disable=SC2086 # one pid a word
kill $busy
wait 2>/dev/null
# ... core: all the threads of one core (one CPU where a core has one thread)
run "bind-core" 0 "" 10 -- --timeout 10 --bind-to core -np 1 sh -c '
    l=$(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status)
    c=${l%%[,-]*}
    t=$(cat "/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list" 2>/dev/null || echo "$c")
    test "$l" = "$t"'
run "bind-hwthread" 0 "" 10 -- --timeout 10 --bind-to hwthread -np 1 sh -c "$one_cpu"
run "bind-none" 0 "" 10 -- --timeout 10 --bind-to none -np 1 sh -c \
    'test "$OSHRUN_BINDING" = "none: --bind-to none"'
if [ "$cpus" -gt 1 ]; then
    run "bind-none-np2" 0 "" 10 -- --timeout 10 --bind-to none -np 2 sh -c "! $one_cpu"
    run "bind-oversubscribed" 0 "" 10 -- --timeout 10 -np $((cpus + 1)) sh -c "! $one_cpu"
fi
run "bind-core-too-many" 2 "^oshrun: --bind-to core: $((cpus + 1)) PEs but only [0-9]+ cores;" 5 \
    -- --bind-to core -np $((cpus + 1)) true
run "bind-hwthread-too-many" 2 \
    "^oshrun: --bind-to hwthread: $((cpus + 1)) PEs but only $cpus CPUs" 5 \
    -- --bind-to hwthread -np $((cpus + 1)) true
run "bad-bind" 2 "^oshrun: --bind-to takes core, hwthread or none, got 'socket'" 5 \
    -- --bind-to socket true
# --map-by: each value places one PE a CPU, on different CPUs
for how in slot core node hwthread slot:oversubscribe :OVERSUBSCRIBE; do
    run "map-by-$how" 0 "" 10 -- --timeout 10 --map-by "$how" --bind-to hwthread -np "$cpus" \
        sh -c 'grep "^Cpus_allowed_list:" /proc/self/status'
    if [ "$(sort -u "$TMP/out" | grep -c '^Cpus_allowed_list:[[:space:]]*[0-9]*$')" != "$cpus" ]
    then
        fail "map-by-$how" "the PEs are not each on a CPU of their own: $(tr '\n' ' ' <"$TMP/out")"
    fi
done
run "bad-map" 2 "^oshrun: --map-by takes slot, core, node or hwthread .*, got 'socket'" 5 \
    -- --map-by socket true
run "bad-map-modifier" 2 "^oshrun: --map-by takes .*, got 'core:pe=2'" 5 \
    -- --map-by core:pe=2 true
run "oversubscribe" 0 "" 10 -- --timeout 10 --oversubscribe -np $((cpus + 1)) true
run "flag-with-value" 2 "^oshrun: option --tag-output=1 takes no value" 5 -- --tag-output=1 true
# output: each line a PE writes arrives whole, never mixed with another PE's. 4 PEs each
# write 300 lines of 9000 bytes (more than a stdio buffer, so each takes several writes):
# "PE r #i <9000 times r> #i"; each must arrive whole and in its PE's order.
cat >"$TMP/lines.sh" <<'LINES'
awk -v r="$PMIX_RANK" 'BEGIN { s = r; while (length(s) < 9000) s = s s; s = substr(s, 1, 9000)
    for (i = 1; i <= 300; i++) printf "PE %d #%d %s #%d\n", r, i, s, i }'
LINES
# check_lines NAME FILE: every line of FILE as lines.sh writes it (after a "[PE r] " that
# names the same PE, if any), 300 from each of 4 PEs
check_lines() {
    if ! awk '{ if ($1 == "[PE") { tag = $2; sub(/^\[PE [0-9]+\] /, "") } else tag = $2 "]"
        ok = NF == 5 && $1 == "PE" && $2 ~ /^[0-3]$/ && tag == $2 "]" && $3 == $5 &&
            $3 == "#" (last[$2] + 1) && length($4) == 9000 && $4 !~ "[^" $2 "]"
        if (!ok) { bad++; next }
        last[$2]++ }
        END { for (r = 0; r < 4; r++) if (last[r] != 300) short++
            if (bad + short) printf "%d lines broken, %d PEs short\n", bad, short
            exit bad + short > 0 }' "$2" >"$TMP/check"; then
        fail "$1" "$(cat "$TMP/check")"
        return 1
    fi
}
run "lines-whole" 0 "" 30 -- --timeout 30 -np 4 sh "$TMP/lines.sh"
check_lines "lines-whole" "$TMP/out"
run "lines-whole-tagged" 0 "" 30 -- --timeout 30 --tag-output -np 4 sh "$TMP/lines.sh"
check_lines "lines-whole-tagged" "$TMP/out"
# ... and through a pipe, as in oshrun | tee
"$OSHRUN" --timeout 30 -np 4 sh "$TMP/lines.sh" 2>"$TMP/err" </dev/null | cat >"$TMP/piped"
check_lines "lines-whole-piped" "$TMP/piped" && pass "lines-whole-piped"
# a line longer than 64 KiB, and a last line without its newline, pass unchanged (the
# line made by doubling: adding 10 bytes at a time took seconds of CPU)
run "long-line" 0 "" 10 -- --timeout 10 -np 1 sh -c \
    'awk "BEGIN { s = \"0123456789\"; while (length(s) < 200000) s = s s;
        print substr(s, 1, 200000); printf \"end\" }"'
if [ "$(wc -c <"$TMP/out")" != 200004 ] || [ "$(tail -c 3 "$TMP/out")" != end ]; then
    fail "long-line" "$(wc -c <"$TMP/out") bytes, expected 200004 ending in 'end'"
fi
# --tag-output: "[PE r] " before each line, on stdout and stderr
run "tag-output" 0 "" 10 -- --timeout 10 --tag-output -np 3 sh -c \
    'echo "out $PMIX_RANK"; echo "err $PMIX_RANK" >&2'
for r in 0 1 2; do
    if ! grep -qx "\[PE $r\] out $r" "$TMP/out" || ! grep -qx "\[PE $r\] err $r" "$TMP/err"; then
        fail "tag-output" "no tagged lines from PE $r: $(cat "$TMP/out" "$TMP/err" | tr '\n' '|')"
    fi
done
# --output-filename DIR: DIR/1/rank.R/stdout and stderr, R padded to the last rank's width
run "output-filename" 0 "" 20 -- --timeout 20 --output-filename "$TMP/of" -np 11 sh -c \
    'echo "out $PMIX_RANK"; echo "err $PMIX_RANK" >&2'
for r in 0 1 9 10; do
    f=$TMP/of/1/rank.$(printf %02d $r)
    if [ "$(cat "$f/stdout" 2>&1)" != "out $r" ] || [ "$(cat "$f/stderr" 2>&1)" != "err $r" ]; then
        fail "output-filename" "$f/stdout and stderr do not hold PE $r's lines"
    fi
done
if [ -s "$TMP/out" ] || [ -s "$TMP/err" ]; then
    fail "output-filename" "the PEs' output also reached oshrun's stdout or stderr"
fi
run "output-filename-bad" 2 "^oshrun: --output-filename /proc/none: cannot create /proc/none: " 5 \
    -- --output-filename /proc/none -np 1 true
# ... again into the same DIR: the files are truncated and rewritten
run "output-filename-again" 0 "" 20 -- --timeout 20 --output-filename "$TMP/of" -np 11 sh -c \
    'echo "again $PMIX_RANK"'
if [ "$(cat "$TMP/of/1/rank.10/stdout" 2>&1)" != "again 10" ] || [ -s "$TMP/of/1/rank.10/stderr" ]
then
    fail "output-filename-again" "$TMP/of/1/rank.10 does not hold only the second run's line"
fi
# ... but oshrun writes only where no one else can (it may run as root): a symbolic link in
# DIR is refused, and the file it points to stays as it was
echo precious >"$TMP/precious"
mkdir -p "$TMP/ofl/1/rank.0"
ln -s "$TMP/precious" "$TMP/ofl/1/rank.0/stdout"
run "output-filename-symlink" 2 \
    "^oshrun: --output-filename $TMP/ofl: refusing $TMP/ofl/1/rank.0/stdout: it is a symbolic link$" \
    5 -- --timeout 5 --output-filename "$TMP/ofl" -np 1 echo overwritten
if [ "$(cat "$TMP/precious")" != precious ]; then
    fail "output-filename-symlink" "the link's target was written: $(cat "$TMP/precious")"
fi
mkdir "$TMP/ofd" "$TMP/elsewhere"
ln -s "$TMP/elsewhere" "$TMP/ofd/1"
run "output-filename-dir-symlink" 2 \
    "^oshrun: --output-filename $TMP/ofd: refusing $TMP/ofd/1: it is a symbolic link$" \
    5 -- --timeout 5 --output-filename "$TMP/ofd" -np 1 echo overwritten
if [ -n "$(ls -A "$TMP/elsewhere")" ]; then
    fail "output-filename-dir-symlink" "oshrun wrote through the link: $(ls -A "$TMP/elsewhere")"
fi
# ... a directory others may write to (where they could plant such a link), or group
mkdir -m 0777 "$TMP/ofw"
run "output-filename-others-writable" 2 \
    "^oshrun: --output-filename $TMP/ofw: refusing $TMP/ofw: it is writable by others$" \
    5 -- --timeout 5 --output-filename "$TMP/ofw" -np 1 true
mkdir -p "$TMP/ofg/1/rank.0"
chmod 0775 "$TMP/ofg/1/rank.0"
run "output-filename-group-writable" 2 \
    "^oshrun: --output-filename $TMP/ofg: refusing $TMP/ofg/1/rank.0: it is writable by its group$" \
    5 -- --timeout 5 --output-filename "$TMP/ofg" -np 1 true
if [ -e "$TMP/ofw/1" ] || [ -e "$TMP/ofg/1/rank.0/stdout" ]; then
    fail "output-filename-writable" "oshrun wrote into a directory it refused"
fi
# ... DIR may be a link the caller made, not one someone else made
ln -s "$TMP/of" "$TMP/ofmine"
run "output-filename-own-link" 0 "" 10 -- --timeout 10 --output-filename "$TMP/ofmine" -np 1 \
    echo through-link
if [ "$(cat "$TMP/of/1/rank.0/stdout" 2>&1)" != through-link ]; then
    fail "output-filename-own-link" "$TMP/of/1/rank.0/stdout does not hold the line"
fi
# ... a directory (or DIR's link) of another user's: as root, give them to nobody
if [ "$(id -u)" = 0 ]; then
    mkdir "$TMP/ofn"
    chown 65534 "$TMP/ofn"
    run "output-filename-not-owned" 2 \
        "^oshrun: --output-filename $TMP/ofn: refusing $TMP/ofn: it is owned by uid 65534, not by you$" \
        5 -- --timeout 5 --output-filename "$TMP/ofn" -np 1 true
    ln -s "$TMP/of" "$TMP/ofnl"
    chown -h 65534 "$TMP/ofnl"
    run "output-filename-not-owned-link" 2 \
        "^oshrun: --output-filename $TMP/ofnl: refusing $TMP/ofnl: it is a symbolic link owned by uid 65534, not by you$" \
        5 -- --timeout 5 --output-filename "$TMP/ofnl" -np 1 true
    if [ -e "$TMP/ofn/1" ]; then
        fail "output-filename-not-owned" "oshrun wrote into $TMP/ofn"
    fi
fi
# a PE's last words come before oshrun's line about it
run "last-words-first" 7 "^oshrun: PE 1 .* exited with status 7" 10 -- --timeout 10 -np 2 sh -c \
    'test "$PMIX_RANK" = 0 || { echo "PE 1 last words" >&2; exit 7; }'
if [ "$(head -n 1 "$TMP/err")" != "PE 1 last words" ]; then
    fail "last-words-first" "oshrun's line came before the PE's: $(tr '\n' '|' <"$TMP/err")"
fi
# a reader that goes away: the PEs get SIGPIPE, as when they wrote to it themselves
start=$(date +%s)
{ "$OSHRUN" --timeout 20 -np 2 yes 2>"$TMP/err"; echo $? >"$TMP/status"; } | head -n 1 >/dev/null
took=$(( $(date +%s) - start ))
if [ "$(cat "$TMP/status")" != 141 ] || [ "$took" -gt 10 ]; then
    fail "reader-gone" "exit status $(cat "$TMP/status") after ${took}s, expected 141 (SIGPIPE)"
else
    pass "reader-gone"
fi
# a reader that stops reading holds up neither --timeout nor a signal to oshrun (the reader
# is sleep, on purpose)
start=$(date +%s)
# shellcheck disable=SC2216
{ "$OSHRUN" --timeout 1 -np 2 yes 2>"$TMP/err"; echo "$? $(( $(date +%s) - start ))" >"$TMP/status"
} | sleep 4
read -r got took <"$TMP/status"
if [ "$got" != 124 ] || [ "$took" -gt 3 ]; then
    fail "reader-stalled-timeout" "exit status $got after ${took}s, expected 124 within 3s"
else
    pass "reader-stalled-timeout"
fi
start=$(date +%s)
# shellcheck disable=SC2216
{ "$OSHRUN" -np 2 yes 2>"$TMP/err" & pid=$!; sleep 1; kill -TERM $pid; wait $pid
    echo "$? $(( $(date +%s) - start ))" >"$TMP/status"; } | sleep 4
read -r got took <"$TMP/status"
if [ "$got" != 143 ] || [ "$took" -gt 3 ]; then
    fail "reader-stalled-sigterm" "exit status $got after ${took}s, expected 143 within 3s"
else
    pass "reader-stalled-sigterm"
fi
# at a terminal, a PE's stdout is a terminal too (its stdio flushes by line)
if command -v script >/dev/null 2>&1; then
    script -qec "$OSHRUN --timeout 10 -np 2 sh -c 'test -t 1 && echo tty-\$PMIX_RANK'" /dev/null \
        </dev/null >"$TMP/out" 2>&1
    if [ "$(grep -c '^tty-[01]' "$TMP/out")" != 2 ]; then
        fail "pty-stdout" "the PEs' stdout is not a terminal: $(tr '\r\n' '||' <"$TMP/out")"
    else
        pass "pty-stdout"
    fi
fi

run "missing-value" 2 "needs a value" 5 -- -np
run "no-program" 2 "no program to run" 5 -- -np 2

# several nodes: oshrun hands the job to srun, mpirun or prterun; these need no real nodes
run "launcher-alone" 2 "^oshrun: --launcher needs -H, --hostfile or -N" 5 \
    -- --launcher mpirun -np 2 true
run "bad-npernode" 2 "^oshrun: -N takes a positive number of PEs per node, got '0'" 5 \
    -- -N 0 -np 2 true
run "hostfile-missing" 2 "^oshrun: cannot read the hostfile '/nonexistent'" 5 \
    -- --hostfile /nonexistent -np 2 true
run "bad-launcher" 2 "^oshrun: --launcher takes srun, mpirun or prterun, got 'foo'" 5 \
    -- --launcher foo -H a true

case $OSHRUN in /*) ;; *) OSHRUN=$(pwd)/$OSHRUN ;; esac
mkdir "$TMP/empty" "$TMP/fake" "$TMP/slow" "$TMP/slurm" || exit 1
# no launcher in PATH (a real one may be installed here): one line naming the package
run_cmd "no-launcher" 127 "^oshrun: .*none was found.*openmpi-bin" 5 \
    -- env -u SLURM_JOB_ID PATH="$TMP/empty" "$OSHRUN" -H a,b -np 2 /bin/true

# a fake Open MPI mpirun that records its arguments, one a line, and exits 3
cat >"$TMP/fake/mpirun" <<'FAKE'
#!/bin/sh
if [ "$1" = --version ]; then
    echo "mpirun (Open MPI fake) 5.0"
    exit 0
fi
printf '%s\n' "$@" >"${0%/*}/args"
exit 3
FAKE
# ... one that hangs until killed
cat >"$TMP/slow/mpirun" <<'FAKE'
#!/bin/sh
if [ "$1" = --version ]; then
    echo "mpirun (Open MPI fake) 5.0"
    exit 0
fi
exec sleep 30
FAKE
# ... and a fake srun that records its arguments and the -x variable it was given
cat >"$TMP/slurm/srun" <<'FAKE'
#!/bin/sh
{ printf '%s\n' "$@"; echo "FOO is $FOO"; } >"${0%/*}/args"
FAKE
chmod +x "$TMP/fake/mpirun" "$TMP/slow/mpirun" "$TMP/slurm/srun"

# has_args NAME FILE ARG... : FILE holds the ARGs, one a line, one after another
has_args() {
    has_name=$1 has_file=$2
    shift 2
    if [ ! -f "$has_file" ]; then
        fail "$has_name" "the launcher did not record its arguments"
        return
    fi
    if ! HAS_WANT=$(printf '%s\n' "$@") awk 'BEGIN { got = "\n" } { got = got $0 "\n" }
        END { exit index(got, "\n" ENVIRON["HAS_WANT"] "\n") == 0 }' "$has_file"; then
        fail "$has_name" "launcher arguments lack: $*"
        sed 's/^/    got: /' "$has_file"
    fi
}

run_cmd "delegate-mpirun" 3 "^oshrun: running: /.*/mpirun .*/bin/true$" 5 \
    -- env -u SLURM_JOB_ID PATH="$TMP/fake:$PATH" SHOAL_TEST_FWD=1 "$OSHRUN" \
    -H a:2,b:2 -N 2 -np 4 --verbose -x FOO=bar --bind-to none /bin/true
for pair in "-np 4" "--host a:2,b:2" "--map-by ppr:2:node" "--bind-to none" "-x FOO=bar" \
    "-x SHOAL_TEST_FWD=1"; do
    # shellcheck disable=SC2086 # each pair is two arguments
    has_args "delegate-mpirun-args" "$TMP/fake/args" $pair
done
if [ "$(tail -n 1 "$TMP/fake/args" 2>/dev/null)" != /bin/true ]; then
    fail "delegate-mpirun-args" "the last argument is not the program"
fi

printf 'a slots=2\nb slots=2\n' >"$TMP/hosts"
rm -f "$TMP/fake/args"
run_cmd "delegate-hostfile" 3 "" 5 \
    -- env -u SLURM_JOB_ID PATH="$TMP/fake:$PATH" "$OSHRUN" --hostfile "$TMP/hosts" -np 4 /bin/true
has_args "delegate-hostfile-args" "$TMP/fake/args" --hostfile "$TMP/hosts" /bin/true

run_cmd "delegate-srun" 0 "" 5 \
    -- env SLURM_JOB_ID=1 PATH="$TMP/slurm:$PATH" "$OSHRUN" \
    -H a:2,b:2 -N 2 -np 4 -x FOO=bar --bind-to core /bin/true
for arg in --mpi=pmix "-n 4" --ntasks-per-node=2 --nodelist=a,b --cpu-bind=cores; do
    # shellcheck disable=SC2086 # -n 4 is two arguments
    has_args "delegate-srun-args" "$TMP/slurm/args" $arg
done
# srun passes its environment on, so the -x values are set in it
has_args "delegate-srun-args" "$TMP/slurm/args" /bin/true "FOO is bar"

# the options from mpirun's habits go on to the launcher in its words
rm -f "$TMP/fake/args"
run_cmd "delegate-mpirun-output" 3 "" 5 \
    -- env -u SLURM_JOB_ID PATH="$TMP/fake:$PATH" "$OSHRUN" -H a,b -np 4 --tag-output \
    --output-filename "$TMP/of2" --map-by node --oversubscribe --bind-to hwthread /bin/true
for pair in "--map-by node" "--bind-to hwthread" "--output-filename $TMP/of2"; do
    # shellcheck disable=SC2086 # each pair is two arguments
    has_args "delegate-mpirun-output-args" "$TMP/fake/args" $pair
done
has_args "delegate-mpirun-output-args" "$TMP/fake/args" --oversubscribe
has_args "delegate-mpirun-output-args" "$TMP/fake/args" --tag-output
run_cmd "delegate-srun-output" 0 "" 5 \
    -- env SLURM_JOB_ID=1 PATH="$TMP/slurm:$PATH" "$OSHRUN" -H a,b -np 4 --tag-output \
    --map-by node --bind-to hwthread /bin/true
for arg in --label --distribution=cyclic --cpu-bind=threads; do
    has_args "delegate-srun-output-args" "$TMP/slurm/args" $arg
done
run_cmd "delegate-srun-output-filename" 2 "^oshrun: --output-filename: srun makes no directories" 5 \
    -- env SLURM_JOB_ID=1 PATH="$TMP/slurm:$PATH" "$OSHRUN" -H a,b -np 4 \
    --output-filename "$TMP/of3" /bin/true
run_cmd "delegate-npernode-map-by" 2 "^oshrun: -N and --map-by both place the PEs" 5 \
    -- env -u SLURM_JOB_ID PATH="$TMP/fake:$PATH" "$OSHRUN" -N 2 --map-by core /bin/true

run_cmd "delegate-timeout" 124 "^oshrun: job timed out after 1 s; ending the job$" 8 \
    -- env -u SLURM_JOB_ID PATH="$TMP/slow:$PATH" "$OSHRUN" --timeout 1 -H a -np 1 /bin/true
run "help" 0 "" 5 -- --help
run "version" 0 "" 5 -- --version

exit $failed
