%% HTTP/1.1 request rate (issue 23) against two servers in the VM under test:
%%   gen_tcp  a small server written here on gen_tcp with {packet, http_bin}: a process per
%%            connection reads the request line and headers, answers a fixed 13-byte body,
%%            keeps the connection open;
%%   httpd    inets' httpd serving a 13-byte file (mod_alias, mod_get), keep-alive on.
%% Both are driven by the same client, also on gen_tcp: Conns keep-alive connections, each
%% sending Requests GETs one after the other, reading the response head with
%% {packet, http_bin} and the body by its Content-Length in raw mode (as httpc does). The time
%% covers the requests of all connections at once, connections made beforehand.
%% Rate: answered requests per second. bench/net_run.sh calls run/3.
-module(net_http).
-export([run/3]).

-define(WAIT_MS, 30000).
-define(BODY, <<"Hello, world!">>).

run(Server, Conns, Requests) ->
    {Port, Path, Stop} = start_server(Server),
    Parent = self(),
    Clients = [spawn_link(fun() -> client(Parent, Port, Path, Requests) end)
               || _ <- lists:seq(1, Conns)],
    [receive {connected, C} -> ok after ?WAIT_MS -> exit(connect_timeout) end || C <- Clients],
    T0 = erlang:monotonic_time(microsecond),
    [C ! go || C <- Clients],
    Answered = [receive {done, C, N} -> N after ?WAIT_MS * 4 -> exit(request_timeout) end
                || C <- Clients],
    T1 = erlang:monotonic_time(microsecond),
    Stop(),
    N = lists:sum(Answered),
    io:format("check net_http server ~p connections ~p requests ~p answered_ok ~p~n",
              [Server, Conns, Requests, N]),
    io:format("rate ~.1f requests/s~n", [N / ((T1 - T0) / 1.0e6)]).

%% {Port, Path, StopFun}
start_server(gen_tcp) ->
    {ok, L} = gen_tcp:listen(0, [binary, {packet, http_bin}, {active, false},
                                 {reuseaddr, true}, {ip, {127, 0, 0, 1}}, {backlog, 1024}]),
    {ok, Port} = inet:port(L),
    Acceptor = spawn(fun() -> accept_loop(L) end),
    {Port, "/", fun() -> exit(Acceptor, kill), gen_tcp:close(L) end};
start_server(httpd) ->
    Root = filename:join(temp_dir(), "net_http_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Root, "x")),
    ok = file:write_file(filename:join(Root, "hello.txt"), ?BODY),
    ok = inets:start(),
    {ok, Pid} = inets:start(httpd, [{port, 0}, {server_name, "localhost"},
                                    {bind_address, {127, 0, 0, 1}},
                                    {server_root, Root}, {document_root, Root},
                                    {modules, [mod_alias, mod_get]},
                                    %% httpd writes the head and the body apart: without
                                    %% nodelay, Nagle's algorithm holds the body until the
                                    %% client's delayed ACK (40 ms), 221 requests/s on erl.
                                    {socket_type, {ip_comm, [{nodelay, true}]}},
                                    {keep_alive, true}, {max_keep_alive_request, 1000000},
                                    {max_clients, 1000}]),
    [{port, Port}] = httpd:info(Pid, [port]),
    {Port, "/hello.txt",
     fun() ->
             inets:stop(httpd, Pid),
             file:delete(filename:join(Root, "hello.txt")),
             file:del_dir(Root)
     end}.

temp_dir() -> case os:getenv("TMPDIR") of false -> "/tmp"; D -> D end.

accept_loop(L) ->
    {ok, S} = gen_tcp:accept(L),
    Pid = spawn(fun() -> receive go -> ok end, serve(S) end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    accept_loop(L).

%% One request per round: the request line, headers up to http_eoh (only Connection matters
%% here; GETs carry no body), then the answer.
serve(S) ->
    case gen_tcp:recv(S, 0, ?WAIT_MS) of
        {ok, {http_request, _Method, _Uri, _Vsn}} ->
            Close = headers(S, false),
            ok = gen_tcp:send(S, ["HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                                  "Content-Length: ", integer_to_list(byte_size(?BODY)),
                                  "\r\n\r\n", ?BODY]),
            case Close of true -> gen_tcp:close(S); false -> serve(S) end;
        _ ->
            gen_tcp:close(S)
    end.

headers(S, Close) ->
    case gen_tcp:recv(S, 0, ?WAIT_MS) of
        {ok, {http_header, _, 'Connection', _, V}} -> headers(S, Close orelse is_close(V));
        {ok, {http_header, _, _, _, _}} -> headers(S, Close);
        {ok, http_eoh} -> Close;
        _ -> true
    end.

is_close(V) -> string:lowercase(V) =:= <<"close">>.

client(Parent, Port, Path, Requests) ->
    {ok, S} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {packet, http_bin},
                                                     {active, false}], ?WAIT_MS),
    Parent ! {connected, self()},
    receive go -> ok end,
    Request = ["GET ", Path, " HTTP/1.1\r\nHost: localhost:", integer_to_list(Port),
               "\r\nUser-Agent: net_http\r\n\r\n"],
    Ok = requests(S, Request, Requests, 0),
    gen_tcp:close(S),
    Parent ! {done, self(), Ok}.

%% Returns how many requests were answered 200 with the expected body.
requests(_, _, 0, Ok) -> Ok;
requests(S, Request, N, Ok) ->
    ok = gen_tcp:send(S, Request),
    {ok, {http_response, _, Status, _}} = gen_tcp:recv(S, 0, ?WAIT_MS),
    Length = content_length(S, 0),
    ok = inet:setopts(S, [{packet, raw}]),
    {ok, Body} = gen_tcp:recv(S, Length, ?WAIT_MS),
    ok = inet:setopts(S, [{packet, http_bin}]),
    requests(S, Request, N - 1, case {Status, Body} of {200, ?BODY} -> Ok + 1; _ -> Ok end).

content_length(S, Length) ->
    case gen_tcp:recv(S, 0, ?WAIT_MS) of
        {ok, {http_header, _, 'Content-Length', _, V}} ->
            content_length(S, binary_to_integer(V));
        {ok, {http_header, _, _, _, _}} -> content_length(S, Length);
        {ok, http_eoh} -> Length
    end.
