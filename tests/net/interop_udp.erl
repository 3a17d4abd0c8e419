%% UDP between two VMs (issue 23): server/1 in one VM answers every datagram from client/1 in
%% the other with the datagram reversed, until the client's "stop". The client sends
%% datagrams of 0 to 65,507 bytes (IPv4's largest) from a binary-mode socket in passive mode,
%% then from one in {active, once}, then from a list-mode socket, then over ::1, and prints
%% each answer (long ones by size and digest) and the address it came from; the server
%% prints what it received and from which address. Ports differ from run to run and are not
%% printed. Every wait is bounded (RECV_MS); tests/net/interop.sh compares both outputs with
%% an all-erl run.
-module(interop_udp).
-export([server/1, client/1]).

-define(RECV_MS, 5000).
-define(LOCAL4, {127, 0, 0, 1}).
-define(LOCAL6, {0, 0, 0, 0, 0, 0, 0, 1}).

sizes() -> [0, 1, 100, 1472, 8000, 65507].

payload(N) -> list_to_binary([(I * 13 + N) band 255 || I <- lists:seq(1, N)]).

%% [PortFile]: one socket on 127.0.0.1 in passive mode, one on ::1 in {active, true}.
server([PortFile]) ->
    {ok, S4} = gen_udp:open(0, [binary, {active, false}, {ip, ?LOCAL4}, {recbuf, 1 bsl 18}]),
    {ok, S6} = gen_udp:open(0, [binary, inet6, {active, true}, {ip, ?LOCAL6}]),
    {ok, P4} = inet:port(S4),
    {ok, P6} = inet:port(S6),
    ok = file:write_file(PortFile ++ ".tmp", io_lib:format("~p ~p", [P4, P6])),
    ok = file:rename(PortFile ++ ".tmp", PortFile),
    serve(S4, S6),
    io:format("server done~n"),
    halt().

%% Alternates: a passive recv on the IPv4 socket, then any {udp, ...} message of the IPv6 one.
serve(S4, S6) ->
    Got = case gen_udp:recv(S4, 0, 100) of
              {error, timeout} ->
                  receive {udp, S6, Ip, Port, D} -> {S6, Ip, Port, D}
                  after 100 -> none
                  end;
              {ok, {Ip, Port, D}} -> {S4, Ip, Port, D};
              Error -> {error, Error}
          end,
    case Got of
        none -> serve(S4, S6);
        {error, E} -> io:format("server recv: ~p~n", [E]);
        {_, Ip1, _, <<"stop">>} -> io:format("server stop from ~p~n", [Ip1]);
        {Sock, Ip1, Port1, Data} ->
            io:format("server got ~p from ~p~n", [interop_frames:show(Data), Ip1]),
            ok = gen_udp:send(Sock, Ip1, Port1, reverse(Data)),
            serve(S4, S6)
    end.

reverse(B) -> list_to_binary(lists:reverse(binary_to_list(B))).

%% [PortFile]
client([PortFile]) ->
    {ok, Text} = file:read_file(PortFile),
    [P4, P6] = [binary_to_integer(T) || T <- binary:split(Text, <<" ">>)],
    {ok, A} = gen_udp:open(0, [binary, {active, false}, {ip, ?LOCAL4}, {recbuf, 1 bsl 18}]),
    [ask(passive, A, ?LOCAL4, P4, payload(N)) || N <- sizes()],
    {ok, B} = gen_udp:open(0, [binary, {active, false}, {ip, ?LOCAL4}, {recbuf, 1 bsl 18}]),
    [ask(once, B, ?LOCAL4, P4, payload(N)) || N <- sizes()],
    {ok, C} = gen_udp:open(0, [list, {active, false}]),
    ask(passive, C, ?LOCAL4, P4, "a list"),
    {ok, D} = gen_udp:open(0, [binary, inet6, {active, false}, {ip, ?LOCAL6}]),
    %% The ::1 server socket keeps its default receive buffer: erl delivers the 3,000-byte
    %% datagram cut to the buffer's size (1,460 bytes), and so must the other VM.
    [ask(passive, D, ?LOCAL6, P6, payload(N)) || N <- [0, 10, 3000]],
    ok = gen_udp:send(A, ?LOCAL4, P4, <<"stop">>),
    [gen_udp:close(S) || S <- [A, B, C, D]],
    io:format("client done~n"),
    halt().

ask(Mode, S, Ip, Port, Data) ->
    ok = gen_udp:send(S, Ip, Port, Data),
    Answer = case Mode of
                 passive ->
                     case gen_udp:recv(S, 0, ?RECV_MS) of
                         {ok, {From, Port, A}} -> {From, A};
                         Other -> Other
                     end;
                 once ->
                     ok = inet:setopts(S, [{active, once}]),
                     receive {udp, S, From, Port, A} -> {From, A}
                     after ?RECV_MS -> {error, timeout}
                     end
             end,
    io:format("client ~p sent ~p answer ~p~n",
              [Mode, size_of(Data), interop_frames:show(Answer)]).

size_of(D) when is_binary(D) -> byte_size(D);
size_of(D) -> length(D).
