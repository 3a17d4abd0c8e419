%% The `global`-registered gen_server of the failover case (tests/dist/cluster.sh failover),
%% and its standby. Every node runs a dist_gsup supervisor with one child, started by
%% start_link/0: the node whose supervisor registers the global name first runs the server;
%% on the others the child is a standby that monitors the server. When the server's node
%% dies the standbys exit, their supervisors restart them, and the restarted children race
%% for the name again; global's lock lets exactly one win, the rest become standbys again.
-module(dist_gserver).
-behaviour(gen_server).
-export([start_link/0, where/0, call/1]).
-export([init/1, handle_call/3, handle_cast/2]).
-export([standby/1]).

-define(NAME, dist_gserver).
-define(WAIT_CLEAN_MS, 10000).

start_link() ->
    case gen_server:start_link({global, ?NAME}, ?MODULE, [], []) of
        {ok, Pid} -> {ok, Pid};
        {error, {already_started, Server}} -> {ok, proc_lib:spawn_link(?MODULE, standby, [Server])}
    end.

%% The node the server runs on, as seen from this node.
where() -> call(where).

call(Req) -> gen_server:call({global, ?NAME}, Req, 5000).

init([]) -> {ok, #{calls => 0}}.

handle_call(where, _From, S = #{calls := N}) -> {reply, node(), S#{calls := N + 1}};
handle_call(ping, _From, S) -> {reply, pong, S}.

handle_cast(_, S) -> {noreply, S}.

%% A standby exits when the server does, once global no longer names the dead server (on a
%% nodedown the monitor's 'DOWN' may come before global has removed the name; restarting
%% before that would only find the dead pid again).
standby(Server) ->
    Ref = monitor(process, Server),
    receive {'DOWN', Ref, process, Server, Reason} -> ok end,
    wait_name_not(Server, erlang:monotonic_time(millisecond) + ?WAIT_CLEAN_MS),
    exit({server_down, Reason}).

wait_name_not(Server, Deadline) ->
    case global:whereis_name(?NAME) of
        Server ->
            case erlang:monotonic_time(millisecond) > Deadline of
                true -> ok;
                false -> timer:sleep(10), wait_name_not(Server, Deadline)
            end;
        _ -> ok
    end.
