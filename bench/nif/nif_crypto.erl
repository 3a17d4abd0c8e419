%% crypto throughput through OTP's crypto NIF library (issue 24): crypto:hash(sha256, Bin)
%% and AES-256-GCM by crypto:crypto_one_time_aead/6,7, Rounds times on a Size-byte message
%% (different bytes each, so no answer can be cached). The time covers the crypto calls only.
%% Rate: MB (10^6 bytes) of input per second. The check line (a digest of all outputs) is
%% the same on every VM.
-module(nif_crypto).
-export([hash/2, aead/2]).

hash(Size, Rounds) ->
    Msgs = messages(Size),
    T0 = erlang:monotonic_time(microsecond),
    Last = hash_loop(Msgs, Rounds, <<>>),
    T1 = erlang:monotonic_time(microsecond),
    io:format("check nif_crypto sha256 size ~p rounds ~p last ~s~n", [Size, Rounds, hex(Last)]),
    rate(Size * Rounds, T1 - T0).

hash_loop(_, 0, Last) -> Last;
hash_loop([M | Ms], N, _) -> hash_loop(Ms ++ [M], N - 1, crypto:hash(sha256, M)).

aead(Size, Rounds) ->
    Key = binary:copy(<<16#5a>>, 32),
    Msgs = messages(Size),
    T0 = erlang:monotonic_time(microsecond),
    {Cipher, Tag, Iv} = aead_loop(Key, Msgs, Rounds, 0, none),
    T1 = erlang:monotonic_time(microsecond),
    Plain = crypto:crypto_one_time_aead(aes_256_gcm, Key, Iv, Cipher, <<"aad">>, Tag, false),
    io:format("check nif_crypto aes_256_gcm size ~p rounds ~p tag ~s roundtrip ~p~n",
              [Size, Rounds, hex(Tag), lists:member(Plain, Msgs)]),
    rate(Size * Rounds, T1 - T0).

aead_loop(_, _, 0, _, Last) -> Last;
aead_loop(Key, [M | Ms], N, Count, _) ->
    Iv = <<Count:96>>,
    {C, T} = crypto:crypto_one_time_aead(aes_256_gcm, Key, Iv, M, <<"aad">>, true),
    aead_loop(Key, Ms ++ [M], N - 1, Count + 1, {C, T, Iv}).

%% Four messages of Size bytes, each different (a 256-byte pattern repeated: building them
%% byte by byte would take longer than the benchmark on a slow VM).
messages(Size) ->
    [begin
         Pattern = << <<((I * K) band 255)>> || I <- lists:seq(0, 255) >>,
         binary:part(binary:copy(Pattern, Size div 256 + 1), 0, Size)
     end || K <- [1, 3, 5, 7]].

rate(Bytes, Us) ->
    io:format("rate ~.2f MB/s~n", [Bytes / (max(1, Us) / 1.0e6) / 1.0e6]).

hex(Bin) -> [io_lib:format("~2.16.0b", [B]) || <<B>> <= binary:part(Bin, 0, min(8, byte_size(Bin)))].
