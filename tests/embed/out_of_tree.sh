#!/usr/bin/env bash
# Issue 26's check: an outside CMake project (examples/embed) finds an installed beamvm with
# find_package, links beamvm::vm and runs the examples; a one-file program builds with
# pkg-config alone. usage: out_of_tree.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --build "$build" --target beamvm_archive >/dev/null
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/lib/libbeamvm.a"
test -f "$work/prefix/include/beamvm/vm.hpp"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/examples/embed" -B "$work/examples" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release \
      "${launcher[@]}" >/dev/null
cmake --build "$work/examples" -j2 >/dev/null

pool=$("$work/examples/worker_pool" "$work/examples")
echo "$pool"
# Job Id sums the squares of 1..Id*100; the sums are worked out again here.
for id in 1 2 3 4 5 6 7 8; do
  n=$((id * 100))
  want=$((n * (n + 1) * (2 * n + 1) / 6))
  grep -q "^job $id: worker [1-4]: $want\$" <<<"$pool" || { echo "FAIL: job $id (want $want)"; exit 1; }
done
grep -q '^pool: {stopped,4}$' <<<"$pool" || { echo "FAIL: pool did not stop"; exit 1; }

eval_out=$("$work/examples/sandbox_eval")
echo "$eval_out"
expect() {
  grep -qF -- "$1" <<<"$eval_out" || { echo "FAIL: sandbox_eval printed no '$1'"; exit 1; }
}
expect "value: 385"
expect "value: 42"
expect "raised error:{capability_denied,file}"
expect "raised error:{capability_denied,os_cmd}"
expect "raised error:{capability_denied,port}"
expect "raised error:{capability_denied,network}"
expect "raised error:{capability_denied,halt}"
expect "raised error:{sandbox_limit,processes}"
expect "stopped: took longer than 5 s"

# pkg-config alone.
cat > "$work/tiny.cpp" <<'CPP'
#include <beamvm/vm.hpp>
#include <cstdio>
int main() {
    beamvm::VM vm;
    std::printf("%s\n", vm.call("lists", "sum", {beamvm::list({1, 2, 3})}).to_string().c_str());
}
CPP
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
g++ -O1 -o "$work/tiny" "$work/tiny.cpp" $(pkg-config --cflags --libs beamvm)
tiny=$("$work/tiny")
[ "$tiny" = 6 ] || { echo "FAIL: pkg-config program printed '$tiny'"; exit 1; }
echo "out-of-tree: examples and pkg-config program passed"
