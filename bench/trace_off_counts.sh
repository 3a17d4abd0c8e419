#!/usr/bin/env bash
# Usage: [BEAMVM_BEFORE=path/to/older/beamvm] bench/trace_off_counts.sh
# Instructions executed (callgrind, deterministic) by fib(25) - fib(20) and by 60,000 - 10,000
# ping-pong round trips (bench/trace_off.erl, main/1), with nothing traced (none), a local trace
# pattern on every function of lists (lists), and another process traced for every event
# (proc). The difference of two sizes leaves start-up out. BEAMVM_BEFORE adds an older
# beamvm (without tracing), mode none. One scheduler (+S 1): a second one idling would add
# instructions that depend on timing. Needs valgrind; takes about two minutes.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
before=${BEAMVM_BEFORE:-}
ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/bench/trace_off.erl || exit 1

count() { # count PROGRAM WORK MODE N: instructions executed
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" +S 1 "$ebin/trace_off.beam" "$2" "$3" "$4" 2>&1 |
    awk '/refs:/ {gsub(",", "", $4); print $4}'
}

printf '%-8s %-6s %22s %28s\n' vm mode "fib(25)-fib(20)" "50,000 ping-pong round trips"
rows=("beamvm none" "beamvm lists" "beamvm proc")
[ -n "$before" ] && rows=("before none" "${rows[@]}")
for row in "${rows[@]}"; do
  read -r vm mode <<<"$row"
  prog=$beamvm
  [ "$vm" = before ] && prog=$before
  f=$(( $(count "$prog" fib "$mode" 25) - $(count "$prog" fib "$mode" 20) ))
  pp=$(( $(count "$prog" pingpong "$mode" 60000) - $(count "$prog" pingpong "$mode" 10000) ))
  printf '%-8s %-6s %22s %28s\n' "$vm" "$mode" "$f" "$pp"
done
