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
all=(fuzz_binary_to_term fuzz_term_to_binary fuzz_beam_loader fuzz_decode_packet fuzz_re fuzz_dist_packet fuzz_match_spec
     fuzz_inet_options)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
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
for t in "${all[@]}"; do mkdir -p "$seeds/$t"; done
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

# Distribution packets two erl nodes exchanged (tests/unit/data/dist), as the target reads them
# (Flags:8, then Len:16 Packet...): windows of up to 32 packets of each stream, in header mode
# with fragments.
python3 - "$seeds/fuzz_dist_packet" tests/unit/data/dist/*.dist.gz <<'PY'
import gzip, sys
out, files = sys.argv[1], sys.argv[2:]
for f in files:
    data = gzip.open(f).read()
    packets, at = [], 0
    while at + 4 <= len(data):
        n = int.from_bytes(data[at:at + 4], 'big')
        packets.append(data[at + 4:at + 4 + n])
        at += 4 + n
    name = f.rsplit('/', 1)[-1].split('.')[0]
    for end in range(8, len(packets) + 8, 8):
        chunk = [p for p in packets[max(0, end - 32):end] if len(p) < 8192]
        body = b''.join(len(p).to_bytes(2, 'big') + p for p in chunk)
        if body:
            open(f'{out}/{name}_{end}', 'wb').write(bytes([3]) + body)
PY
# Match specifications (tests/fuzz/seeds/match_specs.txt: Dialect, Spec, Object), as the target
# reads them (Dialect:8, then both terms encoded), and a dictionary of the atoms specs are made of.
SEEDS="$seeds" erl -noshell -eval '
  Dir = os:getenv("SEEDS"),
  {ok, Text} = file:read_file("tests/fuzz/seeds/match_specs.txt"),
  Term = fun(S) -> {ok, Ts, _} = erl_scan:string(S ++ "."), {ok, Es} = erl_parse:parse_exprs(Ts),
                   {value, V, _} = erl_eval:exprs(Es, []), V end,
  Lines = [binary_to_list(L) || L <- binary:split(Text, <<"\n">>, [global]), L =/= <<>>],
  lists:foldl(fun(L, N) ->
                  [D, S, O] = string:split(L, "\t", all),
                  Byte = case D of "trace" -> 1; "table" -> 0 end,
                  ok = file:write_file(filename:join([Dir, "fuzz_match_spec", integer_to_list(N)]),
                                       [Byte, term_to_binary(Term(S)), term_to_binary(Term(O))]),
                  N + 1
              end, 0, Lines),
  Names = [[$$, C] || C <- "0123456789_$"] ++
    ["_", ">", "<", "+", "-", "*", "/", ">=", "=<", "==", "/=", "=:=", "=/=", "div", "rem", "band",
     "bor", "bxor", "bnot", "bsl", "bsr", "and", "or", "xor", "not", "andalso", "orelse", "const",
     "element", "hd", "tl", "length", "size", "abs", "float", "round", "trunc", "node", "self",
     "map_get", "is_map_key", "map_size", "tuple_size", "byte_size", "bit_size", "binary_part",
     "is_atom", "is_integer", "is_list", "is_tuple", "is_map", "is_record", "is_function", "is_pid",
     "is_binary", "is_float", "is_number", "message", "return_trace", "exception_trace", "caller",
     "caller_line", "process_dump", "display", "get_tcw", "set_tcw", "silent", "trace",
     "enable_trace", "disable_trace", "set_seq_token", "get_seq_token", "is_seq_trace", "true",
     "false"],
  Entry = fun(Name) -> <<131, B/binary>> = term_to_binary(list_to_atom(Name)),
                       [$", [io_lib:format("\\x~2.16.0B", [X]) || <<X>> <= B], $", $\n] end,
  ok = file:write_file(filename:join(Dir, "fuzz_match_spec.dict"), [Entry(N) || N <- Names]),
  halt().'
# inet options as prim_inet encodes them (Kind:8, SetLen:16, the setopts bytes, then the getopts
# codes): active once and {active, 5}, packet 2, binary mode, reuseaddr, nodelay, linger, a raw
# option, bind_to_device, netns, the buffers, a multicast membership (UDP) and ipv6_v6only (IPv6).
p=$seeds/fuzz_inet_options
printf '\x00\x00\x0f\x16\x00\x00\x00\x02\x17\x00\x00\x00\x02\x18\x00\x00\x00\x01\x16\x17\x18' > "$p/active_packet_mode"
printf '\x00\x00\x07\x16\x00\x00\x00\x03\x00\x05\x16' > "$p/active_n"
printf '\x00\x00\x0a\x00\x00\x00\x00\x01\x0a\x00\x00\x00\x01\x00\x0a' > "$p/reuse_nodelay"
printf '\x00\x00\x09\x03\x00\x00\x00\x01\x00\x00\x00\x0a\x03' > "$p/linger"
printf '\x00\x00\x11\x22\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\x04\x00\x00\x00\x01' > "$p/raw"
printf '\x00\x00\x07\x2a\x00\x00\x00\x02lo\x2a' > "$p/bind_to_device"
printf '\x00\x00\x09\x26\x00\x00\x00\x04/tmp\x26' > "$p/netns"
printf '\x00\x00\x0f\x06\x00\x01\x00\x00\x07\x00\x01\x00\x00\x14\x00\x00\x10\x00\x06\x07\x14' > "$p/buffers"
printf '\x02\x00\x11\x0e\x00\x00\x00\x01\x00\x00\x00\x00\xe0\x00\x00\x01\x00\x00\x00\x00\x0b' > "$p/udp_membership"
printf '\x01\x00\x05\x10\x00\x00\x00\x01\x10\x29' > "$p/ipv6_v6only"

mkdir -p "$build/findings"
status=0
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  echo "=== $t: $runs runs"
  seed_arg=()
  [ -n "${FUZZ_SEED:-}" ] && seed_arg=(-seed="$FUZZ_SEED")
  [ -f "$seeds/$t.dict" ] && seed_arg+=(-dict="$seeds/$t.dict")
  if ! "$build/tests/fuzz/targets/$t" "${seed_arg[@]}" -runs="$runs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$build/findings/$t-" -print_final_stats=1 "$corpus" "$seeds/$t" 2>"$build/$t.log"; then
    status=1
    echo "FAIL: $t (log: $build/$t.log; inputs: $build/findings/)"
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|Done [0-9]+ runs" "$build/$t.log" || true
done
exit $status
