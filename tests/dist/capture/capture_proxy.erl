%% A TCP proxy that records one distribution connection (run on a plain erl, no distribution):
%%   erl -noshell -s capture_proxy start ListenPort TargetPort OutDir
%% accepts one connection on 127.0.0.1:ListenPort, connects to 127.0.0.1:TargetPort, relays both
%% ways, and when either side closes writes OutDir/a_to_b.dist.gz and OutDir/b_to_a.dist.gz: the
%% packets after the handshake exactly as on the wire (4-byte length, packet), gzip-compressed.
%% The handshake (2-byte frames) ends with the initiator's challenge reply ('r') one way and the
%% acceptor's challenge ack ('a') the other; net_kernel switches to 4-byte frames after them.
-module(capture_proxy).
-export([start/1]).

start([Listen, Target, OutDir]) ->
    {ok, L} = gen_tcp:listen(list_to_integer(atom_to_list(Listen)),
                             [binary, {active, false}, {ip, {127, 0, 0, 1}}, {reuseaddr, true}]),
    {ok, A} = gen_tcp:accept(L, 60000),
    {ok, B} = gen_tcp:connect({127, 0, 0, 1}, list_to_integer(atom_to_list(Target)),
                              [binary, {active, false}], 10000),
    Self = self(),
    spawn_link(fun() -> relay(A, B, Self, a_to_b, []) end),
    spawn_link(fun() -> relay(B, A, Self, b_to_a, []) end),
    Streams = [receive {done, Dir, Bytes} -> {Dir, Bytes} after 120000 -> exit(timeout) end
               || _ <- [1, 2]],
    [write(OutDir, Dir, Bytes) || {Dir, Bytes} <- Streams],
    halt(0).

relay(From, To, Parent, Dir, Acc) ->
    case gen_tcp:recv(From, 0) of
        {ok, Data} ->
            %% Reading slowly keeps the sender's distribution queue busy, so erl suspends a
            %% process in the middle of a fragmented message and another one's fragments get
            %% in between (erts interleaves fragments of different sequences only then).
            timer:sleep(2),
            _ = gen_tcp:send(To, Data),
            relay(From, To, Parent, Dir, [Data | Acc]);
        {error, _} ->
            gen_tcp:close(To),
            Parent ! {done, Dir, iolist_to_binary(lists:reverse(Acc))}
    end.

write(OutDir, Dir, Bytes) ->
    Last = case Dir of a_to_b -> $r; b_to_a -> $a end,
    Packets = skip_handshake(Bytes, Last),
    File = filename:join(atom_to_list(OutDir), atom_to_list(Dir) ++ ".dist.gz"),
    ok = file:write_file(File, zlib:gzip(Packets)),
    io:format("~s: ~w bytes of packets after the handshake~n", [File, byte_size(Packets)]).

skip_handshake(<<Len:16, Frame:Len/binary, Rest/binary>>, Last) ->
    case Frame of
        <<Last, _/binary>> -> Rest;
        _ -> skip_handshake(Rest, Last)
    end.
