#!/usr/bin/env bash
# Usage: tools/fuzz.sh [RUNS] [TARGET...]
# Builds beamvm's libFuzzer targets (tests/fuzz/targets/) with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz/, makes their seed corpora from real files (OTP's
# .beam files, terms encoded by erl, HTTP and framed packets, tests/fuzz/seeds/), and runs each
# target for RUNS executions (default 10000, a smoke run; the issue's full size is 1000000).
# Each target's corpus grows in build-fuzz/corpus/TARGET/; a crash leaves its input in
# build-fuzz/findings/ and the script fails. Needs Debian's clang and libfuzzer-14-dev
# (tools/setup.sh installs them). FUZZ_SEED=N makes a run repeatable (CTest fuzz_smoke: 2000
# runs per target, seed 1).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10000}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_binary_to_term fuzz_term_to_binary fuzz_beam_loader fuzz_decode_packet fuzz_re)
build=build-fuzz

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=$PWD
fi
CXX=clang++ CC=clang cmake -S . -B "$build" -DBEAMVM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBEAMVM_PGO= \
  "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -Wno-unused-command-line-argument" \
  >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

seeds=$PWD/$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{fuzz_binary_to_term,fuzz_term_to_binary,fuzz_beam_loader,fuzz_decode_packet,fuzz_re}
# .beam files of OTP's stdlib and kernel (some compressed by erlc +compressed below).
stdlib=$(erl -noshell -eval 'io:format("~s", [code:lib_dir(stdlib, ebin)]), halt().')
for f in lists maps gen_server proplists string binary unicode io_lib ets dict; do cp "$stdlib/$f.beam" "$seeds/fuzz_beam_loader/"; done
erlc +compressed -o "$seeds/fuzz_beam_loader" examples/hello.erl
# Terms as erl encodes them, each behind an option byte (safe, or term_to_binary's options).
SEEDS="$seeds" erl -noshell -eval '
  Dir = os:getenv("SEEDS"),
  {ok, Text} = file:read_file("tests/fuzz/seeds/erl_terms.txt"),
  Exprs = [binary_to_list(L) || L <- binary:split(Text, <<"\n">>, [global]), L =/= <<>>],
  Seed = fun(Target, Name, Byte, Bin) -> ok = file:write_file(filename:join([Dir, Target, Name]), [Byte, Bin]) end,
  lists:foldl(fun(E, N) ->
                  {ok, Ts, _} = erl_scan:string(E ++ "."),
                  {ok, Es} = erl_parse:parse_exprs(Ts),
                  {value, T, _} = erl_eval:exprs(Es, []),
                  Name = integer_to_list(N),
                  Seed("fuzz_binary_to_term", Name ++ "_plain", 0, term_to_binary(T)),
                  Seed("fuzz_binary_to_term", Name ++ "_compressed", 1, term_to_binary(T, [compressed])),
                  Seed("fuzz_term_to_binary", Name ++ "_v2", 137, term_to_binary(T, [{minor_version, 2}])),
                  Seed("fuzz_term_to_binary", Name ++ "_z5", 5, term_to_binary(T)),
                  N + 1
              end, 0, Exprs),
  halt().'
p=$seeds/fuzz_decode_packet
printf '\x0f\x80GET /index.html HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello' > "$p/http_request"
printf '\x0f\x80HTTP/1.1 200 OK\r\nServer: x\r\n\r\n' > "$p/http_response"
printf '\x10\x80Content-Type: text/plain\r\n\r\n' > "$p/httph"
printf '\x08\x80one line\nsecond line\n' > "$p/line"
printf '\x02\x80\x00\x05hello' > "$p/packet2"
printf '\x03\x80\x00\x00\x00\x03abc' > "$p/packet4"
printf '\x09\x80\x03\x00\x00\x09abcde' > "$p/tpkt"
printf '\x04\x80\x30\x03\x02\x01\x05' > "$p/asn1"
printf '\x0e\x80\x16\x03\x01\x00\x02\x01\x00' > "$p/ssl_tls"
n=0
while IFS=$'\t' read -r pat subj; do
  printf '\x00\x00%s\x00%b' "$pat" "$subj" > "$seeds/fuzz_re/$n"
  n=$((n + 1))
done < tests/fuzz/seeds/re_patterns.txt

mkdir -p "$build/findings"
status=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  echo "=== $t: $runs runs"
  seed_arg=()
  [ -n "${FUZZ_SEED:-}" ] && seed_arg=(-seed="$FUZZ_SEED")
  if ! "$build/tests/fuzz/targets/$t" "${seed_arg[@]}" -runs="$runs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$build/findings/$t-" -print_final_stats=1 "$corpus" "$seeds/$t" 2>"$build/$t.log"; then
    status=1
    echo "FAIL: $t (log: $build/$t.log; inputs: $build/findings/)"
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|Done [0-9]+ runs" "$build/$t.log" || true
done
exit $status
