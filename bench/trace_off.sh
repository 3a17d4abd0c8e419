#!/usr/bin/env bash
# Usage: bench/trace_off.sh [RUNS]   (default 5)
# Runs bench/trace_off.erl RUNS times in each mode (none: nothing traced; elsewhere: another
# process traced for every event and trace patterns on lists, dict and queue) on beamvm
# (BEAMVM, default build/beamvm) and on erl, and prints the median milliseconds of fib(34) and
# of 1,000,000 ping-pong round trips per VM and mode.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
runs=${1:-5}
ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/trace_off.erl || exit 1

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-8s %-10s %8s %12s\n' vm mode fib_ms pingpong_ms
for vm in beamvm erl; do
  prog=$beamvm
  [ "$vm" = erl ] && prog=erl
  for mode in none elsewhere; do
    out=$ebin/$vm.$mode
    : >"$out"
    for _ in $(seq "$runs"); do
      "$prog" -noshell -pa "$ebin" -s trace_off "$mode" -s erlang halt </dev/null >>"$out" 2>&1
    done
    if ! grep -q fib_ms "$out"; then
      printf '%-8s %-10s %8s %12s\n' "$vm" "$mode" FAIL FAIL
      head -3 "$out" >&2
      continue
    fi
    fib=$(awk '/fib_ms/ {print $3}' "$out" | median)
    ping=$(awk '/fib_ms/ {print $5}' "$out" | median)
    printf '%-8s %-10s %8s %12s\n' "$vm" "$mode" "$fib" "$ping"
  done
done
