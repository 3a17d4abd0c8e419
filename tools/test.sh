#!/usr/bin/env bash
# Builds (if needed) and runs every test: unit suites, the loader corruption test, and the
# conformance suite (each module run on erl and on beamvm, output compared byte for byte).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
