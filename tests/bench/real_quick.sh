#!/usr/bin/env bash
# CTest `bench_real_quick` (label bench): every real workload of bench/real/ at its CI size
# (quick/0), run one after another in one erl and one beamvm, at +S 1 and at +S 2; the
# checksum lines must be identical. Speed is not checked here (bench/real_run.sh measures it).
# Usage: tests/bench/real_quick.sh BEAMVM
set -euo pipefail
beamvm=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$root"/bench/real/*.erl
mods=()
for src in "$root"/bench/real/*.erl; do
  grep -q 'quick/0' "$src" && mods+=("$(basename "$src" .erl)")
done
calls=$(printf '%s:quick(), ' "${mods[@]}")
status=0
for s in 1 2; do
  erl +S "$s" -noshell -pa "$work" -eval "${calls}halt()." </dev/null >"$work/erl.$s" 2>&1 || true
  "$beamvm" +S "$s" -noshell -pa "$work" -eval "${calls}halt()." </dev/null >"$work/beamvm.$s" 2>&1 || true
  tr -d '\r' <"$work/erl.$s" >"$work/erl.$s.txt"
  tr -d '\r' <"$work/beamvm.$s" >"$work/beamvm.$s.txt"
  lines=$(wc -l <"$work/erl.$s.txt")
  if [ "$lines" -ne ${#mods[@]} ]; then
    echo "+S $s: erl printed $lines lines for ${#mods[@]} workloads:"; cat "$work/erl.$s.txt"; status=1
  elif ! diff "$work/erl.$s.txt" "$work/beamvm.$s.txt"; then
    echo "+S $s: beamvm's checksums differ from erl's (< erl, > beamvm)"; status=1
  else
    echo "+S $s: ${#mods[@]} workloads, same checksums on erl and beamvm"
  fi
done
exit $status
