# Sourced by tools/sanitize.sh and tools/tsan.sh: sanitizer_build BUILD_DIR JOBS [REGEX] builds
# everything in BUILD_DIR, or with a REGEX only what the ctest tests it names need: beamvm, the
# test NIF libraries, the conformance modules and the unit-test executables named as their tests
# (tests/CMakeLists.txt, beam_unit_suite; embed_api is test_embed).
sanitizer_build() {
  local build=$1 jobs=$2 regex=${3:-}
  if [ -z "$regex" ]; then
    cmake --build "$build" -j"$jobs"
    return
  fi
  local targets=(beamvm nif_test_libs conformance_beams conformance_hot_beams) name
  while read -r name; do
    case $name in
      test_*) targets+=("$name") ;;
      embed_api) targets+=(test_embed) ;;
    esac
  done < <(ctest --test-dir "$build" -N -R "$regex" | sed -n 's/^ *Test *#[0-9]*: //p')
  cmake --build "$build" -j"$jobs" --target "${targets[@]}"
}
