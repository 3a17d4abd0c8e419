#!/usr/bin/env bash
# Long-running checks that stay out of the default test command. Each runs on erl and on beamvm
# in the same run and prints time and peak memory for both.
#   tools/stress.sh            full sizes (gc_10gb allocates about 13 GB; minutes)
#   tools/stress.sh --quick    the same programs at a size that takes seconds
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
beamvm=${BEAMVM:-$root/build/beamvm}
ebin=$(mktemp -d)
trap 'rm -rf "$ebin"' EXIT
erlc -o "$ebin" "$root"/tests/stress/*.erl

rounds=700
[ "${1:-}" = "--quick" ] && rounds=40

printf '%-8s %-22s %9s %10s\n' vm output seconds peak_KB
for vm in erl "$beamvm"; do
  out=$(mktemp)
  stats=$( { /usr/bin/time -f "%e %M" "$vm" -noshell -pa "$ebin" -run gc_10gb main "$rounds" -s erlang halt >"$out"; } 2>&1 | tail -1)
  printf '%-8s %-22s %9s %10s\n' "$(basename "$vm")" "$(tr -d '\r\n' <"$out")" $stats
  rm -f "$out"
done
