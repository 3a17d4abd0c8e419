%% OTP's ssl within one VM over loopback (issue 24: crypto.so under ssl): for TLS 1.2 and 1.3,
%% a server and a client with certificates made by public_key:pkix_test_data/1 (P-256), both
%% verifying the other, exchange data in the socket modes ssl shares with gen_tcp (passive with
%% and without a length, {active, N} with its ssl_passive message, {packet, 4}, {packet, line}),
%% hand a socket to another process, negotiate ALPN and half-close with shutdown/2. A client
%% that offers only the other version, and one that does not trust the server's CA, must fail
%% with the alerts erl's ssl sends. tests/net/interop_tls.erl runs
%% TLS between beamvm and erl.
-module(tls_loopback).
-export([main/0]).

-define(TIMEOUT_MS, 10000).

main() ->
    %% ssl reports each alert as a time-stamped notice; the cases print the alerts instead.
    ok = logger:set_primary_config(level, warning),
    {ok, _} = application:ensure_all_started(ssl),
    Key = {key, {namedCurve, secp256r1}},
    Chain = #{root => [Key], peer => [Key]},
    #{server_config := Server, client_config := Client} =
        public_key:pkix_test_data(#{server_chain => Chain, client_chain => Chain}),
    {ok, Host} = inet:gethostname(),   % the peer certificates' subjectAltName
    [version(V, Server, [{server_name_indication, Host} | Client]) || V <- ['tlsv1.2', 'tlsv1.3']],
    ok.

version(V, ServerConf, ClientConf) ->
    io:format("== ~p~n", [V]),
    SOpts = [binary, {versions, [V]}, {verify, verify_peer}, {fail_if_no_peer_cert, true},
             {alpn_preferred_protocols, [<<"h2">>, <<"echo/1">>]} | ServerConf],
    COpts = [binary, {versions, [V]}, {verify, verify_peer} | ClientConf],
    {ok, L} = ssl:listen(0, [{active, false}, {ip, {127, 0, 0, 1}}, {reuseaddr, true} | SOpts]),
    {ok, {_, Port}} = ssl:sockname(L),
    Pair = fun(ServerExtra, ClientExtra) -> pair(L, Port, ServerExtra, COpts ++ ClientExtra) end,

    {S1, C1} = Pair([], [{alpn_advertised_protocols, [<<"echo/1">>]}]),
    io:format("alpn: ~p ~p~n", [ssl:negotiated_protocol(S1), ssl:negotiated_protocol(C1)]),
    {ok, CInfo} = ssl:connection_information(C1, [protocol, selected_cipher_suite, sni_hostname]),
    io:format("client info: ~p~n", [lists:sort([{K, X} || {K, X} <- CInfo, K =/= sni_hostname])]),
    ok = ssl:send(C1, <<"hello">>),
    io:format("passive recv 0: ~p~n", [ssl:recv(S1, 0, ?TIMEOUT_MS)]),
    Big = payload(100000),
    ok = ssl:send(S1, Big),
    {ok, Got} = ssl:recv(C1, 100000, ?TIMEOUT_MS),
    io:format("passive recv 100000: ~p~n", [Got =:= Big]),
    io:format("recv timeout: ~p~n", [ssl:recv(C1, 0, 50)]),
    ok = ssl:setopts(C1, [{active, 3}]),
    io:format("active 3: ~p~n", [[begin
                                      ok = ssl:send(S1, <<"m", (integer_to_binary(I))/binary>>),
                                      receive {ssl, C1, D} -> D after ?TIMEOUT_MS -> timeout end
                                  end || I <- lists:seq(1, 3)]]),
    io:format("after active 3: ~p~n", [receive {ssl_passive, C1} -> ssl_passive
                                       after ?TIMEOUT_MS -> none end]),
    ok = ssl:shutdown(C1, write),
    io:format("server after client's shutdown(write): ~p~n", [ssl:recv(S1, 0, ?TIMEOUT_MS)]),
    io:format("server sends after that: ~p~n", [ssl:send(S1, <<"after half close">>)]),
    ok = ssl:setopts(C1, [{active, false}]),
    io:format("client reads after its shutdown(write): ~p~n", [ssl:recv(C1, 0, ?TIMEOUT_MS)]),
    close([S1, C1]),

    {S2, C2} = Pair([{packet, 4}], [{packet, 4}]),
    [ok = ssl:send(C2, payload(N)) || N <- [0, 1, 20000]],
    io:format("packet 4: ~p~n", [[case ssl:recv(S2, 0, ?TIMEOUT_MS) of
                                      {ok, B} -> byte_size(B);
                                      E -> E
                                  end || _ <- [1, 2, 3]]]),
    ok = ssl:setopts(S2, [{packet, line}]),
    ok = ssl:setopts(C2, [{packet, raw}]),
    ok = ssl:send(C2, <<"one\ntwo\nthr">>),
    timer:sleep(50),   % the line's end in a later record
    ok = ssl:send(C2, <<"ee\n">>),
    io:format("packet line: ~p~n", [[ssl:recv(S2, 0, ?TIMEOUT_MS) || _ <- [1, 2, 3]]]),
    Self = self(),
    Other = spawn(fun() ->
                          receive go -> ok end,
                          ok = ssl:setopts(C2, [{active, once}]),
                          Self ! {other, receive {ssl, C2, D} -> D after ?TIMEOUT_MS -> none end}
                  end),
    ok = ssl:controlling_process(C2, Other),
    Other ! go,
    ok = ssl:send(S2, <<"to the new owner\n">>),
    io:format("controlling_process: ~p~n", [receive {other, D} -> D after ?TIMEOUT_MS -> none end]),
    close([S2, C2]),

    Wrong = case V of 'tlsv1.2' -> 'tlsv1.3'; 'tlsv1.3' -> 'tlsv1.2' end,
    io:format("client offers only ~p: ~p~n",
              [Wrong, failed(L, Port, [{versions, [Wrong]} | proplists:delete(versions, COpts)])]),
    #{cert := OtherRoot} = public_key:pkix_test_root_cert("other root", [{key, {namedCurve, secp256r1}}]),
    io:format("client does not trust the server's CA: ~p~n",
              [failed(L, Port, [{cacerts, [OtherRoot]} | proplists:delete(cacerts, COpts)])]),
    ssl:close(L).

%% A server socket (accepted by a helper process, then handed over) and a client socket.
pair(L, Port, ServerExtra, COpts) ->
    Self = self(),
    spawn_link(fun() ->
                       {ok, T} = ssl:transport_accept(L, ?TIMEOUT_MS),
                       {ok, S} = ssl:handshake(T, ?TIMEOUT_MS),
                       ok = ssl:setopts(S, ServerExtra),
                       ok = ssl:controlling_process(S, Self),
                       Self ! {accepted, S}
               end),
    {ok, C} = ssl:connect({127, 0, 0, 1}, Port, [{active, false} | COpts], ?TIMEOUT_MS),
    receive {accepted, S} -> {S, C} after ?TIMEOUT_MS -> exit(no_accept) end.

%% A handshake that must fail: both sides' results (alerts by description only: their texts
%% name the side and the code line that sent them).
failed(L, Port, COpts) ->
    Self = self(),
    spawn(fun() ->
                  {ok, T} = ssl:transport_accept(L, ?TIMEOUT_MS),
                  Self ! {server, alert(ssl:handshake(T, ?TIMEOUT_MS))}
          end),
    C = alert(ssl:connect({127, 0, 0, 1}, Port, [{active, false} | COpts], ?TIMEOUT_MS)),
    S = receive {server, R} -> R after ?TIMEOUT_MS -> none end,
    #{client => C, server => S}.

alert({error, {tls_alert, {Description, _Text}}}) -> {tls_alert, Description};
alert({ok, S}) -> ssl:close(S), ok;
alert(Other) -> Other.

close(Sockets) -> [ssl:close(S) || S <- Sockets].

payload(N) -> list_to_binary([I * 7 band 255 || I <- lists:seq(1, N)]).
