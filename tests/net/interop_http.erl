%% HTTP between two VMs (issue 23): inets' httpd in one VM (server/1), inets' httpc in the
%% other (client/1). The server serves a document root of two files (a small page and
%% 300,000 bytes) and two ESI functions of this module: echo/3 (answers the method, query and
%% body it got) and stop/3 (the client's last request: the server halts after answering).
%% The client GETs, HEADs, POSTs, asks for a missing page, repeats a GET over its kept-alive
%% connection, and prints status, the headers that do not depend on the time or the run
%% (content-type, content-length) and the bodies (large ones by size and digest).
%% With a last argument "https" (issue 24), the same runs over TLS: httpd's socket_type is ssl
%% with interop_certs' certificates, and both sides verify the other's.
%% tests/net/interop.sh compares the output with an all-erl run.
-module(interop_http).
-export([server/1, client/1, echo/3, stop/3]).

-define(TIMEOUT_MS, 10000).

%% [PortFile, DocRoot] or [PortFile, DocRoot, "https"]: DocRoot is an empty directory the
%% script made.
server([PortFile, Root]) ->
    server(PortFile, Root, ip_comm);
server([PortFile, Root, "https"]) ->
    ok = logger:set_primary_config(level, warning),   % ssl's alerts, time-stamped notices
    {ok, _} = application:ensure_all_started(ssl),
    Conf = interop_certs:make(PortFile),
    server(PortFile, Root, {ssl, [{verify, verify_peer}, {fail_if_no_peer_cert, true} | Conf]}).

server(PortFile, Root, SocketType) ->
    ok = file:write_file(filename:join(Root, "index.html"),
                         <<"<html><body>interop</body></html>\n">>),
    ok = file:write_file(filename:join(Root, "big.bin"),
                         list_to_binary([I * 31 band 255 || I <- lists:seq(1, 300000)])),
    ok = inets:start(),
    {ok, Pid} = inets:start(httpd, [{port, 0}, {server_name, "localhost"},
                                    {socket_type, SocketType},
                                    {bind_address, {127, 0, 0, 1}},
                                    {server_root, Root}, {document_root, Root},
                                    {modules, [mod_alias, mod_esi, mod_get, mod_head]},
                                    {erl_script_alias, {"/esi", [interop_http]}},
                                    {mime_types, [{"html", "text/html"},
                                                  {"bin", "application/octet-stream"}]}]),
    [{port, Port}] = httpd:info(Pid, [port]),
    register(interop_http_server, self()),
    ok = file:write_file(PortFile ++ ".tmp", integer_to_list(Port)),
    ok = file:rename(PortFile ++ ".tmp", PortFile),
    receive stop -> ok after 60000 -> io:format("server: no stop request~n") end,
    timer:sleep(200),   % let httpd finish the stop request's answer
    io:format("server done~n"),
    halt().

%% ESI: mod_esi calls Module:Function(SessionID, Env, Input).
echo(SessionID, Env, Input) ->
    Method = proplists:get_value(request_method, Env),
    Query = proplists:get_value(query_string, Env, ""),
    mod_esi:deliver(SessionID, ["Content-Type: text/plain\r\n\r\n",
                                io_lib:format("method=~s query=~s input=~s", [Method, Query, Input])]).

stop(SessionID, _Env, _Input) ->
    mod_esi:deliver(SessionID, "Content-Type: text/plain\r\n\r\nstopping"),
    interop_http_server ! stop.

%% [PortFile] or [PortFile, "https"]
client([PortFile]) ->
    client(PortFile, "http", []);
client([PortFile, "https"]) ->
    ok = logger:set_primary_config(level, warning),
    {ok, _} = application:ensure_all_started(ssl),
    SslOpts = [{verify, verify_peer},
               {server_name_indication, interop_certs:server_name()}
               | interop_certs:client_config(PortFile)],
    client(PortFile, "https", [{ssl, SslOpts}]).

client(PortFile, Scheme, HttpOpts) ->
    put(http_options, HttpOpts),
    {ok, Text} = file:read_file(PortFile),
    Base = Scheme ++ "://127.0.0.1:" ++ binary_to_list(Text),
    ok = inets:start(),
    %% One connection per request, except the 20 GETs at the end, which share one kept
    %% alive: httpc reuses a kept-alive connection that httpd may be closing (after a HEAD or
    %% an error), and then answers {error, socket_closed_remotely}, on erl too (1 run in 10).
    Close = [{"connection", "close"}],
    Get = fun(Path) -> request(get, {Base ++ Path, Close}) end,
    show("GET /index.html", Get("/index.html")),
    show("GET /big.bin", Get("/big.bin")),
    show("HEAD /index.html", request(head, {Base ++ "/index.html", Close})),
    show("GET /missing.html", Get("/missing.html")),
    show("GET /esi/interop_http:echo?a=1&b=two", Get("/esi/interop_http:echo?a=1&b=two")),
    show("POST /esi/interop_http:echo",
         request(post, {Base ++ "/esi/interop_http:echo", Close, "text/plain", "posted body"})),
    Repeats = [request(get, {Base ++ "/index.html", []}) || _ <- lists:seq(1, 20)],
    io:format("20 more GETs, statuses: ~w~n", [lists:usort([status(R) || R <- Repeats])]),
    show("GET /esi/interop_http:stop", Get("/esi/interop_http:stop")),
    io:format("client done~n"),
    halt().

request(Method, Request) ->
    httpc:request(Method, Request, [{timeout, ?TIMEOUT_MS}, {connect_timeout, ?TIMEOUT_MS}
                                    | get(http_options)],
                  [{body_format, binary}]).

status({ok, {{_, Status, _}, _, _}}) -> Status;
status(Other) -> Other.

show(What, {ok, {{Vsn, Status, Reason}, Headers, Body}}) ->
    Kept = [{K, V} || {K, V} <- Headers, lists:member(K, ["content-type", "content-length"])],
    io:format("~s: ~s ~p ~s~n  ~p~n  ~p~n",
              [What, Vsn, Status, Reason, lists:sort(Kept), body(Body)]);
show(What, Other) ->
    io:format("~s: ~p~n", [What, Other]).

%% Long bodies by size and digest.
body(B) when byte_size(B) > 100 -> {bytes, byte_size(B), binary:encode_hex(erlang:md5(B))};
body(B) -> B.
