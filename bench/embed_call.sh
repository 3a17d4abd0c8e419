#!/usr/bin/env bash
# Usage: bench/embed_call.sh [N] [RUNS]
# Installs the build's embedding library into a temporary prefix, builds bench/embed/embed_call.cpp
# against it with pkg-config, and runs it RUNS times (default 3) with N calls and N messages.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --build build --target beamvm_archive >/dev/null
cmake --install build --prefix "$work/prefix" >/dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
g++ -O2 -o "$work/embed_call" bench/embed/embed_call.cpp $(pkg-config --cflags --libs beamvm)
for _ in $(seq "$runs"); do "$work/embed_call" "$n"; done
