#!/usr/bin/env bash
# Usage: [BEAMVM_BEFORE=path/to/older/beamvm] bench/trace_off.sh [RUNS]   (default 5)
# Runs bench/trace_off.erl RUNS times in each mode (none: nothing traced; elsewhere: another
# process traced for every event and trace patterns on lists, dict and queue) on beamvm
# (BEAMVM, default build/beamvm) and on erl, and prints the median milliseconds of fib(34) and
# of 1,000,000 ping-pong round trips per VM and mode. BEAMVM_BEFORE adds a row for an older
# beamvm (one without tracing) in mode none. Runs are interleaved, so a change of load on the
# machine touches every row alike.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
before=${BEAMVM_BEFORE:-}
runs=${1:-5}
ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/trace_off.erl || exit 1

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

rows=("beamvm none" "beamvm elsewhere" "erl none" "erl elsewhere")
[ -n "$before" ] && rows=("before none" "${rows[@]}")
for _ in $(seq "$runs"); do
  for row in "${rows[@]}"; do
    read -r vm mode <<<"$row"
    case $vm in
      beamvm) prog=$beamvm ;;
      before) prog=$before ;;
      erl) prog=erl ;;
    esac
    "$prog" -noshell -pa "$ebin" -s trace_off "$mode" -s erlang halt </dev/null >>"$ebin/$vm.$mode" 2>&1
  done
done
printf '%-8s %-10s %8s %12s\n' vm mode fib_ms pingpong_ms
for row in "${rows[@]}"; do
  read -r vm mode <<<"$row"
  out=$ebin/$vm.$mode
  if ! grep -q fib_ms "$out"; then
    printf '%-8s %-10s %8s %12s\n' "$vm" "$mode" FAIL FAIL
    head -3 "$out" >&2
    continue
  fi
  fib=$(awk '/fib_ms/ {print $3}' "$out" | median)
  ping=$(awk '/fib_ms/ {print $5}' "$out" | median)
  printf '%-8s %-10s %8s %12s\n' "$vm" "$mode" "$fib" "$ping"
done
