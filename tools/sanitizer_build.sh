# Sourced by tools/sanitize.sh and tools/tsan.sh: sanitizer_build BUILD_DIR JOBS [REGEX] builds
# everything in BUILD_DIR, or with a REGEX only what the ctest tests it names need: beamvm, the
# test NIF libraries, the conformance modules and the unit-test executables named as their tests
# (tests/CMakeLists.txt, beam_unit_suite; embed_api is test_embed).
# The compiler's output goes to BUILD_DIR/build.log, shown (its last 60 lines) only when the
# build fails: what a CI log keeps of a failed run is then the tests' own output.
sanitizer_build() {
  local build=$1 jobs=$2 regex=${3:-}
  local targets=()
  if [ -n "$regex" ]; then sanitizer_targets "$build" "$regex"; fi
  echo "building $build${regex:+ for $regex} (log: $build/build.log)"
  if ! cmake --build "$build" -j"$jobs" ${targets[@]+--target "${targets[@]}"} >"$build/build.log" 2>&1; then
    tail -n 60 "$build/build.log"
    echo "the build of $build failed"
    return 1
  fi
}

# Sets targets to what the ctest tests matching REGEX need.
sanitizer_targets() {
  local build=$1 regex=$2 name
  targets=(beamvm nif_test_libs conformance_beams conformance_hot_beams)
  while read -r name; do
    case $name in
      test_*) targets+=("$name") ;;
      embed_api) targets+=(test_embed) ;;
    esac
  done < <(ctest --test-dir "$build" -N -R "$regex" | sed -n 's/^ *Test *#[0-9]*: //p')
}
