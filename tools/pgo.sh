#!/usr/bin/env bash
# Profile-guided build of build/ (GCC's -fprofile-generate, then -fprofile-use): builds beamvm
# with counting code, runs the training workloads on it, and configures build/ to compile
# with the profiles; `cmake --build build` then builds everything with them (tools/setup.sh
# does). The training is the quick size (quick/0) of the benchmarks in bench/: calls, floats,
# allocation and GC, bit syntax, maps, lists, messages, on one scheduler and on two; and the
# real workloads of bench/real/ (OTP's compiler, parsers, ETS, gen_server, term encoding,
# message pipelines, parallel map), whose instruction mix the small benchmarks miss.
# docs/benchmarks.md ("Issue 11: session 9 changes", "Session 26") has what it gains.
# Usage: tools/pgo.sh [BUILD_DIR]   (default build; BEAMVM_PGO=0 tools/setup.sh skips it)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
prof=$PWD/$build/pgo-profile
rm -rf "$prof"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DBEAMVM_PGO=generate -DBEAMVM_PGO_DIR="$prof" >/dev/null
cmake --build "$build" -j"$(nproc)" --target beamvm

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
erlc -o "$work" bench/*.erl bench/real/*.erl
train() {  # schedulers module
  "$build/beamvm" +S "$1" -noshell -pa "$work" -s "$2" quick -s erlang halt </dev/null >/dev/null 2>&1 ||
    echo "tools/pgo.sh: training run $2 (+S $1) failed; its profile is partial" >&2
}
for m in fib tak trees nbody spectral_norm mandelbrot float_loop fannkuch list_sort qsort_lc lists_bench \
         maps_bench bitparse binaries tlv bignum ets_tables trace_off; do
  train 1 "$m"
done
for m in ring pingpong spawn_exit msgq_select selective_receive recv_marker parallel; do
  train 2 "$m"
done
for m in real_compile real_parse real_xmerl real_ext_term real_ets real_pipeline real_pmap svc_genserver_ets; do
  train 1 "$m"
done
for m in real_ets real_pipeline svc_genserver_ets; do
  train 2 "$m"
done
cmake -S . -B "$build" -DBEAMVM_PGO=use >/dev/null
echo "tools/pgo.sh: profiles in $prof; $build/ now compiles with them"
