#!/usr/bin/env bash
# Usage: tools/sanitize.sh [REGEX]
# Builds beamvm with AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ and runs the
# ctest tests there: all of them, or those whose name matches REGEX (ctest -R REGEX), e.g.
#   tools/sanitize.sh 'nif|net|socket|tls|inet|ssh|http'     # the NIF and networking tests
# Not part of tools/test.sh (the build takes several minutes); run it before landing changes to
# the GC, the interpreter, the loader, the schedulers, the NIF API or the networking code.
#
# The build is incremental (ccache when installed); with a REGEX only beamvm, the test NIF
# libraries, the conformance modules and the unit-test executables REGEX names are built.
# The test NIF libraries are C and stay uninstrumented (CMAKE_C_FLAGS is not touched): erl loads
# the same .so files, and an ASan-instrumented library cannot be opened by an uninstrumented erl.
# An uninstrumented library in an ASan beamvm is fine: its malloc/free go through ASan's.
#
# ASan reports go to build-asan/sanitizer-logs/ (one file per reporting process), UBSan's to the
# tests' output; both are summarised at the end. The script fails if there is one, or if a test
# fails.
# Leak checking is off: module code, atoms and resource types live until exit by design. A
# per-object leak is caught by tests that count objects instead (nif_resource_churn).
set -euo pipefail
cd "$(dirname "$0")/.."
regex=${1:-}
jobs=${SANITIZE_JOBS:-$(nproc)}
build=build-asan

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBEAMVM_PGO= "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" >/dev/null

# shellcheck source=tools/sanitizer_build.sh
source tools/sanitizer_build.sh  # the scripts run from the repository root
sanitizer_build "$build" "$jobs" "$regex"

logs=$PWD/$build/sanitizer-logs
rm -rf "$logs"
mkdir -p "$logs"
# Conformance runs get more time than the 60 s of a plain build (tools/conformance_check.sh):
# instrumented code runs 2-4 times slower.
export CONFORMANCE_TIMEOUT=${CONFORMANCE_TIMEOUT:-140}
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:log_path=$logs/asan
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan
status=0
# tsan_smoke is a ThreadSanitizer build of its own (tools/tsan.sh), not this build's.
ctest_args=(--test-dir "$build" --output-on-failure -j"$jobs" -E '^tsan_smoke$')
if [ -n "$regex" ]; then ctest_args+=(-R "$regex"); fi
ctest "${ctest_args[@]}" || status=1

# ASan writes its reports to $logs; UBSan's (with -fno-sanitize-recover) go to the process's
# stderr whatever log_path says, so they are found in the tests' output (the conformance and net
# scripts show the beamvm side's stderr on failure).
reports=$(find "$logs" -type f | sort)
ub=$(grep -hE 'runtime error:|ERROR: AddressSanitizer' "$build/Testing/Temporary/LastTest.log" | sed 's/^[<> ]*//' | sort | uniq -c || true)
if [ -n "$reports" ] || [ -n "$ub" ]; then
  echo "sanitizer reports:"
  for f in $reports; do
    echo "== $f"
    grep -m1 -E 'ERROR: AddressSanitizer|runtime error|SUMMARY' "$f" || head -n 3 "$f"
  done
  if [ -n "$ub" ]; then echo "$ub"; fi
  status=1
else
  echo "no sanitizer reports"
fi
exit $status
