#!/usr/bin/env bash
# beamvm --watch: a running program picks up a recompiled module, a reload whose old code is
# still run is refused (and reported), --watch=force purges it instead, and a recompile with
# +compressed (a gzip .beam) is picked up as a plain one.
# Usage: watch_reload.sh BEAMVM
set -u
beamvm=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill $vm_pid 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/ebin"
erlc -o "$work/ebin" "$here/watch_demo.erl" || exit 1
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"; exit 1; }
now_ms() { date +%s%3N; }
wait_for() { # wait_for FILE PATTERN SECONDS
  local end=$(( $(now_ms) + $3 * 1000 ))
  while [ "$(now_ms)" -lt $end ]; do grep -q "$2" "$1" && return 0; sleep 0.02; done
  return 1
}
compile() { erlc -DVSN=$1 ${2:-} -o "$work/ebin" "$here/watch_mod.erl" || exit 1; }  # compile VSN [FLAG]

run() { # run MODE: starts the demo under --watch[=force] with version 1 loaded
  compile 1
  : >"$work/out"; : >"$work/err"
  "$beamvm" --watch$1 -noshell -pa "$work/ebin" -s watch_demo main >"$work/out" 2>"$work/err" </dev/null &
  vm_pid=$!
  wait_for "$work/out" "version 1 at" 5 || fail "the demo did not start"
}

# 1. Soft: version 2 is picked up; version 3 is refused while a process runs version 1.
run ""
compile 2
t0=$(date -r "$work/ebin/watch_mod.beam" +%s%3N)  # when erlc wrote the file
wait_for "$work/out" "version 2 at" 5 || fail "version 2 was not picked up"
t1=$(grep -o "version 2 at [0-9]*" "$work/out" | grep -o "[0-9]*$")
latency=$((t1 - t0))
[ $latency -lt 1000 ] || fail "version 2 picked up after $latency ms"
wait_for "$work/err" "reloaded watch_mod" 2 || fail "no report of the reload"
compile 3
wait_for "$work/err" "watch_mod not reloaded: its old code is still run by <" 5 || fail "no refusal reported"
grep -q "version 3" "$work/out" && fail "version 3 loaded although old code was in use"
kill $vm_pid; wait $vm_pid 2>/dev/null
echo "soft: version 2 picked up $latency ms after erlc wrote it; version 3 refused: $(grep 'not reloaded' "$work/err" | head -1)"

# 2. Force: version 3 goes in, and the process on version 1 is killed.
run "=force"
compile 2
wait_for "$work/out" "version 2 at" 5 || fail "version 2 was not picked up (force)"
compile 3
wait_for "$work/out" "version 3 at" 5 || fail "version 3 was not loaded with --watch=force"
wait_for "$work/err" "killing <" 2 || fail "no report of the processes killed"
wait $vm_pid; status=$?
[ $status -eq 0 ] || fail "beamvm exited with status $status"
echo "force: $(grep 'killing' "$work/err" | head -1)"

# 3. Compressed: version 2 written by erlc +compressed is picked up.
run ""
compile 2 +compressed
wait_for "$work/out" "version 2 at" 5 || fail "the compressed version 2 was not picked up"
wait_for "$work/err" "reloaded watch_mod" 2 || fail "no report of the compressed reload"
kill $vm_pid; wait $vm_pid 2>/dev/null
echo "compressed: version 2 from a gzip .beam picked up"
echo "watch_reload: 3 passed, 0 failed"
