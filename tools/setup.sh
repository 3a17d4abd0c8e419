#!/usr/bin/env bash
# Installs what beamvm needs on Debian 12 (as root, or with sudo), builds it, and runs an
# example program compiled by erlc. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# Erlang/OTP 25 from Debian: the compiler and reference (erlang-base, erlang-dev), and the
# OTP applications beamvm's tests run on both VMs (EUnit, common_test, runtime_tools, inets
# for the HTTP benchmark and interop tests); PCRE2 for re's natives (found through
# pkg-config); erlang-idna and erlang-uuid, whose gzip-compressed .beam files the
# prepare_otp_ebin test loads (tests/loading/); OTP's NIF applications (crypto.so and what stands
# on it: public_key, ssl, ssh) and erlang-dev's erl_nif.h, which nif/ and the NIF test
# libraries (tests/nif/) are compiled against; erlang-jiffy and erlang-bitcask, third-party NIF
# libraries (tests/conformance/nif_jiffy, nif_bitcask).
# OpenSSH's client, which tests/net/openssh.sh runs against OTP's ssh daemon.
# erlang-examples: kernel's gen_tcp_dist and erl_uds_dist, distribution carried by a process
# (tests/dist/proto_dist.sh).
# rebar3: an escript with an embedded archive and a `%%! +sbtu +A1` line (tests/cmdline/rebar3.sh).
# libncurses-dev: terminfo (libtinfo) for the tty_sl driver's cursor controls (io/tty/);
# tmux drives erl and beamvm on a terminal in tests/shell/.
# elixir: Elixir's launchers (elixir, mix, iex), which run beamvm as their `erl` (tests/elixir/).
# erlang-src and erlang-xmerl: stdlib's sources, which bench/real/real_compile.erl compiles and
# real_parse.erl parses, and OTP's XML parser (real_xmerl.erl).
# clang and libfuzzer-14-dev: the libFuzzer targets (tools/fuzz.sh, CTest fuzz_smoke).
PACKAGES=(build-essential cmake python3 erlang-base erlang-dev erlang-eunit erlang-common-test
          erlang-runtime-tools erlang-syntax-tools erlang-inets erlang-idna erlang-uuid
          erlang-jiffy erlang-bitcask
          zlib1g-dev libfmt-dev
          libmimalloc-dev catch2 libgmp-dev libpcre2-dev pkg-config
          erlang-crypto erlang-asn1 erlang-public-key erlang-ssl erlang-ssh openssh-client
          erlang-examples rebar3 libncurses-dev tmux elixir
          erlang-src erlang-xmerl clang libfuzzer-14-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# Profile-guided: a counting build of beamvm runs the benchmarks' quick sizes, then everything
# is built with the profiles (tools/pgo.sh; a few minutes more). BEAMVM_PGO=0 builds without.
if [ "${BEAMVM_PGO:-1}" != 0 ]; then
  bash tools/pgo.sh
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBEAMVM_PGO= >/dev/null
fi
cmake --build build -j"$(nproc)"

mkdir -p build/example
erlc -o build/example examples/hello.erl
echo "--- examples/hello.erl on beamvm:"
build/beamvm -noshell -pa build/example -s hello main -s erlang halt
