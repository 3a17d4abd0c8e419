%% crypto's digests and MACs on the system libcrypto: hash/2 of known inputs for every
%% supported digest (small and above crypto.erl's 20000-byte slicing), hash_info/1, the
%% streaming API with reused and shared states, HMAC/CMAC/Poly1305 one-shot and streaming,
%% pbkdf2_hmac, exor, hash_equals, mod_pow, and the error terms crypto.erl builds from the natives'.
-module(crypto_hash_mac).
-export([main/0]).

main() ->
    lists(),
    hashes(),
    hash_streams(),
    hash_errors(),
    macs(),
    mac_streams(),
    mac_errors(),
    kdf_and_bytes(),
    ok.

%% Errors crypto.erl raises as {Id, {File, Line}, Message}: the file and line name the C
%% source of the native (erl's and beamvm's differ), so only the rest is shown, with the
%% argument error_info points at.
show(Label, F) ->
    R = try F() of
            V -> {ok, hex(V)}
        catch
            error:{Id, {_File, _Line}, Msg}:St when is_list(Msg) -> {error, Id, list_to_atom(Msg), arg_num(St)};
            C:E -> {C, E}
        end,
    io:format("~s: ~w~n", [Label, R]).

arg_num([{_, _, _, Info} | _]) ->
    case proplists:get_value(error_info, Info) of
        #{erl_function_arg_num := N} -> N;
        _ -> none
    end;
arg_num(_) -> none.

hex(B) when is_binary(B) -> binary:encode_hex(B);
hex(V) -> V.

lists() ->
    show("supports(hashs)", fun() -> crypto:supports(hashs) end),
    show("supports(macs)", fun() -> crypto:supports(macs) end),
    show("version", fun() -> crypto:version() end),
    show("info_lib", fun() -> [{N, V} || {N, V, _Text} <- crypto:info_lib()] end),
    show("info_fips", fun() -> crypto:info_fips() end),
    show("enable_fips_mode", fun() -> {crypto:enable_fips_mode(false), crypto:enable_fips_mode(true)} end),
    show("enable_fips_mode bad", fun() -> crypto:enable_fips_mode(maybe) end),
    show("info keys", fun() -> lists:sort(maps:keys(crypto:info())) end),
    ok.

inputs() ->
    [<<>>, <<"abc">>, ["a", [<<"b">>], $c], binary:copy(<<"0123456789">>, 2001),
     << <<(I rem 256)>> || I <- lists:seq(1, 70000) >>].

hashes() ->
    [show(io_lib:format("hash(~p, ~p bytes)", [H, iolist_size(D)]), fun() -> crypto:hash(H, D) end)
     || H <- crypto:supports(hashs), D <- inputs()],
    [show(io_lib:format("hash_info(~p)", [H]), fun() -> crypto:hash_info(H) end)
     || H <- crypto:supports(hashs)],
    show("hash_info(foo)", fun() -> crypto:hash_info(foo) end),
    ok.

hash_streams() ->
    S0 = crypto:hash_init(sha256),
    S1 = crypto:hash_update(S0, <<"ab">>),
    S2 = crypto:hash_update(S1, "c"),
    show("streamed sha256", fun() -> crypto:hash_final(S2) end),
    show("final twice", fun() -> crypto:hash_final(S2) end),
    show("earlier state unchanged", fun() -> crypto:hash_final(S1) end),
    show("branch from S1", fun() -> crypto:hash_final(crypto:hash_update(S1, "x")) end),
    show("empty stream", fun() -> crypto:hash_final(crypto:hash_init(md5)) end),
    Big = binary:copy(<<"xyz">>, 30000),
    show("big update", fun() ->
        crypto:hash_final(crypto:hash_update(crypto:hash_init(sha512), Big)) =:= crypto:hash(sha512, Big)
    end),
    show("is_reference(state)", fun() -> is_reference(S0) end),
    Self = self(),
    spawn(fun() -> Self ! {final, crypto:hash_final(crypto:hash_update(S1, "c"))} end),
    show("state used in another process", fun() -> receive {final, D} -> D end end),
    show("state sent in a message", fun() ->
        self() ! {state, S2},
        receive {state, S} -> crypto:hash_final(S) end
    end),
    ok.

hash_errors() ->
    show("hash(foo, _)", fun() -> crypto:hash(foo, <<"abc">>) end),
    show("hash(sha, foo)", fun() -> crypto:hash(sha, foo) end),
    show("hash(\"sha\", _)", fun() -> crypto:hash("sha", <<>>) end),
    show("hash_init(foo)", fun() -> crypto:hash_init(foo) end),
    show("hash_update(ref, _)", fun() -> crypto:hash_update(make_ref(), <<"abc">>) end),
    show("hash_update(state, atom)", fun() -> crypto:hash_update(crypto:hash_init(sha), abc) end),
    show("hash_final(foo)", fun() -> crypto:hash_final(foo) end),
    show("hash_final(mac state)", fun() -> crypto:hash_final(crypto:mac_init(hmac, sha, <<"k">>)) end),
    ok.

macs() ->
    Key = <<"secret key">>,
    [show(io_lib:format("hmac ~p", [H]), fun() -> crypto:mac(hmac, H, Key, <<"message">>) end)
     || H <- crypto:supports(hashs)],
    show("hmac long key", fun() -> crypto:mac(hmac, sha256, binary:copy(<<"k">>, 200), "m") end),
    show("hmac iolist key and data", fun() -> crypto:mac(hmac, sha, ["se", <<"cret">>], [<<"a">>, "b"]) end),
    show("hmac big data", fun() -> crypto:mac(hmac, sha256, Key, binary:copy(<<"d">>, 50000)) end),
    show("macN hmac", fun() -> crypto:macN(hmac, sha256, Key, <<"m">>, 10) end),
    [show(io_lib:format("cmac ~p", [C]), fun() -> crypto:mac(cmac, C, K, <<"message">>) end)
     || {C, K} <- [{aes_128_cbc, <<0:128>>}, {aes_192_cbc, <<1:192>>}, {aes_256_cbc, <<2:256>>},
                   {aes_cbc, <<3:128>>}, {aes_cbc, <<4:256>>}, {des_ede3_cbc, <<5:192>>}]],
    show("poly1305", fun() -> crypto:mac(poly1305, <<7:256>>, <<"message">>) end),
    show("macN poly1305", fun() -> crypto:macN(poly1305, <<7:256>>, <<"message">>, 4) end),
    ok.

mac_streams() ->
    M0 = crypto:mac_init(hmac, sha256, <<"key">>),
    M1 = crypto:mac_update(M0, <<"mes">>),
    show("mac_update returns the state", fun() -> M1 =:= M0 end),
    M2 = crypto:mac_update(M1, ["sa", <<"ge">>]),
    show("streamed hmac", fun() -> crypto:mac_final(M2) end),
    show("one-shot hmac", fun() -> crypto:mac(hmac, sha256, <<"key">>, <<"message">>) end),
    show("streamed cmac", fun() ->
        S = crypto:mac_init(cmac, aes_128_cbc, <<9:128>>),
        crypto:mac_final(crypto:mac_update(crypto:mac_update(S, "mess"), "age"))
    end),
    show("cmac one-shot", fun() -> crypto:mac(cmac, aes_128_cbc, <<9:128>>, "message") end),
    show("streamed poly1305", fun() ->
        S = crypto:mac_init(poly1305, <<7:256>>),
        crypto:mac_final(crypto:mac_update(S, <<"message">>))
    end),
    show("mac_finalN", fun() ->
        crypto:mac_finalN(crypto:mac_update(crypto:mac_init(hmac, sha, "k"), "d"), 5)
    end),
    Self = self(),
    S = crypto:mac_init(hmac, sha, <<"k">>),
    spawn(fun() -> crypto:mac_update(S, <<"from another process">>), Self ! updated end),
    show("mac state updated by another process", fun() -> receive updated -> crypto:mac_final(S) end end),
    ok.

mac_errors() ->
    show("mac foo", fun() -> crypto:mac(foo, sha, <<"k">>, <<"d">>) end),
    show("hmac foo", fun() -> crypto:mac(hmac, foo, <<"k">>, <<"d">>) end),
    show("hmac bad key", fun() -> crypto:mac(hmac, sha, key, <<"d">>) end),
    show("hmac bad data", fun() -> crypto:mac(hmac, sha, <<"k">>, data) end),
    show("cmac foo", fun() -> crypto:mac(cmac, foo, <<0:128>>, <<"d">>) end),
    show("cmac bad key size", fun() -> crypto:mac(cmac, aes_128_cbc, <<0:64>>, <<"d">>) end),
    show("poly1305 bad key", fun() -> crypto:mac(poly1305, <<"short">>, <<"d">>) end),
    show("mac_init foo", fun() -> crypto:mac_init(foo, sha, <<"k">>) end),
    show("mac_init hmac foo", fun() -> crypto:mac_init(hmac, foo, <<"k">>) end),
    show("mac_init bad key", fun() -> crypto:mac_init(hmac, sha, 1) end),
    show("mac_update ref", fun() -> crypto:mac_update(make_ref(), <<"d">>) end),
    show("mac_update bad data", fun() -> crypto:mac_update(crypto:mac_init(hmac, sha, <<"k">>), d) end),
    show("mac_final foo", fun() -> crypto:mac_final(foo) end),
    show("mac_final hash state", fun() -> crypto:mac_final(crypto:hash_init(sha)) end),
    ok.

kdf_and_bytes() ->
    [show(io_lib:format("pbkdf2_hmac ~p", [D]), fun() ->
         crypto:pbkdf2_hmac(D, <<"password">>, <<"salt">>, 1000, 32)
     end) || D <- [sha, sha224, sha256, sha384, sha512]],
    show("pbkdf2_hmac md5", fun() -> crypto:pbkdf2_hmac(md5, <<"p">>, <<"s">>, 1, 16) end),
    show("pbkdf2_hmac foo", fun() -> crypto:pbkdf2_hmac(foo, <<"p">>, <<"s">>, 1, 16) end),
    show("pbkdf2_hmac bad pass", fun() -> crypto:pbkdf2_hmac(sha, "p", <<"s">>, 1, 16) end),
    show("pbkdf2_hmac bad salt", fun() -> crypto:pbkdf2_hmac(sha, <<"p">>, s, 1, 16) end),
    show("pbkdf2_hmac zero iterations", fun() -> crypto:pbkdf2_hmac(sha, <<"p">>, <<"s">>, 0, 16) end),
    show("pbkdf2_hmac negative iterations", fun() -> crypto:pbkdf2_hmac(sha, <<"p">>, <<"s">>, -1, 16) end),
    show("pbkdf2_hmac zero length", fun() -> crypto:pbkdf2_hmac(sha, <<"p">>, <<"s">>, 1, 0) end),
    show("exor", fun() -> crypto:exor(<<1, 2, 3>>, [<<255>>, 0, <<15>>]) end),
    show("exor big", fun() ->
        crypto:exor(binary:copy(<<16#AA>>, 50000), binary:copy(<<16#55>>, 50000)) =:= binary:copy(<<255>>, 50000)
    end),
    show("exor sizes differ", fun() -> crypto:exor(<<1, 2>>, <<1>>) end),
    show("exor bad", fun() -> crypto:exor(foo, <<1>>) end),
    show("hash_equals true", fun() -> crypto:hash_equals(<<"abc">>, <<"abc">>) end),
    show("hash_equals false", fun() -> crypto:hash_equals(<<"abc">>, <<"abd">>) end),
    show("hash_equals sizes differ", fun() -> crypto:hash_equals(<<"abc">>, <<"ab">>) end),
    show("hash_equals list", fun() -> crypto:hash_equals("abc", <<"abc">>) end),
    show("bytes_to_integer", fun() -> crypto:bytes_to_integer(<<1, 2, 3, 4, 5, 6, 7, 8, 9>>) end),
    [show(io_lib:format("mod_pow(~w, ~w, ~w)", [B, E, M]), fun() -> crypto:mod_pow(B, E, M) end)
     || {B, E, M} <- [{2, 10, 1000}, {2, 10, 1024}, {3, 0, 7}, {0, 5, 7}, {5, 3, 1}, {2, 10, 0},
                      {<<2>>, <<10>>, <<3, 232>>}, {255, 1, 256}, {1 bsl 200 + 7, 1 bsl 100 + 3, 1 bsl 150 - 3},
                      {-2, 3, 7}, {a, 1, 2}]],
    ok.
