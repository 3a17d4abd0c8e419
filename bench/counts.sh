#!/usr/bin/env bash
# Instructions executed (callgrind, deterministic) by each benchmark's quick/0, start-up left
# out: the count of `-s M quick` minus the count of a run that only boots and halts. One
# scheduler (+S 1). Every change that claims speed shows these before and after
# (docs/benchmarks.md).
# Usage: bench/counts.sh [BEAMVM...] -- BENCH...   (default BEAMVM: build/beamvm)
#   e.g. bench/counts.sh /tmp/base/beamvm build/beamvm -- fib trees
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
vms=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do vms+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
[ ${#vms[@]} -gt 0 ] || vms=("$root/build/beamvm")
[ $# -gt 0 ] || { echo "usage: $0 [BEAMVM...] -- BENCH..." >&2; exit 2; }
ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" $(for b in "$@"; do echo "$root/bench/$b.erl"; done) || exit 1

count() { # count PROGRAM ARGS...: instructions executed
  local prog=$1; shift
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$prog" +S 1 -noshell -pa "$ebin" "$@" -s erlang halt \
    </dev/null 2>&1 >/dev/null | awk '/refs:/ {gsub(",", "", $4); print $4}'
}
printf '%-14s' bench
for vm in "${vms[@]}"; do printf ' %16s' "$(basename "$(dirname "$vm")")"; done
echo
declare -A boot
for vm in "${vms[@]}"; do boot[$vm]=$(count "$vm"); done
for b in "$@"; do
  printf '%-14s' "$b"
  first=
  for vm in "${vms[@]}"; do
    n=$(( $(count "$vm" -s "$b" quick) - ${boot[$vm]} ))
    if [ -z "$first" ]; then first=$n; printf ' %16s' "$n"
    else printf ' %16s' "$n ($(echo "scale=1; 100 * ($n - $first) / $first" | bc)%)"; fi
  done
  echo
done
