%% A small OTP service under load (issue 29): eight client processes call one gen_server
%% (gen_server:call) that keeps its state in a public ETS table; a supervisor restarts the
%% server when a request crashes it. Clients read their own keys straight from the table
%% (ets:lookup, the usual read path of such services) and write through the server (insert,
%% update_counter), now and then ask for a count of their keys (ets:select_count over the
%% table), and every CRASH_EVERY-th request of a client is a poison request that makes the
%% server raise: the caller sees the exit, the supervisor starts a new server on the same
%% table, and requests caught in the dead server's mailbox are sent again.
%%
%% Deterministic output on every VM and any number of schedulers: each client owns its keys,
%% so what it reads back depends only on its own requests; shared counters are only
%% incremented (commutative); a request is retried only when the server did not handle it
%% (the call failed because the server was gone or died of another client's poison request,
%% which it handled before ours, and the replies it sent before dying arrive before the DOWN).
%%
%% main/0 is the full size, quick/0 the CI size; each prints one checksum line.
%% The server's crash reports are muted for the run (logger level none, restored after): the
%% output must be the checksum line alone, and erl and beamvm format reports differently.
-module(svc_genserver_ets).
-behaviour(gen_server).
%% Also the supervisor callback module (init({sup, Tab})); one -behaviour line, as both need init/1.
-export([main/0, quick/0, run/2]).
-export([start_link_server/1, init/1, handle_call/3, handle_cast/2]).

-define(CLIENTS, 8).
-define(KEYS, 256).          % keys per client
-define(CRASH_EVERY, 997).   % every 997th request of a client is a poison request
-define(COUNT_EVERY, 499).   % every 499th: a select_count over the whole table
-define(SERVER, svc_genserver_ets_server).

main() -> run(?CLIENTS, 25000).
quick() -> run(?CLIENTS, 2000).

run(Clients, Requests) ->
    #{level := Level} = logger:get_primary_config(),
    ok = logger:set_primary_config(level, none),
    Trap = process_flag(trap_exit, true),
    Tab = ets:new(svc_state, [set, public, {read_concurrency, true}, {write_concurrency, true}]),
    ets:insert(Tab, [{{total, requests}, 0}, {{total, restarts}, 0}]),
    {ok, Sup} = supervisor:start_link(?MODULE, {sup, Tab}),
    Self = self(),
    Pids = [spawn_link(fun() -> Self ! {done, self(), client(C, Requests, Tab)} end) || C <- lists:seq(1, Clients)],
    Sums = [receive {done, P, S} -> S end || P <- Pids],
    exit(Sup, shutdown),
    receive {'EXIT', Sup, _} -> ok end,
    [receive {'EXIT', P, _} -> ok end || P <- Pids],
    process_flag(trap_exit, Trap),
    [{_, Reqs}] = ets:lookup(Tab, {total, requests}),
    [{_, Restarts}] = ets:lookup(Tab, {total, restarts}),
    Size = ets:info(Tab, size),
    Table = ets:foldl(fun({{C, K}, V}, A) when is_integer(C) -> (A + C * 7 + K * 13 + V) rem 1000000007;
                         (_, A) -> A end, 0, Tab),
    ets:delete(Tab),
    ok = logger:set_primary_config(level, Level),
    erlang:display({svc_genserver_ets, Clients, Requests, lists:sum(Sums), Reqs, Restarts, Size, Table}).

%% ---- client ----

client(C, N, Tab) -> client(C, 1, N, Tab, 0).

client(_, I, N, _, Acc) when I > N -> Acc;
client(C, I, N, Tab, Acc) ->
    K = (I * 31 + C) rem ?KEYS,
    R = if
            I rem ?CRASH_EVERY =:= 0 -> poison(C, I);
            I rem ?COUNT_EVERY =:= 0 -> call({count, C});
            I rem 3 =:= 0 -> call({incr, C, K, I rem 7 + 1});
            I rem 3 =:= 1 -> call({put, C, K, I});
            true -> case ets:lookup(Tab, {C, K}) of [{_, V}] -> V; [] -> 0 end
        end,
    client(C, I + 1, N, Tab, (Acc * 17 + R) rem 1000000007).

%% A call the server did not handle (gone, or it died of another request first) is sent again.
call(Req) ->
    try gen_server:call(?SERVER, Req)
    catch exit:_ -> erlang:yield(), call(Req)
    end.

%% The poison request: 1 once the server has died of it, which the supervisor then repairs.
poison(C, I) ->
    try gen_server:call(?SERVER, {crash, C, I}) of
        Unexpected -> error({survived, Unexpected})
    catch exit:{{{boom, C, I}, _}, _} -> 1;
          exit:_ -> erlang:yield(), poison(C, I)
    end.

%% ---- supervisor ----

init({sup, Tab}) ->
    {ok, {#{strategy => one_for_one, intensity => 1000000, period => 1},
          [#{id => server, start => {?MODULE, start_link_server, [Tab]}, restart => permanent}]}};
%% ---- gen_server ----
init({server, Tab}) ->
    ets:update_counter(Tab, {total, restarts}, 1),
    {ok, Tab}.

start_link_server(Tab) -> gen_server:start_link({local, ?SERVER}, ?MODULE, {server, Tab}, []).

handle_call(Req, _From, Tab) ->
    ets:update_counter(Tab, {total, requests}, 1),
    {reply, handle(Req, Tab), Tab}.

handle_cast(_, Tab) -> {noreply, Tab}.

handle({put, C, K, V}, Tab) ->
    ets:insert(Tab, {{C, K}, V}),
    V;
handle({incr, C, K, D}, Tab) ->
    ets:update_counter(Tab, {C, K}, D, {{C, K}, 0});
handle({count, C}, Tab) ->
    ets:select_count(Tab, [{{{C, '_'}, '_'}, [], [true]}]);
handle({crash, C, I}, _Tab) ->
    error({boom, C, I}).
