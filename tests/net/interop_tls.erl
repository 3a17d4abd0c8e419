%% TLS between two VMs (issue 24): OTP's ssl over gen_tcp, a server in one VM (server/1) and a
%% client in the other (client/1), one protocol version per run ("1.2" or "1.3"), both sides
%% verifying the other's certificate (interop_certs makes them at test time).
%% The server accepts one connection at a time, prints how its handshake ended (version, cipher
%% suite, the client certificate's CN, or the alert), echoes what it gets until the client
%% closes and prints the byte count; a connection whose first data is <<"stop">> ends it.
%% The client runs: small echoes in passive mode, 1 MB echoed in {active, once} mode, an echo
%% after a key update (TLS 1.3) or a renegotiation (TLS 1.2), a client without a certificate
%% and a client that does not trust the server's CA (both must fail with an alert), and stop.
%% tests/net/interop.sh compares both sides' output with an all-erl run.
-module(interop_tls).
-export([server/1, client/1]).

-define(TIMEOUT_MS, 10000).
-define(BULK_BYTES, 1000000).

%% [PortFile, Version]
server([PortFile, Vsn]) ->
    quiet_alerts(),
    {ok, _} = application:ensure_all_started(ssl),
    Conf = interop_certs:make(PortFile),
    {ok, L} = ssl:listen(0, [binary, {active, false}, {ip, {127, 0, 0, 1}}, {reuseaddr, true},
                             {versions, [version(Vsn)]}, {verify, verify_peer},
                             {fail_if_no_peer_cert, true} | Conf]),
    {ok, {_, Port}} = ssl:sockname(L),
    ok = file:write_file(PortFile ++ ".tmp", integer_to_list(Port)),
    ok = file:rename(PortFile ++ ".tmp", PortFile),
    serve(L, 1).

serve(L, N) when N =< 10 ->
    {ok, T} = ssl:transport_accept(L, 60000),
    case ssl:handshake(T, ?TIMEOUT_MS) of
        {ok, S} ->
            io:format("server ~w: handshake ok ~s~n", [N, describe(S)]),
            case ssl:recv(S, 0, ?TIMEOUT_MS) of
                {ok, <<"stop">>} ->
                    ssl:close(S),
                    io:format("server done~n"),
                    halt();
                {ok, Data} ->
                    ok = ssl:send(S, Data),
                    {Total, End} = echo(S, byte_size(Data)),
                    io:format("server ~w: echoed ~w bytes, then ~p~n", [N, Total, End]);
                Other ->
                    io:format("server ~w: first recv ~p~n", [N, alert(Other)])
            end;
        Error ->
            io:format("server ~w: handshake ~p~n", [N, alert(Error)])
    end,
    serve(L, N + 1);
serve(_, _) ->
    io:format("server: too many connections~n"),
    halt().

echo(S, Total) ->
    case ssl:recv(S, 0, ?TIMEOUT_MS) of
        {ok, Data} ->
            ok = ssl:send(S, Data),
            echo(S, Total + byte_size(Data));
        {error, closed} ->
            ssl:close(S),
            {Total, closed};
        Other ->
            {Total, alert(Other)}
    end.

%% [PortFile, Version]
client([PortFile, Vsn]) ->
    {ok, Text} = file:read_file(PortFile),
    Port = binary_to_integer(Text),
    quiet_alerts(),
    {ok, _} = application:ensure_all_started(ssl),
    Conf = interop_certs:client_config(PortFile),
    Opts = [binary, {active, false}, {versions, [version(Vsn)]}, {verify, verify_peer},
            {server_name_indication, interop_certs:server_name()} | Conf],
    Connect = fun(O) -> ssl:connect({127, 0, 0, 1}, Port, O, ?TIMEOUT_MS) end,

    {ok, S1} = Connect(Opts),
    io:format("passive: ~s~n", [describe(S1)]),
    io:format("passive: ~p~n", [[round_trip(S1, payload(Size)) || Size <- [1, 100, 16384, 70000]]]),
    ok = ssl:close(S1),

    {ok, S2} = Connect(Opts),
    Bulk = payload(?BULK_BYTES),
    ok = ssl:send(S2, Bulk),
    ok = ssl:setopts(S2, [{active, once}]),
    Back = active_once(S2, ?BULK_BYTES, []),
    io:format("active once: ~w bytes back, equal: ~p~n", [byte_size(Back), Back =:= Bulk]),
    ok = ssl:close(S2),

    {ok, S3} = Connect(Opts),
    io:format("before rekey: ~p~n", [round_trip(S3, payload(5000))]),
    io:format("rekey: ~p~n", [rekey(S3, Vsn)]),
    io:format("after rekey: ~p~n", [round_trip(S3, payload(5000))]),
    ok = ssl:close(S3),

    NoCert = [O || O <- Opts, element(1, O) =/= cert, element(1, O) =/= key],
    io:format("no client certificate: ~p~n", [rejected(Connect(NoCert))]),
    #{cert := OtherRoot} = public_key:pkix_test_root_cert("other root",
                                                          [{key, {namedCurve, secp256r1}}]),
    WrongCA = [{cacerts, [OtherRoot]} | [O || O <- Opts, element(1, O) =/= cacerts]],
    io:format("untrusted server CA: ~p~n", [rejected(Connect(WrongCA))]),

    {ok, S4} = Connect(Opts),
    ok = ssl:send(S4, <<"stop">>),
    io:format("stop: ~p~n", [alert(ssl:recv(S4, 0, ?TIMEOUT_MS))]),
    io:format("client done~n"),
    halt().

%% ssl reports each alert it sends or gets as a notice, with a time stamp: the alerts are
%% printed by the cases instead, and warnings and errors still show.
quiet_alerts() -> ok = logger:set_primary_config(level, warning).

version("1.2") -> 'tlsv1.2';
version("1.3") -> 'tlsv1.3'.

%% Deterministic bytes (no randomness: both runs must print the same).
payload(N) -> list_to_binary([I * 7 band 255 || I <- lists:seq(1, N)]).

round_trip(S, Data) ->
    ok = ssl:send(S, Data),
    case ssl:recv(S, byte_size(Data), ?TIMEOUT_MS) of
        {ok, Data} -> {byte_size(Data), ok};
        {ok, Other} -> {byte_size(Data), differs, byte_size(Other)};
        Error -> {byte_size(Data), alert(Error)}
    end.

active_once(_, 0, Acc) -> iolist_to_binary(lists:reverse(Acc));
active_once(S, Left, Acc) ->
    receive
        {ssl, S, Data} ->
            ok = ssl:setopts(S, [{active, once}]),
            active_once(S, Left - byte_size(Data), [Data | Acc]);
        {ssl_closed, S} -> {closed, Left};
        {ssl_error, S, E} -> {error, alert({error, E})}
    after ?TIMEOUT_MS -> {timeout, Left}
    end.

rekey(S, "1.3") -> ssl:update_keys(S, write);
rekey(S, "1.2") -> ssl:renegotiate(S).

%% In TLS 1.3 the client's handshake ends before the server has checked the client's
%% certificate, so a rejection may come at the first recv instead of at connect, as the server's
%% alert or, when the server's close overtakes it (on erl too), as the close.
rejected({ok, S}) ->
    R = ssl:recv(S, 0, ?TIMEOUT_MS),
    ssl:close(S),
    case alert(R) of
        closed -> {after_connect, alert_or_closed};
        {tls_alert, certificate_required} -> {after_connect, alert_or_closed};
        Other -> {after_connect, Other}
    end;
rejected(Error) ->
    alert(Error).

describe(S) ->
    {ok, Info} = ssl:connection_information(S, [protocol, selected_cipher_suite]),
    {ok, Der} = ssl:peercert(S),
    io_lib:format("~p ~p peer ~p", [proplists:get_value(protocol, Info),
                                    proplists:get_value(selected_cipher_suite, Info),
                                    common_name(Der)]).

common_name(Der) ->
    %% OTPCertificate's tbsCertificate, whose 6th field is the subject.
    {rdnSequence, Rdns} = element(7, element(2, public_key:pkix_decode_cert(Der, otp))),
    hd([V || [{'AttributeTypeAndValue', {2, 5, 4, 3}, {_, V}}] <- Rdns]).

%% An alert's description, without its text (which names the side that saw it).
alert({error, {tls_alert, {Description, _}}}) -> {tls_alert, Description};
alert({error, closed}) -> closed;
alert(Other) -> Other.
