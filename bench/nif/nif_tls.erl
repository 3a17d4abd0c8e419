%% TLS echo throughput over loopback (issue 24): ssl on both ends in one VM, Conns
%% connections, {packet, 4}, passive receive; each client sends a Size-byte message, waits
%% for its echo and compares it with what it sent, Rounds times. The certificates (ECDSA
%% P-256, a root and a peer for each side) are made at run time by public_key:pkix_test_data/1;
%% the client verifies the server's chain. Certificate generation, handshakes and connection
%% set-up are before the clock starts; the time covers the echo rounds of all clients at once.
%% Rate: MB (10^6 bytes) of payload echoed per second. The check line (the protocol and
%% cipher negotiated, the echoes that came back right) is the same on every VM.
-module(nif_tls).
-export([run/3]).

%% No receive waits longer than this: a lost message fails the run instead of hanging it.
-define(WAIT_MS, 30000).

run(Size, Conns, Rounds) ->
    {ok, _} = application:ensure_all_started(ssl),
    Ec = [{key, {namedCurve, secp256r1}}],
    Chain = #{root => Ec, intermediates => [], peer => Ec},
    #{server_config := ServerOpts, client_config := ClientOpts} =
        public_key:pkix_test_data(#{server_chain => Chain, client_chain => Chain}),
    {ok, L} = ssl:listen(0, ServerOpts ++ [binary, {packet, 4}, {active, false}, {reuseaddr, true},
                                           {ip, {127, 0, 0, 1}}, {backlog, 1024}]),
    {ok, {_, Port}} = ssl:sockname(L),
    spawn_link(fun() -> accept_loop(L, Conns) end),
    Parent = self(),
    Payload = payload(Size),
    Connect = ClientOpts ++ [{verify, verify_peer}, {server_name_indication, disable},
                             binary, {packet, 4}, {active, false}],
    Clients = [spawn_link(fun() -> client(Parent, Connect, Port, Payload, Rounds) end)
               || _ <- lists:seq(1, Conns)],
    Infos = [receive {connected, C, Info} -> Info after ?WAIT_MS -> exit(connect_timeout) end || C <- Clients],
    T0 = erlang:monotonic_time(microsecond),
    [C ! go || C <- Clients],
    Echoed = [receive {done, C, N} -> N after ?WAIT_MS * 4 -> exit(echo_timeout) end || C <- Clients],
    T1 = erlang:monotonic_time(microsecond),
    ssl:close(L),
    io:format("check nif_tls size ~p connections ~p rounds ~p negotiated ~w echoed_ok ~p~n",
              [Size, Conns, Rounds, lists:usort(Infos), lists:sum(Echoed)]),
    io:format("rate ~.2f MB/s~n", [Size * Rounds * Conns / ((T1 - T0) / 1.0e6) / 1.0e6]).

payload(Size) ->
    binary:part(binary:copy(<< <<I>> || I <- lists:seq(0, 255) >>, Size div 256 + 1), 0, Size).

accept_loop(_, 0) -> ok;
accept_loop(L, N) ->
    {ok, T} = ssl:transport_accept(L, ?WAIT_MS),
    Pid = spawn(fun() -> receive go -> ok end, {ok, S} = ssl:handshake(T, ?WAIT_MS), echo(S) end),
    ok = ssl:controlling_process(T, Pid),
    Pid ! go,
    accept_loop(L, N - 1).

echo(S) ->
    case ssl:recv(S, 0, ?WAIT_MS * 4) of
        {ok, Data} -> ok = ssl:send(S, Data), echo(S);
        {error, _} -> ssl:close(S)
    end.

client(Parent, Opts, Port, Payload, Rounds) ->
    {ok, S} = ssl:connect({127, 0, 0, 1}, Port, Opts, ?WAIT_MS),
    {ok, Info} = ssl:connection_information(S, [protocol, selected_cipher_suite]),
    Parent ! {connected, self(), Info},
    receive go -> ok end,
    Ok = rounds(S, Payload, Rounds, 0),
    ssl:close(S),
    Parent ! {done, self(), Ok}.

%% Returns how many echoes came back equal to the payload.
rounds(_, _, 0, Ok) -> Ok;
rounds(S, Payload, N, Ok) ->
    ok = ssl:send(S, Payload),
    case ssl:recv(S, 0, ?WAIT_MS) of
        {ok, Payload} -> rounds(S, Payload, N - 1, Ok + 1);
        {ok, _Other} -> rounds(S, Payload, N - 1, Ok);
        {error, Reason} -> exit({no_echo, Reason})
    end.
