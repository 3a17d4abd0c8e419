#!/usr/bin/env bash
# Which instructions, and which adjacent pairs of instructions, the interpreter executes most.
# Builds a profiling tree (build-prof, cmake -DBEAMVM_OP_COUNTS=ON) or brings it up to date,
# runs workloads with BEAMVM_OP_COUNTS set (vm/op_counts.cpp writes the counts at exit), and reports the
# hottest instructions and pairs, each workload weighted equally (tools/op_profile_report.py).
#
# Usage: tools/op_profile.sh [--full] [--top N] [--keep DIR] [WORKLOAD...]
#   workloads: every bench/*.erl module (its quick/0, or main/0 with --full), and
#   otp_compile: OTP's compiler (booted beamvm) compiling three bench modules, i.e. stdlib code.
#   Default: all of them. One scheduler (+S 1), so counts are repeatable.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
entry=quick top=40 keep= only=()
while [ $# -gt 0 ]; do
  case $1 in
    --full) entry=main ;;
    --top) top=$2; shift ;;
    --keep) keep=$2; shift ;;
    -*) echo "usage: $0 [--full] [--top N] [--keep DIR] [WORKLOAD...]" >&2; exit 2 ;;
    *) only+=("$1") ;;
  esac
  shift
done
prof=$root/build-prof
# Configured once; brought up to date at every run (a stale tree counted old code).
[ -f "$prof/CMakeCache.txt" ] || cmake -S "$root" -B "$prof" -DCMAKE_BUILD_TYPE=Release -DBEAMVM_OP_COUNTS=ON >/dev/null
cmake --build "$prof" -j2 --target beamvm >/dev/null || exit 1
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
erlc -o "$work" "$root"/bench/*.erl

wanted() { [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]; }
for src in "$root"/bench/*.erl; do
  mod=$(basename "$src" .erl)
  [ "$mod" = bench_harness ] && continue  # bench/run.sh's timer, not a benchmark
  wanted "$mod" || continue
  BEAMVM_OP_COUNTS=$work/$mod.counts "$prof/beamvm" +S 1 -noshell -pa "$work" -s "$mod" "$entry" \
    -s erlang halt </dev/null >/dev/null 2>&1 || echo "warning: $mod failed" >&2
done
if wanted otp_compile; then
  BEAMVM_OP_COUNTS=$work/otp_compile.counts "$prof/beamvm" +S 1 -noshell -eval "
    [{ok, _, _} = compile:file(F, [binary, report]) || F <- [\"$root/bench/fib.erl\",
      \"$root/bench/ring.erl\", \"$root/bench/lists_bench.erl\"]], halt()." </dev/null >/dev/null 2>&1 \
    || echo "warning: otp_compile failed" >&2
fi
python3 "$root/tools/op_profile_report.py" --top "$top" "$work"/*.counts
