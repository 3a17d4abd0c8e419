#!/usr/bin/env bash
# Usage: tools/tsan.sh [REGEX]
# Builds beamvm with ThreadSanitizer in build-tsan/ and runs the ctest tests there (all of them,
# or those whose name matches REGEX) once per scheduler count in TSAN_SCHEDULERS (default "2:2 4:4": N:M, M online, as erl's +S),
# the beamvm side started with ERL_AFLAGS="+S N" (erl, where a test runs it too, gets the same).
# Fails if a test fails or TSan reports a race; the reports are summarised at the end, one line per
# distinct pair of racing frames, and kept in build-tsan/tsan-logs/S<N>/.
#
# Environment: TSAN_SCHEDULERS ("2:2 4:4"), TSAN_JOBS (ctest -j, default 1: the instrumented VM runs
#   5-15 times slower and timing-sensitive tests need the cores), TSAN_TIMEOUT (ctest's limit for
#   a test without one of its own, default 1500 s), TSAN_TIME_SCALE (default 5: the factor on the
#   limits tests set themselves, their ctest TIMEOUT through BEAMVM_TEST_TIME_SCALE and, for the
#   scripts that wait on the VM, the same variable in their environment).
#   Every test but fuzz_smoke (the clang fuzz build, no TSan beamvm), tsan_smoke (this script) and
#   embed_out_of_tree.
# CI runs a small part: CTest's tsan_smoke (tests/CMakeLists.txt) calls this script with a REGEX.
#
# Built with gcc's -fsanitize=thread, without mimalloc and with a shared libstdc++ (TSan must own
# malloc and sees the shared library's atomics). The test NIF libraries (C, test fixtures) stay
# uninstrumented, as in tools/sanitize.sh: erl loads the same .so files and cannot open an
# instrumented one. TSan still sees their threads (pthread_create is intercepted) and checks
# every access the VM's own code makes; only the fixtures' own loads and stores go unchecked.
# Suppressions: tools/tsan.supp, each with the reason the race is benign.
set -euo pipefail
cd "$(dirname "$0")/.."
regex=${1:-}
build=build-tsan
scheds=${TSAN_SCHEDULERS:-2:2 4:4}
scale=${TSAN_TIME_SCALE:-5}
export BEAMVM_TEST_TIME_SCALE=$scale

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD
fi
flags="-fsanitize=thread -fno-omit-frame-pointer"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBEAMVM_PGO= "${launcher[@]}" \
  -DBEAMVM_MIMALLOC=OFF -DBEAMVM_STATIC_CXX_RUNTIME=OFF -DBEAMVM_TEST_TIME_SCALE="$scale" \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS= \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null

# shellcheck source=tools/sanitizer_build.sh
source tools/sanitizer_build.sh  # the scripts run from the repository root
sanitizer_build "$build" "$(nproc)" "$regex"

logs=$PWD/$build/tsan-logs
rm -rf "$logs"
export CONFORMANCE_TIMEOUT=${CONFORMANCE_TIMEOUT:-600}
status=0
for n in $scheds; do
  mkdir -p "$logs/S${n%%:*}"
  echo "== +S $n"
  # fuzz_smoke runs no beamvm of this build (it builds the clang libFuzzer targets), tsan_smoke
  # is this script itself, and
  # embed_out_of_tree links the installed libbeamvm.a into a program built without TSan (its
  # __tsan_* references stay undefined); embed_api runs the library in this build instead.
  ctest_args=(--test-dir "$build" --output-on-failure -j"${TSAN_JOBS:-1}" --timeout "${TSAN_TIMEOUT:-1500}"
              -E '^(fuzz_smoke|tsan_smoke|embed_out_of_tree)$')
  if [ -n "$regex" ]; then ctest_args+=(-R "$regex"); fi
  ERL_AFLAGS="+S $n" \
  TSAN_OPTIONS="log_path=$logs/S${n%%:*}/tsan second_deadlock_stack=1 history_size=4 suppressions=$PWD/tools/tsan.supp" \
    ctest "${ctest_args[@]}" || status=1
done

# A report's first two frames of each access name the race; one line per distinct pair.
reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
  echo "ThreadSanitizer reports: $(grep -l 'WARNING: ThreadSanitizer' $reports | wc -l) files"
  for f in $reports; do
    awk '/WARNING: ThreadSanitizer/ {w=$0; n=0; next}
         w && /^    #0 / && n < 2 {sub(/^ *#0 /, ""); a[n++]=$0; if (n==2) {print w " | " a[0] " | " a[1]; w=""}}' "$f"
  done | sed 's/(build-tsan[^)]*)//g; s/ (beamvm+0x[0-9a-f]*)//g; s/==[0-9]*==//' | sort | uniq -c | sort -rn
  status=1
else
  echo "no ThreadSanitizer reports"
fi
exit $status
